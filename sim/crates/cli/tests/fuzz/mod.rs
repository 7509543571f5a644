//! A small seeded mutation fuzzer for `ubik`'s inputs (issue 10: "a small seeded fuzz test of
//! the project's own ... that asserts the contract"). Deterministic: the same seed gives the
//! same mutants. Pieces:
//!
//! - [`Rng`]: SplitMix64, seeded from `UBIK_FUZZ_SEED` (default 1) and the input class;
//! - [`mutate_text`] (TOML, JSON, CSV, SVG) and [`mutate_elf`]: stacked mutations -- byte and
//!   bit flips, truncation, NUL/DEL/UTF-8 junk, lines duplicated, removed, swapped or taken
//!   from another seed, extreme numbers, values of the wrong type, deep nesting, long lines;
//!   ELF header, program and section header fields set to edge values;
//! - [`run_limited`]: the real `ubik` binary under a wall-clock limit, a peak-resident-memory
//!   limit (watched in /proc) and an address-space backstop (`ulimit -v` in a shell wrapper);
//! - [`check_contract`]: the exit-status contract (docs/contract.md): an allowed code (never 70, 101 or
//!   a signal), no panic text, and a failure (64 and up) is exactly one line starting with
//!   `ubik: ` that names the input and has a message;
//! - [`Findings`]: failures grouped by kind, each first example minimised (line by line) and
//!   saved under `target/tmp/fuzz-failures/` for a reproduction.
#![allow(dead_code)]

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

// ---------------------------------------------------------------------------------------------
// Settings

/// Mutants per class: `UBIK_FUZZ_ITERS` if set, else `default`.
pub fn iterations(default: usize) -> usize {
    std::env::var("UBIK_FUZZ_ITERS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// The fuzzer's seed: `UBIK_FUZZ_SEED` (default 1).
pub fn base_seed() -> u64 {
    std::env::var("UBIK_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1)
}

/// The limits every command runs under.
#[derive(Clone, Copy)]
pub struct Limits {
    pub wall: Duration,
    /// Peak resident memory, KiB (watched in /proc: lazily backed reservations, such as a large
    /// simulated RAM, cost nothing until touched).
    pub rss_kib: u64,
    /// Address space, KiB (`ulimit -v`): a backstop that keeps a runaway from the host.
    pub vm_kib: u64,
}

pub const LIMITS: Limits = Limits {
    wall: Duration::from_secs(5),
    rss_kib: 512 * 1024,
    vm_kib: 8 * 1024 * 1024,
};

/// The peak resident memory of a live process, KiB (`VmHWM`), if it can be read.
fn peak_rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

// ---------------------------------------------------------------------------------------------
// Random numbers

/// SplitMix64: small, fast, good enough to pick mutations.
pub struct Rng(u64);

impl Rng {
    /// A generator for one input class: the base seed mixed with the class's name.
    pub fn for_class(class: &str) -> Rng {
        let mut h = base_seed() ^ 0x9e37_79b9_7f4a_7c15;
        for b in class.bytes() {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        Rng(h)
    }

    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// 0..n (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    pub fn chance(&mut self, one_in: usize) -> bool {
        self.below(one_in) == 0
    }

    pub fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }
}

// ---------------------------------------------------------------------------------------------
// Text mutations

/// Bytes that break parsers and messages: control characters, invalid and odd UTF-8, quotes,
/// brackets, line ends.
const JUNK: &[&[u8]] = &[
    b"\0",
    b"\x7f",
    b"\x01",
    b"\x1b[31m",
    b"\xff",
    b"\xfe\xff",
    b"\xc3",
    b"\xe2\x82",
    b"\xef\xbb\xbf",
    "\u{202e}".as_bytes(),
    "é".as_bytes(),
    "名".as_bytes(),
    b"\r",
    b"\n",
    b"\r\n",
    b"\t",
    b"\"",
    b"'",
    b"\"\"\"",
    b"[",
    b"]",
    b"[[",
    b"{",
    b"}",
    b"=",
    b"#",
    b",",
    b":",
    b".",
    b"\\",
    b"\\u0000",
];

/// Numbers at the edges: zero, negative, huge, tiny, not finite, other bases.
const NUMBERS: &[&str] = &[
    "0",
    "-1",
    "1",
    "2",
    "-0",
    "-0.0",
    "0.5",
    "1e-9",
    "1e-300",
    "5e-324",
    "1e308",
    "1e400",
    "-1e308",
    "nan",
    "inf",
    "-inf",
    "NaN",
    "Infinity",
    "127",
    "255",
    "256",
    "65535",
    "65536",
    "2147483647",
    "2147483648",
    "4294967295",
    "4294967296",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775808",
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999999999999",
    "0x7fffffff",
    "0xffffffff",
    "0x100000000",
    "0xFFF00000",
    "0o777",
    "0b1",
    "1_000_000",
    "007",
    "+5",
    "1.",
    ".5",
    "1e",
];

/// Values of other types (TOML and JSON spellings mixed).
const VALUES: &[&str] = &[
    "\"\"",
    "\"x\"",
    "\" \"",
    "\"0\"",
    "\"-1\"",
    "true",
    "false",
    "null",
    "[]",
    "{}",
    "[1, 2]",
    "[\"a\", 1]",
    "[[1]]",
    "{ a = 1 }",
    "{\"a\": 1}",
    "1979-05-27T07:32:00Z",
    "07:32:00",
    "'lit'",
    "\"\"\"multi\nline\"\"\"",
    "\"/dev/zero\"",
    "\"/dev/null\"",
    "\"/\"",
    "\"..\"",
    "\"../../../../etc/passwd\"",
    "\"size_t\"",
    "\"uint8_t\"",
    "\"main\"",
    "\"a b\"",
    "\"a\\nb\"",
    "\"a\\u0000b\"",
    "\"名前\"",
];

/// Strings that stand in for names and paths.
const STRINGS: &[&str] = &[
    "",
    " ",
    "x",
    "size_t",
    "va_list",
    "INT32_MAX",
    "RAM_SIZE",
    "main",
    "idle",
    "uk_init",
    "_",
    "0abc",
    "a-b",
    "a.b",
    "../x",
    "/dev/zero",
    "/dev/stdin",
    "/proc/self/mem",
    ".",
    "..",
    "CON",
    "名前",
    "e\u{301}",
    "\u{202e}abc",
    "%s%n",
    "$(touch /tmp/ubik-pwned)",
    "a;b",
    "<script>",
];

fn lines_of(data: &[u8]) -> Vec<Vec<u8>> {
    data.split_inclusive(|&b| b == b'\n')
        .map(<[u8]>::to_vec)
        .collect()
}

/// Spans of number-like tokens: digits with a sign, point, exponent, base prefix, `_`.
fn number_spans(data: &[u8]) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut i = 0;
    while i < data.len() {
        if data[i].is_ascii_digit() {
            let mut s = i;
            if s > 0 && (data[s - 1] == b'-' || data[s - 1] == b'+') {
                s -= 1;
            }
            let mut e = i;
            while e < data.len()
                && (data[e].is_ascii_alphanumeric() || matches!(data[e], b'.' | b'_' | b'+' | b'-'))
            {
                e += 1;
            }
            spans.push((s, e));
            i = e;
        } else {
            i += 1;
        }
    }
    spans
}

/// Spans of the contents of double-quoted strings on one line.
fn string_spans(data: &[u8]) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut open: Option<usize> = None;
    for (i, &b) in data.iter().enumerate() {
        match (b, open) {
            (b'\n', _) => open = None,
            (b'"', None) => open = Some(i + 1),
            (b'"', Some(s)) => {
                spans.push((s, i));
                open = None;
            }
            _ => {}
        }
    }
    spans
}

/// Spans of values: after `=` or `:` to the end of the line (less a trailing comma).
fn value_spans(data: &[u8]) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut start = 0;
    for line in data.split_inclusive(|&b| b == b'\n') {
        if let Some(p) = line.iter().position(|&b| b == b'=' || b == b':') {
            let mut s = start + p + 1;
            while s < start + line.len() && data[s] == b' ' {
                s += 1;
            }
            let mut e = start + line.len();
            while e > s && matches!(data[e - 1], b'\n' | b'\r' | b',' | b' ') {
                e -= 1;
            }
            if e > s {
                spans.push((s, e));
            }
        }
        start += line.len();
    }
    spans
}

fn replace(data: &mut Vec<u8>, (s, e): (usize, usize), with: &[u8]) {
    data.splice(s..e, with.iter().copied());
}

fn deep_nesting(rng: &mut Rng) -> Vec<u8> {
    let n = *rng.pick(&[8usize, 64, 200, 1_000, 10_000, 100_000]);
    match rng.below(4) {
        0 => format!("{}{}", "[".repeat(n), "]".repeat(n)).into_bytes(),
        1 => format!("{}1{}", "{ a = ".repeat(n), " }".repeat(n)).into_bytes(),
        2 => format!("{}1{}", "{\"a\": ".repeat(n), "}".repeat(n)).into_bytes(),
        _ => format!("[{}]\n", vec!["t"; n.min(20_000)].join(".")).into_bytes(),
    }
}

/// One mutation of a text input; `donors` are the other seeds of its class (lines are
/// borrowed from them).
pub fn mutate_text_once(rng: &mut Rng, data: &mut Vec<u8>, donors: &[Vec<u8>]) {
    let len = data.len();
    match rng.below(16) {
        0 if len > 0 => {
            let i = rng.below(len);
            data[i] ^= 1 << rng.below(8);
        }
        1 if len > 0 => {
            let i = rng.below(len);
            data[i] = rng.next() as u8;
        }
        2 => {
            let at = rng.below(len + 1);
            data.truncate(at);
        }
        3 => {
            let at = rng.below(len + 1);
            let junk = rng.pick(JUNK).to_vec();
            let times = if rng.chance(4) { 1 + rng.below(64) } else { 1 };
            for _ in 0..times {
                data.splice(at..at, junk.iter().copied());
            }
        }
        4 | 5 => {
            let mut lines = lines_of(data);
            if lines.is_empty() {
                return;
            }
            let i = rng.below(lines.len());
            match rng.below(4) {
                0 => {
                    lines.remove(i);
                }
                1 => {
                    let l = lines[i].clone();
                    lines.insert(i, l);
                }
                2 => {
                    let j = rng.below(lines.len());
                    lines.swap(i, j);
                }
                _ => {
                    if let Some(d) = donors.get(rng.below(donors.len().max(1))) {
                        let dl = lines_of(d);
                        if !dl.is_empty() {
                            let mut l = dl[rng.below(dl.len())].clone();
                            if !l.ends_with(b"\n") {
                                l.push(b'\n');
                            }
                            lines.insert(i, l);
                        }
                    }
                }
            }
            *data = lines.concat();
        }
        6 | 7 => {
            let spans = number_spans(data);
            if !spans.is_empty() {
                let s = spans[rng.below(spans.len())];
                let text = String::from_utf8_lossy(&data[s.0..s.1]).into_owned();
                let new = match text.parse::<f64>() {
                    // Scaled by a power of ten: still a number of the right type, often one a
                    // check lets through (a period of 2e-8 us, a size of 1e12).
                    Ok(x) if rng.chance(2) => {
                        let k = 1 + rng.below(12) as i32;
                        let y = if rng.chance(2) {
                            x * 10f64.powi(k)
                        } else {
                            x / 10f64.powi(k)
                        };
                        if text.contains('.')
                            || text.contains('e')
                            || y.fract() != 0.0
                            || y.abs() > 9e18
                        {
                            format!("{y:e}")
                        } else {
                            format!("{}", y as i64)
                        }
                    }
                    _ => rng.pick(NUMBERS).to_string(),
                };
                replace(data, s, new.as_bytes());
            }
        }
        8 | 9 => {
            let spans = value_spans(data);
            if !spans.is_empty() {
                let s = spans[rng.below(spans.len())];
                let v: Vec<u8> = if rng.chance(6) {
                    deep_nesting(rng)
                } else {
                    rng.pick(VALUES).as_bytes().to_vec()
                };
                replace(data, s, &v);
            }
        }
        10 | 11 => {
            let spans = string_spans(data);
            if !spans.is_empty() {
                let s = spans[rng.below(spans.len())];
                let v = if rng.chance(8) {
                    "x".repeat(1 + rng.below(100_000))
                } else {
                    rng.pick(STRINGS).to_string()
                };
                replace(data, s, v.as_bytes());
            }
        }
        12 => {
            let at = line_start(data, rng);
            let mut v = deep_nesting(rng);
            if !v.starts_with(b"[t") {
                let mut line = b"deep = ".to_vec();
                line.append(&mut v);
                line.push(b'\n');
                v = line;
            }
            data.splice(at..at, v);
        }
        13 => {
            let at = line_start(data, rng);
            let n = *rng.pick(&[1_000usize, 100_000, 1_000_000]);
            let mut line = if rng.chance(2) {
                format!("# {}\n", "x".repeat(n))
            } else {
                format!("k{} = 1\n", "k".repeat(n))
            }
            .into_bytes();
            data.splice(at..at, line.drain(..));
        }
        14 => {
            // A copy of a whole table or object at another place.
            let lines = lines_of(data);
            if lines.len() > 2 {
                let a = rng.below(lines.len());
                let b = (a + 1 + rng.below(8)).min(lines.len());
                let chunk: Vec<u8> = lines[a..b].concat();
                let at = line_start(data, rng);
                data.splice(at..at, chunk);
            }
        }
        _ => {
            if !data.is_empty() {
                let a = rng.below(len);
                let b = (a + 1 + rng.below(64)).min(len);
                data.drain(a..b);
            }
        }
    }
}

fn line_start(data: &[u8], rng: &mut Rng) -> usize {
    let starts: Vec<usize> = std::iter::once(0)
        .chain(
            data.iter()
                .enumerate()
                .filter(|(_, &b)| b == b'\n')
                .map(|(i, _)| i + 1),
        )
        .collect();
    starts[rng.below(starts.len())]
}

/// 1 to 4 stacked mutations of a text input.
pub fn mutate_text(rng: &mut Rng, seed: &[u8], donors: &[Vec<u8>]) -> Vec<u8> {
    let mut data = seed.to_vec();
    let n = 1 + rng.below(4);
    for _ in 0..n {
        mutate_text_once(rng, &mut data, donors);
    }
    data
}

// ---------------------------------------------------------------------------------------------
// ELF mutations

const WORDS: &[u32] = &[
    0,
    1,
    2,
    3,
    0x20,
    0x34,
    0xff,
    0xffff,
    0x7fff_ffff,
    0x8000_0000,
    0xffff_ffff,
    0xffff_fff0,
    0x0010_0000,
    0x0010_0080,
    0x0020_0000,
    0x0100_0000,
    0x1000_0000,
    0x4000_0000,
];

fn u32_at(d: &[u8], at: usize) -> Option<u32> {
    d.get(at..at + 4)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

fn u16_at(d: &[u8], at: usize) -> Option<u16> {
    d.get(at..at + 2).map(|b| u16::from_le_bytes([b[0], b[1]]))
}

/// The regions of an ELF32 file worth hitting: the ELF header, the program headers, the
/// section headers (as the seed has them).
fn elf_regions(d: &[u8]) -> Vec<(usize, usize)> {
    let mut r = vec![(0, 52.min(d.len()))];
    if let (Some(phoff), Some(phnum)) = (u32_at(d, 28), u16_at(d, 44)) {
        let s = phoff as usize;
        let e = s.saturating_add(32 * phnum as usize).min(d.len());
        if s < e {
            r.push((s, e));
        }
    }
    if let (Some(shoff), Some(shnum)) = (u32_at(d, 32), u16_at(d, 48)) {
        let s = shoff as usize;
        let e = s.saturating_add(40 * shnum as usize).min(d.len());
        if s < e {
            r.push((s, e));
        }
    }
    r
}

/// 1 to 3 stacked mutations of an ELF file, mostly in its headers.
pub fn mutate_elf(rng: &mut Rng, seed: &[u8]) -> Vec<u8> {
    let mut d = seed.to_vec();
    let n = 1 + rng.below(3);
    for _ in 0..n {
        let regions = elf_regions(&d);
        let (s, e) = if rng.chance(5) || regions.is_empty() {
            (0, d.len())
        } else {
            regions[rng.below(regions.len())]
        };
        if e <= s {
            d.push(rng.next() as u8);
            continue;
        }
        match rng.below(7) {
            0 | 1 => {
                let i = s + rng.below(e - s);
                d[i] ^= 1 << rng.below(8);
            }
            2 | 3 => {
                let i = (s + rng.below(e - s)) & !3;
                let w = if rng.chance(4) {
                    d.len() as u32 + rng.below(3) as u32 - 1
                } else {
                    *rng.pick(WORDS)
                };
                if i + 4 <= d.len() {
                    d[i..i + 4].copy_from_slice(&w.to_le_bytes());
                }
            }
            4 => {
                let i = (s + rng.below(e - s)) & !1;
                let w = *rng.pick(&[0u16, 1, 2, 0xff, 0x7fff, 0xffff]);
                if i + 2 <= d.len() {
                    d[i..i + 2].copy_from_slice(&w.to_le_bytes());
                }
            }
            5 => {
                let at = if rng.chance(2) {
                    rng.below(256.min(d.len() + 1))
                } else {
                    rng.below(d.len() + 1)
                };
                d.truncate(at);
            }
            _ => {
                let i = s + rng.below(e - s);
                let b = (i + 1 + rng.below(16)).min(d.len());
                let fill = if rng.chance(2) { 0 } else { 0xff };
                d[i..b].iter_mut().for_each(|x| *x = fill);
            }
        }
    }
    d
}

// ---------------------------------------------------------------------------------------------
// Running ubik under limits

pub struct Outcome {
    /// The directory the command ran in.
    pub dir: PathBuf,
    pub code: Option<i32>,
    pub signal: Option<i32>,
    pub timed_out: bool,
    /// The peak resident memory seen, KiB; above the limit the command was killed.
    pub peak_kib: u64,
    pub over_memory: bool,
    pub elapsed: Duration,
    pub stdout: Vec<u8>,
    pub stderr: String,
}

impl Outcome {
    pub fn describe(&self) -> String {
        if self.over_memory {
            format!(
                "over the memory limit ({} MiB resident)",
                self.peak_kib / 1024
            )
        } else if self.timed_out {
            format!("timed out after {:.1} s", self.elapsed.as_secs_f64())
        } else if let Some(s) = self.signal {
            format!("killed by signal {s}")
        } else {
            format!("exit {}", self.code.unwrap_or(-1))
        }
    }
}

/// Runs `ubik ARGS` in `dir` under `limits`; stdout and stderr go to files there.
pub fn run_limited(
    args: &[OsString],
    dir: &Path,
    env: &[(&str, OsString)],
    limits: Limits,
) -> Outcome {
    use std::os::unix::process::ExitStatusExt;
    let out_path = dir.join(".fuzz-stdout");
    let err_path = dir.join(".fuzz-stderr");
    let mut cmd = Command::new("/bin/sh");
    cmd.arg("-c")
        .arg(format!("ulimit -v {} && exec \"$0\" \"$@\"", limits.vm_kib))
        .arg(env!("CARGO_BIN_EXE_ubik"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out_path).expect("stdout file"))
        .stderr(std::fs::File::create(&err_path).expect("stderr file"));
    for (k, v) in env {
        cmd.env(k, v);
    }
    let t0 = Instant::now();
    let mut child = cmd.spawn().expect("start /bin/sh");
    let mut timed_out = false;
    let mut peak_kib = 0;
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait") {
            break s;
        }
        peak_kib = peak_kib.max(peak_rss_kib(child.id()).unwrap_or(0));
        if peak_kib > limits.rss_kib || t0.elapsed() > limits.wall {
            timed_out = peak_kib <= limits.rss_kib;
            let _ = child.kill();
            break child.wait().expect("wait");
        }
        std::thread::sleep(Duration::from_millis(1));
    };
    let elapsed = t0.elapsed();
    Outcome {
        dir: dir.to_path_buf(),
        code: status.code(),
        signal: status.signal(),
        timed_out,
        peak_kib,
        over_memory: peak_kib > limits.rss_kib,
        elapsed,
        stdout: std::fs::read(&out_path).unwrap_or_default(),
        stderr: String::from_utf8_lossy(&std::fs::read(&err_path).unwrap_or_default()).into_owned(),
    }
}

/// The contract for one command: `allowed` exit codes; a failure (64 and up) is one line
/// `ubik: ...` naming one of `names` with a message; success and a firmware's own exit code
/// print nothing on stderr; the `readable` inputs are never "cannot read" (66). The kind of
/// violation, or None.
pub fn check_contract(
    o: &Outcome,
    dir: &Path,
    allowed: &[i32],
    names: &[&str],
    readable: &[&str],
) -> Option<String> {
    if o.over_memory {
        return Some("memory".into());
    }
    if o.timed_out {
        return Some("timeout".into());
    }
    if let Some(s) = o.signal {
        return Some(format!("signal {s}"));
    }
    let code = o.code.unwrap_or(-1);
    if o.stderr.contains("panicked")
        || o.stderr.contains("internal error")
        || o.stderr.contains("RUST_BACKTRACE")
    {
        return Some(format!("panic (exit {code})"));
    }
    if !allowed.contains(&code) {
        return Some(format!("exit {code} not allowed"));
    }
    if code < 64 {
        return (!o.stderr.is_empty()).then(|| format!("stderr on exit {code}"));
    }
    let lines: Vec<&str> = o.stderr.lines().collect();
    if lines.len() != 1 || !o.stderr.ends_with('\n') {
        return Some(format!("{} stderr lines (exit {code})", lines.len()));
    }
    let line = lines[0];
    if !line.starts_with("ubik: ") && !line.starts_with("ubik build: ") {
        return Some(format!("no `ubik: ` prefix (exit {code})"));
    }
    if line.contains(": ;")
        || line.contains(":  ;")
        || line.trim_end().ends_with(':')
        || line.contains("; expected ;")
    {
        return Some(format!("empty message (exit {code})"));
    }
    // The input is named: one of `names`, or a file the line starts with (a file the input
    // refers to, as a machine file an experiment names).
    let leading = line
        .trim_start_matches("ubik: ")
        .split(':')
        .next()
        .unwrap_or("");
    let names_a_file = !leading.is_empty() && dir.join(leading).exists();
    if !names.iter().any(|n| line.contains(n)) && !names_a_file {
        return Some(format!("input not named (exit {code})"));
    }
    // The mutant itself can always be read: 66 for it hides bad data (65).
    if code == 66
        && readable
            .iter()
            .any(|n| line.contains(&format!("{n}: cannot read")))
    {
        return Some("exit 66 for the readable input".into());
    }
    None
}

// ---------------------------------------------------------------------------------------------
// Findings

pub struct Finding {
    pub class: String,
    pub kind: String,
    /// Where the first example came from (its seed, or the changes made).
    pub detail: String,
    pub count: usize,
    pub command: String,
    pub stderr: String,
    /// The saved (minimised) input.
    pub saved: PathBuf,
}

#[derive(Default)]
pub struct Findings {
    pub list: Vec<Finding>,
    /// How the commands ended ("exit 65", "timed out ..."), for the coverage line.
    pub outcomes: std::collections::BTreeMap<String, usize>,
}

pub fn failures_dir() -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join("fuzz-failures");
    let _ = std::fs::create_dir_all(&d);
    d
}

impl Findings {
    /// Records a violation; true if it is the first of its kind (then the caller saves it).
    pub fn record(&mut self, class: &str, kind: &str) -> bool {
        if let Some(f) = self
            .list
            .iter_mut()
            .find(|f| f.class == class && f.kind == kind)
        {
            f.count += 1;
            return false;
        }
        true
    }

    pub fn add(&mut self, f: Finding) {
        self.list.push(f);
    }

    /// Panics with every kind of violation found, if any.
    pub fn assert_none(&self, class: &str, mutants: usize, started: Instant) {
        let seen: Vec<String> = self
            .outcomes
            .iter()
            .map(|(k, n)| format!("{k}: {n}"))
            .collect();
        eprintln!(
            "fuzz {class}: {mutants} mutants in {:.1} s (seed {}), {} kind(s) of contract violation; outcomes: {}",
            started.elapsed().as_secs_f64(),
            base_seed(),
            self.list.len(),
            seen.join(", ")
        );
        if self.list.is_empty() {
            return;
        }
        let mut msg = format!("fuzz {class}: the contract was broken:\n");
        for f in &self.list {
            msg.push_str(&format!(
                "  [{}] {} ({} mutant(s); first: {}); reproduce: {}\n      stderr: {:?}\n      input: {}\n",
                f.class,
                f.kind,
                f.count,
                f.detail,
                f.command,
                f.stderr.chars().take(400).collect::<String>(),
                f.saved.display()
            ));
        }
        panic!("{msg}");
    }
}

/// Shrinks `input` while `fails` holds: whole chunks of lines, then single lines, then a
/// shorter tail; at most `budget` tries.
pub fn minimise(input: &[u8], mut fails: impl FnMut(&[u8]) -> bool, budget: usize) -> Vec<u8> {
    let mut best = input.to_vec();
    let mut tries = 0;
    let mut chunk = (lines_of(&best).len() / 2).max(1);
    while chunk >= 1 && tries < budget {
        let mut i = 0;
        let mut shrunk = false;
        loop {
            let lines = lines_of(&best);
            if i >= lines.len() || tries >= budget {
                break;
            }
            let end = (i + chunk).min(lines.len());
            let candidate: Vec<u8> = lines[..i]
                .iter()
                .chain(lines[end..].iter())
                .flatten()
                .copied()
                .collect();
            tries += 1;
            if candidate.len() < best.len() && fails(&candidate) {
                best = candidate;
                shrunk = true;
            } else {
                i += chunk;
            }
        }
        if chunk == 1 && !shrunk {
            break;
        }
        chunk = if shrunk { chunk } else { chunk / 2 };
        if chunk == 0 {
            break;
        }
    }
    // Long lines (a flood of one character): halve them while the failure stays.
    while tries < budget {
        let lines = lines_of(&best);
        let Some((idx, _)) = lines
            .iter()
            .enumerate()
            .filter(|(_, l)| l.len() > 200)
            .max_by_key(|(_, l)| l.len())
        else {
            break;
        };
        let l = &lines[idx];
        let keep = l.len() / 2;
        let mut shorter = l[..keep].to_vec();
        if l.ends_with(b"\n") {
            shorter.push(b'\n');
        }
        let candidate: Vec<u8> = lines[..idx]
            .iter()
            .flatten()
            .chain(shorter.iter())
            .chain(lines[idx + 1..].iter().flatten())
            .copied()
            .collect();
        tries += 1;
        if fails(&candidate) {
            best = candidate;
        } else {
            break;
        }
    }
    best
}
