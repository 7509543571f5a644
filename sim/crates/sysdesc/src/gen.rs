//! The C a system description turns into: `uk_config.h` (the kernel configuration macros),
//! `uk_gen.h` (the declared objects and the functions the application must define) and
//! `uk_gen.c` (the objects, defined statically, and `uk__gen_init`, which `uk_init()` calls to
//! create them).
//!
//! Files are written only when their content changes, so that a make-style rebuild (which
//! compares modification times) recompiles nothing after an unchanged description.

use crate::objects::{Arg, QueueKind, TaskStart, TimerAction};
use crate::{Os, SystemDesc};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The name of the generated configuration header.
pub const CONFIG_HEADER: &str = "uk_config.h";
/// The name of the generated header the application includes for the declared objects.
pub const GEN_HEADER: &str = "uk_gen.h";
/// The name of the generated C source.
pub const GEN_SOURCE: &str = "uk_gen.c";
/// The exit code of an image whose start-up (a kernel call of `uk__gen_init`) failed.
pub const EXIT_GEN_STARTUP: u8 = 61;

const BANNER: &str =
    "/* Generated from system.toml by `ubik gen` (or `ubik build`): do not edit. */\n";

/// The text of `uk_config.h`.
///
/// Defines `UK_CONFIG_SCHED_<NAME> 1` for the selected scheduler only (test it with
/// `#ifdef`/`#if defined`), `UK_CONFIG_SCHED_NAME`, `UK_TICK_HZ`, `UK_TIMESLICE_TICKS`,
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
    s.push_str(&format!("#define UK_TICK_HZ {}\n", k.tick_hz));
    s.push_str(&format!(
        "#define UK_TIMESLICE_TICKS {}\n",
        k.timeslice_ticks
    ));
    s.push_str(&format!("#define UK_IRQ_STACK_BYTES {}\n", k.irq_stack_bytes));
    s.push_str(&format!("#define UK_IDLE_STACK_BYTES {}\n", k.idle_stack_bytes));
    s.push_str(&format!("#define UK_TICK_START {}u\n", k.tick_start));
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

/// `(void *)...` for an argument.
fn c_arg(a: &Arg) -> String {
    match a {
        Arg::None => "0".into(),
        Arg::Int(n) => format!("(void *)(uintptr_t)0x{n:x}u"),
        Arg::Object(name) => format!("&{name}"),
    }
}

/// The functions the application defines, each once, with its prototype.
fn prototypes(d: &SystemDesc) -> Vec<(String, String)> {
    let o = &d.objects;
    let mut v: Vec<(String, String)> = Vec::new();
    let mut add = |name: &str, proto: String| {
        if !v.iter().any(|(n, _)| n == name) {
            v.push((name.to_string(), proto));
        }
    };
    for t in &o.tasks {
        add(&t.entry, format!("void {}(void *arg);", t.entry));
        if let Some(s) = &t.signal {
            add(s, format!("void {s}(uint32_t sigs);"));
        }
    }
    for t in &o.timers {
        if let TimerAction::Call { function, .. } = &t.action {
            add(
                function,
                format!("void {function}(uk_timer_t *tm, void *arg);"),
            );
        }
    }
    for i in &o.interrupts {
        add(&i.lisr, format!("void {}(unsigned line);", i.lisr));
        if let Some(h) = &i.hisr {
            add(&h.function, format!("void {}(uk_hisr_t *h);", h.function));
        }
    }
    v
}

/// The text of `uk_gen.h`: `extern` declarations of the declared objects (names as in
/// system.toml) and prototypes of the functions system.toml names (the application defines
/// them, with external linkage).
pub fn gen_header(d: &SystemDesc) -> String {
    let mut s = String::new();
    s.push_str(BANNER);
    s.push_str(
        "/* The objects system.toml declares (defined in uk_gen.c, created by uk_init()) and the\n \
         * functions it names, which the application defines. Include it where the objects are used. */\n",
    );
    s.push_str("#ifndef UK_GEN_H\n#define UK_GEN_H\n\n");
    if d.kernel.os == Os::Nos {
        s.push_str("/* [kernel] os = \"nos\": no kernel objects. */\n\n#endif /* UK_GEN_H */\n");
        return s;
    }
    s.push_str("#include <stdint.h>\n#include <ubik/ubik.h>\n");
    let o = &d.objects;
    let mut section = |title: &str, lines: Vec<String>| {
        if !lines.is_empty() {
            let _ = write!(s, "\n/* {title} */\n");
            for l in lines {
                s.push_str(&l);
                s.push('\n');
            }
        }
    };
    section(
        "[task.*]",
        o.tasks
            .iter()
            .map(|t| {
                format!(
                    "extern uk_task_t {}; /* {}(), priority {}, {}-byte stack, {} */",
                    t.name,
                    t.entry,
                    t.priority,
                    t.stack_bytes,
                    match t.start {
                        TaskStart::Active => "active",
                        TaskStart::Suspended => "suspended",
                    }
                )
            })
            .collect(),
    );
    section(
        "[sem.*]",
        o.sems
            .iter()
            .map(|x| {
                format!(
                    "extern uk_sem_t {}; /* initial {}, max {} */",
                    x.name, x.initial, x.max
                )
            })
            .collect(),
    );
    section(
        "[mutex.*]",
        o.mutexes
            .iter()
            .map(|x| format!("extern uk_mutex_t {};", x.name))
            .collect(),
    );
    section(
        "[queue.*]",
        o.queues
            .iter()
            .map(|x| match x.kind {
                QueueKind::Fixed { msg_bytes, capacity } => format!(
                    "extern uk_queue_t {}; /* {capacity} messages of {msg_bytes} bytes */",
                    x.name
                ),
                QueueKind::Variable { max_msg_bytes, capacity } => format!(
                    "extern uk_queue_t {}; /* variable size: {capacity} messages of up to {max_msg_bytes} bytes */",
                    x.name
                ),
            })
            .collect(),
    );
    section(
        "[port.*]",
        o.ports
            .iter()
            .map(|x| format!("extern uk_port_t {}; /* {} pointers */", x.name, x.capacity))
            .collect(),
    );
    section(
        "[flags.*]",
        o.flags
            .iter()
            .map(|x| format!("extern uk_flags_t {};", x.name))
            .collect(),
    );
    section(
        "[heap.*]",
        o.heaps
            .iter()
            .map(|x| format!("extern uk_heap_t {}; /* {} bytes */", x.name, x.bytes))
            .collect(),
    );
    section(
        "[pool.*]",
        o.pools
            .iter()
            .map(|x| {
                format!(
                    "extern uk_pool_t {}; /* {} blocks of {} bytes{} */",
                    x.name,
                    x.count,
                    x.block_bytes,
                    x.heap
                        .as_ref()
                        .map(|h| format!(", from heap {h}"))
                        .unwrap_or_default()
                )
            })
            .collect(),
    );
    section(
        "[timer.*]",
        o.timers
            .iter()
            .map(|x| format!("extern uk_timer_t {};", x.name))
            .collect(),
    );
    section(
        "[interrupt.*]: the HISRs (an interrupt without one has no object)",
        o.interrupts
            .iter()
            .filter_map(|x| {
                x.hisr.as_ref().map(|h| {
                    format!(
                        "extern uk_hisr_t {}; /* line {}, {}(), level {} */",
                        x.name, x.line, h.function, h.priority
                    )
                })
            })
            .collect(),
    );
    section(
        "Functions the application defines",
        prototypes(d).into_iter().map(|(_, p)| p).collect(),
    );
    s.push_str("\n#endif /* UK_GEN_H */\n");
    s
}

/// The text of `uk_gen.c`: every declared object defined statically (stacks and buffers
/// 16-byte aligned) and `uk__gen_init`, which creates them in this order: heaps, pools,
/// semaphores, mutexes, queues, ports, flags, tasks (created suspended, with their slices,
/// signal handlers and power classes), HISRs, timers, LISRs; then it activates the active
/// tasks (in the order written) and starts the running timers. A call that fails prints one
/// line, `ubik: start-up: CALL [system.toml:LINE] returned N (UK_E...)`, and exits with
/// [`EXIT_GEN_STARTUP`]. Without objects, `uk__gen_init` is not defined (the kernel's weak
/// one does nothing).
pub fn gen_source(d: &SystemDesc) -> String {
    let mut s = String::new();
    s.push_str(BANNER);
    if d.kernel.os == Os::Nos || d.objects.is_empty() {
        s.push_str(
            "/* system.toml declares no objects: nothing to create. */\n#include \"uk_config.h\"\n",
        );
        return s;
    }
    let o = &d.objects;
    // Start-up messages name the description file (its last component) and the line.
    let any_at = [
        o.heaps.first().map(|x| &x.at),
        o.pools.first().map(|x| &x.at),
        o.sems.first().map(|x| &x.at),
        o.mutexes.first().map(|x| &x.at),
        o.queues.first().map(|x| &x.at),
        o.ports.first().map(|x| &x.at),
        o.flags.first().map(|x| &x.at),
        o.tasks.first().map(|x| &x.at),
        o.timers.first().map(|x| &x.at),
        o.interrupts.first().map(|x| &x.at),
    ]
    .into_iter()
    .flatten()
    .next();
    let file = any_at
        .and_then(|a| {
            Path::new(&a.file)
                .file_name()
                .map(|f| f.to_string_lossy().into_owned())
        })
        .unwrap_or_else(|| "system.toml".into())
        .replace(['"', '\\', '\n'], "_");
    s.push_str(
        "/* The objects system.toml declares, defined statically and created by uk__gen_init(),\n \
         * which uk_init() calls. A call that fails at start-up prints one line and exits with\n \
         * code 61. */\n",
    );
    s.push_str("#include \"uk_config.h\"\n#include \"uk_gen.h\"\n#include \"bsp/bsp.h\"\n");

    // ---- Storage.
    let words = |bytes: u64| (bytes + 3) / 4;
    let aligned = "__attribute__((aligned(16)))";
    s.push_str("\n/* ---- The objects and their memory. */\n");
    for x in &o.heaps {
        let _ = writeln!(s, "uk_heap_t {};", x.name);
        let _ = writeln!(
            s,
            "static uint32_t uk__gen_heap_{}[{}] {aligned};",
            x.name,
            words(x.bytes as u64)
        );
    }
    for x in &o.pools {
        let _ = writeln!(s, "uk_pool_t {};", x.name);
        if x.heap.is_none() {
            let _ = writeln!(
                s,
                "static uint32_t uk__gen_pool_{}[{}] {aligned};",
                x.name,
                words(x.block_bytes as u64 * x.count as u64)
            );
        }
    }
    for x in &o.sems {
        let _ = writeln!(s, "uk_sem_t {};", x.name);
    }
    for x in &o.mutexes {
        let _ = writeln!(s, "uk_mutex_t {};", x.name);
    }
    for x in &o.queues {
        let _ = writeln!(s, "uk_queue_t {};", x.name);
        let _ = writeln!(
            s,
            "static uint32_t uk__gen_queue_{}[{}] {aligned};",
            x.name,
            words(x.kind.buffer_bytes())
        );
    }
    for x in &o.ports {
        let _ = writeln!(s, "uk_port_t {};", x.name);
        let _ = writeln!(s, "static void *uk__gen_port_{}[{}];", x.name, x.capacity);
    }
    for x in &o.flags {
        let _ = writeln!(s, "uk_flags_t {};", x.name);
    }
    for x in &o.tasks {
        let _ = writeln!(s, "uk_task_t {};", x.name);
        let _ = writeln!(
            s,
            "static uint32_t uk__gen_stack_{}[{}] {aligned};",
            x.name,
            x.stack_bytes / 4
        );
    }
    for x in &o.timers {
        let _ = writeln!(s, "uk_timer_t {};", x.name);
    }
    for x in &o.interrupts {
        if let Some(h) = &x.hisr {
            let _ = writeln!(s, "uk_hisr_t {};", x.name);
            let _ = writeln!(
                s,
                "static uint32_t uk__gen_hisr_stack_{}[{}] {aligned};",
                x.name,
                h.stack_bytes / 4
            );
        }
    }

    // ---- Start-up.
    s.push_str(
        "\n/* ---- Start-up: a failed call is reported, never ignored. */\n\
         static const char *uk__gen_error(int r)\n{\n    switch (r) {\n",
    );
    for (name, v) in [
        ("UK_ETIMEOUT", -1),
        ("UK_EAGAIN", -2),
        ("UK_EINVAL", -3),
        ("UK_EPERM", -4),
        ("UK_ENOMEM", -5),
        ("UK_EDELETED", -6),
        ("UK_ESTATE", -7),
        ("UK_EINTR", -8),
    ] {
        let _ = writeln!(s, "    case {v}: return \"{name}\";");
    }
    s.push_str("    default: return \"an unknown error\";\n    }\n}\n\n");
    let _ = write!(
        s,
        "static void uk__gen_check(int r, const char *call)\n{{\n    if (r != UK_OK) {{\n        \
         bsp_printf(\"ubik: start-up: %s returned %d (%s); expected UK_OK\\n\", call, r, uk__gen_error(r));\n        \
         bsp_exit({EXIT_GEN_STARTUP});\n    }}\n}}\n\n"
    );
    s.push_str("void uk__gen_init(void);\n\nvoid uk__gen_init(void)\n{\n");
    let mut call = |c: String, what: String, line: usize| {
        let _ = writeln!(
            s,
            "    uk__gen_check({c},\n                  \"{what} [{file}:{line}]\");"
        );
    };
    for x in &o.heaps {
        call(
            format!(
                "uk_heap_init(&{0}, uk__gen_heap_{0}, sizeof uk__gen_heap_{0})",
                x.name
            ),
            format!("uk_heap_init({})", x.name),
            x.at.line,
        );
    }
    for x in &o.pools {
        match &x.heap {
            Some(h) => call(
                format!(
                    "uk_pool_create(&{}, &{h}, {}, {})",
                    x.name, x.block_bytes, x.count
                ),
                format!("uk_pool_create({})", x.name),
                x.at.line,
            ),
            None => call(
                format!(
                    "uk_pool_init(&{0}, uk__gen_pool_{0}, {1}, {2})",
                    x.name, x.block_bytes, x.count
                ),
                format!("uk_pool_init({})", x.name),
                x.at.line,
            ),
        }
    }
    for x in &o.sems {
        call(
            format!("uk_sem_init(&{}, {}u, {}u)", x.name, x.initial, x.max),
            format!("uk_sem_init({})", x.name),
            x.at.line,
        );
    }
    for x in &o.mutexes {
        call(
            format!("uk_mutex_init(&{})", x.name),
            format!("uk_mutex_init({})", x.name),
            x.at.line,
        );
    }
    for x in &o.queues {
        match x.kind {
            QueueKind::Fixed { msg_bytes, capacity } => call(
                format!("uk_queue_init(&{0}, uk__gen_queue_{0}, {msg_bytes}, {capacity})", x.name),
                format!("uk_queue_init({})", x.name),
                x.at.line,
            ),
            QueueKind::Variable { max_msg_bytes, .. } => call(
                format!(
                    "uk_queue_init_var(&{0}, uk__gen_queue_{0}, sizeof uk__gen_queue_{0}, {max_msg_bytes})",
                    x.name
                ),
                format!("uk_queue_init_var({})", x.name),
                x.at.line,
            ),
        }
    }
    for x in &o.ports {
        call(
            format!(
                "uk_port_init(&{0}, uk__gen_port_{0}, {1})",
                x.name, x.capacity
            ),
            format!("uk_port_init({})", x.name),
            x.at.line,
        );
    }
    for x in &o.flags {
        call(
            format!("uk_flags_init(&{})", x.name),
            format!("uk_flags_init({})", x.name),
            x.at.line,
        );
        if x.initial != 0 {
            call(
                format!("uk_flags_set(&{}, 0x{:x}u)", x.name, x.initial),
                format!("uk_flags_set({})", x.name),
                x.at.line,
            );
        }
    }
    for x in &o.tasks {
        call(
            format!(
                "uk_task_create(&{0}, \"{0}\", {1}, {2}, {3}, uk__gen_stack_{0}, sizeof uk__gen_stack_{0})",
                x.name,
                x.entry,
                c_arg(&x.arg),
                x.priority
            ),
            format!("uk_task_create({})", x.name),
            x.at.line,
        );
        if let Some(n) = x.slice {
            call(
                format!("uk_task_set_slice(&{}, {n})", x.name),
                format!("uk_task_set_slice({})", x.name),
                x.at.line,
            );
        }
        if let Some(f) = &x.signal {
            call(
                format!("uk_signal_handler(&{}, {f})", x.name),
                format!("uk_signal_handler({})", x.name),
                x.at.line,
            );
        }
        if let Some(c) = x.power_class {
            call(
                format!("uk_task_set_power_class(&{}, {})", x.name, c.c_name()),
                format!("uk_task_set_power_class({})", x.name),
                x.at.line,
            );
        }
    }
    for x in &o.interrupts {
        if let Some(h) = &x.hisr {
            call(
                format!(
                    "uk_hisr_create(&{0}, \"{0}\", {1}, {2}, uk__gen_hisr_stack_{0}, sizeof uk__gen_hisr_stack_{0})",
                    x.name, h.function, h.priority
                ),
                format!("uk_hisr_create({})", x.name),
                x.at.line,
            );
        }
    }
    for x in &o.timers {
        let c = match &x.action {
            TimerAction::Call { function, arg } => {
                format!("uk_timer_init(&{}, {function}, {})", x.name, c_arg(arg))
            }
            TimerAction::Activate { task } => format!("uk_timer_init_task(&{}, &{task})", x.name),
            TimerAction::SetFlags { flags, bits } => {
                format!("uk_timer_init_flags(&{}, &{flags}, 0x{bits:x}u)", x.name)
            }
        };
        let what = c[..c.find('(').unwrap_or(c.len())].to_string();
        call(c, format!("{what}({})", x.name), x.at.line);
    }
    for x in &o.interrupts {
        call(
            format!("uk_irq_install({}, {})", x.line, x.lisr),
            format!("uk_irq_install({})", x.name),
            x.at.line,
        );
    }
    for x in o.tasks.iter().filter(|t| t.start == TaskStart::Active) {
        call(
            format!("uk_task_activate(&{})", x.name),
            format!("uk_task_activate({})", x.name),
            x.at.line,
        );
    }
    for x in &o.timers {
        if let Some((delay, period)) = x.start {
            call(
                format!("uk_timer_start(&{}, {delay}, {period})", x.name),
                format!("uk_timer_start({})", x.name),
                x.at.line,
            );
        }
    }
    s.push_str("}\n");
    s
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

    const APP: &str = r#"[kernel]
scheduler = "prio"
[task.producer]
entry = "produce"
priority = 2
arg = "items"
[task.consumer]
entry = "consume"
priority = 1
stack_bytes = 512
start = "suspended"
slice = 3
signal = "on_sig"
power_class = "low"
[sem.s]
initial = 1
max = 2
[mutex.m]
[queue.items]
msg_bytes = 6
capacity = 3
[queue.v]
max_msg_bytes = 5
capacity = 2
[port.p]
capacity = 4
[flags.f]
initial = 0x30
[heap.h]
bytes = 256
[pool.a]
block_bytes = 12
count = 3
[pool.b]
block_bytes = 8
count = 2
heap = "h"
[timer.t1]
call = "tick"
arg = 9
delay = 4
period = 2
[timer.t2]
activate = "consumer"
delay = 10
[timer.t3]
flags = "f"
bits = 0x1
start = "stopped"
[interrupt.rx]
line = 5
lisr = "rx_lisr"
hisr = "rx_hisr"
hisr_priority = 3
hisr_stack_bytes = 384
[interrupt.tx]
line = 6
lisr = "rx_lisr"
"#;

    #[test]
    fn header_declares_every_object_and_function() {
        let d = SystemDesc::from_str(APP, "apps/x/system.toml").unwrap();
        let h = gen_header(&d);
        for want in [
            "#include <ubik/ubik.h>\n",
            "extern uk_task_t producer; /* produce(), priority 2, 1024-byte stack, active */\n",
            "extern uk_task_t consumer; /* consume(), priority 1, 512-byte stack, suspended */\n",
            "extern uk_sem_t s; /* initial 1, max 2 */\n",
            "extern uk_mutex_t m;\n",
            "extern uk_queue_t items; /* 3 messages of 6 bytes */\n",
            "extern uk_queue_t v; /* variable size: 2 messages of up to 5 bytes */\n",
            "extern uk_port_t p; /* 4 pointers */\n",
            "extern uk_flags_t f;\n",
            "extern uk_heap_t h; /* 256 bytes */\n",
            "extern uk_pool_t a; /* 3 blocks of 12 bytes */\n",
            "extern uk_pool_t b; /* 2 blocks of 8 bytes, from heap h */\n",
            "extern uk_timer_t t1;\n",
            "extern uk_hisr_t rx; /* line 5, rx_hisr(), level 3 */\n",
            "void produce(void *arg);\n",
            "void consume(void *arg);\n",
            "void on_sig(uint32_t sigs);\n",
            "void tick(uk_timer_t *tm, void *arg);\n",
            "void rx_lisr(unsigned line);\n",
            "void rx_hisr(uk_hisr_t *h);\n",
        ] {
            assert!(h.contains(want), "missing {want:?} in\n{h}");
        }
        // tx has no HISR: no object; rx_lisr is declared once.
        assert!(!h.contains(" tx;"), "{h}");
        assert_eq!(h.matches("void rx_lisr(unsigned line);").count(), 1, "{h}");
    }

    #[test]
    fn source_defines_and_creates_in_order() {
        let d = SystemDesc::from_str(APP, "apps/x/system.toml").unwrap();
        let c = gen_source(&d);
        for want in [
            "#include \"uk_gen.h\"\n",
            "uk_task_t producer;\nstatic uint32_t uk__gen_stack_producer[256] __attribute__((aligned(16)));\n",
            "static uint32_t uk__gen_stack_consumer[128] __attribute__((aligned(16)));\n",
            "static uint32_t uk__gen_queue_items[5] __attribute__((aligned(16)));\n",
            "static uint32_t uk__gen_queue_v[6] __attribute__((aligned(16)));\n",
            "static void *uk__gen_port_p[4];\n",
            "static uint32_t uk__gen_heap_h[64] __attribute__((aligned(16)));\n",
            "static uint32_t uk__gen_pool_a[9] __attribute__((aligned(16)));\n",
            "static uint32_t uk__gen_hisr_stack_rx[96] __attribute__((aligned(16)));\n",
            "bsp_exit(61);",
            "case -3: return \"UK_EINVAL\";",
        ] {
            assert!(c.contains(want), "missing {want:?} in\n{c}");
        }
        assert!(
            !c.contains("uk__gen_pool_b"),
            "a carved pool has no buffer: {c}"
        );
        // The calls of uk__gen_init, in order, with their messages.
        let body = &c[c.find("void uk__gen_init(void)\n{").expect("uk__gen_init")..];
        let calls: Vec<&str> = body
            .lines()
            .filter_map(|l| l.trim().strip_prefix("uk__gen_check("))
            .collect();
        assert_eq!(
            calls,
            [
                "uk_heap_init(&h, uk__gen_heap_h, sizeof uk__gen_heap_h),",
                "uk_pool_init(&a, uk__gen_pool_a, 12, 3),",
                "uk_pool_create(&b, &h, 8, 2),",
                "uk_sem_init(&s, 1u, 2u),",
                "uk_mutex_init(&m),",
                "uk_queue_init(&items, uk__gen_queue_items, 6, 3),",
                "uk_queue_init_var(&v, uk__gen_queue_v, sizeof uk__gen_queue_v, 5),",
                "uk_port_init(&p, uk__gen_port_p, 4),",
                "uk_flags_init(&f),",
                "uk_flags_set(&f, 0x30u),",
                "uk_task_create(&producer, \"producer\", produce, &items, 2, uk__gen_stack_producer, sizeof uk__gen_stack_producer),",
                "uk_task_create(&consumer, \"consumer\", consume, 0, 1, uk__gen_stack_consumer, sizeof uk__gen_stack_consumer),",
                "uk_task_set_slice(&consumer, 3),",
                "uk_signal_handler(&consumer, on_sig),",
                "uk_task_set_power_class(&consumer, UK_POWER_LOW),",
                "uk_hisr_create(&rx, \"rx\", rx_hisr, 3, uk__gen_hisr_stack_rx, sizeof uk__gen_hisr_stack_rx),",
                "uk_timer_init(&t1, tick, (void *)(uintptr_t)0x9u),",
                "uk_timer_init_task(&t2, &consumer),",
                "uk_timer_init_flags(&t3, &f, 0x1u),",
                "uk_irq_install(5, rx_lisr),",
                "uk_irq_install(6, rx_lisr),",
                "uk_task_activate(&producer),",
                "uk_timer_start(&t1, 4, 2),",
                "uk_timer_start(&t2, 10, 0),",
            ]
        );
        // Each failure names the call, the object and its line in the description file.
        assert!(
            body.contains("\"uk_task_create(consumer) [system.toml:7]\");"),
            "{body}"
        );
        assert!(
            body.contains("\"uk_irq_install(tx) [system.toml:56]\");"),
            "{body}"
        );
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
