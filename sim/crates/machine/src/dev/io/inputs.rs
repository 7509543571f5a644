//! `[[input]]` of the machine file: the IO ports' input streams as written, checked into
//! [`InputConfig`]s (the streams themselves are `crate::input`). A stream file is read here,
//! eagerly, so that its errors show before the run.

use std::ops::Range;
use std::path::PathBuf;

use confread::{line_col, ConfigError, Doc, Location};
use serde::Deserialize;
use toml::Spanned;

use super::IO_PORTS;
use crate::input::{InputConfig, InputKind};

type R<T> = Result<T, ConfigError>;

/// One `[[input]]` as written: every key optional, spans kept for messages.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawInput {
    port: Option<Spanned<i64>>,
    kind: Option<Spanned<String>>,
    amplitude: Option<Spanned<f64>>,
    period_samples: Option<Spanned<i64>>,
    offset: Option<Spanned<f64>>,
    seed: Option<Spanned<i64>>,
    bits: Option<Spanned<i64>>,
    path: Option<Spanned<String>>,
}

/// `[[input]]`: an input stream per IO port, at most one each.
pub(crate) fn inputs(doc: &Doc, inputs: &Spanned<Vec<Spanned<RawInput>>>) -> R<Vec<InputConfig>> {
    let mut out: Vec<InputConfig> = Vec::new();
    let mut seen: [Option<usize>; IO_PORTS as usize] = [None; IO_PORTS as usize];
    for i in inputs.get_ref() {
        let (ic, port_span) = input(doc, i)?;
        if let Some(prev) = seen[ic.port as usize] {
            return Err(doc.err(
                &port_span,
                format!(
                    "IO port {} already has an input stream (line {} of this file)",
                    ic.port,
                    doc.line(prev)
                ),
                "one [[input]] per port 0..31",
            ));
        }
        seen[ic.port as usize] = Some(port_span.start);
        out.push(ic);
    }
    Ok(out)
}

fn input(doc: &Doc, i: &Spanned<RawInput>) -> R<(InputConfig, Range<usize>)> {
    let whole = i.span();
    let r = i.get_ref();
    let (port, port_span) = match &r.port {
        None => {
            return Err(doc.err(
                &whole,
                "[[input]] entry without `port`",
                "port = an IO port 0..31",
            ))
        }
        Some(v) => (
            doc.int_range(v, "port", 0, IO_PORTS as i64 - 1, "an IO port 0..31")? as u8,
            v.span(),
        ),
    };
    let (kind, kind_span) = doc.kind(
        &r.kind,
        &whole,
        "[[input]]",
        "\"sine\", \"lfsr\" or \"file\"",
    )?;
    let sf = |v: &Option<Spanned<f64>>| v.as_ref().map(|v| v.span());
    let si = |v: &Option<Spanned<i64>>| v.as_ref().map(|v| v.span());
    let ss = |v: &Option<Spanned<String>>| v.as_ref().map(|v| v.span());
    let kind = match kind {
        "sine" => {
            doc.not_for(
                &[
                    ("seed", si(&r.seed)),
                    ("bits", si(&r.bits)),
                    ("path", ss(&r.path)),
                ],
                kind,
                "amplitude, period_samples and optionally offset",
            )?;
            let amplitude = match &r.amplitude {
                None => {
                    return Err(doc.err(
                        &whole,
                        "sine [[input]] without `amplitude`",
                        "amplitude = <number>",
                    ))
                }
                Some(v) => doc.finite(v, "amplitude")?,
            };
            let period_samples = match &r.period_samples {
                None => {
                    return Err(doc.err(
                        &whole,
                        "sine [[input]] without `period_samples`",
                        "period_samples = <integer > 0>",
                    ))
                }
                Some(v) => {
                    doc.int_range(v, "period_samples", 1, i64::MAX, "a number of samples > 0")?
                        as u64
                }
            };
            let offset = match &r.offset {
                None => 0.0,
                Some(v) => doc.finite(v, "offset")?,
            };
            if offset.abs() + amplitude.abs() > i32::MAX as f64 {
                let span = r
                    .amplitude
                    .as_ref()
                    .map(|v| v.span())
                    .unwrap_or(whole.clone());
                return Err(doc.err(
                    &span,
                    format!("sine samples offset {offset} +- amplitude {amplitude} do not fit in 32 bits"),
                    "|offset| + |amplitude| <= 2147483647",
                ));
            }
            InputKind::Sine {
                amplitude,
                period_samples,
                offset,
            }
        }
        "lfsr" => {
            doc.not_for(
                &[
                    ("amplitude", sf(&r.amplitude)),
                    ("period_samples", si(&r.period_samples)),
                    ("offset", sf(&r.offset)),
                    ("path", ss(&r.path)),
                ],
                kind,
                "optionally seed and bits",
            )?;
            let seed = match &r.seed {
                None => 1,
                Some(v) => doc.int_range(
                    v,
                    "seed",
                    1,
                    u32::MAX as i64,
                    "a non-zero 32-bit LFSR seed 1..4294967295",
                )? as u32,
            };
            let bits = match &r.bits {
                None => 32,
                Some(v) => doc.int_range(v, "bits", 1, 32, "bits per sample 1..32")? as u32,
            };
            InputKind::Lfsr { seed, bits }
        }
        "file" => {
            doc.not_for(
                &[
                    ("amplitude", sf(&r.amplitude)),
                    ("period_samples", si(&r.period_samples)),
                    ("offset", sf(&r.offset)),
                    ("seed", si(&r.seed)),
                    ("bits", si(&r.bits)),
                ],
                kind,
                "path",
            )?;
            let p = match &r.path {
                None => {
                    return Err(doc.err(
                        &whole,
                        "file [[input]] without `path`",
                        "path = \"<text file of integers>\"",
                    ))
                }
                Some(p) => p,
            };
            let (path, samples) = load_stream(doc, p)?;
            InputKind::File { path, samples }
        }
        other => {
            return Err(doc.err(
                &kind_span,
                format!("unknown input kind \"{other}\""),
                "kind = \"sine\", \"lfsr\" or \"file\"",
            ))
        }
    };
    Ok((InputConfig { port, kind }, port_span))
}

/// Loads an input-stream file eagerly, so that errors show before the run. The samples
/// are stored once, 4 bytes each, shared by every copy of the configuration and machine.
fn load_stream(doc: &Doc, p: &Spanned<String>) -> R<(PathBuf, std::sync::Arc<[u32]>)> {
    // Read by `--check` and again by every run: a pipe would be empty the second time
    // (the document's named files refuse pipes).
    let (path, bytes) = doc.read_named_file(p, "input stream file")?;
    let file = path.display().to_string();
    let text = crate::textfile::utf8(
        &bytes,
        &file,
        &format!("input stream file `{file}`"),
        "a text file of whitespace-separated integers",
    )?;
    let samples = parse_stream(text).map_err(|(offset, message)| {
        let (line, column) = line_col(text, offset);
        ConfigError::Invalid {
            at: Location { file: path.display().to_string(), line, column },
            message,
            expected: "whitespace-separated integers, decimal (-2147483648..4294967295) or 0x-hex (up to 0xffffffff)"
                .to_string(),
        }
    })?;
    // The text is not needed any more: gone before the samples are copied into place.
    drop(bytes);
    if samples.is_empty() {
        return Err(doc.err(
            &p.span(),
            format!("input stream file `{}` has no samples", path.display()),
            "at least one integer in the file",
        ));
    }
    Ok((path, samples.into()))
}

/// Parses a stream file: whitespace-separated integers; `#` starts a comment to the end of
/// the line. Decimal (optionally signed; negative values are stored as two's complement) or
/// `0x`/`0X` hexadecimal. Error: byte offset of the bad token and a message.
fn parse_stream(text: &str) -> Result<Vec<u32>, (usize, String)> {
    // Sized once (at most one sample per word), not grown by doubling.
    let mut out = Vec::with_capacity(text.split_ascii_whitespace().count());
    let mut line_start = 0;
    for line in text.split_inclusive('\n') {
        let content = match line.find('#') {
            Some(i) => &line[..i],
            None => line,
        };
        let mut pos = 0;
        for tok in content.split_whitespace() {
            let rel = content[pos..].find(tok).unwrap() + pos;
            pos = rel + tok.len();
            match parse_int_token(tok) {
                Some(v) => out.push(v),
                None => {
                    let shown: String = tok.chars().take(40).collect();
                    return Err((
                        line_start + rel,
                        format!("`{shown}` is not a 32-bit integer"),
                    ));
                }
            }
        }
        line_start += line.len();
    }
    Ok(out)
}

fn parse_int_token(tok: &str) -> Option<u32> {
    let (neg, body) = match tok.as_bytes().first()? {
        b'-' => (true, &tok[1..]),
        b'+' => (false, &tok[1..]),
        _ => (false, tok),
    };
    let hex = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X"));
    let digits_ok = |s: &str, radix: u32| !s.is_empty() && s.chars().all(|c| c.is_digit(radix));
    let mag: u64 = match hex {
        Some(h) => {
            if neg || !digits_ok(h, 16) {
                return None;
            }
            u64::from_str_radix(h, 16).ok()?
        }
        None => {
            if !digits_ok(body, 10) {
                return None;
            }
            body.parse::<u64>().ok()?
        }
    };
    if neg {
        if mag > 1 << 31 {
            return None;
        }
        Some((mag as i64).wrapping_neg() as i32 as u32)
    } else {
        u32::try_from(mag).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::testing::{err, parse, tmpdir};
    use crate::config::MachineConfig;

    #[test]
    fn inputs_resolve() {
        let text = r#"
[[input]]
port = 0
kind = "sine"
amplitude = 1000
period_samples = 64
offset = 2048

[[input]]
port = 31
kind = "lfsr"
bits = 12
"#;
        let c = parse(text).unwrap();
        assert_eq!(
            c.devices.io.inputs,
            vec![
                InputConfig {
                    port: 0,
                    kind: InputKind::Sine {
                        amplitude: 1000.0,
                        period_samples: 64,
                        offset: 2048.0
                    }
                },
                InputConfig {
                    port: 31,
                    kind: InputKind::Lfsr { seed: 1, bits: 12 }
                },
            ]
        );
    }

    #[test]
    fn input_errors() {
        assert_eq!(
            err("[[input]]\nport = 32\nkind = \"lfsr\"\n"),
            "m.toml:2:8: port = 32 is out of range; expected an IO port 0..31"
        );
        assert_eq!(
            err("[[input]]\nport = 4\nkind = \"lfsr\"\n[[input]]\nport = 4\nkind = \"lfsr\"\n"),
            "m.toml:5:8: IO port 4 already has an input stream (line 2 of this file); expected one [[input]] per port 0..31"
        );
        assert_eq!(
            err("[[input]]\nport = 1\nkind = \"lfsr\"\nseed = 0\n"),
            "m.toml:4:8: seed = 0 is out of range; expected a non-zero 32-bit LFSR seed 1..4294967295"
        );
    }

    #[test]
    fn file_stream_relative_to_machine_file() {
        let d = tmpdir("rel");
        std::fs::write(d.join("s.txt"), "1 2 0x10\n-1 # comment 99\n  +7\n").unwrap();
        let m = d.join("m.toml");
        std::fs::write(
            &m,
            "[[input]]\nport = 5\nkind = \"file\"\npath = \"s.txt\"\n",
        )
        .unwrap();
        let c = MachineConfig::from_file(&m).unwrap();
        match &c.devices.io.inputs[0].kind {
            InputKind::File { samples, path } => {
                assert_eq!(&samples[..], &[1, 2, 16, 0xFFFF_FFFF, 7]);
                assert_eq!(path, &d.join("s.txt"));
            }
            k => panic!("{k:?}"),
        }
    }

    #[test]
    fn file_stream_errors() {
        let d = tmpdir("err");
        std::fs::write(d.join("bad.txt"), "1 2\n3 x4 5\n").unwrap();
        std::fs::write(d.join("empty.txt"), "# only a comment\n").unwrap();
        std::fs::write(d.join("big.txt"), "4294967296\n").unwrap();
        let name = d.join("m.toml").display().to_string();
        let run = |p: &str| {
            MachineConfig::from_str(
                &format!("[[input]]\nport = 1\nkind = \"file\"\npath = \"{p}\"\n"),
                &name,
            )
        };

        let e = run("bad.txt").unwrap_err();
        assert_eq!(e.exit_code(), 65);
        let s = e.to_string();
        let want = format!(
            "{}:2:3: `x4` is not a 32-bit integer; expected whitespace-separated integers",
            d.join("bad.txt").display()
        );
        assert!(s.starts_with(&want), "{s}");

        let s = run("big.txt").unwrap_err().to_string();
        assert!(
            s.contains("big.txt:1:1: `4294967296` is not a 32-bit integer"),
            "{s}"
        );

        let s = run("empty.txt").unwrap_err().to_string();
        assert!(
            s.starts_with(&format!("{name}:4:8: input stream file")),
            "{s}"
        );
        assert!(
            s.contains("has no samples; expected at least one integer"),
            "{s}"
        );

        let e = run("missing.txt").unwrap_err();
        assert_eq!(e.exit_code(), 66);
        let s = e.to_string();
        assert!(
            s.starts_with(&format!("{name}:4:8: cannot read input stream file `")),
            "{s}"
        );
        assert!(
            s.contains("missing.txt`: No such file or directory; expected a readable file"),
            "{s}"
        );
    }

    #[test]
    fn int_tokens() {
        assert_eq!(parse_int_token("0"), Some(0));
        assert_eq!(parse_int_token("-2147483648"), Some(0x8000_0000));
        assert_eq!(parse_int_token("-2147483649"), None);
        assert_eq!(parse_int_token("4294967295"), Some(u32::MAX));
        assert_eq!(parse_int_token("0xFFFFFFFF"), Some(u32::MAX));
        assert_eq!(parse_int_token("0x1_0"), None);
        assert_eq!(parse_int_token("-0x1"), None);
        assert_eq!(parse_int_token("1.5"), None);
        assert_eq!(parse_int_token("-"), None);
        assert_eq!(parse_int_token("0x"), None);
    }
}
