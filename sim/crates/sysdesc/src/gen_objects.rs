//! `uk_gen.h` and `uk_gen.c`: the declared objects and the start-up that creates them.
//!
//! `uk_gen.c` defines every object and its memory statically, then describes the objects in
//! one constant table per kind (a descriptor per object, in the order written), which
//! `uk__gen_init` walks with one loop per kind. The code is the same for 1 object or 10,000:
//! only the tables grow, by a line per object, so GCC compiles it in linear time (code per
//! object, as before, took GCC -O2 over a minute for 1,000 tasks).
//!
//! Names: every object is the C identifier of its name, except an object that has the name
//! of a function the description names (a task named as its entry): the function keeps the
//! name and the object is `uk__gen_obj_NAME`, reached as `UK_GEN_OBJECT(NAME)`. The generated
//! code's own identifiers are `uk__gen_check`, `uk__gen_init` and
//! `uk__gen_FAMILY_SUFFIX` with FAMILY one of `heap`, `pool`, `queue`, `port`, `stack`,
//! `hisr_stack`, `obj` (SUFFIX an object's name) and `table` (SUFFIX a kind): no family is a
//! prefix of another, so no name can make two of them equal.

use crate::objects::{Arg, Hisr, Interrupt, Objects, QueueKind, TaskStart, TimerAction};
use crate::{Os, SystemDesc};
use std::borrow::Cow;
use std::collections::HashSet;
use std::fmt::Write as _;
use std::path::Path;

use crate::gen::{BANNER, EXIT_GEN_STARTUP};

/// The prefix of the symbol of an object that has a function's name.
const OBJECT_SYMBOL_PREFIX: &str = "uk__gen_obj_";

/// The C symbols of the objects.
struct Symbols<'a> {
    /// The functions the description names.
    functions: HashSet<&'a str>,
}

impl<'a> Symbols<'a> {
    fn new(d: &'a SystemDesc) -> Symbols<'a> {
        Symbols {
            functions: prototypes(d).into_iter().map(|(n, _)| n).collect(),
        }
    }

    /// True when the object `name` cannot have its name in C (a function has it).
    fn renamed(&self, name: &str) -> bool {
        self.functions.contains(name)
    }

    /// The C symbol of the object `name`.
    fn object(&self, name: &'a str) -> Cow<'a, str> {
        if self.renamed(name) {
            Cow::Owned(format!("{OBJECT_SYMBOL_PREFIX}{name}"))
        } else {
            Cow::Borrowed(name)
        }
    }

    /// `extern TYPE NAME; /* comment */`, saying so when the object is renamed.
    fn decl(&self, c_type: &str, name: &str, comment: String) -> String {
        if self.renamed(name) {
            format!(
            "extern {c_type} {OBJECT_SYMBOL_PREFIX}{name}; /* \"{name}\", UK_GEN_OBJECT({name}) (a function has its name){} */",
            if comment.is_empty() { String::new() } else { format!(": {comment}") }
        )
        } else if comment.is_empty() {
            format!("extern {c_type} {name};")
        } else {
            format!("extern {c_type} {name}; /* {comment} */")
        }
    }

    /// `(void *)...` for an argument.
    fn arg(&self, a: &'a Arg) -> String {
        match a {
            Arg::None => "0".into(),
            Arg::Int(n) => format!("(void *)(uintptr_t)0x{n:x}u"),
            Arg::Object(name) => format!("&{}", self.object(name)),
        }
    }
}

/// The functions the application defines, each once, in the order first named, with its
/// prototype.
fn prototypes<'a>(d: &'a SystemDesc) -> Vec<(&'a str, String)> {
    let o = &d.objects;
    let mut seen: HashSet<&str> = HashSet::new();
    let mut v: Vec<(&str, String)> = Vec::new();
    let mut add = |name: &'a str, proto: String| {
        if seen.insert(name) {
            v.push((name, proto));
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

/// The text of `uk_gen.h` (see [`crate::gen::gen_header`]).
pub(crate) fn header(d: &SystemDesc) -> String {
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
    let sym = Symbols::new(d);
    let all_names = o
        .tasks
        .iter()
        .map(|x| &x.name)
        .chain(o.sems.iter().map(|x| &x.name))
        .chain(o.mutexes.iter().map(|x| &x.name))
        .chain(o.queues.iter().map(|x| &x.name))
        .chain(o.ports.iter().map(|x| &x.name))
        .chain(o.flags.iter().map(|x| &x.name))
        .chain(o.heaps.iter().map(|x| &x.name))
        .chain(o.pools.iter().map(|x| &x.name))
        .chain(o.timers.iter().map(|x| &x.name))
        .chain(
            o.interrupts
                .iter()
                .filter(|x| x.hisr.is_some())
                .map(|x| &x.name),
        );
    if all_names.into_iter().any(|n| sym.renamed(n)) {
        s.push_str(
            "\n/* An object that has the name of a function of system.toml (a task named as its\n \
             * entry): the function keeps the name, the object is UK_GEN_OBJECT(NAME), its address. */\n\
             #define UK_GEN_OBJECT(name) (&uk__gen_obj_##name)\n",
        );
    }
    declarations(&mut s, o, &sym);
    section(
        &mut s,
        "Functions the application defines",
        prototypes(d).into_iter().map(|(_, p)| p).collect(),
    );
    s.push_str("\n#endif /* UK_GEN_H */\n");
    s
}

/// The `extern` declarations of the objects, a section per kind.
fn declarations<'a>(s: &mut String, o: &'a Objects, sym: &Symbols<'a>) {
    section(
        s,
        "[task.*]",
        o.tasks
            .iter()
            .map(|t| {
                sym.decl(
                    "uk_task_t",
                    &t.name,
                    format!(
                        "{}(), priority {}, {}-byte stack, {}",
                        t.entry,
                        t.priority,
                        t.stack_bytes,
                        match t.start {
                            TaskStart::Active => "active",
                            TaskStart::Suspended => "suspended",
                        }
                    ),
                )
            })
            .collect(),
    );
    section(
        s,
        "[sem.*]",
        o.sems
            .iter()
            .map(|x| {
                sym.decl(
                    "uk_sem_t",
                    &x.name,
                    format!("initial {}, max {}", x.initial, x.max),
                )
            })
            .collect(),
    );
    section(
        s,
        "[mutex.*]",
        o.mutexes
            .iter()
            .map(|x| sym.decl("uk_mutex_t", &x.name, String::new()))
            .collect(),
    );
    section(
        s,
        "[queue.*]",
        o.queues
            .iter()
            .map(|x| {
                let comment = match x.kind {
                    QueueKind::Fixed {
                        msg_bytes,
                        capacity,
                    } => format!("{capacity} messages of {msg_bytes} bytes"),
                    QueueKind::Variable {
                        max_msg_bytes,
                        capacity,
                    } => {
                        format!("variable size: {capacity} messages of up to {max_msg_bytes} bytes")
                    }
                };
                sym.decl("uk_queue_t", &x.name, comment)
            })
            .collect(),
    );
    section(
        s,
        "[port.*]",
        o.ports
            .iter()
            .map(|x| sym.decl("uk_port_t", &x.name, format!("{} pointers", x.capacity)))
            .collect(),
    );
    section(
        s,
        "[flags.*]",
        o.flags
            .iter()
            .map(|x| sym.decl("uk_flags_t", &x.name, String::new()))
            .collect(),
    );
    section(
        s,
        "[heap.*]",
        o.heaps
            .iter()
            .map(|x| sym.decl("uk_heap_t", &x.name, format!("{} bytes", x.bytes)))
            .collect(),
    );
    section(
        s,
        "[pool.*]",
        o.pools
            .iter()
            .map(|x| {
                let from = x
                    .heap
                    .as_ref()
                    .map(|h| format!(", from heap {h}"))
                    .unwrap_or_default();
                sym.decl(
                    "uk_pool_t",
                    &x.name,
                    format!("{} blocks of {} bytes{from}", x.count, x.block_bytes),
                )
            })
            .collect(),
    );
    section(
        s,
        "[timer.*]",
        o.timers
            .iter()
            .map(|x| sym.decl("uk_timer_t", &x.name, String::new()))
            .collect(),
    );
    section(
        s,
        "[interrupt.*]: the HISRs (an interrupt without one has no object)",
        o.interrupts
            .iter()
            .filter_map(|x| {
                x.hisr.as_ref().map(|h| {
                    sym.decl(
                        "uk_hisr_t",
                        &x.name,
                        format!("line {}, {}(), level {}", x.line, h.function, h.priority),
                    )
                })
            })
            .collect(),
    );
}

/// `/* TITLE */` and the lines, when there are any.
fn section(s: &mut String, title: &str, lines: Vec<String>) {
    if !lines.is_empty() {
        let _ = write!(s, "\n/* {title} */\n");
        for l in lines {
            s.push_str(&l);
            s.push('\n');
        }
    }
}

/// A C string literal of an identifier or a file name (quotes, backslashes and newlines
/// replaced, as a file name may have them).
fn c_string(s: &str) -> String {
    format!("\"{}\"", s.replace(['"', '\\', '\n'], "_"))
}

/// One descriptor table: `static const struct uk__gen_KIND { FIELDS } uk__gen_table_KIND[] =
/// { ROWS };`, written only when it has rows.
fn table(s: &mut String, kind: &str, fields: &str, rows: &[String]) {
    if rows.is_empty() {
        return;
    }
    let _ = write!(
        s,
        "\nstatic const struct uk__gen_{kind} {{\n{fields}}} uk__gen_table_{kind}[] = {{\n"
    );
    for r in rows {
        let _ = writeln!(s, "    {{{r}}},");
    }
    s.push_str("};\n");
}

/// The loop over one table: `d` is each descriptor in turn; `body` the statements.
fn walk(s: &mut String, kind: &str, body: &str) {
    let _ = write!(
        s,
        "    for (unsigned i = 0; i < sizeof uk__gen_table_{kind} / sizeof uk__gen_table_{kind}[0]; i++) {{\n        \
         const struct uk__gen_{kind} *d = &uk__gen_table_{kind}[i];\n{body}    }}\n"
    );
}

/// `uk__gen_check(CALL, "NAME", d->name, d->line);` indented for a loop body.
fn check(call: &str, name: &str) -> String {
    format!("        uk__gen_check({call}, \"{name}\", d->name, d->line);\n")
}

/// The text of `uk_gen.c` (see [`crate::gen::gen_source`]).
pub(crate) fn source(d: &SystemDesc) -> String {
    let mut s = String::new();
    s.push_str(BANNER);
    if d.kernel.os == Os::Nos || d.objects.is_empty() {
        s.push_str(
            "/* system.toml declares no objects: nothing to create. */\n#include \"uk_config.h\"\n",
        );
        return s;
    }
    let o = &d.objects;
    let sym = Symbols::new(d);
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
        .unwrap_or_else(|| "system.toml".into());
    s.push_str(
        "/* The objects system.toml declares, defined statically, and their descriptors, one\n \
         * table per kind in the order written, which uk__gen_init() (called by uk_init()) walks\n \
         * to create them. A call that fails at start-up prints one line and exits with code 61. */\n",
    );
    s.push_str("#include \"uk_config.h\"\n#include \"uk_gen.h\"\n#include \"bsp/bsp.h\"\n");

    storage(&mut s, o, &sym);
    descriptors(&mut s, o, &sym);
    startup(&mut s, o, &file);
    s
}

/// The objects and their memory: a definition per object, and the buffer of each that needs
/// one.
fn storage<'a>(s: &mut String, o: &'a Objects, sym: &Symbols<'a>) {
    let words = |bytes: u64| bytes.div_ceil(4);
    let aligned = "__attribute__((aligned(16)))";
    s.push_str("\n/* ---- The objects and their memory. */\n");
    for x in &o.heaps {
        let _ = writeln!(s, "uk_heap_t {};", sym.object(&x.name));
        let _ = writeln!(
            s,
            "static uint32_t uk__gen_heap_{}[{}] {aligned};",
            x.name,
            words(x.bytes as u64)
        );
    }
    for x in &o.pools {
        let _ = writeln!(s, "uk_pool_t {};", sym.object(&x.name));
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
        let _ = writeln!(s, "uk_sem_t {};", sym.object(&x.name));
    }
    for x in &o.mutexes {
        let _ = writeln!(s, "uk_mutex_t {};", sym.object(&x.name));
    }
    for x in &o.queues {
        let _ = writeln!(s, "uk_queue_t {};", sym.object(&x.name));
        let _ = writeln!(
            s,
            "static uint32_t uk__gen_queue_{}[{}] {aligned};",
            x.name,
            words(x.kind.buffer_bytes())
        );
    }
    for x in &o.ports {
        let _ = writeln!(s, "uk_port_t {};", sym.object(&x.name));
        let _ = writeln!(s, "static void *uk__gen_port_{}[{}];", x.name, x.capacity);
    }
    for x in &o.flags {
        let _ = writeln!(s, "uk_flags_t {};", sym.object(&x.name));
    }
    for x in &o.tasks {
        let _ = writeln!(s, "uk_task_t {};", sym.object(&x.name));
        let _ = writeln!(
            s,
            "static uint32_t uk__gen_stack_{}[{}] {aligned};",
            x.name,
            x.stack_bytes / 4
        );
    }
    for x in &o.timers {
        let _ = writeln!(s, "uk_timer_t {};", sym.object(&x.name));
    }
    for x in &o.interrupts {
        if let Some(h) = &x.hisr {
            let _ = writeln!(s, "uk_hisr_t {};", sym.object(&x.name));
            let _ = writeln!(
                s,
                "static uint32_t uk__gen_hisr_stack_{}[{}] {aligned};",
                x.name,
                h.stack_bytes / 4
            );
        }
    }
}

/// The descriptors, one table per kind in the order written. Every row: the object, its
/// parameters, its name and its line in system.toml (for the start-up message).
fn descriptors<'a>(s: &mut String, o: &'a Objects, sym: &Symbols<'a>) {
    s.push_str("\n/* ---- Their descriptors, one table per kind, in the order written. */\n");
    heap_table(s, o, sym);
    pool_table(s, o, sym);
    sem_table(s, o, sym);
    mutex_table(s, o, sym);
    queue_table(s, o, sym);
    port_table(s, o, sym);
    flags_table(s, o, sym);
    task_table(s, o, sym);
    hisr_table(s, o, sym);
    timer_table(s, o, sym);
    irq_table(s, o);
}

/// `"NAME", LINE`: the end of every descriptor row.
fn name_line(name: &str, line: usize) -> String {
    format!("{}, {line}", c_string(name))
}

/// The interrupts that have a HISR, each with it.
fn hisrs(o: &Objects) -> Vec<(&Interrupt, &Hisr)> {
    o.interrupts
        .iter()
        .filter_map(|x| x.hisr.as_ref().map(|h| (x, h)))
        .collect()
}

/// The descriptor table of `[heap.NAME]`.
fn heap_table<'a>(s: &mut String, o: &'a Objects, sym: &Symbols<'a>) {
    table(
        s,
        "heap",
        "    uk_heap_t *heap;\n    void *buf;\n    uint32_t bytes;\n    const char *name;\n    uint32_t line;\n",
        &o.heaps
            .iter()
            .map(|x| {
                format!(
                    "&{}, uk__gen_heap_{1}, sizeof uk__gen_heap_{1}, {2}",
                    sym.object(&x.name),
                    x.name,
                    name_line(&x.name, x.at.line)
                )
            })
            .collect::<Vec<_>>(),
    );
}

/// The descriptor table of `[pool.NAME]`.
fn pool_table<'a>(s: &mut String, o: &'a Objects, sym: &Symbols<'a>) {
    table(
        s,
        "pool",
        "    uk_pool_t *pool;\n    uk_heap_t *heap; /* carved from it, or 0: buf */\n    void *buf;\n    \
         uint32_t block_bytes;\n    uint32_t count;\n    const char *name;\n    uint32_t line;\n",
        &o.pools
            .iter()
            .map(|x| {
                let (heap, buf) = match &x.heap {
                    Some(h) => (format!("&{}", sym.object(h)), "0".to_string()),
                    None => ("0".to_string(), format!("uk__gen_pool_{}", x.name)),
                };
                format!(
                    "&{}, {heap}, {buf}, {}, {}, {}",
                    sym.object(&x.name),
                    x.block_bytes,
                    x.count,
                    name_line(&x.name, x.at.line)
                )
            })
            .collect::<Vec<_>>(),
    );
}

/// The descriptor table of `[sem.NAME]`.
fn sem_table<'a>(s: &mut String, o: &'a Objects, sym: &Symbols<'a>) {
    table(
        s,
        "sem",
        "    uk_sem_t *sem;\n    uint32_t initial;\n    uint32_t max;\n    const char *name;\n    uint32_t line;\n",
        &o.sems
            .iter()
            .map(|x| {
                format!(
                    "&{}, {}u, {}u, {}",
                    sym.object(&x.name),
                    x.initial,
                    x.max,
                    name_line(&x.name, x.at.line)
                )
            })
            .collect::<Vec<_>>(),
    );
}

/// The descriptor table of `[mutex.NAME]`.
fn mutex_table<'a>(s: &mut String, o: &'a Objects, sym: &Symbols<'a>) {
    table(
        s,
        "mutex",
        "    uk_mutex_t *mutex;\n    const char *name;\n    uint32_t line;\n",
        &o.mutexes
            .iter()
            .map(|x| {
                format!(
                    "&{}, {}",
                    sym.object(&x.name),
                    name_line(&x.name, x.at.line)
                )
            })
            .collect::<Vec<_>>(),
    );
}

/// The descriptor table of `[queue.NAME]`.
fn queue_table<'a>(s: &mut String, o: &'a Objects, sym: &Symbols<'a>) {
    table(
        s,
        "queue",
        "    uk_queue_t *queue;\n    void *buf;\n    uint32_t buf_bytes;\n    \
         uint32_t msg_bytes; /* fixed: the size; variable: the largest */\n    uint32_t capacity;\n    \
         const char *name;\n    uint32_t line;\n    uint8_t variable;\n",
        &o.queues
            .iter()
            .map(|x| {
                let (msg, capacity, variable) = match x.kind {
                    QueueKind::Fixed {
                        msg_bytes,
                        capacity,
                    } => (msg_bytes, capacity, 0),
                    QueueKind::Variable {
                        max_msg_bytes,
                        capacity,
                    } => (max_msg_bytes, capacity, 1),
                };
                format!(
                    "&{}, uk__gen_queue_{1}, sizeof uk__gen_queue_{1}, {msg}, {capacity}, {2}, {variable}",
                    sym.object(&x.name),
                    x.name,
                    name_line(&x.name, x.at.line)
                )
            })
            .collect::<Vec<_>>(),
    );
}

/// The descriptor table of `[port.NAME]`.
fn port_table<'a>(s: &mut String, o: &'a Objects, sym: &Symbols<'a>) {
    table(
        s,
        "port",
        "    uk_port_t *port;\n    void **slots;\n    uint32_t capacity;\n    const char *name;\n    uint32_t line;\n",
        &o.ports
            .iter()
            .map(|x| {
                format!(
                    "&{}, uk__gen_port_{}, {}, {}",
                    sym.object(&x.name),
                    x.name,
                    x.capacity,
                    name_line(&x.name, x.at.line)
                )
            })
            .collect::<Vec<_>>(),
    );
}

/// The descriptor table of `[flags.NAME]`.
fn flags_table<'a>(s: &mut String, o: &'a Objects, sym: &Symbols<'a>) {
    table(
        s,
        "flags",
        "    uk_flags_t *flags;\n    uint32_t initial;\n    const char *name;\n    uint32_t line;\n",
        &o.flags
            .iter()
            .map(|x| {
                format!(
                    "&{}, 0x{:x}u, {}",
                    sym.object(&x.name),
                    x.initial,
                    name_line(&x.name, x.at.line)
                )
            })
            .collect::<Vec<_>>(),
    );
}

/// The descriptor table of `[task.NAME]`.
fn task_table<'a>(s: &mut String, o: &'a Objects, sym: &Symbols<'a>) {
    table(
        s,
        "task",
        "    uk_task_t *task;\n    const char *name; /* also its name in the kernel */\n    \
         void (*entry)(void *);\n    void *arg;\n    void *stack;\n    uint32_t stack_bytes;\n    \
         uint32_t slice; /* 0: [kernel] timeslice_ticks */\n    void (*signal)(uint32_t); /* or 0 */\n    \
         uint32_t line;\n    uint8_t priority;\n    uint8_t active; /* activated by uk_init() */\n    \
         uint8_t power_class; /* a uk_power_class_t, or 255: none set */\n",
        &o.tasks
            .iter()
            .map(|x| {
                let object = sym.object(&x.name);
                let name = c_string(&x.name);
                let entry = &x.entry;
                let arg = sym.arg(&x.arg);
                let stack = format!("uk__gen_stack_{}", x.name);
                let slice = x.slice.unwrap_or(0);
                let signal = x.signal.as_deref().unwrap_or("0");
                let line = x.at.line;
                let priority = x.priority;
                let active = u8::from(x.start == TaskStart::Active);
                let power_class = x.power_class.map_or("255", |c| c.c_name());
                format!(
                    "&{object}, {name}, {entry}, {arg}, {stack}, sizeof {stack}, {slice}, {signal}, \
                     {line}, {priority}, {active}, {power_class}"
                )
            })
            .collect::<Vec<_>>(),
    );
}

/// The descriptor table of the HISRs of `[interrupt.NAME]`.
fn hisr_table<'a>(s: &mut String, o: &'a Objects, sym: &Symbols<'a>) {
    let hisrs = hisrs(o);
    table(
        s,
        "hisr",
        "    uk_hisr_t *hisr;\n    const char *name; /* also its name in the kernel */\n    \
         void (*entry)(uk_hisr_t *);\n    void *stack;\n    uint32_t stack_bytes;\n    uint32_t line;\n    \
         uint8_t priority;\n",
        &hisrs
            .iter()
            .map(|(x, h)| {
                let object = sym.object(&x.name);
                let name = c_string(&x.name);
                let entry = &h.function;
                let stack = format!("uk__gen_hisr_stack_{}", x.name);
                let line = x.at.line;
                let priority = h.priority;
                format!("&{object}, {name}, {entry}, {stack}, sizeof {stack}, {line}, {priority}")
            })
            .collect::<Vec<_>>(),
    );
}

/// The descriptor table of `[timer.NAME]`.
fn timer_table<'a>(s: &mut String, o: &'a Objects, sym: &Symbols<'a>) {
    table(
        s,
        "timer",
        "    uk_timer_t *timer;\n    void (*call)(uk_timer_t *, void *);\n    void *arg;\n    \
         uk_task_t *task;\n    uk_flags_t *flags;\n    uint32_t bits;\n    uint32_t delay;\n    \
         uint32_t period;\n    const char *name;\n    uint32_t line;\n    \
         uint8_t action; /* 0: call, 1: activate task, 2: set flags */\n    \
         uint8_t running; /* started by uk_init() */\n",
        &o.timers
            .iter()
            .map(|x| {
                let action = match &x.action {
                    TimerAction::Call { function, arg } => {
                        (0, format!("{function}, {}, 0, 0, 0", sym.arg(arg)))
                    }
                    TimerAction::Activate { task } => {
                        (1, format!("0, 0, &{}, 0, 0", sym.object(task)))
                    }
                    TimerAction::SetFlags { flags, bits } => {
                        (2, format!("0, 0, 0, &{}, 0x{bits:x}u", sym.object(flags)))
                    }
                };
                let (running, delay, period) = match x.start {
                    Some((delay, period)) => (1, delay, period),
                    None => (0, 0, 0),
                };
                format!(
                    "&{}, {}, {delay}, {period}, {}, {}, {running}",
                    sym.object(&x.name),
                    action.1,
                    name_line(&x.name, x.at.line),
                    action.0
                )
            })
            .collect::<Vec<_>>(),
    );
}

/// The descriptor table of `[interrupt.NAME]`, and the interrupts' names by line.
fn irq_table(s: &mut String, o: &Objects) {
    table(
        s,
        "irq",
        "    unsigned number; /* the fast interrupt line */\n    void (*lisr)(unsigned);\n    \
         const char *name;\n    uint32_t line;\n",
        &o.interrupts
            .iter()
            .map(|x| format!("{}, {}, {}", x.line, x.lisr, name_line(&x.name, x.at.line)))
            .collect::<Vec<_>>(),
    );
    if !o.interrupts.is_empty() {
        // Not static: the testbed reads it from the ELF (`ubik build` keeps it linked).
        s.push_str(
            "\n/* The interrupts' names by fast line, for the testbed's trace (docs/observe.md). */\n\
             extern const char *const uk__gen_irq_names[15];\nconst char *const uk__gen_irq_names[15] = {",
        );
        for x in &o.interrupts {
            let _ = write!(s, " [{}] = {},", x.line, c_string(&x.name));
        }
        s.push_str(" };\n");
    }
}

/// `uk__gen_check` and `uk__gen_init`, which walks the tables to create the objects: only
/// the calls some object needs, as a kernel function of a feature left out may not exist.
fn startup(s: &mut String, o: &Objects, file: &str) {
    s.push_str("\n/* ---- Start-up: a failed call is reported, never ignored. */\n");
    let _ = write!(
        s,
        "static void uk__gen_check(int r, const char *call, const char *name, uint32_t line)\n{{\n    \
         if (r != UK_OK) {{\n        \
         bsp_printf(\"ubik: start-up: %s(%s) [%s:%u] returned %d (%s); expected UK_OK\\n\", call, name,\n                   \
         {}, (unsigned)line, r, uk_strerror(r));\n        \
         bsp_exit({EXIT_GEN_STARTUP});\n    }}\n}}\n\n",
        c_string(file)
    );
    s.push_str("void uk__gen_init(void);\n\nvoid uk__gen_init(void)\n{\n");
    if !o.heaps.is_empty() {
        walk(
            s,
            "heap",
            &check("uk_heap_init(d->heap, d->buf, d->bytes)", "uk_heap_init"),
        );
    }
    pool_walk(s, o);
    if !o.sems.is_empty() {
        walk(
            s,
            "sem",
            &check("uk_sem_init(d->sem, d->initial, d->max)", "uk_sem_init"),
        );
    }
    if !o.mutexes.is_empty() {
        walk(
            s,
            "mutex",
            &check("uk_mutex_init(d->mutex)", "uk_mutex_init"),
        );
    }
    queue_walk(s, o);
    if !o.ports.is_empty() {
        walk(
            s,
            "port",
            &check(
                "uk_port_init(d->port, d->slots, d->capacity)",
                "uk_port_init",
            ),
        );
    }
    if !o.flags.is_empty() {
        let mut body = check("uk_flags_init(d->flags)", "uk_flags_init");
        if o.flags.iter().any(|f| f.initial != 0) {
            body.push_str("        if (d->initial != 0)\n    ");
            body.push_str(&check("uk_flags_set(d->flags, d->initial)", "uk_flags_set"));
        }
        walk(s, "flags", &body);
    }
    task_walk(s, o);
    if !hisrs(o).is_empty() {
        walk(
            s,
            "hisr",
            &check(
                "uk_hisr_create(d->hisr, d->name, d->entry, d->priority, d->stack, d->stack_bytes)",
                "uk_hisr_create",
            ),
        );
    }
    timer_walk(s, o);
    if !o.interrupts.is_empty() {
        walk(
            s,
            "irq",
            &check("uk_irq_install(d->number, d->lisr)", "uk_irq_install"),
        );
    }
    if o.tasks.iter().any(|t| t.start == TaskStart::Active) {
        walk(
            s,
            "task",
            &format!(
                "        if (d->active)\n    {}",
                check("uk_task_activate(d->task)", "uk_task_activate")
            ),
        );
    }
    if o.timers.iter().any(|t| t.start.is_some()) {
        walk(
            s,
            "timer",
            &format!(
                "        if (d->running)\n    {}",
                check(
                    "uk_timer_start(d->timer, d->delay, d->period)",
                    "uk_timer_start"
                )
            ),
        );
    }
    s.push_str("}\n");
}

/// The loop that creates the pools, each carved from its heap or in its own buffer.
fn pool_walk(s: &mut String, o: &Objects) {
    if !o.pools.is_empty() {
        let carved = o.pools.iter().any(|p| p.heap.is_some());
        let fixed = o.pools.iter().any(|p| p.heap.is_none());
        let create = check(
            "uk_pool_create(d->pool, d->heap, d->block_bytes, d->count)",
            "uk_pool_create",
        );
        let init = check(
            "uk_pool_init(d->pool, d->buf, d->block_bytes, d->count)",
            "uk_pool_init",
        );
        let body = match (carved, fixed) {
            (true, true) => format!("        if (d->heap)\n    {create}        else\n    {init}"),
            (true, false) => create,
            _ => init,
        };
        walk(s, "pool", &body);
    }
}

/// The loop that creates the queues, of fixed or variable message size.
fn queue_walk(s: &mut String, o: &Objects) {
    if !o.queues.is_empty() {
        let var = o
            .queues
            .iter()
            .any(|q| matches!(q.kind, QueueKind::Variable { .. }));
        let fixed = o
            .queues
            .iter()
            .any(|q| matches!(q.kind, QueueKind::Fixed { .. }));
        let init_var = check(
            "uk_queue_init_var(d->queue, d->buf, d->buf_bytes, d->msg_bytes)",
            "uk_queue_init_var",
        );
        let init = check(
            "uk_queue_init(d->queue, d->buf, d->msg_bytes, d->capacity)",
            "uk_queue_init",
        );
        let body = match (var, fixed) {
            (true, true) => {
                format!("        if (d->variable)\n    {init_var}        else\n    {init}")
            }
            (true, false) => init_var,
            _ => init,
        };
        walk(s, "queue", &body);
    }
}

/// The loop that creates the tasks, with the settings some of them have.
fn task_walk(s: &mut String, o: &Objects) {
    if !o.tasks.is_empty() {
        let mut body = check(
            "uk_task_create(d->task, d->name, d->entry, d->arg, d->priority, d->stack, d->stack_bytes)",
            "uk_task_create",
        );
        if o.tasks.iter().any(|t| t.slice.is_some()) {
            body.push_str("        if (d->slice != 0)\n    ");
            body.push_str(&check(
                "uk_task_set_slice(d->task, d->slice)",
                "uk_task_set_slice",
            ));
        }
        if o.tasks.iter().any(|t| t.signal.is_some()) {
            body.push_str("        if (d->signal != 0)\n    ");
            body.push_str(&check(
                "uk_signal_handler(d->task, d->signal)",
                "uk_signal_handler",
            ));
        }
        if o.tasks.iter().any(|t| t.power_class.is_some()) {
            body.push_str("        if (d->power_class != 255)\n    ");
            body.push_str(&check(
                "uk_task_set_power_class(d->task, (uk_power_class_t)d->power_class)",
                "uk_task_set_power_class",
            ));
        }
        walk(s, "task", &body);
    }
}

/// The loop that creates the timers, by the action each takes.
fn timer_walk(s: &mut String, o: &Objects) {
    if !o.timers.is_empty() {
        let mut arms = Vec::new();
        for (action, call) in [
            (
                0,
                check("uk_timer_init(d->timer, d->call, d->arg)", "uk_timer_init"),
            ),
            (
                1,
                check(
                    "uk_timer_init_task(d->timer, d->task)",
                    "uk_timer_init_task",
                ),
            ),
            (
                2,
                check(
                    "uk_timer_init_flags(d->timer, d->flags, d->bits)",
                    "uk_timer_init_flags",
                ),
            ),
        ] {
            let used = o.timers.iter().any(|t| {
                matches!(
                    (&t.action, action),
                    (TimerAction::Call { .. }, 0)
                        | (TimerAction::Activate { .. }, 1)
                        | (TimerAction::SetFlags { .. }, 2)
                )
            });
            if used {
                arms.push((action, call));
            }
        }
        let body = if arms.len() == 1 {
            arms.remove(0).1
        } else {
            let mut b = String::new();
            for (i, (action, call)) in arms.iter().enumerate() {
                if i + 1 < arms.len() {
                    let _ = write!(
                        b,
                        "        {}if (d->action == {action})\n    {call}",
                        if i == 0 { "" } else { "else " }
                    );
                } else {
                    let _ = write!(b, "        else\n    {call}");
                }
            }
            b
        };
        walk(s, "timer", &body);
    }
}

#[cfg(test)]
mod tests {
    use crate::gen::{gen_header, gen_source};
    use crate::SystemDesc;

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

    /// The rows of the table `uk__gen_table_KIND`.
    fn rows<'c>(c: &'c str, kind: &str) -> Vec<&'c str> {
        let head = format!("}} uk__gen_table_{kind}[] = {{\n");
        let Some(start) = c.find(&head) else {
            return Vec::new();
        };
        c[start + head.len()..]
            .lines()
            .take_while(|l| *l != "};")
            .map(|l| l.trim())
            .collect()
    }

    #[test]
    fn source_defines_describes_and_creates_in_order() {
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
            // The message names the call, the object and its line in the description file.
            "bsp_printf(\"ubik: start-up: %s(%s) [%s:%u] returned %d (%s); expected UK_OK\\n\", call, name,\n                   \"system.toml\", (unsigned)line, r, uk_strerror(r));",
        ] {
            assert!(c.contains(want), "missing {want:?} in\n{c}");
        }
        assert!(
            !c.contains("uk__gen_pool_b"),
            "a carved pool has no buffer: {c}"
        );
        // One row per object, in the order written: the arguments of the calls, the name and
        // the line.
        let tables: Vec<(&str, Vec<&str>)> = vec![
            ("heap", vec!["{&h, uk__gen_heap_h, sizeof uk__gen_heap_h, \"h\", 29},"]),
            (
                "pool",
                vec![
                    "{&a, 0, uk__gen_pool_a, 12, 3, \"a\", 31},",
                    "{&b, &h, 0, 8, 2, \"b\", 34},",
                ],
            ),
            ("sem", vec!["{&s, 1u, 2u, \"s\", 15},"]),
            ("mutex", vec!["{&m, \"m\", 18},"]),
            (
                "queue",
                vec![
                    "{&items, uk__gen_queue_items, sizeof uk__gen_queue_items, 6, 3, \"items\", 19, 0},",
                    "{&v, uk__gen_queue_v, sizeof uk__gen_queue_v, 5, 2, \"v\", 22, 1},",
                ],
            ),
            ("port", vec!["{&p, uk__gen_port_p, 4, \"p\", 25},"]),
            ("flags", vec!["{&f, 0x30u, \"f\", 27},"]),
            (
                "task",
                vec![
                    "{&producer, \"producer\", produce, &items, uk__gen_stack_producer, sizeof uk__gen_stack_producer, 0, 0, 3, 2, 1, 255},",
                    "{&consumer, \"consumer\", consume, 0, uk__gen_stack_consumer, sizeof uk__gen_stack_consumer, 3, on_sig, 7, 1, 0, UK_POWER_LOW},",
                ],
            ),
            (
                "hisr",
                vec!["{&rx, \"rx\", rx_hisr, uk__gen_hisr_stack_rx, sizeof uk__gen_hisr_stack_rx, 50, 3},"],
            ),
            (
                "timer",
                vec![
                    "{&t1, tick, (void *)(uintptr_t)0x9u, 0, 0, 0, 4, 2, \"t1\", 38, 0, 1},",
                    "{&t2, 0, 0, &consumer, 0, 0, 10, 0, \"t2\", 43, 1, 1},",
                    "{&t3, 0, 0, 0, &f, 0x1u, 0, 0, \"t3\", 46, 2, 0},",
                ],
            ),
            (
                "irq",
                vec!["{5, rx_lisr, \"rx\", 50},", "{6, rx_lisr, \"tx\", 56},"],
            ),
        ];
        for (kind, want) in tables {
            assert_eq!(rows(&c, kind), want, "{kind}");
        }
        // uk__gen_init: the tables in the order of creation, each call checked.
        let body = &c[c.find("void uk__gen_init(void)\n{").expect("uk__gen_init")..];
        let walks: Vec<&str> = body
            .lines()
            .filter_map(|l| l.trim().strip_prefix("const struct uk__gen_"))
            .filter_map(|l| l.split(' ').next())
            .collect();
        assert_eq!(
            walks,
            [
                "heap", "pool", "sem", "mutex", "queue", "port", "flags", "task", "hisr", "timer",
                "irq", "task", "timer"
            ]
        );
        let calls: Vec<&str> = body
            .lines()
            .filter_map(|l| l.trim().strip_prefix("uk__gen_check("))
            .map(|l| l.split(", d->name, d->line);").next().unwrap())
            .collect();
        assert_eq!(
            calls,
            [
                "uk_heap_init(d->heap, d->buf, d->bytes), \"uk_heap_init\"",
                "uk_pool_create(d->pool, d->heap, d->block_bytes, d->count), \"uk_pool_create\"",
                "uk_pool_init(d->pool, d->buf, d->block_bytes, d->count), \"uk_pool_init\"",
                "uk_sem_init(d->sem, d->initial, d->max), \"uk_sem_init\"",
                "uk_mutex_init(d->mutex), \"uk_mutex_init\"",
                "uk_queue_init_var(d->queue, d->buf, d->buf_bytes, d->msg_bytes), \"uk_queue_init_var\"",
                "uk_queue_init(d->queue, d->buf, d->msg_bytes, d->capacity), \"uk_queue_init\"",
                "uk_port_init(d->port, d->slots, d->capacity), \"uk_port_init\"",
                "uk_flags_init(d->flags), \"uk_flags_init\"",
                "uk_flags_set(d->flags, d->initial), \"uk_flags_set\"",
                "uk_task_create(d->task, d->name, d->entry, d->arg, d->priority, d->stack, d->stack_bytes), \"uk_task_create\"",
                "uk_task_set_slice(d->task, d->slice), \"uk_task_set_slice\"",
                "uk_signal_handler(d->task, d->signal), \"uk_signal_handler\"",
                "uk_task_set_power_class(d->task, (uk_power_class_t)d->power_class), \"uk_task_set_power_class\"",
                "uk_hisr_create(d->hisr, d->name, d->entry, d->priority, d->stack, d->stack_bytes), \"uk_hisr_create\"",
                "uk_timer_init(d->timer, d->call, d->arg), \"uk_timer_init\"",
                "uk_timer_init_task(d->timer, d->task), \"uk_timer_init_task\"",
                "uk_timer_init_flags(d->timer, d->flags, d->bits), \"uk_timer_init_flags\"",
                "uk_irq_install(d->number, d->lisr), \"uk_irq_install\"",
                "uk_task_activate(d->task), \"uk_task_activate\"",
                "uk_timer_start(d->timer, d->delay, d->period), \"uk_timer_start\"",
            ]
        );
    }

    /// Only the calls the objects need: a kernel function of a feature left out may not exist.
    #[test]
    fn only_the_calls_in_use() {
        let d = SystemDesc::from_str(
            "[kernel]\nfeatures = [\"sem\"]\n[sem.s]\n[task.t]\nentry = \"f\"\npriority = 1\nstart = \"suspended\"\n",
            "system.toml",
        )
        .unwrap();
        let c = gen_source(&d);
        for absent in [
            "uk_task_set_slice",
            "uk_signal_handler",
            "uk_task_set_power_class",
            "uk_task_activate",
            "uk_timer",
            "uk_pool",
            "uk_queue",
            "uk_flags",
        ] {
            assert!(!c.contains(absent), "{absent} in\n{c}");
        }
    }
}
