/* Elementary functions for the workloads (ovmath.h): Newton iterations and series after
 * range reduction, double precision, soft-float. */
#include "ovmath.h"

double ov_fabs(double x) { return x < 0 ? -x : x; }

double ov_sqrt(double x)
{
    if (x <= 0)
        return 0;
    /* A first guess within a factor of two: halve the binary exponent. */
    double g = 1;
    double y = x;
    while (y > 4) {
        y /= 4;
        g *= 2;
    }
    while (y < 0.25) {
        y *= 4;
        g /= 2;
    }
    for (int i = 0; i < 6; i++) /* quadratic convergence: 6 steps from within 2x */
        g = 0.5 * (g + x / g);
    return g;
}

double ov_cbrt(double x)
{
    if (x == 0)
        return 0;
    int neg = x < 0;
    double a = neg ? -x : x;
    double g = 1, y = a;
    while (y > 8) {
        y /= 8;
        g *= 2;
    }
    while (y < 0.125) {
        y *= 8;
        g /= 2;
    }
    for (int i = 0; i < 8; i++)
        g = (2 * g + a / (g * g)) / 3;
    return neg ? -g : g;
}

/* cos and sin on [-pi/4, pi/4] by their Taylor series (error < 1e-16 there). */
static double cos_small(double x)
{
    double x2 = x * x, term = 1, sum = 1;
    for (int k = 1; k <= 10; k++) {
        term *= -x2 / ((2 * k - 1) * (2 * k));
        sum += term;
    }
    return sum;
}

static double sin_small(double x)
{
    double x2 = x * x, term = x, sum = x;
    for (int k = 1; k <= 10; k++) {
        term *= -x2 / ((2 * k) * (2 * k + 1));
        sum += term;
    }
    return sum;
}

/* x = q * pi/2 + r, |r| <= pi/4: the quadrant q (mod 4) and r. */
static double reduce(double x, int *q)
{
    double t = x / (OV_PI / 2);
    long n = (long)(t >= 0 ? t + 0.5 : t - 0.5);
    *q = (int)(n & 3);
    return x - (double)n * (OV_PI / 2);
}

double ov_cos(double x)
{
    int q;
    double r = reduce(x, &q);
    switch (q) {
    case 0: return cos_small(r);
    case 1: return -sin_small(r);
    case 2: return -cos_small(r);
    default: return sin_small(r);
    }
}

double ov_sin(double x)
{
    int q;
    double r = reduce(x, &q);
    switch (q) {
    case 0: return sin_small(r);
    case 1: return cos_small(r);
    case 2: return -sin_small(r);
    default: return -cos_small(r);
    }
}

/* atan for |x| <= 1 by halving the angle twice (|x| <= tan(pi/16)) then its series. */
static double atan_unit(double x)
{
    for (int i = 0; i < 2; i++)
        x = x / (1 + ov_sqrt(1 + x * x));
    double x2 = x * x, term = x, sum = x;
    for (int k = 1; k <= 12; k++) {
        term *= -x2;
        sum += term / (2 * k + 1);
    }
    return 4 * sum;
}

double ov_acos(double x)
{
    if (x >= 1)
        return 0;
    if (x <= -1)
        return OV_PI;
    /* acos x = 2 atan(sqrt((1 - x) / (1 + x))); the argument of atan may exceed 1 */
    double t = ov_sqrt((1 - x) / (1 + x));
    double a = t <= 1 ? atan_unit(t) : OV_PI / 2 - atan_unit(1 / t);
    return 2 * a;
}
