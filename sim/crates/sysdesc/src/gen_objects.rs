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
//! prefix of another, so no name can make two of them equal. The table of named objects for
//! the testbed is `uk__debug_objects` (`crate::gen_names`).
//!
//! Each kind writes its own parts (`crate::objects::KIND`: `declarations`, `storage`, `table`,
//! `create`); this file holds the frame, the shared helpers and the order of the kinds in
//! each part, which is the order the objects are created in.

use crate::objects::{flags, heap, interrupt, mutex, pool, port, queue, sem, task, timer};
use crate::objects::{Arg, Objects, TimerAction};
use crate::{Os, SystemDesc};
use std::borrow::Cow;
use std::collections::HashSet;
use std::fmt::Write as _;
use std::path::Path;

use crate::gen::{BANNER, EXIT_GEN_STARTUP};

/// The prefix of the symbol of an object that has a function's name.
const OBJECT_SYMBOL_PREFIX: &str = "uk__gen_obj_";

/// The C symbols of the objects.
pub(crate) struct Symbols<'a> {
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
    pub(crate) fn object(&self, name: &'a str) -> Cow<'a, str> {
        if self.renamed(name) {
            Cow::Owned(format!("{OBJECT_SYMBOL_PREFIX}{name}"))
        } else {
            Cow::Borrowed(name)
        }
    }

    /// `extern TYPE NAME; /* comment */`, saying so when the object is renamed.
    pub(crate) fn decl(&self, c_type: &str, name: &str, comment: String) -> String {
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
    pub(crate) fn arg(&self, a: &'a Arg) -> String {
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
    task::declarations(s, o, sym);
    sem::declarations(s, o, sym);
    mutex::declarations(s, o, sym);
    queue::declarations(s, o, sym);
    port::declarations(s, o, sym);
    flags::declarations(s, o, sym);
    heap::declarations(s, o, sym);
    pool::declarations(s, o, sym);
    timer::declarations(s, o, sym);
    interrupt::declarations(s, o, sym);
}

/// `/* TITLE */` and the lines, when there are any.
pub(crate) fn section(s: &mut String, title: &str, lines: Vec<String>) {
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
pub(crate) fn c_string(s: &str) -> String {
    format!("\"{}\"", s.replace(['"', '\\', '\n'], "_"))
}

/// One descriptor table: `static const struct uk__gen_KIND { FIELDS } uk__gen_table_KIND[] =
/// { ROWS };`, written only when it has rows.
pub(crate) fn descriptor_table(s: &mut String, kind: &str, fields: &str, rows: &[String]) {
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
pub(crate) fn walk(s: &mut String, kind: &str, body: &str) {
    let _ = write!(
        s,
        "    for (unsigned i = 0; i < sizeof uk__gen_table_{kind} / sizeof uk__gen_table_{kind}[0]; i++) {{\n        \
         const struct uk__gen_{kind} *d = &uk__gen_table_{kind}[i];\n{body}    }}\n"
    );
}

/// `uk__gen_check(CALL, "NAME", d->name, d->line);` indented for a loop body.
pub(crate) fn check(call: &str, name: &str) -> String {
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
    crate::gen_names::table(&mut s, o, &sym);
    startup(&mut s, o, &file);
    s
}

/// The objects and their memory: a definition per object, and the buffer of each that needs
/// one.
fn storage<'a>(s: &mut String, o: &'a Objects, sym: &Symbols<'a>) {
    s.push_str("\n/* ---- The objects and their memory. */\n");
    heap::storage(s, o, sym);
    pool::storage(s, o, sym);
    sem::storage(s, o, sym);
    mutex::storage(s, o, sym);
    queue::storage(s, o, sym);
    port::storage(s, o, sym);
    flags::storage(s, o, sym);
    task::storage(s, o, sym);
    timer::storage(s, o, sym);
    interrupt::storage(s, o, sym);
}

/// The 32-bit words a buffer of `bytes` takes.
pub(crate) fn words(bytes: u64) -> u64 {
    bytes.div_ceil(4)
}

/// The alignment of every buffer (a stack's, for the ABI; the others' for the kernel's blocks).
pub(crate) const ALIGNED: &str = "__attribute__((aligned(16)))";

/// The descriptors, one table per kind in the order written. Every row: the object, its
/// parameters, its name and its line in system.toml (for the start-up message).
fn descriptors<'a>(s: &mut String, o: &'a Objects, sym: &Symbols<'a>) {
    s.push_str("\n/* ---- Their descriptors, one table per kind, in the order written. */\n");
    heap::table(s, o, sym);
    pool::table(s, o, sym);
    sem::table(s, o, sym);
    mutex::table(s, o, sym);
    queue::table(s, o, sym);
    port::table(s, o, sym);
    flags::table(s, o, sym);
    task::table(s, o, sym);
    interrupt::hisr_table(s, o, sym);
    timer::table(s, o, sym);
    interrupt::irq_table(s, o);
}

/// `"NAME", LINE`: the end of every descriptor row.
pub(crate) fn name_line(name: &str, line: usize) -> String {
    format!("{}, {line}", c_string(name))
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
    heap::create(s, o);
    pool::create(s, o);
    sem::create(s, o);
    mutex::create(s, o);
    queue::create(s, o);
    port::create(s, o);
    flags::create(s, o);
    task::create(s, o);
    interrupt::create(s, o);
    timer::create(s, o);
    interrupt::install(s, o);
    task::activate(s, o);
    timer::start(s, o);
    s.push_str("}\n");
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
