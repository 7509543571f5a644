//! The defaults of `[kernel]`, read at compile time from the kernel's own header,
//! `kernel/src/kernel_defaults.h` (its `#define UK_DEFAULT_<NAME> <integer>` lines), which a
//! build without a generated configuration uses too: the two cannot disagree.

/// The kernel's header of configuration defaults.
const HEADER: &str = include_str!("../../../../kernel/src/kernel_defaults.h");

/// `tick_hz`.
pub const TICK_HZ: u32 = header_int("UK_DEFAULT_TICK_HZ");
/// `timeslice_ticks`.
pub const TIMESLICE_TICKS: u32 = header_int("UK_DEFAULT_TIMESLICE_TICKS");
/// `irq_stack_bytes`.
pub const IRQ_STACK_BYTES: u32 = header_int("UK_DEFAULT_IRQ_STACK_BYTES");
/// `idle_stack_bytes`.
pub const IDLE_STACK_BYTES: u32 = header_int("UK_DEFAULT_IDLE_STACK_BYTES");
/// `tick_start`.
pub const TICK_START: u32 = header_int("UK_DEFAULT_TICK_START");

/// The integer of the header's line `#define NAME <integer>`; without one, the crate does
/// not compile (the constants above are evaluated at compile time).
const fn header_int(name: &str) -> u32 {
    let h = HEADER.as_bytes();
    let define = b"#define ".as_slice();
    let mut line = 0;
    while line < h.len() {
        let after = line + define.len() + name.len();
        if starts_with(h, line, define)
            && starts_with(h, line + define.len(), name.as_bytes())
            && after < h.len()
            && h[after] == b' '
        {
            let mut at = after;
            while at < h.len() && h[at] == b' ' {
                at += 1;
            }
            let (mut value, mut digits) = (0u32, 0);
            while at < h.len() && h[at].is_ascii_digit() {
                value = value * 10 + (h[at] - b'0') as u32;
                at += 1;
                digits += 1;
            }
            if digits > 0 {
                return value;
            }
        }
        while line < h.len() && h[line] != b'\n' {
            line += 1;
        }
        line += 1;
    }
    panic!("kernel/src/kernel_defaults.h lacks a `#define UK_DEFAULT_<NAME> <integer>` line sysdesc reads")
}

/// `text` holds `prefix` at `at`.
const fn starts_with(text: &[u8], at: usize, prefix: &[u8]) -> bool {
    if at + prefix.len() > text.len() {
        return false;
    }
    let mut i = 0;
    while i < prefix.len() {
        if text[at + i] != prefix[i] {
            return false;
        }
        i += 1;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The compile-time reader agrees with a plain one over the header's lines.
    #[test]
    fn defaults_come_from_the_header() {
        let read = |name: &str| -> u32 {
            HEADER
                .lines()
                .find_map(|l| {
                    let rest = l.strip_prefix("#define ")?.strip_prefix(name)?;
                    rest.strip_prefix(' ')?.trim().parse().ok()
                })
                .unwrap_or_else(|| panic!("{name} in kernel_defaults.h"))
        };
        assert_eq!(TICK_HZ, read("UK_DEFAULT_TICK_HZ"));
        assert_eq!(TIMESLICE_TICKS, read("UK_DEFAULT_TIMESLICE_TICKS"));
        assert_eq!(IRQ_STACK_BYTES, read("UK_DEFAULT_IRQ_STACK_BYTES"));
        assert_eq!(IDLE_STACK_BYTES, read("UK_DEFAULT_IDLE_STACK_BYTES"));
        assert_eq!(TICK_START, read("UK_DEFAULT_TICK_START"));
    }

    /// The features a build without a service list turns on are sysdesc's FEATURES, in order.
    #[test]
    fn header_lists_every_feature() {
        let listed: Vec<String> = HEADER
            .lines()
            .filter_map(|l| l.strip_prefix("#define UK_FEATURE_"))
            .filter_map(|l| l.strip_suffix(" 1"))
            .map(str::to_ascii_lowercase)
            .collect();
        assert_eq!(listed, crate::FEATURES);
    }
}
