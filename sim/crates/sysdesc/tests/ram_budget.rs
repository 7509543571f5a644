//! The RAM check's numbers agree with the C they stand for (issue 10, item 13): the RAM size
//! is `bsp/link.ld`'s, every control block fits its upper bound, and every descriptor of the
//! generated tables has the size counted for it (compiled with the cross compiler, as `ubik
//! build` compiles `uk_gen.c`).

use std::process::Command;
use sysdesc::budget::{CONTROL_BLOCK_BYTES, DESCRIPTOR_BYTES, RAM_BYTES};
use sysdesc::SystemDesc;

mod common;
use common::{repo_root, require_tools, GCC};

#[test]
fn ram_is_the_linker_script_s() {
    let ld = std::fs::read_to_string(repo_root().join("bsp/link.ld")).unwrap();
    // The region's length is `__ram_length`, whose default (without --defsym: a whole-machine
    // image) is the last term of its definition.
    let region = ld
        .lines()
        .find(|l| l.trim_start().starts_with("__ram_length ="))
        .expect("the RAM length of bsp/link.ld");
    let length = region
        .rsplit(':')
        .next()
        .map(|t| t.trim().trim_end_matches(';').trim())
        .expect("the default length");
    let bytes = match length.strip_suffix('M') {
        Some(m) => m.parse::<u64>().unwrap() << 20,
        None => match length.strip_suffix('K') {
            Some(k) => k.parse::<u64>().unwrap() << 10,
            None => length.parse::<u64>().unwrap(),
        },
    };
    assert_eq!(bytes, RAM_BYTES, "bsp/link.ld: {region}");
}

/// A description with one object of each kind, every table present.
const EVERY_KIND: &str = r#"[power]
policy = "ls0"
[task.t]
entry = "f"
priority = 1
signal = "sig"
slice = 2
power_class = "low"
[sem.s]
[mutex.m]
[queue.q]
max_msg_bytes = 4
capacity = 1
[port.p]
capacity = 1
[flags.g]
[heap.h]
bytes = 256
[pool.o]
block_bytes = 8
count = 2
[timer.k]
call = "tick"
delay = 1
[interrupt.i]
line = 1
lisr = "l"
hisr = "hh"
hisr_stack_bytes = 128
"#;

#[test]
fn control_blocks_and_descriptors_fit_what_is_counted() {
    require_tools(&[GCC]);
    let root = repo_root();
    let dir = std::env::temp_dir().join(format!("ubik-sysdesc-budget-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let d = SystemDesc::from_str(EVERY_KIND, "system.toml").unwrap();
    sysdesc::gen::generate(&d, &dir).unwrap();
    // uk_gen.c, then the sizes asserted.
    let mut c = std::fs::read_to_string(dir.join("uk_gen.c")).unwrap();
    for (c_type, bound) in CONTROL_BLOCK_BYTES {
        c.push_str(&format!(
            "_Static_assert(sizeof({c_type}) <= {bound}, \"{c_type} outgrew its bound in sim/crates/sysdesc/src/budget.rs\");\n"
        ));
    }
    for (kind, bytes) in DESCRIPTOR_BYTES {
        let tag = if kind == "interrupt" { "irq" } else { kind };
        c.push_str(&format!(
            "_Static_assert(sizeof(struct uk__gen_{tag}) == {bytes}, \"struct uk__gen_{tag} is not the size budget.rs counts\");\n"
        ));
    }
    let src = dir.join("sizes.c");
    std::fs::write(&src, c).unwrap();
    let out = Command::new(GCC)
        .args([
            "-march=rv32imc_zicsr",
            "-mabi=ilp32",
            "-O2",
            "-std=c11",
            "-ffreestanding",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-fsyntax-only",
        ])
        .arg(format!("-I{}", root.join("kernel/include").display()))
        .arg(format!(
            "-I{}",
            root.join("bsp/reference/include").display()
        ))
        .arg(format!("-I{}", root.join("bsp/include").display()))
        .arg(format!("-I{}", dir.display()))
        .arg("-imacros")
        .arg(dir.join("uk_config.h"))
        .arg(&src)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
