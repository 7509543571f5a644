//! The OS-overhead reduction: each run's console line and statistics, against the bare-metal
//! run of the same program, into its keys of `overhead.json`. The firmware
//! (`bench/overhead/overhead.c`) prints one line,
//! `ov PROGRAM cycles=C bad=B checksum=H background=R interrupts=I`; per row and PROGRAM:
//!
//! - `PROGRAM_cycles`: C, the program's run time (mcycle around it);
//! - `PROGRAM_overhead_pct`: how much longer than bare metal, in % of the bare run;
//! - `PROGRAM_kernel_pct`: cycles in the kernel (every `kernel_*` category of the testbed's
//!   attribution, NOS's code included) over the whole run, in % of the bare run (0 bare);
//! - `PROGRAM_background_pct`: the rest of the elongation, the background's own work;
//! - `PROGRAM_background_runs`, `PROGRAM_interrupts`: R and I;
//! - `PROGRAM_energy_uj`: the whole run's energy, microjoules.
//!
//! Percentages and energy are rounded to 3 decimals (the nearest decimal to the exact value).
//! A row whose results differ from bare metal's (B not 0, or another checksum) is an error.

use crate::run_stats::Stats;
use serde_json::{Map, Value};

/// A program's console line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OvLine {
    pub program: String,
    pub cycles: u64,
    pub bad: u64,
    pub checksum: String,
    pub background: u64,
    pub interrupts: u64,
}

/// The line `ov NAME cycles=C bad=B checksum=H background=R interrupts=I`, or None.
fn parse_line(line: &str) -> Option<OvLine> {
    let mut w = line.split(' ');
    if w.next()? != "ov" {
        return None;
    }
    let program = w.next()?;
    if program.is_empty()
        || !program
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_')
    {
        return None;
    }
    let mut num = |key: &str| -> Option<&str> {
        let v = w.next()?.strip_prefix(key)?.strip_prefix('=')?;
        (!v.is_empty()).then_some(v)
    };
    let dec = |s: &str| -> Option<u64> {
        s.bytes()
            .all(|b| b.is_ascii_digit())
            .then(|| s.parse().ok())?
    };
    let cycles = dec(num("cycles")?)?;
    let bad = dec(num("bad")?)?;
    let checksum = num("checksum")?;
    if !checksum
        .bytes()
        .all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
    {
        return None;
    }
    let checksum = checksum.to_string();
    let background = dec(num("background")?)?;
    let interrupts = dec(num("interrupts")?)?;
    if w.next().is_some() {
        return None;
    }
    Some(OvLine {
        program: program.into(),
        cycles,
        bad,
        checksum,
        background,
        interrupts,
    })
}

/// The console's first `ov` line, which must be `program`'s.
pub fn console_line(console: &str, program: &str) -> Result<OvLine, String> {
    match console.lines().find_map(|l| parse_line(l.trim())) {
        Some(l) if l.program == program => Ok(l),
        _ => Err(format!(
            "no `ov {program} cycles=C bad=B checksum=H background=R interrupts=I` line in its console output"
        )),
    }
}

/// `x` rounded to 3 decimals: the nearest such decimal to the exact value of `x`.
pub fn round3(x: f64) -> f64 {
    format!("{x:.3}").parse().unwrap_or(x)
}

/// The cycles the run spent in the kernel (every `kernel_*` category).
pub fn kernel_cycles(stats: &Stats) -> u64 {
    stats
        .by_category
        .iter()
        .filter(|(k, _)| k.starts_with("kernel_"))
        .map(|(_, v)| v.cycles)
        .sum()
}

/// One run's keys (`PROGRAM_*`) against the bare run `bare`; `is_bare` for the bare row
/// itself (its kernel share is 0). Err when its results differ from bare metal's.
pub fn keys(
    line: &OvLine,
    kernel: u64,
    energy_j: f64,
    bare: &OvLine,
    is_bare: bool,
) -> Result<Map<String, Value>, String> {
    if line.bad != 0 || line.checksum != bare.checksum {
        return Err(format!(
            "results differ from bare metal (bad={}, checksum {} vs {})",
            line.bad, line.checksum, bare.checksum
        ));
    }
    let p = &line.program;
    let bare_c = bare.cycles as f64;
    let over = 100.0 * (line.cycles as f64 - bare_c) / bare_c;
    let kern = if is_bare {
        0.0
    } else {
        100.0 * kernel as f64 / bare_c
    };
    let mut m = Map::new();
    m.insert(format!("{p}_cycles"), line.cycles.into());
    m.insert(format!("{p}_overhead_pct"), round3(over).into());
    m.insert(format!("{p}_kernel_pct"), round3(kern).into());
    m.insert(format!("{p}_background_pct"), round3(over - kern).into());
    m.insert(format!("{p}_background_runs"), line.background.into());
    m.insert(format!("{p}_interrupts"), line.interrupts.into());
    m.insert(format!("{p}_energy_uj"), round3(energy_j * 1e6).into());
    Ok(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(cycles: u64, checksum: &str) -> OvLine {
        OvLine {
            program: "fft".into(),
            cycles,
            bad: 0,
            checksum: checksum.into(),
            background: 7,
            interrupts: 3,
        }
    }

    #[test]
    fn the_line_is_read_exactly() {
        let c = "boot\nov fft cycles=1200 bad=0 checksum=00ab12 background=7 interrupts=3\n";
        assert_eq!(console_line(c, "fft").unwrap(), line(1200, "00ab12"));
        assert!(console_line(c, "basicmath").is_err());
        let wrong = "ov fft cycles=12x0 bad=0 checksum=00ab12 background=7 interrupts=3\n";
        assert!(console_line(wrong, "fft").is_err());
        let extra = "ov fft cycles=1 bad=0 checksum=a background=7 interrupts=3 more\n";
        assert!(console_line(extra, "fft").is_err());
    }

    #[test]
    fn rounding_takes_the_nearest_decimal_of_the_exact_value() {
        assert_eq!(round3(1.0005), 1.0); // 1.0005 is 1.000499999... in binary
        assert_eq!(round3(0.0625), 0.062); // an exact half: to the even digit
        assert_eq!(round3(12.34567), 12.346);
    }

    #[test]
    fn the_keys_compare_with_bare_metal() {
        let bare = line(1000, "ab");
        let k = keys(&line(1100, "ab"), 40, 2.5e-6, &bare, false).unwrap();
        assert_eq!(k["fft_cycles"], 1100);
        assert_eq!(k["fft_overhead_pct"], 10.0);
        assert_eq!(k["fft_kernel_pct"], 4.0);
        assert_eq!(k["fft_background_pct"], 6.0);
        assert_eq!(k["fft_background_runs"], 7);
        assert_eq!(k["fft_interrupts"], 3);
        assert_eq!(k["fft_energy_uj"], 2.5);
        let b = keys(&bare, 40, 1e-6, &bare, true).unwrap();
        assert_eq!(b["fft_kernel_pct"], 0.0);
        let e = keys(&line(1100, "ac"), 40, 1e-6, &bare, false).unwrap_err();
        assert!(e.contains("checksum ac vs ab"), "{e}");
    }
}
