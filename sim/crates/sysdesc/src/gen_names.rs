//! `uk__debug_objects` in `uk_gen.c`: the objects a task can wait on, each with its address,
//! size, kind and name, for the testbed's kernel awareness (`uk_debug_info` version 4 points
//! at the table): a debugger's task table, or a hang report, names what a blocked task waits
//! on by its name in system.toml.

use crate::gen_objects::{c_string, Symbols};
use crate::objects::Objects;
use std::fmt::Write as _;

/// The table's rows, `{&OBJECT, sizeof OBJECT, UK_DEBUG_OBJ_KIND, "NAME"}`, ending with a
/// NULL row; nothing when no object can be waited on.
pub(crate) fn table<'a>(s: &mut String, o: &'a Objects, sym: &Symbols<'a>) {
    let kinds: [(&str, Vec<&'a String>); 6] = [
        ("SEM", o.sems.iter().map(|x| &x.name).collect()),
        ("MUTEX", o.mutexes.iter().map(|x| &x.name).collect()),
        ("QUEUE", o.queues.iter().map(|x| &x.name).collect()),
        ("PORT", o.ports.iter().map(|x| &x.name).collect()),
        ("FLAGS", o.flags.iter().map(|x| &x.name).collect()),
        ("POOL", o.pools.iter().map(|x| &x.name).collect()),
    ];
    if kinds.iter().all(|(_, v)| v.is_empty()) {
        return;
    }
    s.push_str(
        "\n/* ---- The objects a task can wait on, by name (uk_debug_info.objects: the testbed's\n \
         * kernel awareness). */\nconst uk_debug_object_t uk__debug_objects[] = {\n",
    );
    for (kind, names) in &kinds {
        for name in names {
            let obj = sym.object(name);
            let _ = writeln!(
                s,
                "    {{&{obj}, sizeof {obj}, UK_DEBUG_OBJ_{kind}, {}}},",
                c_string(name)
            );
        }
    }
    s.push_str("    {0, 0, 0, 0},\n};\n");
}

#[cfg(test)]
mod tests {
    use crate::gen::gen_source;
    use crate::SystemDesc;

    #[test]
    fn the_objects_a_task_can_wait_on_are_named() {
        let d = SystemDesc::from_str(
            "[task.items]\nentry = \"items\"\npriority = 1\n[queue.q]\nmsg_bytes = 4\ncapacity = 2\n\
             [sem.s]\n[mutex.m]\n[flags.f]\n[pool.p]\nblock_bytes = 8\ncount = 2\n[port.c]\ncapacity = 2\n",
            "s.toml",
        )
        .unwrap();
        let c = gen_source(&d);
        let at = c
            .find("const uk_debug_object_t uk__debug_objects[] = {")
            .expect(&c);
        let rows: Vec<&str> = c[at..].lines().skip(1).take(7).map(str::trim).collect();
        assert_eq!(
            rows,
            [
                "{&s, sizeof s, UK_DEBUG_OBJ_SEM, \"s\"},",
                "{&m, sizeof m, UK_DEBUG_OBJ_MUTEX, \"m\"},",
                "{&q, sizeof q, UK_DEBUG_OBJ_QUEUE, \"q\"},",
                "{&c, sizeof c, UK_DEBUG_OBJ_PORT, \"c\"},",
                "{&f, sizeof f, UK_DEBUG_OBJ_FLAGS, \"f\"},",
                "{&p, sizeof p, UK_DEBUG_OBJ_POOL, \"p\"},",
                "{0, 0, 0, 0},",
            ]
        );
        // Tasks alone: nothing to wait on, no table (the kernel's weak reference is NULL).
        let d = SystemDesc::from_str("[task.t]\nentry = \"f\"\npriority = 1\n", "s.toml").unwrap();
        assert!(!gen_source(&d).contains("uk__debug_objects"));
    }
}
