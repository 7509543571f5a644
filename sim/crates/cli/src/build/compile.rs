//! Running the cross compiler: one compile job per source, in parallel, each skipped when its
//! object is up to date; then the link.
//!
//! An object is up to date when (1) the command that made it is the one we would run now
//! (kept beside it in `X.o.cmd`, written only after a successful compile), and (2) neither its
//! source nor any header it included (from GCC's `-MMD` dependency file `X.o.d`) is newer.
//! The ELF is relinked when the link command or any input changed in the same way.

use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::SystemTime;

/// One compile job: `argv` is the whole command, compiler first.
pub struct Unit {
    pub src: PathBuf,
    pub obj: PathBuf,
    pub argv: Vec<OsString>,
}

/// `X.o` -> `X.o.SUFFIX`.
fn beside(obj: &Path, suffix: &str) -> PathBuf {
    let mut s = obj.as_os_str().to_os_string();
    s.push(".");
    s.push(suffix);
    PathBuf::from(s)
}

impl Unit {
    /// A job compiling `src` into `obj` with `cc FLAGS`; adds the dependency-file flags.
    pub fn new(cc: &Path, flags: &[OsString], src: PathBuf, obj: PathBuf) -> Unit {
        let mut argv: Vec<OsString> = vec![cc.as_os_str().to_os_string()];
        argv.extend(flags.iter().cloned());
        // -MT names the rule's target with a token that needs no escaping in the .d file.
        for a in ["-MMD", "-MP", "-MT", "obj", "-MF"] {
            argv.push(a.into());
        }
        argv.push(beside(&obj, "d").into_os_string());
        argv.push("-c".into());
        argv.push(src.clone().into_os_string());
        argv.push("-o".into());
        argv.push(obj.clone().into_os_string());
        Unit { src, obj, argv }
    }

    fn dep_file(&self) -> PathBuf {
        beside(&self.obj, "d")
    }

    fn cmd_file(&self) -> PathBuf {
        beside(&self.obj, "cmd")
    }
}

/// The command as one string (also what `-v` prints): shell-quoted where needed.
pub fn shell_line(argv: &[OsString]) -> String {
    argv.iter()
        .map(|a| {
            let s = a.to_string_lossy();
            let plain = !s.is_empty()
                && s.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "_./=+,:@%-".contains(c));
            if plain {
                s.into_owned()
            } else {
                format!("'{}'", s.replace('\'', "'\\''"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn mtime(p: &Path) -> Option<SystemTime> {
    std::fs::metadata(p).and_then(|m| m.modified()).ok()
}

/// The prerequisites of the first rule of a make dependency file written by `gcc -MMD -MT obj`.
fn parse_deps(text: &str) -> Option<Vec<PathBuf>> {
    let joined = text.replace("\\\r\n", " ").replace("\\\n", " ");
    let first = joined.lines().next()?;
    let rest = first.strip_prefix("obj:")?;
    let mut deps = Vec::new();
    let mut cur = String::new();
    let mut chars = rest.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if matches!(chars.peek(), Some(' ') | Some('#')) => {
                cur.push(chars.next().unwrap())
            }
            '$' if chars.peek() == Some(&'$') => {
                chars.next();
                cur.push('$');
            }
            c if c.is_whitespace() => {
                if !cur.is_empty() {
                    deps.push(PathBuf::from(std::mem::take(&mut cur)));
                }
            }
            c => cur.push(c),
        }
    }
    if !cur.is_empty() {
        deps.push(PathBuf::from(cur));
    }
    Some(deps)
}

/// True when `output` exists, was made by exactly `signature`, and every input is older.
/// An input with the output's very timestamp counts as changed: the file system's clock
/// ticks coarsely (a few ms), so a source saved just after its object was written can carry
/// the object's time (a test or an editor that rewrites a file at once after a build).
fn up_to_date(output: &Path, cmd_file: &Path, signature: &str, inputs: &[PathBuf]) -> bool {
    let Some(out_time) = mtime(output) else {
        return false;
    };
    match std::fs::read_to_string(cmd_file) {
        Ok(s) if s == signature => {}
        _ => return false,
    }
    inputs
        .iter()
        .all(|p| matches!(mtime(p), Some(t) if t < out_time))
}

fn unit_up_to_date(u: &Unit) -> bool {
    let Some(deps) = std::fs::read_to_string(u.dep_file())
        .ok()
        .and_then(|t| parse_deps(&t))
    else {
        return false;
    };
    // The source itself is the first prerequisite; list it anyway in case it is not.
    let mut inputs = deps;
    inputs.push(u.src.clone());
    up_to_date(&u.obj, &u.cmd_file(), &shell_line(&u.argv), &inputs)
}

/// GCC's diagnostics that count as errors (`file:line:col: error: ...`, `fatal error`).
pub fn count_errors(output: &str) -> usize {
    output
        .lines()
        .filter(|l| {
            (l.contains(": error: ") || l.contains(": fatal error: ")) && !l.starts_with("collect2")
        })
        .count()
}

/// Linker diagnostics that count as errors.
pub fn count_link_errors(output: &str) -> usize {
    output
        .lines()
        .filter(|l| {
            !l.starts_with("collect2")
                && (l.contains("undefined reference to")
                    || l.contains("multiple definition of")
                    || l.contains(": error: ")
                    || l.contains(" will not fit in region")
                    || l.contains("cannot find "))
        })
        .count()
}

/// What a compile pass did.
pub struct CompileReport {
    /// Sources compiled (not up to date).
    pub compiled: usize,
    /// Errors counted over every failed compile (each failed compile counts at least one).
    pub errors: usize,
    /// A compiler that could not be started, with the reason.
    pub spawn_error: Option<String>,
}

fn run_captured(argv: &[OsString], cwd: &Path) -> std::io::Result<(bool, Vec<u8>)> {
    let out = Command::new(&argv[0])
        .args(&argv[1..])
        .current_dir(cwd)
        .stdin(Stdio::null())
        .output()?;
    let mut text = out.stdout;
    text.extend_from_slice(&out.stderr);
    Ok((out.status.success(), text))
}

/// Compiles every unit that is not up to date, `jobs` at a time. The compiler's output is
/// passed through to stderr, one job's output at a time; with `verbose`, each command first.
/// The compiler runs in `cwd` (the application directory: relative paths in `cflags`).
pub fn compile_all(units: &[Unit], jobs: usize, verbose: bool, cwd: &Path) -> CompileReport {
    let todo: Vec<&Unit> = units.iter().filter(|u| !unit_up_to_date(u)).collect();
    let next = AtomicUsize::new(0);
    let errors = AtomicUsize::new(0);
    let spawn_error: Mutex<Option<String>> = Mutex::new(None);
    let console = Mutex::new(());
    let workers = jobs.max(1).min(todo.len().max(1));
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(u) = todo.get(i) else { break };
                let line = shell_line(&u.argv);
                if verbose {
                    let _g = console.lock().unwrap_or_else(|e| e.into_inner());
                    eprintln!("{line}");
                }
                let _ = std::fs::remove_file(u.cmd_file());
                if let Some(dir) = u.obj.parent() {
                    let _ = std::fs::create_dir_all(dir);
                }
                match run_captured(&u.argv, cwd) {
                    Ok((ok, text)) => {
                        if !text.is_empty() {
                            let _g = console.lock().unwrap_or_else(|e| e.into_inner());
                            let mut err = std::io::stderr().lock();
                            let _ = err.write_all(&text);
                            let _ = err.flush();
                        }
                        if ok {
                            // Without its .cmd the object is rebuilt next time: harmless.
                            let _ = std::fs::write(u.cmd_file(), &line);
                        } else {
                            let n = count_errors(&String::from_utf8_lossy(&text)).max(1);
                            errors.fetch_add(n, Ordering::Relaxed);
                        }
                    }
                    Err(e) => {
                        errors.fetch_add(1, Ordering::Relaxed);
                        let mut se = spawn_error.lock().unwrap_or_else(|e| e.into_inner());
                        se.get_or_insert_with(|| {
                            format!("cannot run {}: {e}", u.argv[0].to_string_lossy())
                        });
                    }
                }
            });
        }
    });
    CompileReport {
        compiled: todo.len(),
        errors: errors.into_inner(),
        spawn_error: spawn_error.into_inner().unwrap_or_else(|e| e.into_inner()),
    }
}

/// What the link did.
pub enum LinkOutcome {
    UpToDate,
    Linked,
    /// The linker failed: its error count (at least 1) and its messages, not yet shown (the
    /// caller may put them in its own words: `link_result` passes them on).
    Failed(usize, String),
    /// The linker could not be started.
    Spawn(String),
}

/// Links `argv` (which writes `elf`) unless `elf` is newer than every input and was made by
/// the same command (kept in `cmd_file`). The linker's output is passed through to stderr.
pub fn link(
    argv: &[OsString],
    elf: &Path,
    cmd_file: &Path,
    inputs: &[PathBuf],
    force: bool,
    verbose: bool,
    cwd: &Path,
) -> LinkOutcome {
    let line = shell_line(argv);
    if !force && up_to_date(elf, cmd_file, &line, inputs) {
        return LinkOutcome::UpToDate;
    }
    if verbose {
        eprintln!("{line}");
    }
    let _ = std::fs::remove_file(cmd_file);
    match run_captured(argv, cwd) {
        Ok((ok, text)) => {
            if ok {
                if !text.is_empty() {
                    let mut err = std::io::stderr().lock();
                    let _ = err.write_all(&text);
                    let _ = err.flush();
                }
                let _ = std::fs::write(cmd_file, &line);
                LinkOutcome::Linked
            } else {
                let text = String::from_utf8_lossy(&text).into_owned();
                LinkOutcome::Failed(count_link_errors(&text).max(1), text)
            }
        }
        Err(e) => LinkOutcome::Spawn(format!("cannot run {}: {e}", argv[0].to_string_lossy())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_gcc_dependency_files() {
        let d = "obj: /a/main.c /a/x\\ y.h \\\n /k/include/ubik/ubik.h\n\n/a/x\\ y.h:\n\n/k/include/ubik/ubik.h:\n";
        let deps = parse_deps(d).unwrap();
        assert_eq!(
            deps,
            vec![
                PathBuf::from("/a/main.c"),
                PathBuf::from("/a/x y.h"),
                PathBuf::from("/k/include/ubik/ubik.h")
            ]
        );
        assert!(parse_deps("other: a\n").is_none());
    }

    #[test]
    fn counts_errors() {
        let out = "main.c: In function 'main':\nmain.c:3:5: error: expected ';' before '}' token\n\
                   main.c:4:1: warning: unused\nx.c:1:10: fatal error: nope.h: No such file or directory\n\
                   compilation terminated.\n";
        assert_eq!(count_errors(out), 2);
        let ld = "/usr/bin/ld: main.o: in function `main':\nmain.c:(.text+0x8): undefined reference to `foo'\n\
                  collect2: error: ld returned 1 exit status\n";
        assert_eq!(count_link_errors(ld), 1);
    }

    #[test]
    fn quotes_for_the_shell() {
        let argv: Vec<OsString> = ["gcc", "-DX=\"a b\"", "-O2", "it's"]
            .iter()
            .map(OsString::from)
            .collect();
        assert_eq!(shell_line(&argv), "gcc '-DX=\"a b\"' -O2 'it'\\''s'");
    }

    #[test]
    fn an_input_with_its_outputs_timestamp_is_rebuilt() {
        // Saved in the file system clock's tick in which the object was written: the object
        // may hold the old text (a build, then an immediate rewrite of the source).
        let dir = std::env::temp_dir().join(format!("ubik-uptodate-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (src, obj, cmd) = (dir.join("a.c"), dir.join("a.o"), dir.join("a.cmd"));
        std::fs::write(&src, "int a;").unwrap();
        std::fs::write(&obj, "").unwrap();
        std::fs::write(&cmd, "cc a.c").unwrap();
        let t = SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_700_000_000);
        let set = |p: &Path, t| {
            std::fs::File::options()
                .write(true)
                .open(p)
                .unwrap()
                .set_modified(t)
                .unwrap()
        };
        set(&obj, t);
        set(&src, t);
        assert!(!up_to_date(
            &obj,
            &cmd,
            "cc a.c",
            std::slice::from_ref(&src)
        ));
        set(&src, t - std::time::Duration::from_millis(1));
        assert!(up_to_date(&obj, &cmd, "cc a.c", std::slice::from_ref(&src)));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
