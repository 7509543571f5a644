//! The C a system description turns into: `uk_config.h` (the kernel configuration macros),
//! `uk_gen.h` (the declared objects and the functions the application must define) and
//! `uk_gen.c` (the objects, defined statically, and `uk__gen_init`, which `uk_init()` calls to
//! create them).
//!
//! Files are written only when their content changes, so that a make-style rebuild (which
//! compares modification times) recompiles nothing after an unchanged description.

use crate::SystemDesc;
use std::path::{Path, PathBuf};

/// The name of the generated configuration header.
pub const CONFIG_HEADER: &str = "uk_config.h";
/// The name of the generated header the application includes for the declared objects.
pub const GEN_HEADER: &str = "uk_gen.h";
/// The name of the generated C source.
pub const GEN_SOURCE: &str = "uk_gen.c";
/// The exit code of an image whose start-up (a kernel call of `uk__gen_init`) failed.
pub const EXIT_GEN_STARTUP: u8 = 61;

pub(crate) const BANNER: &str =
    "/* Generated from system.toml by `ubik gen` (or `ubik build`): do not edit. */\n";

/// The text of `uk_config.h`.
///
/// Defines `UK_CONFIG_SCHED_<NAME> 1` for the selected scheduler only (test it with
/// `#ifdef`/`#if defined`), `UK_CONFIG_SCHED_NAME`, the policy's `UK_POLICY_PRIOS` (priorities,
/// the idle task's included) and `UK_POLICY_UNIQUE_PRIOS`, `UK_TICK_HZ`, `UK_TIMESLICE_TICKS`,
/// `UK_IRQ_STACK_BYTES`, `UK_IDLE_STACK_BYTES`, `UK_TICK_START`, `UK_FEATURE_<NAME> 1` for each enabled feature only, and the power policy
/// (`UK_POWER_POLICY`, the value of its `uk_power_policy_t`).
pub fn config_header(d: &SystemDesc) -> String {
    let k = &d.kernel;
    let mut s = String::new();
    s.push_str(BANNER);
    s.push_str("#ifndef UK_CONFIG_H\n#define UK_CONFIG_H\n\n");
    s.push_str("/* [kernel] os: the operating system of the image. */\n");
    s.push_str(&format!("#define {} 1\n", k.os.macro_name()));
    s.push_str(&format!(
        "#define UK_CONFIG_OS_NAME \"{}\"\n\n",
        k.os.name()
    ));
    s.push_str("/* [kernel] scheduler: exactly one UK_CONFIG_SCHED_* is defined. */\n");
    s.push_str(&format!("#define {} 1\n", k.scheduler.macro_name()));
    s.push_str(&format!(
        "#define UK_CONFIG_SCHED_NAME \"{}\"\n",
        k.scheduler.name()
    ));
    // What the kernel's core needs to know of the policy (sysdesc::POLICIES).
    let policy = k.scheduler.policy();
    s.push_str(&format!(
        "#define UK_POLICY_PRIOS {}\n#define UK_POLICY_UNIQUE_PRIOS {}\n#define UK_POLICY_TIME_SLICES {}\n#define UK_POLICY_DEADLINES {}\n#define UK_POLICY_RTM {}\n",
        k.prios(),
        policy.unique_priorities as u32,
        policy.time_slices as u32,
        policy.deadlines as u32,
        policy.task_manager as u32
    ));
    s.push_str(&format!("#define UK_TICK_HZ {}\n", k.tick_hz));
    s.push_str(&format!(
        "#define UK_TIMESLICE_TICKS {}\n",
        k.timeslice_ticks
    ));
    s.push_str(&format!(
        "#define UK_IRQ_STACK_BYTES {}\n",
        k.irq_stack_bytes
    ));
    s.push_str(&format!(
        "#define UK_IDLE_STACK_BYTES {}\n",
        k.idle_stack_bytes
    ));
    s.push_str(&format!("#define UK_TICK_START {}u\n", k.tick_start));
    if k.minimal {
        s.push_str("/* [kernel] profile = \"minimal\": argument checks compiled out. */\n");
        s.push_str("#define UK_CONFIG_PROFILE_MINIMAL 1\n");
    }
    if k.checks_full {
        s.push_str("/* [kernel] checks = \"full\": invariants asserted at every kernel exit. */\n");
        s.push_str("#define UK_CONFIG_CHECKS_FULL 1\n");
    }
    s.push_str(
        "\n/* [kernel] features: defined (to 1) only when enabled (every service is listed). */\n",
    );
    s.push_str("#define UK_CONFIG_SERVICE_FEATURES 1\n");
    for f in &k.features {
        s.push_str(&format!(
            "#define UK_FEATURE_{} 1\n",
            f.to_ascii_uppercase()
        ));
    }
    s.push_str(
        "\n/* [power] policy: the DPM policy at start-up (uk_power_policy_t of ubik/power.h). */\n",
    );
    s.push_str(&format!(
        "#define UK_POWER_POLICY {}\n",
        d.power.policy.value()
    ));
    s.push_str(&format!(
        "#define UK_CONFIG_POWER_POLICY_NAME \"{}\"\n",
        d.power.policy.name()
    ));
    s.push_str("\n#endif /* UK_CONFIG_H */\n");
    s
}

/// The text of `uk_gen.h`: `extern` declarations of the declared objects (names as in
/// system.toml; an object that has a function's name is `uk__gen_obj_NAME`, reached as
/// `UK_GEN_OBJECT(NAME)`) and prototypes of the functions system.toml names (the application
/// defines them, with external linkage).
pub fn gen_header(d: &SystemDesc) -> String {
    crate::gen_objects::header(d)
}

/// The text of `uk_gen.c`: every declared object defined statically (stacks and buffers
/// 16-byte aligned), a constant table of descriptors per kind, and `uk__gen_init`, which walks
/// them to create the objects in this order: heaps, pools, semaphores, mutexes, queues, ports,
/// flags, tasks (created suspended, with their slices, signal handlers and power classes),
/// HISRs, timers, LISRs; then it activates the active tasks (in the order written) and starts
/// the running timers. A call that fails prints one line, `ubik: start-up: CALL(NAME)
/// [system.toml:LINE] returned N (UK_E...)`, and exits with [`EXIT_GEN_STARTUP`]. Without
/// objects, `uk__gen_init` is not defined (the kernel's weak one does nothing). The objects a
/// task can wait on are also listed by name in `uk__debug_objects`, which `uk_debug_info`
/// (version 4) points at (`crate::gen_names`).
pub fn gen_source(d: &SystemDesc) -> String {
    crate::gen_objects::source(d)
}

/// Writes `content` to `path` unless the file already holds exactly that; true if written.
pub fn write_if_changed(path: &Path, content: &str) -> std::io::Result<bool> {
    if let Ok(old) = std::fs::read(path) {
        if old == content.as_bytes() {
            return Ok(false);
        }
    }
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    // Write a sibling then rename, so that an interrupted write never leaves half a file.
    let tmp = path.with_extension("tmp~");
    std::fs::write(&tmp, content)?;
    std::fs::rename(&tmp, path)?;
    Ok(true)
}

/// Writes `uk_config.h`, `uk_gen.h` and `uk_gen.c` into `dir` (only those that changed).
/// Returns the three paths and whether each was rewritten.
pub fn generate(d: &SystemDesc, dir: &Path) -> std::io::Result<Vec<(PathBuf, bool)>> {
    let mut out = Vec::new();
    for (name, text) in [
        (CONFIG_HEADER, config_header(d)),
        (GEN_HEADER, gen_header(d)),
        (GEN_SOURCE, gen_source(d)),
    ] {
        let p = dir.join(name);
        let changed = write_if_changed(&p, &text)?;
        out.push((p, changed));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_header_exactly() {
        let h = config_header(&SystemDesc::default());
        let defines: Vec<&str> = h.lines().filter(|l| l.starts_with("#define")).collect();
        assert_eq!(
            defines,
            vec![
                "#define UK_CONFIG_H",
                "#define UK_CONFIG_OS_UBIK 1",
                "#define UK_CONFIG_OS_NAME \"ubik\"",
                "#define UK_CONFIG_SCHED_PRIO 1",
                "#define UK_CONFIG_SCHED_NAME \"prio\"",
                "#define UK_POLICY_PRIOS 256",
                "#define UK_POLICY_UNIQUE_PRIOS 0",
                "#define UK_POLICY_TIME_SLICES 0",
                "#define UK_POLICY_DEADLINES 0",
                "#define UK_POLICY_RTM 0",
                "#define UK_TICK_HZ 1000",
                "#define UK_TIMESLICE_TICKS 10",
                "#define UK_IRQ_STACK_BYTES 1024",
                "#define UK_IDLE_STACK_BYTES 512",
                "#define UK_TICK_START 0u",
                "#define UK_CONFIG_SERVICE_FEATURES 1",
                "#define UK_FEATURE_SEM 1",
                "#define UK_FEATURE_MUTEX 1",
                "#define UK_FEATURE_HISR 1",
                "#define UK_FEATURE_STACK_CHECK 1",
                "#define UK_FEATURE_QUEUE 1",
                "#define UK_FEATURE_PORT 1",
                "#define UK_FEATURE_TASKPORT 1",
                "#define UK_FEATURE_FLAGS 1",
                "#define UK_FEATURE_SIGNAL 1",
                "#define UK_FEATURE_TIMER 1",
                "#define UK_FEATURE_POOL 1",
                "#define UK_FEATURE_HEAP 1",
                "#define UK_POWER_POLICY 0",
                "#define UK_CONFIG_POWER_POLICY_NAME \"default\"",
            ]
        );
    }

    #[test]
    fn power_policy_macro() {
        let d = SystemDesc::from_str("[power]\npolicy = \"ls2\"\n", "s.toml").unwrap();
        let h = config_header(&d);
        assert!(h.contains("#define UK_FEATURE_POWER 1\n"), "{h}");
        assert!(h.contains("#define UK_POWER_POLICY 4\n"), "{h}");
        assert!(
            h.contains("#define UK_CONFIG_POWER_POLICY_NAME \"ls2\"\n"),
            "{h}"
        );
    }

    #[test]
    fn no_objects_no_init() {
        let d = SystemDesc::default();
        let c = gen_source(&d);
        assert!(!c.contains("uk__gen_init"), "{c}");
        let h = gen_header(&d);
        assert!(h.contains("#include <ubik/ubik.h>"), "{h}");
        assert!(!h.contains("extern"), "{h}");
        let nos = SystemDesc::from_str("[kernel]\nos = \"nos\"\n", "s.toml").unwrap();
        assert!(!gen_header(&nos).contains("ubik.h"));
        assert!(!gen_source(&nos).contains("uk__gen_init"));
    }

    #[test]
    fn header_follows_the_description() {
        let d = SystemDesc::from_str(
            "[kernel]\nscheduler = \"prio_rr\"\ntick_hz = 250\ntimeslice_ticks = 4\nfeatures = [\"sem\"]\n\
             irq_stack_bytes = 2048\nidle_stack_bytes = 768\ntick_start = 4294967280\n",
            "s.toml",
        )
        .unwrap();
        let h = config_header(&d);
        assert!(h.contains("#define UK_CONFIG_SCHED_PRIO_RR 1\n"));
        assert!(!h.contains("UK_CONFIG_SCHED_PRIO 1"));
        assert!(h.contains("#define UK_CONFIG_SCHED_NAME \"prio_rr\"\n"));
        assert!(h.contains("#define UK_TICK_HZ 250\n"));
        assert!(h.contains("#define UK_TIMESLICE_TICKS 4\n"));
        assert!(h.contains("#define UK_IRQ_STACK_BYTES 2048\n"));
        assert!(h.contains("#define UK_IDLE_STACK_BYTES 768\n"));
        assert!(h.contains("#define UK_TICK_START 4294967280u\n"));
        assert!(h.contains("#define UK_FEATURE_SEM 1\n"));
        assert!(!h.contains("UK_FEATURE_MUTEX"));
    }

    #[test]
    fn writes_only_changes() {
        let dir = std::env::temp_dir().join(format!("ubik-sysdesc-gen-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let d = SystemDesc::default();
        let first = generate(&d, &dir).unwrap();
        assert!(first.iter().all(|(_, c)| *c));
        let second = generate(&d, &dir).unwrap();
        assert!(second.iter().all(|(_, c)| !*c));
        let mut d2 = d.clone();
        d2.kernel.tick_hz = 500;
        let third = generate(&d2, &dir).unwrap();
        assert_eq!(
            third.iter().map(|(_, c)| *c).collect::<Vec<_>>(),
            vec![true, false, false]
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
