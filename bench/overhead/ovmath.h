/* The MiBench-like workloads of the OS-overhead benchmark (issue 12, seed paper 003): written
 * for this suite from what MiBench's basicmath and FFT compute. The core has no FPU: every
 * floating-point operation is libgcc's soft-float, as on any MCU of this class. No C library
 * is linked, so the few functions they need (square and cube roots, cosine, sine, arc
 * cosine) are here, good to about 1e-12 relative in double. */
#ifndef OVMATH_H
#define OVMATH_H

#include <stdint.h>

#define OV_PI 3.14159265358979323846

double ov_sqrt(double x);
double ov_cbrt(double x);
double ov_cos(double x);
double ov_sin(double x);
double ov_acos(double x);
double ov_fabs(double x);

/* basicmath: `scale` sets the number of cubic equations, integer square roots and angle
 * conversions. Returns the number of results that failed their check (0: all good) and
 * sets *checksum to a digest of the results. */
uint32_t ov_basicmath(unsigned scale, uint32_t *checksum);
/* FFT: `rounds` forward and inverse transforms of 256 points (sums of sinusoids, single
 * precision, as MiBench's). Returns the number of rounds whose inverse did not reproduce
 * the input within 1e-3 of its amplitude; *checksum as above. */
uint32_t ov_fft(unsigned rounds, uint32_t *checksum);

#endif
