//! The C names of a system description. Every object's name becomes a C identifier of
//! `uk_gen.h` (`extern uk_queue_t items;`) and every function's a prototype, both seen by the
//! generated `uk_gen.c` and by the application beside the headers they include: a name the
//! generated C already sees (a type, macro or function of those headers, a keyword, a global
//! symbol of the image) would not compile or not link. So a name is refused, where it is
//! written, when it
//!
//! - is not a C identifier, or is a C keyword (C11, C23 or GNU C);
//! - starts with a prefix reserved for the kernel, the BSP, the generated code and the
//!   compiler: `uk_`, `UK_`, `bsp_`, `BSP_`, `UBIK_`, `_`;
//! - is one of [`HEADER_NAMES`]: every other identifier `<stdint.h>`, `<stddef.h>`,
//!   `<stdbool.h>`, `<stdarg.h>`, `ubik/*.h` and `bsp/*.h` define (found with the cross
//!   compiler by `tests/c_namespace.rs`, which fails when a header gains a name missing here);
//! - is `main` (the C start-up calls it).
//!
//! What the generated code adds itself is in the reserved namespace (`uk__gen_*`,
//! `UK_GEN_OBJECT`), so it cannot clash with an accepted name.

use std::fmt;

/// Prefixes of names that belong to the kernel (`uk_`, `UK_`, `UBIK_`: functions, types,
/// macros, include guards; the generated code's own `uk__gen_*`), the BSP (`bsp_`, `BSP_`) and
/// the compiler and C library (`_`, which covers `__`).
pub const RESERVED_PREFIXES: [&str; 6] = ["uk_", "UK_", "bsp_", "BSP_", "UBIK_", "_"];

/// C keywords: C11, C23 (also `bool`, `true`, `false`, macros of `<stdbool.h>` before it)
/// and the GNU C extensions GCC accepts without underscores in its gnu modes.
pub const C_KEYWORDS: &[&str] = &[
    "auto",
    "break",
    "case",
    "char",
    "const",
    "continue",
    "default",
    "do",
    "double",
    "else",
    "enum",
    "extern",
    "float",
    "for",
    "goto",
    "if",
    "inline",
    "int",
    "long",
    "register",
    "restrict",
    "return",
    "short",
    "signed",
    "sizeof",
    "static",
    "struct",
    "switch",
    "typedef",
    "union",
    "unsigned",
    "void",
    "volatile",
    "while",
    "bool",
    "true",
    "false",
    "alignas",
    "alignof",
    "static_assert",
    "thread_local",
    "nullptr",
    "constexpr",
    "typeof",
    "typeof_unqual",
    "asm",
];

/// Names of the image outside the headers: the C start-up calls the application's `main`.
pub const IMAGE_NAMES: &[&str] = &["main"];

/// The header a name of [`HEADER_NAMES`] comes from (the first, in this order, that defines
/// it: the kernel's headers include the C ones).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    Stdint,
    Stddef,
    Stdbool,
    Stdarg,
    Kernel,
    Bsp,
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(match self {
            Origin::Stdint => "<stdint.h>",
            Origin::Stddef => "<stddef.h>",
            Origin::Stdbool => "<stdbool.h>",
            Origin::Stdarg => "<stdarg.h>",
            Origin::Kernel => "the kernel's headers (ubik/*.h)",
            Origin::Bsp => "the BSP's headers (bsp/*.h)",
        })
    }
}

use Origin::{Bsp, Stdarg, Stddef, Stdint};

/// Every identifier the headers of the generated C define that no rule above covers (types,
/// macros, functions), sorted. GCC 12's `<stdint.h>` under `-std=c11` to `-std=gnu2x`.
pub const HEADER_NAMES: &[(&str, Origin)] = &[
    ("INT16_C", Stdint),
    ("INT16_MAX", Stdint),
    ("INT16_MIN", Stdint),
    ("INT16_WIDTH", Stdint),
    ("INT32_C", Stdint),
    ("INT32_MAX", Stdint),
    ("INT32_MIN", Stdint),
    ("INT32_WIDTH", Stdint),
    ("INT64_C", Stdint),
    ("INT64_MAX", Stdint),
    ("INT64_MIN", Stdint),
    ("INT64_WIDTH", Stdint),
    ("INT8_C", Stdint),
    ("INT8_MAX", Stdint),
    ("INT8_MIN", Stdint),
    ("INT8_WIDTH", Stdint),
    ("INTC_ACK", Bsp),
    ("INTC_BASE", Bsp),
    ("INTC_ENABLE", Bsp),
    ("INTC_FAST_LINES", Bsp),
    ("INTC_MSIP", Bsp),
    ("INTC_PENDING", Bsp),
    ("INTC_SET", Bsp),
    ("INTMAX_C", Stdint),
    ("INTMAX_MAX", Stdint),
    ("INTMAX_MIN", Stdint),
    ("INTMAX_WIDTH", Stdint),
    ("INTPTR_MAX", Stdint),
    ("INTPTR_MIN", Stdint),
    ("INTPTR_WIDTH", Stdint),
    ("INT_FAST16_MAX", Stdint),
    ("INT_FAST16_MIN", Stdint),
    ("INT_FAST16_WIDTH", Stdint),
    ("INT_FAST32_MAX", Stdint),
    ("INT_FAST32_MIN", Stdint),
    ("INT_FAST32_WIDTH", Stdint),
    ("INT_FAST64_MAX", Stdint),
    ("INT_FAST64_MIN", Stdint),
    ("INT_FAST64_WIDTH", Stdint),
    ("INT_FAST8_MAX", Stdint),
    ("INT_FAST8_MIN", Stdint),
    ("INT_FAST8_WIDTH", Stdint),
    ("INT_LEAST16_MAX", Stdint),
    ("INT_LEAST16_MIN", Stdint),
    ("INT_LEAST16_WIDTH", Stdint),
    ("INT_LEAST32_MAX", Stdint),
    ("INT_LEAST32_MIN", Stdint),
    ("INT_LEAST32_WIDTH", Stdint),
    ("INT_LEAST64_MAX", Stdint),
    ("INT_LEAST64_MIN", Stdint),
    ("INT_LEAST64_WIDTH", Stdint),
    ("INT_LEAST8_MAX", Stdint),
    ("INT_LEAST8_MIN", Stdint),
    ("INT_LEAST8_WIDTH", Stdint),
    ("IO_BASE", Bsp),
    ("IO_GPIO_CLEAR", Bsp),
    ("IO_GPIO_FALL", Bsp),
    ("IO_GPIO_IN", Bsp),
    ("IO_GPIO_LEVEL", Bsp),
    ("IO_GPIO_RISE", Bsp),
    ("IO_GPIO_SET", Bsp),
    ("IO_IN", Bsp),
    ("IO_OUT", Bsp),
    ("IO_PORTS", Bsp),
    ("MCAUSE_BREAKPOINT", Bsp),
    ("MCAUSE_CODE_MASK", Bsp),
    ("MCAUSE_ECALL_M", Bsp),
    ("MCAUSE_ILLEGAL_INSN", Bsp),
    ("MCAUSE_INSN_ACCESS", Bsp),
    ("MCAUSE_INTERRUPT", Bsp),
    ("MCAUSE_IRQ_EXTERNAL", Bsp),
    ("MCAUSE_IRQ_FAST", Bsp),
    ("MCAUSE_IRQ_SOFTWARE", Bsp),
    ("MCAUSE_IRQ_TIMER", Bsp),
    ("MCAUSE_LOAD_ACCESS", Bsp),
    ("MCAUSE_STORE_ACCESS", Bsp),
    ("MIE_FAST", Bsp),
    ("MIE_FAST_ALL", Bsp),
    ("MIE_MEIE", Bsp),
    ("MIE_MSIE", Bsp),
    ("MIE_MTIE", Bsp),
    ("MMIO32", Bsp),
    ("MSTATUS_MIE", Bsp),
    ("MSTATUS_MPIE", Bsp),
    ("MSTATUS_MPP", Bsp),
    ("NULL", Stddef),
    ("POWER_BASE", Bsp),
    ("POWER_FREQ_HZ", Bsp),
    ("POWER_MILLIVOLTS", Bsp),
    ("POWER_OPP_COUNT", Bsp),
    ("POWER_OPP_SELECT", Bsp),
    ("POWER_STATUS", Bsp),
    ("POWER_STATUS_SWITCHING", Bsp),
    ("PTRDIFF_MAX", Stdint),
    ("PTRDIFF_MIN", Stdint),
    ("PTRDIFF_WIDTH", Stdint),
    ("RAM_BASE", Bsp),
    ("RAM_SIZE", Bsp),
    ("RESET_PC", Bsp),
    ("RTM_BASE", Bsp),
    ("RTM_DELAY", Bsp),
    ("RTM_DELAYED", Bsp),
    ("RTM_EARLIEST", Bsp),
    ("RTM_EVENT", Bsp),
    ("RTM_EXPIRED", Bsp),
    ("RTM_EXPIRED_BIT", Bsp),
    ("RTM_NONE", Bsp),
    ("RTM_NOW", Bsp),
    ("RTM_PENDING", Bsp),
    ("RTM_QUERY_CYCLES", Bsp),
    ("RTM_READY", Bsp),
    ("RTM_RECORD", Bsp),
    ("RTM_RECORDS", Bsp),
    ("RTM_SUSPENDED", Bsp),
    ("RTM_TICK", Bsp),
    ("RTM_VALID", Bsp),
    ("SIG_ATOMIC_MAX", Stdint),
    ("SIG_ATOMIC_MIN", Stdint),
    ("SIG_ATOMIC_WIDTH", Stdint),
    ("SIMCTRL_BASE", Bsp),
    ("SIMCTRL_CHAR_OUT", Bsp),
    ("SIMCTRL_CTRL", Bsp),
    ("SIMCTRL_CTRL_HALT", Bsp),
    ("SIZE_MAX", Stdint),
    ("SIZE_WIDTH", Stdint),
    ("TIMER_BASE", Bsp),
    ("TIMER_MTIME", Bsp),
    ("TIMER_MTIMECMP", Bsp),
    ("TIMER_MTIMECMPH", Bsp),
    ("TIMER_MTIMEH", Bsp),
    ("TIMER_MTIME_HZ", Bsp),
    ("UART_BASE", Bsp),
    ("UART_BAUD", Bsp),
    ("UART_CTRL", Bsp),
    ("UART_RXDATA", Bsp),
    ("UART_RX_EMPTY", Bsp),
    ("UART_RX_IRQ", Bsp),
    ("UART_RX_OVERRUN", Bsp),
    ("UART_RX_VALID", Bsp),
    ("UART_STATUS", Bsp),
    ("UART_TXDATA", Bsp),
    ("UART_TX_IDLE", Bsp),
    ("UART_TX_IRQ", Bsp),
    ("UART_TX_OVERRUN", Bsp),
    ("UART_TX_READY", Bsp),
    ("UINT16_C", Stdint),
    ("UINT16_MAX", Stdint),
    ("UINT16_WIDTH", Stdint),
    ("UINT32_C", Stdint),
    ("UINT32_MAX", Stdint),
    ("UINT32_WIDTH", Stdint),
    ("UINT64_C", Stdint),
    ("UINT64_MAX", Stdint),
    ("UINT64_WIDTH", Stdint),
    ("UINT8_C", Stdint),
    ("UINT8_MAX", Stdint),
    ("UINT8_WIDTH", Stdint),
    ("UINTMAX_C", Stdint),
    ("UINTMAX_MAX", Stdint),
    ("UINTMAX_WIDTH", Stdint),
    ("UINTPTR_MAX", Stdint),
    ("UINTPTR_WIDTH", Stdint),
    ("UINT_FAST16_MAX", Stdint),
    ("UINT_FAST16_WIDTH", Stdint),
    ("UINT_FAST32_MAX", Stdint),
    ("UINT_FAST32_WIDTH", Stdint),
    ("UINT_FAST64_MAX", Stdint),
    ("UINT_FAST64_WIDTH", Stdint),
    ("UINT_FAST8_MAX", Stdint),
    ("UINT_FAST8_WIDTH", Stdint),
    ("UINT_LEAST16_MAX", Stdint),
    ("UINT_LEAST16_WIDTH", Stdint),
    ("UINT_LEAST32_MAX", Stdint),
    ("UINT_LEAST32_WIDTH", Stdint),
    ("UINT_LEAST64_MAX", Stdint),
    ("UINT_LEAST64_WIDTH", Stdint),
    ("UINT_LEAST8_MAX", Stdint),
    ("UINT_LEAST8_WIDTH", Stdint),
    ("VECTOR_TABLE", Bsp),
    ("WCHAR_MAX", Stdint),
    ("WCHAR_MIN", Stdint),
    ("WCHAR_WIDTH", Stdint),
    ("WINT_MAX", Stdint),
    ("WINT_MIN", Stdint),
    ("WINT_WIDTH", Stdint),
    ("csr_clear", Bsp),
    ("csr_read", Bsp),
    ("csr_read_clear", Bsp),
    ("csr_read_set", Bsp),
    ("csr_set", Bsp),
    ("csr_write", Bsp),
    ("int16_t", Stdint),
    ("int32_t", Stdint),
    ("int64_t", Stdint),
    ("int8_t", Stdint),
    ("int_fast16_t", Stdint),
    ("int_fast32_t", Stdint),
    ("int_fast64_t", Stdint),
    ("int_fast8_t", Stdint),
    ("int_least16_t", Stdint),
    ("int_least32_t", Stdint),
    ("int_least64_t", Stdint),
    ("int_least8_t", Stdint),
    ("intmax_t", Stdint),
    ("intptr_t", Stdint),
    ("max_align_t", Stddef),
    ("memcmp", Bsp),
    ("memcpy", Bsp),
    ("memmove", Bsp),
    ("memset", Bsp),
    ("mmio_read32", Bsp),
    ("mmio_write32", Bsp),
    ("offsetof", Stddef),
    ("ptrdiff_t", Stddef),
    ("size_t", Stddef),
    ("uint16_t", Stdint),
    ("uint32_t", Stdint),
    ("uint64_t", Stdint),
    ("uint8_t", Stdint),
    ("uint_fast16_t", Stdint),
    ("uint_fast32_t", Stdint),
    ("uint_fast64_t", Stdint),
    ("uint_fast8_t", Stdint),
    ("uint_least16_t", Stdint),
    ("uint_least32_t", Stdint),
    ("uint_least64_t", Stdint),
    ("uint_least8_t", Stdint),
    ("uintmax_t", Stdint),
    ("uintptr_t", Stdint),
    ("va_arg", Stdarg),
    ("va_copy", Stdarg),
    ("va_end", Stdarg),
    ("va_list", Stdarg),
    ("va_start", Stdarg),
    ("wchar_t", Stddef),
];

/// Why a name cannot be a C name of the generated code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    NotIdentifier,
    Keyword,
    Prefix(&'static str),
    Header(Origin),
    Image,
}

pub(crate) fn is_identifier(s: &str) -> bool {
    let mut c = s.chars();
    matches!(c.next(), Some(ch) if ch.is_ascii_alphabetic() || ch == '_')
        && c.all(|ch| ch.is_ascii_alphanumeric() || ch == '_')
}

/// Why `name` may not be a name of the description, or `None` when it may.
pub fn refusal(name: &str) -> Option<Refusal> {
    if !is_identifier(name) {
        return Some(Refusal::NotIdentifier);
    }
    if C_KEYWORDS.contains(&name) {
        return Some(Refusal::Keyword);
    }
    if let Some(p) = RESERVED_PREFIXES.into_iter().find(|p| name.starts_with(p)) {
        return Some(Refusal::Prefix(p));
    }
    if let Ok(i) = HEADER_NAMES.binary_search_by(|(n, _)| (*n).cmp(name)) {
        return Some(Refusal::Header(HEADER_NAMES[i].1));
    }
    if IMAGE_NAMES.contains(&name) {
        return Some(Refusal::Image);
    }
    None
}

impl Refusal {
    /// What is wrong and what is expected, for a name described as `what` (`task "x"`,
    /// `entry = "x"`) that should be `base` ("a name", "a function name").
    pub fn message(self, what: &str, base: &str) -> (String, String) {
        match self {
            Refusal::NotIdentifier => (
                format!("{what} is not a C identifier"),
                format!("{base} made of letters, digits and _, not starting with a digit"),
            ),
            Refusal::Keyword => (
                format!("{what} is a C keyword"),
                format!("{base} that is not a C keyword"),
            ),
            Refusal::Prefix(p) => (
                format!(
                    "{what} starts with `{p}`, reserved for the kernel, the BSP and the compiler"
                ),
                format!(
                    "{base} without the prefixes {}",
                    RESERVED_PREFIXES[..RESERVED_PREFIXES.len() - 1].join(", ") + " or _"
                ),
            ),
            Refusal::Header(origin) => (
                format!("{what} is already a name in {origin}, which the generated C includes"),
                format!(
                    "{base} that no header of the generated C declares (docs/system.md, \"Names\")"
                ),
            ),
            Refusal::Image => (
                format!("{what} is already the program's main(), which the C start-up calls"),
                format!("{base} other than {}", IMAGE_NAMES.join(", ")),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_names_are_sorted_unique_and_not_covered_by_a_rule() {
        for w in HEADER_NAMES.windows(2) {
            assert!(w[0].0 < w[1].0, "{} then {}", w[0].0, w[1].0);
        }
        for (n, _) in HEADER_NAMES {
            assert!(is_identifier(n), "{n}");
            assert!(!C_KEYWORDS.contains(n), "{n} is a keyword");
            assert!(
                !RESERVED_PREFIXES.iter().any(|p| n.starts_with(p)),
                "{n} has a reserved prefix"
            );
        }
    }

    #[test]
    fn refusals() {
        assert_eq!(refusal("items"), None);
        assert_eq!(refusal("size"), None);
        assert_eq!(refusal("9x"), Some(Refusal::NotIdentifier));
        assert_eq!(refusal(""), Some(Refusal::NotIdentifier));
        assert_eq!(refusal("é"), Some(Refusal::NotIdentifier));
        assert_eq!(refusal("static"), Some(Refusal::Keyword));
        assert_eq!(refusal("uk_x"), Some(Refusal::Prefix("uk_")));
        assert_eq!(refusal("__x"), Some(Refusal::Prefix("_")));
        assert_eq!(refusal("UBIK_H"), Some(Refusal::Prefix("UBIK_")));
        assert_eq!(refusal("size_t"), Some(Refusal::Header(Origin::Stddef)));
        assert_eq!(refusal("RAM_SIZE"), Some(Refusal::Header(Origin::Bsp)));
        assert_eq!(refusal("INT32_MAX"), Some(Refusal::Header(Origin::Stdint)));
        assert_eq!(refusal("main"), Some(Refusal::Image));
    }
}
