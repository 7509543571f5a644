use super::*;
use crate::SystemDesc;

fn parse(text: &str) -> R<SystemDesc> {
    SystemDesc::from_str(text, "system.toml")
}

/// Every validation error, exactly: (what, system.toml, the one line).
const ERRORS: &[(&str, &str, &str)] = &[
        (
            "dup_same_kind",
            "[task.a]\nentry = \"f\"\npriority = 1\n[task.a]\n",
            "system.toml:4:1: invalid table header: duplicate key `a` in table `task`; expected each key and table at most once",
        ),
        (
            "dup_across_kinds",
            "[sem.s]\n[queue.q]\nmsg_bytes = 4\ncapacity = 2\n[mutex.s]\n",
            "system.toml:5:8: mutex \"s\": the name is already the sem declared at line 1; expected names unique among all declared objects (each becomes a C identifier)",
        ),
        (
            "not_ident",
            "[sem.2x]\n",
            "system.toml:1:6: sem \"2x\" is not a C identifier; expected a name made of letters, digits and _, not starting with a digit",
        ),
        (
            "not_ident_dash",
            "[flags.\"a-b\"]\n",
            "system.toml:1:8: flags \"a-b\" is not a C identifier; expected a name made of letters, digits and _, not starting with a digit",
        ),
        (
            "keyword",
            "[mutex.static]\n",
            "system.toml:1:8: mutex \"static\" is a C keyword; expected a name that is not a C keyword",
        ),
        (
            "reserved",
            "[sem.uk_x]\n",
            "system.toml:1:6: sem \"uk_x\" starts with `uk_`, reserved for the kernel, the BSP and the compiler; expected a name without the prefixes uk_, UK_, bsp_, BSP_, UBIK_ or _",
        ),
        (
            "reserved_underscore",
            "[sem._x]\n",
            "system.toml:1:6: sem \"_x\" starts with `_`, reserved for the kernel, the BSP and the compiler; expected a name without the prefixes uk_, UK_, bsp_, BSP_, UBIK_ or _",
        ),
        (
            "taken",
            "[sem.main]\n",
            "system.toml:1:6: sem \"main\" is already the program's main(), which the C start-up calls; expected a name other than main",
        ),
        (
            "fn_not_ident",
            "[task.t]\nentry = \"do it\"\npriority = 1\n",
            "system.toml:2:9: entry = \"do it\" is not a C identifier; expected a function name made of letters, digits and _, not starting with a digit",
        ),
        (
            "fn_two_roles",
            "[task.t]\nentry = \"f\"\npriority = 1\n[interrupt.i]\nline = 1\nlisr = \"f\"\n",
            "system.toml:6:8: lisr = \"f\" is a LISR, void f(unsigned line), but line 2 uses it as a task entry, void f(void *arg); expected one function per signature",
        ),
        (
            "prio_missing",
            "[task.t]\nentry = \"f\"\n",
            "system.toml:1:7: task \"t\" has no priority; expected priority = 0 (highest) to 254",
        ),
        (
            "prio_prio",
            "[task.t]\nentry = \"f\"\npriority = 255\n",
            "system.toml:3:12: priority = 255 is out of range for scheduler \"prio\"; expected an integer from 0 (highest) to 254 (255 is the idle task's)",
        ),
        (
            "prio_neg",
            "[task.t]\nentry = \"f\"\npriority = -1\n",
            "system.toml:3:12: priority = -1 is out of range for scheduler \"prio\"; expected an integer from 0 (highest) to 254 (255 is the idle task's)",
        ),
        (
            "prio_bitmap",
            "[kernel]\nscheduler = \"bitmap\"\n[task.t]\nentry = \"f\"\npriority = 63\n",
            "system.toml:5:12: priority = 63 is out of range for scheduler \"bitmap\"; expected an integer from 0 (highest) to 62 (63 is the idle task's)",
        ),
        (
            "prio_bitmap_dup",
            "[kernel]\nscheduler = \"bitmap\"\n[task.a]\nentry = \"f\"\npriority = 7\n[task.b]\nentry = \"f\"\npriority = 7\n",
            "system.toml:8:12: priority = 7 is already task \"a\"'s (line 3); expected a priority unique among tasks with scheduler \"bitmap\"",
        ),
        (
            "entry_missing",
            "[task.t]\npriority = 1\n",
            "system.toml:1:7: task \"t\" has no entry; expected entry = \"function\", the task's void function(void *arg)",
        ),
        (
            "stack_small",
            "[task.t]\nentry = \"f\"\npriority = 1\nstack_bytes = 64\n",
            "system.toml:4:15: stack_bytes = 64 is too small; expected a size in bytes from 128 to 16777216, a multiple of 4",
        ),
        (
            "stack_odd",
            "[task.t]\nentry = \"f\"\npriority = 1\nstack_bytes = 1026\n",
            "system.toml:4:15: stack_bytes = 1026 is not a multiple of 4; expected a size in bytes from 128 to 16777216, a multiple of 4",
        ),
        (
            "stack_huge",
            "[task.t]\nentry = \"f\"\npriority = 1\nstack_bytes = 20000000\n",
            "system.toml:4:15: stack_bytes = 20000000 is too large; expected a size in bytes from 128 to 16777216, a multiple of 4",
        ),
        (
            "slice_zero",
            "[task.t]\nentry = \"f\"\npriority = 1\nslice = 0\n",
            "system.toml:4:9: slice = 0 is out of range; expected a number of ticks from 1 to 2147483647",
        ),
        (
            "start_bad",
            "[task.t]\nentry = \"f\"\npriority = 1\nstart = \"running\"\n",
            "system.toml:4:9: start = \"running\" is not a start state of a task; expected one of \"active\", \"suspended\"",
        ),
        (
            "arg_float",
            "[task.t]\nentry = \"f\"\npriority = 1\narg = 1.5\n",
            "system.toml:4:7: arg is a float; expected an integer (passed as a pointer) or the name of a declared object (its address)",
        ),
        (
            "arg_unknown",
            "[task.t]\nentry = \"f\"\npriority = 1\narg = \"nothing\"\n",
            "system.toml:4:7: arg = \"nothing\" names no declared object; expected the name of a declared object",
        ),
        (
            "arg_big",
            "[task.t]\nentry = \"f\"\npriority = 1\narg = 0x100000000\n",
            "system.toml:4:7: arg = 4294967296 does not fit in a pointer; expected a 32-bit integer or the name of a declared object",
        ),
        (
            "unknown_key",
            "[task.t]\nentry = \"f\"\npriority = 1\nstack = 512\n",
            "system.toml:4:1: unknown key `stack`; expected one of the keys `entry`, `priority`, `stack_bytes`, `slice`, `start`, `arg`, `signal`, `power_class`",
        ),
        (
            "unknown_kind",
            "[semaphore.s]\n",
            "system.toml:1:2: unknown key `semaphore`; expected one of the keys `kernel`, `build`, `task`, `sem`, `mutex`, `queue`, `port`, `flags`, `heap`, `pool`, `timer`, `interrupt`, `power`",
        ),
        (
            "mutex_key",
            "[mutex.m]\ninitial = 1\n",
            "system.toml:2:1: unknown key `initial`; expected no keys in this table",
        ),
        (
            "sem_initial",
            "[sem.s]\ninitial = 2\n",
            "system.toml:2:11: initial = 2 is above max = 1; expected a count from 0 to max (1)",
        ),
        (
            "sem_max0",
            "[sem.s]\nmax = 0\n",
            "system.toml:2:7: max = 0 is out of range; expected a count from 1 to 4294967295",
        ),
        (
            "queue_both",
            "[queue.q]\nmsg_bytes = 4\nmax_msg_bytes = 8\ncapacity = 2\n",
            "system.toml:3:17: queue \"q\" has both msg_bytes and max_msg_bytes; expected one of them: msg_bytes (fixed-size messages) or max_msg_bytes (variable-size)",
        ),
        (
            "queue_neither",
            "[queue.q]\ncapacity = 2\n",
            "system.toml:1:8: queue \"q\" has no message size; expected msg_bytes = N (fixed-size messages) or max_msg_bytes = N (variable-size)",
        ),
        (
            "queue_nocap",
            "[queue.q]\nmsg_bytes = 4\n",
            "system.toml:1:8: queue \"q\" has no capacity; expected capacity = N, the number of messages it holds",
        ),
        (
            "queue_msg_big",
            "[queue.q]\nmsg_bytes = 65536\ncapacity = 2\n",
            "system.toml:2:13: msg_bytes = 65536 is out of range; expected a message size in bytes from 1 to 65535",
        ),
        (
            "queue_total",
            "[queue.q]\nmsg_bytes = 65535\ncapacity = 1000\n",
            "system.toml:1:8: queue \"q\" needs a buffer of 65535000 bytes; expected at most 16777216 bytes per object",
        ),
        (
            "port_cap",
            "[port.p]\ncapacity = 0\n",
            "system.toml:2:12: capacity = 0 is out of range; expected a number of messages from 1 to 1048576",
        ),
        (
            "heap_small",
            "[heap.h]\nbytes = 40\n",
            "system.toml:2:9: bytes = 40 is too small; expected a size in bytes from 48 to 16777216, a multiple of 8",
        ),
        (
            "heap_align",
            "[heap.h]\nbytes = 100\n",
            "system.toml:2:9: bytes = 100 is not a multiple of 8; expected a size in bytes from 48 to 16777216, a multiple of 8",
        ),
        (
            "heap_missing",
            "[heap.h]\n",
            "system.toml:1:7: heap \"h\" has no size; expected bytes = N, its size in bytes",
        ),
        (
            "pool_block",
            "[pool.p]\nblock_bytes = 6\ncount = 2\n",
            "system.toml:2:15: block_bytes = 6 is too small; expected a size in bytes from 8 to 16777216, a multiple of 4",
        ),
        (
            "pool_heap_unknown",
            "[pool.p]\nblock_bytes = 8\ncount = 2\nheap = \"h\"\n",
            "system.toml:4:8: heap = \"h\" names no declared object; expected the name of a heap declared with [heap.NAME] (there is none)",
        ),
        (
            "pool_heap_wrong_kind",
            "[sem.h]\n[pool.p]\nblock_bytes = 8\ncount = 2\nheap = \"h\"\n",
            "system.toml:5:8: heap = \"h\" is the sem declared at line 1; expected the name of a declared heap",
        ),
        (
            "pool_heap_full",
            "[heap.h]\nbytes = 64\n[pool.p]\nblock_bytes = 8\ncount = 9\nheap = \"h\"\n",
            "system.toml:3:7: pool \"p\": the pools carved from heap \"h\" take 72 bytes, the heap has 64; expected heap \"h\" larger than its pools (each block costs 16 bytes of header)",
        ),
        (
            "timer_no_action",
            "[timer.t]\ndelay = 1\n",
            "system.toml:1:8: timer \"t\" has no action; expected one action: call = \"function\", activate = \"task\" or flags = \"flags\" with bits = N",
        ),
        (
            "timer_two_actions",
            "[task.a]\nentry = \"f\"\npriority = 1\n[timer.t]\nactivate = \"a\"\ncall = \"g\"\ndelay = 1\n",
            "system.toml:5:12: timer \"t\" has two actions, call and activate; expected one action: call = \"function\", activate = \"task\" or flags = \"flags\" with bits = N",
        ),
        (
            "timer_unknown_task",
            "[timer.t]\nactivate = \"ghost\"\ndelay = 1\n",
            "system.toml:2:12: activate = \"ghost\" names no declared object; expected the name of a task declared with [task.NAME] (there is none)",
        ),
        (
            "timer_unknown_flags",
            "[flags.f]\n[timer.t]\nflags = \"g\"\nbits = 1\ndelay = 1\n",
            "system.toml:3:9: flags = \"g\" names no declared object; expected the name of a declared flags object: f",
        ),
        (
            "timer_flags_of_task",
            "[task.a]\nentry = \"f\"\npriority = 1\n[timer.t]\nflags = \"a\"\nbits = 1\ndelay = 1\n",
            "system.toml:5:9: flags = \"a\" is the task declared at line 1; expected the name of a declared flags object",
        ),
        (
            "timer_no_bits",
            "[flags.f]\n[timer.t]\nflags = \"f\"\ndelay = 1\n",
            "system.toml:3:9: timer \"t\" sets flags but has no bits; expected bits = N, the non-zero mask to set",
        ),
        (
            "timer_bits_zero",
            "[flags.f]\n[timer.t]\nflags = \"f\"\nbits = 0\ndelay = 1\n",
            "system.toml:4:8: bits = 0 is out of range; expected a non-zero 32-bit mask from 1 to 4294967295",
        ),
        (
            "timer_bits_alone",
            "[timer.t]\ncall = \"g\"\nbits = 1\ndelay = 1\n",
            "system.toml:3:8: bits of timer \"t\", which sets no flags; expected bits only with flags = \"flags\"",
        ),
        (
            "timer_arg_alone",
            "[task.a]\nentry = \"f\"\npriority = 1\n[timer.t]\nactivate = \"a\"\narg = 1\ndelay = 1\n",
            "system.toml:6:7: arg of timer \"t\", which calls no function; expected arg only with call = \"function\"",
        ),
        (
            "timer_no_delay",
            "[timer.t]\ncall = \"g\"\n",
            "system.toml:1:8: timer \"t\" has no delay; expected delay = N, the ticks to its first expiry (or start = \"stopped\")",
        ),
        (
            "timer_delay0",
            "[timer.t]\ncall = \"g\"\ndelay = 0\n",
            "system.toml:3:9: delay = 0 is out of range; expected a number of ticks from 1 to 2147483647",
        ),
        (
            "timer_stopped_delay",
            "[timer.t]\ncall = \"g\"\nstart = \"stopped\"\nperiod = 5\n",
            "system.toml:4:10: timer \"t\" starts stopped: the application starts it with its own delay and period; expected no delay or period with start = \"stopped\" (or start = \"running\")",
        ),
        (
            "timer_start_bad",
            "[timer.t]\ncall = \"g\"\nstart = \"go\"\n",
            "system.toml:3:9: start = \"go\" is not a start state of a timer; expected one of \"running\", \"stopped\"",
        ),
        (
            "irq_no_line",
            "[interrupt.i]\nlisr = \"l\"\n",
            "system.toml:1:12: interrupt \"i\" has no line; expected line = 0..14, its fast interrupt line",
        ),
        (
            "irq_line",
            "[interrupt.i]\nline = 15\nlisr = \"l\"\n",
            "system.toml:2:8: line = 15 is out of range; expected a fast interrupt line from 0 to 14",
        ),
        (
            "irq_line_dup",
            "[interrupt.i]\nline = 3\nlisr = \"l\"\n[interrupt.j]\nline = 3\nlisr = \"m\"\n",
            "system.toml:5:8: line = 3 is already interrupt \"i\"'s (line 1); expected one handler per fast interrupt line",
        ),
        (
            "irq_no_lisr",
            "[interrupt.i]\nline = 3\n",
            "system.toml:1:12: interrupt \"i\" has no lisr; expected lisr = \"function\", its void function(unsigned line)",
        ),
        (
            "hisr_no_stack",
            "[interrupt.i]\nline = 3\nlisr = \"l\"\nhisr = \"h\"\n",
            "system.toml:4:8: interrupt \"i\" has a HISR without a stack; expected hisr_stack_bytes = N (at least 128, a multiple of 4)",
        ),
        (
            "hisr_prio",
            "[interrupt.i]\nline = 3\nlisr = \"l\"\nhisr = \"h\"\nhisr_priority = 4\nhisr_stack_bytes = 256\n",
            "system.toml:5:17: hisr_priority = 4 is out of range; expected a HISR level (0 highest) from 0 to 3",
        ),
        (
            "hisr_settings_alone",
            "[interrupt.i]\nline = 3\nlisr = \"l\"\nhisr_stack_bytes = 256\n",
            "system.toml:4:20: interrupt \"i\" has HISR settings but no HISR; expected hisr = \"function\" with them, or neither",
        ),
        (
            "hisr_stack_small",
            "[interrupt.i]\nline = 3\nlisr = \"l\"\nhisr = \"h\"\nhisr_stack_bytes = 100\n",
            "system.toml:5:20: hisr_stack_bytes = 100 is too small; expected a size in bytes from 128 to 16777216, a multiple of 4",
        ),
        (
            "arg_irq_no_hisr",
            "[interrupt.i]\nline = 3\nlisr = \"l\"\n[task.t]\nentry = \"f\"\npriority = 1\narg = \"i\"\n",
            "system.toml:7:7: arg = \"i\": interrupt \"i\" has no HISR, so no object; expected the name of a declared object",
        ),
        (
            "feature_sem",
            "[kernel]\nfeatures = []\n[sem.s]\n",
            "system.toml:3:6: sem \"s\" needs the kernel feature \"sem\", which [kernel] features leaves out; expected \"sem\" in [kernel] features",
        ),
        (
            "feature_queue",
            "[kernel]\nfeatures = [\"sem\"]\n[queue.q]\nmsg_bytes = 4\ncapacity = 1\n",
            "system.toml:3:8: queue \"q\" needs the kernel feature \"queue\", which [kernel] features leaves out; expected \"queue\" in [kernel] features",
        ),
        (
            "feature_hisr",
            "[kernel]\nfeatures = []\n[interrupt.i]\nline = 3\nlisr = \"l\"\nhisr = \"h\"\nhisr_stack_bytes = 256\n",
            "system.toml:6:8: interrupt \"i\"'s HISR needs the kernel feature \"hisr\", which [kernel] features leaves out; expected \"hisr\" in [kernel] features",
        ),
        (
            "feature_timer_call",
            "[kernel]\nfeatures = [\"timer\"]\n[timer.t]\ncall = \"g\"\ndelay = 1\n",
            "system.toml:4:8: timer \"t\"'s function (run in the timer HISR) needs the kernel feature \"hisr\", which [kernel] features leaves out; expected \"hisr\" in [kernel] features",
        ),
        (
            "feature_timer",
            "[kernel]\nfeatures = []\n[timer.t]\ncall = \"g\"\ndelay = 1\n",
            "system.toml:3:8: timer \"t\" needs the kernel feature \"timer\", which [kernel] features leaves out; expected \"timer\" in [kernel] features",
        ),
        (
            "feature_signal",
            "[kernel]\nfeatures = []\n[task.t]\nentry = \"f\"\npriority = 1\nsignal = \"s\"\n",
            "system.toml:6:10: task \"t\"'s signal handler needs the kernel feature \"signal\", which [kernel] features leaves out; expected \"signal\" in [kernel] features",
        ),
        (
            "feature_power",
            "[kernel]\nfeatures = []\n[power]\npolicy = \"idle\"\n",
            "system.toml:4:10: policy = \"idle\" needs the kernel feature \"power\", which [kernel] features leaves out; expected \"power\" in [kernel] features",
        ),
        (
            "feature_pool_heap",
            "[kernel]\nfeatures = [\"pool\"]\n[pool.p]\nblock_bytes = 8\ncount = 2\nheap = \"h\"\n",
            "system.toml:6:8: pool \"p\" carved from a heap needs the kernel feature \"heap\", which [kernel] features leaves out; expected \"heap\" in [kernel] features",
        ),
        (
            "power_bad",
            "[power]\npolicy = \"turbo\"\n",
            "system.toml:2:10: policy = \"turbo\" is not a power policy; expected one of \"default\", \"idle\", \"ls0\", \"ls1\", \"ls2\"",
        ),
        (
            "power_key",
            "[power]\nmode = \"x\"\n",
            "system.toml:2:1: unknown key `mode`; expected the key `policy`",
        ),
        (
            "power_class_bad",
            "[task.t]\nentry = \"f\"\npriority = 1\npower_class = \"max\"\n",
            "system.toml:4:15: power_class = \"max\" is not a power class; expected one of \"normal\", \"high\", \"low\"",
        ),
        (
            "nos_objects",
            "[kernel]\nos = \"nos\"\n[sem.s]\n",
            "system.toml:3:6: sem \"s\" is a kernel object and [kernel] os = \"nos\" has no kernel; expected os = \"ubik\", or no object tables",
        ),
        (
            "kind_array",
            "[[task]]\nentry = \"f\"\n",
            "system.toml:1:1: `[[task]]` is an array of tables; expected one table per task, [task.NAME]",
        ),
        (
            "kind_value",
            "task = 3\n",
            "system.toml:1:8: `task`: invalid type: integer `3`; expected one table per task, [task.NAME]",
        ),
    ];

#[test]
fn every_validation_error_exactly() {
    let mut bad = Vec::new();
    for (what, text, want) in ERRORS {
        match parse(text) {
            Ok(_) => bad.push(format!("{what}: accepted, expected {want}")),
            Err(e) => {
                assert_eq!(e.exit_code(), 65, "{what}");
                let got = e.to_string();
                if got != *want {
                    bad.push(format!("{what}:\n  got  {got}\n  want {want}"));
                }
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

fn tasks(n: usize) -> String {
    let mut s = String::from("[kernel]\nscheduler = \"bitmap\"\n");
    for i in 0..n {
        s.push_str(&format!("[task.t{i}]\nentry = \"f\"\npriority = {i}\n"));
    }
    s
}

#[test]
fn at_most_64_tasks_with_bitmap() {
    // 63 declared + idle = 64: fine.
    assert_eq!(parse(&tasks(63)).unwrap().objects.tasks.len(), 63);
    let e = parse(&tasks(64)).unwrap_err().to_string();
    assert_eq!(
            e,
            "system.toml:192:7: task \"t63\" is task number 64 besides the idle task; expected at most 64 tasks with scheduler \"bitmap\", the idle task included (63 declared)"
        );
    // Other schedulers: many tasks, shared priorities.
    let mut s = String::new();
    for i in 0..100 {
        s.push_str(&format!("[task.t{i}]\nentry = \"f\"\npriority = 5\n"));
    }
    assert_eq!(parse(&s).unwrap().objects.tasks.len(), 100);
}

const FULL: &str = r#"
[kernel]
scheduler = "prio_rr"
[power]
policy = "ls1"
[task.b_task]
entry = "run_b"
priority = 9
[task.a_task]
entry = "run_a"
priority = 3
stack_bytes = 512
slice = 4
start = "suspended"
arg = "q"
signal = "on_sig"
power_class = "high"
[task.c_task]
entry = "run_a"
priority = 3
arg = -1
[sem.s]
initial = 1
max = 3
[mutex]
m = {}
m2 = {}
[queue.q]
msg_bytes = 6
capacity = 5
[queue.vq]
max_msg_bytes = 10
capacity = 2
[port.p]
capacity = 3
[flags.f]
initial = 0xF0
[heap.h]
bytes = 1024
[pool.carved]
block_bytes = 16
count = 4
heap = "h"
[pool.fixed]
block_bytes = 8
count = 2
[timer.t_call]
call = "tick_fn"
arg = 42
delay = 2
period = 5
[timer.t_task]
activate = "a_task"
delay = 7
[timer.t_flags]
flags = "f"
bits = 3
start = "stopped"
[interrupt.rx]
line = 3
lisr = "rx_lisr"
hisr = "rx_hisr"
hisr_priority = 2
hisr_stack_bytes = 256
[interrupt.tx]
line = 14
lisr = "tx_lisr"
"#;

#[test]
fn every_kind_resolves() {
    let d = parse(FULL).unwrap();
    assert_eq!(d.power.policy, PowerPolicy::Ls1);
    let o = &d.objects;
    // Kinds keep the order written.
    let names: Vec<&str> = o.tasks.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["b_task", "a_task", "c_task"]);
    let b = &o.tasks[0];
    assert_eq!(
        (
            b.priority,
            b.stack_bytes,
            b.slice,
            b.start,
            &b.arg,
            &b.signal,
            b.power_class
        ),
        (
            9,
            DEFAULT_STACK_BYTES,
            None,
            TaskStart::Active,
            &Arg::None,
            &None,
            None
        )
    );
    assert_eq!((b.at.line, b.at.column), (6, 7));
    let a = &o.tasks[1];
    assert_eq!(a.entry, "run_a");
    assert_eq!(
        (a.priority, a.stack_bytes, a.slice, a.start),
        (3, 512, Some(4), TaskStart::Suspended)
    );
    assert_eq!(a.arg, Arg::Object("q".into()));
    assert_eq!(a.signal.as_deref(), Some("on_sig"));
    assert_eq!(a.power_class, Some(PowerClass::High));
    assert_eq!(o.tasks[2].arg, Arg::Int(0xFFFF_FFFF));
    assert_eq!((o.sems[0].initial, o.sems[0].max), (1, 3));
    let m: Vec<&str> = o.mutexes.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(m, ["m", "m2"]);
    assert_eq!(
        o.queues[0].kind,
        QueueKind::Fixed {
            msg_bytes: 6,
            capacity: 5
        }
    );
    assert_eq!(o.queues[0].kind.buffer_bytes(), 30);
    assert_eq!(
        o.queues[1].kind,
        QueueKind::Variable {
            max_msg_bytes: 10,
            capacity: 2
        }
    );
    assert_eq!(o.queues[1].kind.buffer_bytes(), 2 * (4 + 12));
    assert_eq!(o.ports[0].capacity, 3);
    assert_eq!(o.flags[0].initial, 0xF0);
    assert_eq!(o.heaps[0].bytes, 1024);
    assert_eq!(o.pools[0].heap.as_deref(), Some("h"));
    assert_eq!(
        (o.pools[1].block_bytes, o.pools[1].count, &o.pools[1].heap),
        (8, 2, &None)
    );
    assert_eq!(
        o.timers[0].action,
        TimerAction::Call {
            function: "tick_fn".into(),
            arg: Arg::Int(42)
        }
    );
    assert_eq!(o.timers[0].start, Some((2, 5)));
    assert_eq!(
        o.timers[1].action,
        TimerAction::Activate {
            task: "a_task".into()
        }
    );
    assert_eq!(o.timers[1].start, Some((7, 0)));
    assert_eq!(
        o.timers[2].action,
        TimerAction::SetFlags {
            flags: "f".into(),
            bits: 3
        }
    );
    assert_eq!(o.timers[2].start, None);
    assert_eq!(o.interrupts[0].line, 3);
    assert_eq!(
        o.interrupts[0].hisr,
        Some(Hisr {
            function: "rx_hisr".into(),
            priority: 2,
            stack_bytes: 256
        })
    );
    assert_eq!((o.interrupts[1].line, &o.interrupts[1].hisr), (14, &None));
    assert!(!o.is_empty());
    assert!(parse("").unwrap().objects.is_empty());
}

#[test]
fn power_joins_the_default_features_when_used() {
    assert!(!parse("").unwrap().kernel.features.contains(&"power"));
    assert!(!parse("[power]\npolicy = \"default\"\n")
        .unwrap()
        .kernel
        .features
        .contains(&"power"));
    let d = parse("[power]\npolicy = \"idle\"\n").unwrap();
    assert_eq!(d.kernel.features, crate::FEATURES.to_vec());
    assert_eq!(d.power.policy, PowerPolicy::Idle);
    let d = parse("[task.t]\nentry = \"f\"\npriority = 1\npower_class = \"low\"\n").unwrap();
    assert!(d.kernel.features.contains(&"power"));
    // An explicit list is taken as written.
    let e = parse("[kernel]\nfeatures = [\"sem\"]\n[power]\npolicy = \"ls0\"\n").unwrap_err();
    assert_eq!(
            e.to_string(),
            "system.toml:4:10: policy = \"ls0\" needs the kernel feature \"power\", which [kernel] features leaves out; expected \"power\" in [kernel] features"
        );
    let d = parse("[kernel]\nfeatures = [\"power\"]\n[power]\npolicy = \"ls0\"\n").unwrap();
    assert_eq!(d.kernel.features, vec!["power"]);
}

#[test]
fn defaults_of_each_kind() {
    let d = parse("[sem.s]\n[flags.f]\n[timer.t]\ncall = \"g\"\ndelay = 1\n[power]\n").unwrap();
    assert_eq!((d.objects.sems[0].initial, d.objects.sems[0].max), (0, 1));
    assert_eq!(d.objects.flags[0].initial, 0);
    assert_eq!(d.objects.timers[0].start, Some((1, 0)));
    assert_eq!(d.power.policy, PowerPolicy::Default);
    // policy = "default" needs no feature; a task may share its entry with another task.
    let d = parse(
        "[kernel]\nfeatures = []\n[power]\npolicy = \"default\"\n\
             [task.a]\nentry = \"f\"\npriority = 1\n[task.b]\nentry = \"f\"\npriority = 1\n",
    )
    .unwrap();
    assert_eq!(d.objects.tasks.len(), 2);
}
