/* FFT (after MiBench's): forward and inverse radix-2 FFTs of 256 single-precision points, the
 * input a sum of sinusoids of pseudo-random amplitude and frequency (a fixed seed). Each
 * round checks that the inverse transform gives the input back within 1e-3 of the largest
 * amplitude, and that the spectrum's largest bin is one of the sinusoids' frequencies. */
#include "ovmath.h"

#define N 256
#define WAVES 4

static float re[N], im[N], in[N], cos_t[N], sin_t[N];

static uint32_t lcg(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

static void transform(int inverse)
{
    for (unsigned i = 1, j = 0; i < N; i++) { /* bit-reversed order */
        unsigned bit = N >> 1;
        for (; j & bit; bit >>= 1)
            j ^= bit;
        j ^= bit;
        if (i < j) {
            float t = re[i];
            re[i] = re[j];
            re[j] = t;
            t = im[i];
            im[i] = im[j];
            im[j] = t;
        }
    }
    for (unsigned len = 2, step = N / 2; len <= N; len <<= 1, step >>= 1) {
        for (unsigned i = 0; i < N; i += len) {
            for (unsigned k = 0; k < len / 2; k++) {
                float wr = cos_t[k * step], wi = inverse ? sin_t[k * step] : -sin_t[k * step];
                unsigned a = i + k, b = a + len / 2;
                float xr = re[b] * wr - im[b] * wi, xi = re[b] * wi + im[b] * wr;
                re[b] = re[a] - xr;
                im[b] = im[a] - xi;
                re[a] += xr;
                im[a] += xi;
            }
        }
    }
    if (inverse)
        for (unsigned i = 0; i < N; i++) {
            re[i] /= N;
            im[i] /= N;
        }
}

uint32_t ov_fft(unsigned rounds, uint32_t *checksum)
{
    uint32_t bad = 0, h = 2166136261u, seed = 12345;
    for (unsigned k = 0; k < N; k++) {
        cos_t[k] = (float)ov_cos(2 * OV_PI * k / N);
        sin_t[k] = (float)ov_sin(2 * OV_PI * k / N);
    }
    for (unsigned r = 0; r < rounds; r++) {
        float amp[WAVES];
        unsigned freq[WAVES];
        float top = 0;
        for (unsigned w = 0; w < WAVES; w++) {
            amp[w] = (float)(lcg(&seed) % 1000) / 100.0f + 1.0f;
            freq[w] = 1 + lcg(&seed) % (N / 2 - 1);
            top = amp[w] > top ? amp[w] : top;
        }
        for (unsigned i = 0; i < N; i++) {
            float v = 0;
            for (unsigned w = 0; w < WAVES; w++)
                v += amp[w] * cos_t[(freq[w] * i) % N];
            in[i] = re[i] = v;
            im[i] = 0;
        }
        transform(0);
        unsigned peak = 1;
        float peak_mag = 0;
        for (unsigned i = 1; i < N / 2; i++) {
            float m = re[i] * re[i] + im[i] * im[i];
            if (m > peak_mag) {
                peak_mag = m;
                peak = i;
            }
            h = (h ^ (uint32_t)(int32_t)(m * 16)) * 16777619u;
        }
        int known = 0;
        for (unsigned w = 0; w < WAVES; w++)
            known |= freq[w] == peak;
        transform(1);
        float err = 0;
        for (unsigned i = 0; i < N; i++) {
            float e = re[i] - in[i];
            e = e < 0 ? -e : e;
            err = e > err ? e : err;
        }
        bad += !known || err > 1e-3f * top * WAVES;
    }
    *checksum = h;
    return bad;
}
