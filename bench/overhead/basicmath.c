/* basicmath (after MiBench's): cubic equations solved in closed form (the trigonometric
 * method for three real roots, Cardano's for one), integer square roots bit by bit, and
 * degree/radian conversions, over ranges of inputs. Every result is checked: each root
 * must make its cubic vanish (relative to the coefficients), each integer root r of n must
 * satisfy r^2 <= n < (r + 1)^2, each angle must survive the round trip. */
#include "ovmath.h"

static uint32_t digest(uint32_t h, double v)
{
    union {
        double d;
        uint32_t w[2];
    } u = {v};
    return (h ^ u.w[0] ^ (u.w[1] * 2654435761u)) * 16777619u;
}

/* The real roots of a x^3 + b x^2 + c x + d (a != 0) into x[]; returns how many. */
static int solve_cubic(double a, double b, double c, double d, double x[3])
{
    double a1 = b / a, a2 = c / a, a3 = d / a;
    double q = (a1 * a1 - 3 * a2) / 9;
    double r = (2 * a1 * a1 * a1 - 9 * a1 * a2 + 27 * a3) / 54;
    double r2_q3 = r * r - q * q * q;
    if (r2_q3 <= 0) {
        double theta = ov_acos(r / ov_sqrt(q * q * q));
        double m = -2 * ov_sqrt(q);
        x[0] = m * ov_cos(theta / 3) - a1 / 3;
        x[1] = m * ov_cos((theta + 2 * OV_PI) / 3) - a1 / 3;
        x[2] = m * ov_cos((theta + 4 * OV_PI) / 3) - a1 / 3;
        return 3;
    }
    double s = ov_cbrt(ov_sqrt(r2_q3) + ov_fabs(r));
    s = s + q / s;
    x[0] = (r < 0 ? s : -s) - a1 / 3;
    return 1;
}

static uint32_t isqrt(uint32_t n)
{
    uint32_t root = 0, bit = 1u << 30;
    while (bit > n)
        bit >>= 2;
    while (bit) {
        if (n >= root + bit) {
            n -= root + bit;
            root = (root >> 1) + bit;
        } else {
            root >>= 1;
        }
        bit >>= 2;
    }
    return root;
}

uint32_t ov_basicmath(unsigned scale, uint32_t *checksum)
{
    uint32_t bad = 0, h = 2166136261u;
    /* Cubics: a from 1, b, c, d over small ranges (scale sets how many a's). */
    for (unsigned ia = 1; ia <= scale; ia++) {
        double a = ia;
        for (double b = 10; b > 0; b -= 2.5)
            for (double c = 5; c < 15; c += 2.5)
                for (double d = -1; d > -11; d -= 2.5) {
                    double x[3];
                    int n = solve_cubic(a, b, c, d, x);
                    for (int i = 0; i < n; i++) {
                        double f = ((a * x[i] + b) * x[i] + c) * x[i] + d;
                        double size = ov_fabs(a * x[i] * x[i] * x[i]) + ov_fabs(b * x[i] * x[i]) +
                                      ov_fabs(c * x[i]) + ov_fabs(d);
                        bad += ov_fabs(f) > 1e-9 * size;
                        h = digest(h, x[i]);
                    }
                }
    }
    /* Integer square roots. */
    for (uint32_t n = 0, step = 0x10001; n < 100u * scale * 1000u; n += step & 0xFFFF, step += 7) {
        uint32_t r = isqrt(n);
        uint64_t lo = (uint64_t)r * r, hi = (uint64_t)(r + 1) * (r + 1);
        bad += !(lo <= n && n < hi);
        h = (h ^ r) * 16777619u;
    }
    /* Angles: degrees to radians and back. */
    for (unsigned i = 0; i < 360u * scale; i++) {
        double deg = i * 0.9973;
        double rad = deg * (OV_PI / 180);
        double back = rad * (180 / OV_PI);
        bad += ov_fabs(back - deg) > 1e-9 * (deg + 1);
        h = digest(h, rad);
    }
    *checksum = h;
    return bad;
}
