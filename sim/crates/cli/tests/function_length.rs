//! No function of the testbed's sources (`sim/crates/*/src`) is longer than 150 lines, unit
//! tests (`#[cfg(test)] mod ...`) aside: a longer one does several things that change for
//! different reasons, and is split by what changes (docs/design.md). The count runs from the
//! line with `fn` to the line with the closing brace.

use std::path::{Path, PathBuf};

const MAX_LINES: usize = 150;

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// The source with its comments and string and character literals blanked (newlines kept),
/// so that only the code's own braces are counted.
fn blank(src: &str) -> Vec<u8> {
    let b = src.as_bytes();
    let mut out = b.to_vec();
    let clear = |out: &mut Vec<u8>, from: usize, to: usize| {
        for c in &mut out[from..to.min(b.len())] {
            if *c != b'\n' {
                *c = b' ';
            }
        }
    };
    let mut i = 0;
    while i < b.len() {
        let rest = &b[i..];
        if rest.starts_with(b"//") {
            let end = rest
                .iter()
                .position(|&c| c == b'\n')
                .map_or(b.len(), |n| i + n);
            clear(&mut out, i, end);
            i = end;
        } else if rest.starts_with(b"/*") {
            let (mut j, mut depth) = (i + 2, 1);
            while j < b.len() && depth > 0 {
                if b[j..].starts_with(b"/*") {
                    depth += 1;
                    j += 2;
                } else if b[j..].starts_with(b"*/") {
                    depth -= 1;
                    j += 2;
                } else {
                    j += 1;
                }
            }
            clear(&mut out, i, j);
            i = j;
        } else if b[i] == b'r'
            && (i == 0 || !is_ident(b[i - 1]) || b[i - 1] == b'b')
            && rest[1..]
                .iter()
                .position(|&c| c != b'#')
                .map(|n| rest[1 + n])
                == Some(b'"')
        {
            let hashes = rest[1..].iter().take_while(|&&c| c == b'#').count();
            let mut close = vec![b'"'];
            close.extend(std::iter::repeat_n(b'#', hashes));
            let start = i + 2 + hashes;
            let end = b[start..]
                .windows(close.len())
                .position(|w| w == close.as_slice())
                .map_or(b.len(), |n| start + n + close.len());
            clear(&mut out, i, end);
            i = end;
        } else if b[i] == b'"' {
            let mut j = i + 1;
            while j < b.len() && b[j] != b'"' {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            clear(&mut out, i, j + 1);
            i = j + 1;
        } else if b[i] == b'\'' {
            // A character literal ('x', '\n', '\u{..}'), or a lifetime (left alone).
            let end = if rest.get(1) == Some(&b'\\') {
                rest[2..]
                    .iter()
                    .position(|&c| c == b'\'')
                    .map(|n| i + 3 + n)
            } else if rest.get(2) == Some(&b'\'') {
                Some(i + 3)
            } else {
                None
            };
            match end {
                Some(e) => {
                    clear(&mut out, i, e);
                    i = e;
                }
                None => i += 1,
            }
        } else {
            i += 1;
        }
    }
    out
}

/// True when `line` starts a function item (`pub(crate) const fn name` and the like).
fn starts_fn(line: &str) -> bool {
    let mut words = line.split_whitespace().skip_while(|w| {
        matches!(
            *w,
            "pub" | "pub(crate)" | "pub(super)" | "const" | "async" | "unsafe" | "extern"
        ) || w.starts_with("pub(")
    });
    words.next() == Some("fn")
}

/// The line (0-based) of the brace that closes the block opened first at or after line
/// `from`, or None when a `;` outside brackets comes first (a declaration without a body).
fn block_end(lines: &[&str], from: usize) -> Option<usize> {
    let (mut braces, mut brackets, mut opened) = (0i64, 0i64, false);
    for (n, line) in lines.iter().enumerate().skip(from) {
        for c in line.bytes() {
            match c {
                b'(' | b'[' => brackets += 1,
                b')' | b']' => brackets -= 1,
                b';' if !opened && brackets == 0 => return None,
                b'{' => {
                    braces += 1;
                    opened = true;
                }
                b'}' => {
                    braces -= 1;
                    if opened && braces == 0 {
                        return Some(n);
                    }
                }
                _ => {}
            }
        }
    }
    None
}

/// Every function of `src` longer than MAX_LINES, outside `#[cfg(test)]` modules: (line,
/// name, length).
fn long_functions(src: &str) -> Vec<(usize, String, usize)> {
    let code = String::from_utf8_lossy(&blank(src)).into_owned();
    let lines: Vec<&str> = code.lines().collect();
    let mut long = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let t = lines[i].trim();
        if t.starts_with("#[cfg(test)]") {
            let next = (i + 1..lines.len()).find(|&j| !lines[j].trim().is_empty());
            if let Some(j) = next.filter(|&j| {
                let w = lines[j].trim();
                w.starts_with("mod ") || w.starts_with("pub mod ")
            }) {
                i = block_end(&lines, j).map_or(j + 1, |e| e + 1);
                continue;
            }
        }
        if starts_fn(t) {
            if let Some(end) = block_end(&lines, i) {
                let n = end - i + 1;
                if n > MAX_LINES {
                    let name = t.split("fn ").nth(1).unwrap_or("");
                    let name: String = name
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect();
                    long.push((i + 1, name, n));
                }
            }
        }
        i += 1;
    }
    long
}

#[test]
fn no_function_is_longer_than_150_lines() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    for e in std::fs::read_dir(&crates).expect("sim/crates").flatten() {
        rust_files(&e.path().join("src"), &mut files);
    }
    files.sort();
    assert!(
        files.len() > 20,
        "found only {} sources under {}",
        files.len(),
        crates.display()
    );
    let mut long = Vec::new();
    for f in &files {
        let src = std::fs::read_to_string(f).expect("a source file");
        for (line, name, n) in long_functions(&src) {
            let shown = f.strip_prefix(&crates).unwrap_or(f).display().to_string();
            long.push(format!("{shown}:{line}: fn {name} is {n} lines"));
        }
    }
    assert!(
        long.is_empty(),
        "functions over {MAX_LINES} lines (split them by what changes):\n{}",
        long.join("\n")
    );
}

#[test]
fn the_count_sees_through_strings_comments_and_tests() {
    let body = "    let x = 1;\n".repeat(MAX_LINES);
    let long_fn = format!("pub(crate) fn big() {{\n{body}}}\n");
    assert_eq!(
        long_functions(&long_fn),
        vec![(1, "big".to_string(), MAX_LINES + 2)]
    );
    // 150 lines in all is allowed.
    let body = "    let x = 1;\n".repeat(MAX_LINES - 2);
    assert!(long_functions(&format!("fn ok() {{\n{body}}}\n")).is_empty());
    // Braces in strings, characters and comments do not end or open anything.
    let tricky = format!(
        "fn f() {{\n    let a = \"}}\";\n    let b = '}}';\n    // }}\n    let c = r#\"}}\"#;\n{}}}\n",
        "    let x = 1;\n".repeat(MAX_LINES)
    );
    assert_eq!(long_functions(&tricky).len(), 1, "{tricky}");
    // Unit tests are exempt; declarations without a body are not functions to count.
    let tests = format!("#[cfg(test)]\nmod tests {{\n    fn t() {{\n{body}{body}    }}\n}}\n");
    assert!(long_functions(&tests).is_empty());
    assert!(long_functions("trait T {\n    fn f(x: [u8; 4]);\n}\n").is_empty());
}
