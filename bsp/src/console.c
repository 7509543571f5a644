/* Console output (each character through the board's bsp_board_putc: SIMCTRL.CHAR_OUT on the
 * machine), and a small freestanding printf. */
#include "bsp/bsp.h"

void bsp_putc(char c) { bsp_board_putc(c); }

void bsp_puts(const char *s)
{
    while (*s)
        bsp_putc(*s++);
}

/* Where formatted characters go: the console (buf == NULL) or a bounded buffer.
 * `count` is the number of characters produced, stored or not. */
struct sink {
    char *buf;
    size_t size;
    size_t count;
};

static void emit(struct sink *s, char c)
{
    if (s->buf == NULL)
        bsp_putc(c);
    else if (s->count + 1 < s->size)
        s->buf[s->count] = c;
    s->count++;
}

static void emit_repeat(struct sink *s, char c, int n)
{
    while (n-- > 0)
        emit(s, c);
}

enum {
    FLAG_LEFT = 1,  /* '-' */
    FLAG_ZERO = 2,  /* '0' */
    FLAG_PLUS = 4,  /* '+' */
    FLAG_SPACE = 8, /* ' ' */
    FLAG_ALT = 16,  /* '#' */
};

/* Digits of v in `base`, least significant first; returns how many. 64-bit
 * division only when the value needs it (it costs a libgcc call). */
static int to_digits(char *out, unsigned long long v, unsigned base, int upper)
{
    const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
    int n = 0;
    while (v > 0xFFFFFFFFull) {
        out[n++] = digits[v % base];
        v /= base;
    }
    uint32_t w = (uint32_t)v;
    do {
        out[n++] = digits[w % base];
        w /= base;
    } while (w != 0);
    return n;
}

static void emit_number(struct sink *s, unsigned long long mag, int negative, unsigned base,
                        int upper, int flags, int width, int precision, const char *prefix)
{
    char digits[24];
    int ndigits = (precision == 0 && mag == 0) ? 0 : to_digits(digits, mag, base, upper);
    int zeros = precision > ndigits ? precision - ndigits : 0;
    char sign = negative ? '-' : (flags & FLAG_PLUS) ? '+' : (flags & FLAG_SPACE) ? ' ' : 0;
    int prefix_len = 0;
    while (prefix[prefix_len])
        prefix_len++;
    int len = (sign ? 1 : 0) + prefix_len + zeros + ndigits;
    int pad = width > len ? width - len : 0;

    if (!(flags & FLAG_LEFT) && !((flags & FLAG_ZERO) && precision < 0))
        emit_repeat(s, ' ', pad);
    if (sign)
        emit(s, sign);
    for (int i = 0; i < prefix_len; i++)
        emit(s, prefix[i]);
    if (!(flags & FLAG_LEFT) && (flags & FLAG_ZERO) && precision < 0)
        emit_repeat(s, '0', pad);
    emit_repeat(s, '0', zeros);
    while (ndigits > 0)
        emit(s, digits[--ndigits]);
    if (flags & FLAG_LEFT)
        emit_repeat(s, ' ', pad);
}

static void emit_string(struct sink *s, const char *str, int flags, int width, int precision)
{
    if (str == NULL)
        str = "(null)";
    int len = 0;
    while (str[len] && (precision < 0 || len < precision))
        len++;
    int pad = width > len ? width - len : 0;
    if (!(flags & FLAG_LEFT))
        emit_repeat(s, ' ', pad);
    for (int i = 0; i < len; i++)
        emit(s, str[i]);
    if (flags & FLAG_LEFT)
        emit_repeat(s, ' ', pad);
}

static void format(struct sink *s, const char *fmt, va_list ap)
{
    for (; *fmt; fmt++) {
        if (*fmt != '%') {
            emit(s, *fmt);
            continue;
        }
        const char *start = fmt++;

        int flags = 0;
        for (;; fmt++) {
            if (*fmt == '-')
                flags |= FLAG_LEFT;
            else if (*fmt == '0')
                flags |= FLAG_ZERO;
            else if (*fmt == '+')
                flags |= FLAG_PLUS;
            else if (*fmt == ' ')
                flags |= FLAG_SPACE;
            else if (*fmt == '#')
                flags |= FLAG_ALT;
            else
                break;
        }

        int width = 0;
        if (*fmt == '*') {
            width = va_arg(ap, int);
            if (width < 0) {
                flags |= FLAG_LEFT;
                width = -width;
            }
            fmt++;
        } else {
            while (*fmt >= '0' && *fmt <= '9')
                width = width * 10 + (*fmt++ - '0');
        }

        int precision = -1;
        if (*fmt == '.') {
            fmt++;
            precision = 0;
            if (*fmt == '*') {
                precision = va_arg(ap, int);
                fmt++;
            } else {
                while (*fmt >= '0' && *fmt <= '9')
                    precision = precision * 10 + (*fmt++ - '0');
            }
        }

        /* Length: l is 32-bit on ilp32 like int; ll is 64-bit; h, hh, z, t accepted. */
        int longlong = 0;
        int half = 0;
        for (;; fmt++) {
            if (*fmt == 'l')
                longlong += 1;
            else if (*fmt == 'h')
                half += 1;
            else if (*fmt == 'z' || *fmt == 't' || *fmt == 'j') {
                if (*fmt == 'j')
                    longlong = 2;
            } else
                break;
        }
        longlong = longlong >= 2;

        unsigned long long u;
        long long v;
        switch (*fmt) {
        case 'd':
        case 'i':
            v = longlong ? va_arg(ap, long long) : (long long)va_arg(ap, int);
            if (half == 1)
                v = (short)v;
            else if (half >= 2)
                v = (signed char)v;
            u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
            emit_number(s, u, v < 0, 10, 0, flags, width, precision, "");
            break;
        case 'u':
        case 'x':
        case 'X':
        case 'o':
            u = longlong ? va_arg(ap, unsigned long long)
                         : (unsigned long long)va_arg(ap, unsigned int);
            if (half == 1)
                u = (unsigned short)u;
            else if (half >= 2)
                u = (unsigned char)u;
            emit_number(s, u, 0,
                        *fmt == 'u'   ? 10
                        : *fmt == 'o' ? 8
                                      : 16,
                        *fmt == 'X', flags & ~(FLAG_PLUS | FLAG_SPACE), width, precision,
                        !(flags & FLAG_ALT) || u == 0 ? ""
                        : *fmt == 'x'                 ? "0x"
                        : *fmt == 'X'                 ? "0X"
                        : *fmt == 'o'                 ? "0"
                                                      : "");
            break;
        case 'p':
            u = (uintptr_t)va_arg(ap, void *);
            emit_number(s, u, 0, 16, 0, flags & FLAG_LEFT, width, 8, "0x");
            break;
        case 'c':
            emit_repeat(s, ' ', (flags & FLAG_LEFT) ? 0 : width - 1);
            emit(s, (char)va_arg(ap, int));
            emit_repeat(s, ' ', (flags & FLAG_LEFT) ? width - 1 : 0);
            break;
        case 's': emit_string(s, va_arg(ap, const char *), flags, width, precision); break;
        case '%': emit(s, '%'); break;
        default:
            /* Unknown conversion: print it as written. */
            for (; start <= fmt && *start; start++)
                emit(s, *start);
            if (*fmt == '\0')
                return;
            break;
        }
    }
}

int bsp_vprintf(const char *fmt, va_list ap)
{
    struct sink s = {NULL, 0, 0};
    format(&s, fmt, ap);
    return (int)s.count;
}

int bsp_printf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = bsp_vprintf(fmt, ap);
    va_end(ap);
    return n;
}

int bsp_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
    static char dummy;
    struct sink s = {size ? buf : &dummy, size, 0};
    format(&s, fmt, ap);
    if (size)
        buf[s.count < size ? s.count : size - 1] = '\0';
    return (int)s.count;
}

int bsp_snprintf(char *buf, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = bsp_vsnprintf(buf, size, fmt, ap);
    va_end(ap);
    return n;
}
