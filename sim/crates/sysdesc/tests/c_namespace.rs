//! Every identifier the generated C can see is refused as a name in `system.toml` (issue 10,
//! item 12), found by asking the cross compiler rather than by reading the headers by eye, so
//! that a macro, type or function added to a header later cannot reopen the hole:
//!
//! - the headers `uk_gen.h` and `uk_gen.c` include (and the application includes beside
//!   them): `<stdint.h>`, `<stddef.h>`, `<stdbool.h>`, `<stdarg.h>`, every `ubik/*.h` and every
//!   `bsp/*.h`, under several `-std` and `-O` settings (they change what is defined):
//!   their macros (`gcc -dM -E`), and every ordinary identifier they declare at file scope
//!   (each identifier of the preprocessed text is declared once more with a type of its own
//!   in a probe file; those GCC refuses are taken);
//! - the global symbols the kernel and the BSP define or reference (`nm` of every source
//!   compiled with every feature on), which an object or a function of the same name would
//!   clash with at link time.
//!
//! Each must be refused both as an object's name and as a function's, and a refused header
//! name must name the header it comes from. On failure the test prints the lines to add to
//! `HEADER_NAMES` in `sim/crates/sysdesc/src/names.rs`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use sysdesc::names::{C_KEYWORDS, RESERVED_PREFIXES};
use sysdesc::SystemDesc;

mod common;
use common::{repo_root, require_tools, GCC, NM};

/// Settings that change what the headers define: the C standard and optimisation
/// (`__OPTIMIZE__` guards inline code in ubik/task.h).
const VARIANTS: &[(&str, &str)] = &[
    ("c11", "-O2"),
    ("gnu11", "-O0"),
    ("c17", "-Os"),
    ("c2x", "-O2"),
    ("gnu2x", "-O0"),
];

fn scratch(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("ubik-sysdesc-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `uk_config.h` with every feature on and `scheduler`, as `ubik gen` writes it, in `dir`.
fn config_with_every_feature(dir: &Path, scheduler: &str) -> PathBuf {
    let list: Vec<String> = sysdesc::FEATURES
        .iter()
        .map(|f| format!("\"{f}\""))
        .collect();
    let d = SystemDesc::from_str(
        &format!(
            "[kernel]\nscheduler = \"{scheduler}\"\nfeatures = [{}]\n",
            list.join(", ")
        ),
        "system.toml",
    )
    .unwrap();
    std::fs::create_dir_all(dir).unwrap();
    let p = dir.join("uk_config.h");
    std::fs::write(&p, sysdesc::gen::config_header(&d)).unwrap();
    p
}

fn run(cmd: &mut Command) -> (bool, String, String) {
    let out = cmd
        .stdin(Stdio::null())
        .output()
        .expect("run the cross tools");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The identifiers of C text (tokens starting with a letter or `_`; numbers skipped whole).
fn identifiers(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut cur = String::new();
    let mut number = false;
    for c in text.chars().chain(std::iter::once(' ')) {
        if c.is_ascii_alphanumeric() || c == '_' {
            if cur.is_empty() && !number && c.is_ascii_digit() {
                number = true;
            }
            if !number {
                cur.push(c);
            }
        } else {
            if !cur.is_empty() {
                out.insert(std::mem::take(&mut cur));
            }
            number = false;
        }
    }
    out
}

fn headers_in(dir: &Path, prefix: &str) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".h"))
        .map(|n| format!("{prefix}/{n}"))
        .collect();
    v.sort();
    v
}

/// The names one group of headers makes visible, under every variant.
fn visible_names(work: &Path, config: &Path, includes: &[String]) -> BTreeSet<String> {
    let root = repo_root();
    let tu: String = includes
        .iter()
        .map(|h| format!("#include <{h}>\n"))
        .collect();
    let tu_path = work.join("tu.c");
    std::fs::write(&tu_path, &tu).unwrap();
    let mut found = BTreeSet::new();
    for (std, opt) in VARIANTS {
        let base = |c: &mut Command| {
            c.args(["-march=rv32imc_zicsr", "-mabi=ilp32", "-ffreestanding"])
                .arg(format!("-std={std}"))
                .arg(opt)
                .arg(format!("-I{}", root.join("kernel/include").display()))
                .arg(format!(
                    "-I{}",
                    root.join("bsp/reference/include").display()
                ))
                .arg(format!("-I{}", root.join("bsp/include").display()))
                .arg("-imacros")
                .arg(config);
        };
        // Macros.
        let mut c = Command::new(GCC);
        base(&mut c);
        let (ok, out, err) = run(c.args(["-dM", "-E"]).arg(&tu_path));
        assert!(ok, "gcc -dM -E failed: {err}");
        let macros: BTreeSet<String> = out
            .lines()
            .filter_map(|l| l.strip_prefix("#define "))
            .filter_map(|l| l.split([' ', '(']).next())
            .map(str::to_string)
            .collect();
        // Ordinary identifiers: every token of the preprocessed text is a candidate.
        let mut c = Command::new(GCC);
        base(&mut c);
        let (ok, out, err) = run(c.args(["-E", "-P"]).arg(&tu_path));
        assert!(ok, "gcc -E failed: {err}");
        let mut probe = Vec::new();
        for id in identifiers(&out) {
            if macros.contains(&id) {
                continue;
            }
            if id.starts_with('_') || C_KEYWORDS.contains(&id.as_str()) {
                found.insert(id); // refused by rule; not probed (a probe would not parse)
            } else {
                probe.push(id);
            }
        }
        found.extend(macros);
        // A file-scope declaration of each candidate with a type of its own: GCC refuses
        // exactly those the headers declare at file scope (types, functions, variables,
        // enumerators); parameter and member names pass.
        let first = tu.lines().count() + 1;
        let mut text = tu.clone();
        for id in &probe {
            text.push_str(&format!("extern struct uk__probe {id};\n"));
        }
        let probe_path = work.join("probe.c");
        std::fs::write(&probe_path, &text).unwrap();
        let mut c = Command::new(GCC);
        base(&mut c);
        let (_, _, err) = run(c.args(["-fsyntax-only", "-fmax-errors=0"]).arg(&probe_path));
        for l in err.lines() {
            let Some(rest) = l.split("probe.c:").nth(1) else {
                continue;
            };
            if !l.contains(": error: ") {
                continue;
            }
            let Some(line) = rest.split(':').next().and_then(|n| n.parse::<usize>().ok()) else {
                continue;
            };
            match line.checked_sub(first).and_then(|i| probe.get(i)) {
                Some(id) => {
                    found.insert(id.clone());
                }
                None => panic!("an error outside the probes: {l}\n{err}"),
            }
        }
    }
    found
}

/// Global symbols (defined or referenced) of the kernel and the BSP compiled with every
/// feature, each scheduler (with its own configuration) and the architecture code.
fn image_symbols(work: &Path, config: &Path) -> BTreeSet<String> {
    let root = repo_root();
    let mut sources: Vec<PathBuf> = Vec::new();
    for (dir, exts) in [
        ("kernel/src", &[".c"][..]),
        ("kernel/sched", &[".c"][..]),
        ("kernel/arch/rv32", &[".c", ".S"][..]),
        ("bsp/src", &[".c"][..]),
    ] {
        let mut v: Vec<PathBuf> = std::fs::read_dir(root.join(dir))
            .unwrap()
            .filter_map(|e| e.ok())
            .map(|e| e.path())
            .filter(|p| {
                p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| exts.iter().any(|x| n.ends_with(x)))
            })
            .collect();
        v.sort();
        sources.extend(v);
    }
    sources.push(root.join("bsp/crt0.S"));
    let mut symbols = BTreeSet::new();
    for (i, src) in sources.iter().enumerate() {
        let obj = work.join(format!("o{i}.o"));
        // A scheduler's source needs its scheduler selected.
        let config = match src.parent().and_then(|p| p.file_name()) {
            Some(d) if d == "sched" => {
                let name = src.file_stem().unwrap().to_string_lossy().into_owned();
                config_with_every_feature(&work.join(&name), &name)
            }
            _ => config.to_path_buf(),
        };
        let (ok, _, err) = run(Command::new(GCC)
            .args([
                "-march=rv32imc_zicsr",
                "-mabi=ilp32",
                "-O2",
                "-std=c11",
                "-ffreestanding",
            ])
            .arg(format!("-I{}", root.join("kernel/include").display()))
            .arg(format!("-I{}", root.join("kernel/src").display()))
            .arg(format!(
                "-I{}",
                root.join("bsp/reference/include").display()
            ))
            .arg(format!("-I{}", root.join("bsp/include").display()))
            .arg(format!("-I{}", config.parent().unwrap().display()))
            .arg("-imacros")
            .arg(&config)
            .arg("-c")
            .arg(src)
            .arg("-o")
            .arg(&obj));
        assert!(ok, "compiling {}: {err}", src.display());
        let (ok, out, err) = run(Command::new(NM).arg("-g").arg(&obj));
        assert!(ok, "nm {}: {err}", obj.display());
        symbols.extend(
            out.lines()
                .filter_map(|l| l.split_whitespace().last())
                .map(str::to_string),
        );
    }
    symbols
}

/// The message for a name refused as a header's: "is already a name in ORIGIN".
fn refusal(text: &str) -> Option<String> {
    SystemDesc::from_str(text, "system.toml")
        .err()
        .map(|e| e.to_string())
}

#[test]
fn every_name_the_generated_c_sees_is_refused() {
    require_tools(&[GCC, NM]);
    let work = scratch("c-namespace");
    let config = config_with_every_feature(&work, "prio");
    let root = repo_root();
    // The groups in the order a name is attributed to (the first that makes it visible), with
    // the words `ubik gen` uses for them.
    let groups: Vec<(&str, Vec<String>)> = vec![
        ("<stdint.h>", vec!["stdint.h".into()]),
        ("<stddef.h>", vec!["stddef.h".into()]),
        ("<stdbool.h>", vec!["stdbool.h".into()]),
        ("<stdarg.h>", vec!["stdarg.h".into()]),
        (
            "the kernel's headers (ubik/*.h)",
            headers_in(&root.join("kernel/include/ubik"), "ubik"),
        ),
        (
            "the BSP's headers (bsp/*.h)",
            headers_in(&root.join("bsp/include/bsp"), "bsp"),
        ),
    ];
    let mut origin: BTreeMap<String, &str> = BTreeMap::new();
    for (name, includes) in &groups {
        for id in visible_names(&work, &config, includes) {
            origin.entry(id).or_insert(name);
        }
    }
    for s in image_symbols(&work, &config) {
        origin.entry(s).or_insert("the image");
    }
    // Sanity: the scan sees what the issue found.
    for n in [
        "size_t",
        "uint8_t",
        "va_list",
        "INT32_MAX",
        "RAM_SIZE",
        "TIMER_BASE",
        "main",
    ] {
        assert!(origin.contains_key(n), "the scan misses {n}");
    }
    let mut missing = Vec::new();
    let mut wrong = Vec::new();
    for (name, from) in &origin {
        let as_object = refusal(&format!("[sem.{name}]\n"));
        let as_function = refusal(&format!("[task.t]\nentry = \"{name}\"\npriority = 1\n"));
        let (Some(o), Some(_)) = (&as_object, &as_function) else {
            missing.push(format!("{name} ({from})"));
            continue;
        };
        let by_rule = RESERVED_PREFIXES.iter().any(|p| name.starts_with(p))
            || C_KEYWORDS.contains(&name.as_str());
        if !by_rule && *from != "the image" && !o.contains(&format!("is already a name in {from}"))
        {
            wrong.push(format!("{name}: {o} (expected it to name {from})"));
        }
    }
    assert!(
        missing.is_empty() && wrong.is_empty(),
        "names the generated C sees but system.toml accepts (add them to HEADER_NAMES in \
         sim/crates/sysdesc/src/names.rs):\n  {}\nrefused with the wrong origin:\n  {}",
        missing.join("\n  "),
        wrong.join("\n  ")
    );
    let _ = std::fs::remove_dir_all(&work);
}

/// The accepted names most likely to clash: every identifier of the headers and of the
/// generated code that `system.toml` accepts (parameter, member and local names, the words of
/// the generated code's own names).
fn accepted_tricky_names(work: &Path, config: &Path) -> Vec<String> {
    let root = repo_root();
    let mut includes = vec!["stdint.h".to_string(), "stdarg.h".to_string()];
    includes.extend(headers_in(&root.join("kernel/include/ubik"), "ubik"));
    includes.extend(headers_in(&root.join("bsp/include/bsp"), "bsp"));
    let tu: String = includes
        .iter()
        .map(|h| format!("#include <{h}>\n"))
        .collect();
    let tu_path = work.join("words.c");
    std::fs::write(&tu_path, &tu).unwrap();
    let (ok, pre, err) = run(Command::new(GCC)
        .args([
            "-march=rv32imc_zicsr",
            "-mabi=ilp32",
            "-ffreestanding",
            "-O2",
            "-E",
            "-P",
        ])
        .arg(format!("-I{}", root.join("kernel/include").display()))
        .arg(format!(
            "-I{}",
            root.join("bsp/reference/include").display()
        ))
        .arg(format!("-I{}", root.join("bsp/include").display()))
        .arg("-imacros")
        .arg(config)
        .arg(&tu_path));
    assert!(ok, "{err}");
    let every_kind = SystemDesc::from_str(
        "[task.t]\nentry = \"f\"\npriority = 1\nsignal = \"g\"\nslice = 2\n[sem.s]\n[mutex.m]\n\
         [queue.q]\nmax_msg_bytes = 4\ncapacity = 1\n[queue.r]\nmsg_bytes = 4\ncapacity = 1\n\
         [port.p]\ncapacity = 1\n[flags.l]\ninitial = 1\n[heap.h]\nbytes = 256\n\
         [pool.o]\nblock_bytes = 8\ncount = 2\n[pool.c]\nblock_bytes = 8\ncount = 2\nheap = \"h\"\n\
         [timer.k]\ncall = \"tick\"\ndelay = 1\n[timer.a]\nactivate = \"t\"\ndelay = 1\n\
         [timer.b]\nflags = \"l\"\nbits = 1\ndelay = 1\n\
         [interrupt.i]\nline = 1\nlisr = \"ll\"\nhisr = \"hh\"\nhisr_stack_bytes = 128\n",
        "system.toml",
    )
    .unwrap();
    let generated = format!(
        "{} {}",
        sysdesc::gen::gen_source(&every_kind),
        sysdesc::gen::gen_header(&every_kind)
    );
    let mut words: BTreeSet<String> = identifiers(&pre);
    words.extend(identifiers(&generated));
    // The words of the generated code's own names.
    for w in [
        "check",
        "error",
        "init",
        "table",
        "heap",
        "pool",
        "queue",
        "port",
        "stack",
        "hisr",
        "hisr_stack",
        "obj",
        "gen",
        "d",
        "i",
        "r",
        "call",
        "name",
        "line",
        "object",
    ] {
        words.insert(w.to_string());
    }
    words
        .into_iter()
        .filter(|w| SystemDesc::from_str(&format!("[sem.{w}]\n"), "system.toml").is_ok())
        .collect()
}

/// Compiles `uk_gen.c` and an application translation unit (uk_gen.h with bsp/bsp.h, in both
/// orders) of `d` with `-Wall -Wextra -Werror`; the compiler's errors if any.
fn compile_generated(dir: &Path, d: &SystemDesc) -> Result<(), String> {
    let root = repo_root();
    let _ = std::fs::remove_dir_all(dir);
    sysdesc::gen::generate(d, dir).unwrap();
    std::fs::write(
        dir.join("app1.c"),
        "#include \"uk_gen.h\"\n#include \"bsp/bsp.h\"\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("app2.c"),
        "#include \"bsp/bsp.h\"\n#include \"uk_gen.h\"\n",
    )
    .unwrap();
    for src in ["uk_gen.c", "app1.c", "app2.c"] {
        let (ok, _, err) = run(Command::new(GCC)
            .args([
                "-march=rv32imc_zicsr",
                "-mabi=ilp32",
                "-O2",
                "-std=c11",
                "-ffreestanding",
            ])
            .args(["-Wall", "-Wextra", "-Werror", "-fsyntax-only"])
            .arg(format!("-I{}", root.join("kernel/include").display()))
            .arg(format!(
                "-I{}",
                root.join("bsp/reference/include").display()
            ))
            .arg(format!("-I{}", root.join("bsp/include").display()))
            .arg(format!("-I{}", dir.display()))
            .arg("-imacros")
            .arg(dir.join("uk_config.h"))
            .arg(dir.join(src)));
        if !ok {
            return Err(format!(
                "{src}: {}",
                err.lines().take(12).collect::<Vec<_>>().join("\n")
            ));
        }
    }
    Ok(())
}

/// Every accepted tricky name, as an object of each kind, as a function, and as a task named
/// as its entry: the generated C compiles (issue 10, item 12: "the generated C must compile
/// for every description `ubik gen` accepts").
#[test]
fn accepted_tricky_names_compile_as_every_kind_and_function() {
    require_tools(&[GCC, NM]);
    let work = scratch("c-namespace-compile");
    let config = config_with_every_feature(&work, "prio");
    let words = accepted_tricky_names(&work, &config);
    assert!(words.len() > 50, "{words:?}");
    let declare = |kind: &str, w: &str| -> String {
        match kind {
            "task" => format!("[task.{w}]\nentry = \"e_\"\npriority = 1\nstack_bytes = 128\n"),
            "queue" => format!("[queue.{w}]\nmsg_bytes = 1\ncapacity = 1\n"),
            "port" => format!("[port.{w}]\ncapacity = 1\n"),
            "heap" => format!("[heap.{w}]\nbytes = 48\n"),
            "pool" => format!("[pool.{w}]\nblock_bytes = 8\ncount = 1\n"),
            "timer" => format!("[timer.{w}]\ncall = \"tick_\"\ndelay = 1\n"),
            other => format!("[{other}.{w}]\n"),
        }
    };
    let mut texts: Vec<(String, String)> = Vec::new();
    for kind in [
        "task", "sem", "mutex", "queue", "port", "flags", "heap", "pool", "timer",
    ] {
        let text: String = words.iter().map(|w| declare(kind, w)).collect();
        texts.push((format!("every name as a {kind}"), text));
    }
    // Functions of every role, and objects named as their functions.
    let mut functions = String::new();
    let mut same = String::new();
    for (i, w) in words.iter().enumerate() {
        let role = match i % 4 {
            0 => format!("entry = \"{w}\"\npriority = 1\nstack_bytes = 128\n"),
            1 => format!("entry = \"e_\"\npriority = 1\nstack_bytes = 128\nsignal = \"{w}\"\n"),
            2 => {
                functions.push_str(&format!("[timer.k_{i}]\ncall = \"{w}\"\ndelay = 1\n"));
                continue;
            }
            _ => format!("entry = \"{w}\"\npriority = 2\nstack_bytes = 128\n"),
        };
        functions.push_str(&format!("[task.t_{i}]\n{role}"));
        same.push_str(&format!(
            "[task.{w}]\nentry = \"{w}\"\npriority = 1\nstack_bytes = 128\n"
        ));
    }
    texts.push(("every name as a function".into(), functions));
    texts.push(("every name as a task and its entry".into(), same));
    // Interrupts: 15 lines, so 15 names at a time, with HISRs named as their interrupts.
    for (c, chunk) in words.chunks(15).enumerate().take(4) {
        let text: String = chunk
            .iter()
            .enumerate()
            .map(|(line, w)| {
                format!(
                    "[interrupt.{w}]\nline = {line}\nlisr = \"l_\"\nhisr = \"{w}\"\nhisr_stack_bytes = 128\n"
                )
            })
            .collect();
        texts.push((format!("interrupts {c}"), text));
    }
    let mut bad = Vec::new();
    for (what, text) in &texts {
        let d = match SystemDesc::from_str(text, "system.toml") {
            Ok(d) => d,
            Err(e) => {
                bad.push(format!("{what}: refused: {e}"));
                continue;
            }
        };
        if let Err(e) = compile_generated(&work.join("gen"), &d) {
            bad.push(format!("{what}: {e}"));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n\n"));
    let _ = std::fs::remove_dir_all(&work);
}
