//! The task table read from the machine's memory (`observe::tasktable`): names, states,
//! priorities, the running task, what each task waits on (a named object of the
//! descriptor's table, a task's task port, an object the table does not name) and the stack
//! in use; a version-3 descriptor gives no waits and no stacks.

use machine::config::{MachineConfig, RAM_BASE};
use machine::elf::{Image, Segment};
use machine::Machine;
use observe::kernel::{DebugInfo, TaskList, Waits};
use observe::tasktable::task_table;

const TCB: u32 = 64; // bytes per TCB; fields: 0 sp, 4 name, 8 state, 9 prio, 12 wait,
                     // 16 stack base, 20 stack bytes, 24 next
const CURRENT: u32 = RAM_BASE + 0x100;
const HEAD: u32 = RAM_BASE + 0x104;
const TCBS: u32 = RAM_BASE + 0x200;
const NAMES: u32 = RAM_BASE + 0x400;
const OBJECTS: u32 = RAM_BASE + 0x500;
const QUEUE: u32 = RAM_BASE + 0x600; // a named queue of 32 bytes
const STACKS: u32 = RAM_BASE + 0x1000; // 1 KiB each

fn info(version: u32) -> DebugInfo {
    DebugInfo {
        version,
        current_task: CURRENT,
        current_hisr: 0,
        off_name: 4,
        off_prio: 9,
        off_state: 8,
        tcb_size: TCB as u16,
        idle_tcb: None,
        tasks: Some(TaskList {
            head: HEAD,
            off_next: 24,
            off_sp: 0,
        }),
        waits: (version >= 4).then_some(Waits {
            off_wait: 12,
            off_stack: 16,
            off_stack_bytes: 20,
            objects: OBJECTS,
        }),
    }
}

/// Four tasks: `a` running, `b` pending in the queue's second wait queue, `c` pending on
/// `a`'s task port, `d` pending on an object no table names; the list newest first.
fn machine() -> Machine {
    let mut ram = vec![0u8; 0x2000];
    let mut put = |addr: u32, v: u32| {
        let o = (addr - RAM_BASE) as usize;
        ram[o..o + 4].copy_from_slice(&v.to_le_bytes());
    };
    let tcb = |i: u32| TCBS + i * TCB;
    put(CURRENT, tcb(0));
    put(HEAD, tcb(3));
    let waits = [0, QUEUE + 12, tcb(0) + 40, RAM_BASE + 0x700];
    for i in 0..4u32 {
        let t = tcb(i);
        let base = STACKS + i * 1024;
        put(t, base + 1024 - 100 * (i + 1)); // saved sp
        put(t + 4, NAMES + 8 * i);
        put(t + 8, if i == 0 { 1 } else { 4 } | (i + 1) << 8); // state, prio
        put(t + 12, waits[i as usize]);
        put(t + 16, base);
        put(t + 20, 1024);
        put(t + 24, if i == 0 { 0 } else { tcb(i - 1) });
        put(NAMES + 8 * i, b'a' as u32 + i);
    }
    put(NAMES + 0x40, u32::from_le_bytes(*b"rx\0\0"));
    // The object table: the queue, then the end.
    put(OBJECTS, QUEUE);
    put(OBJECTS + 4, 32);
    put(OBJECTS + 8, 3);
    put(OBJECTS + 12, NAMES + 0x40);
    let image = Image {
        entry: RAM_BASE,
        segments: vec![Segment {
            addr: RAM_BASE,
            data: ram,
        }],
        symbols: vec![],
        sections: vec![],
    };
    Machine::new(
        &MachineConfig::default(),
        &image,
        1,
        Box::new(std::io::sink()),
    )
}

#[test]
fn the_table_names_what_each_task_waits_on() {
    let m = machine();
    let rows = task_table(&info(4), &m.bus, STACKS + 1024 - 40);
    let names: Vec<&str> = rows.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(names, ["a", "b", "c", "d"], "oldest first");
    assert!(rows[0].running && rows[0].state_text() == "running");
    assert_eq!(rows[1].state_text(), "pending");
    assert_eq!(rows[1].prio, 2);
    let wait = |i: usize| rows[i].wait.as_ref().map(|w| (w.kind, w.name.as_str()));
    assert_eq!(wait(0), None);
    assert_eq!(wait(1), Some(("queue", "rx")));
    assert_eq!(wait(2), Some(("task port", "a")));
    assert_eq!(wait(3), Some(("object", "0x00100700")));
    // The running task's stack use is the core's; the others' their saved sp's.
    let used: Vec<Option<u32>> = rows.iter().map(|r| r.stack.unwrap().used).collect();
    assert_eq!(used, [Some(40), Some(200), Some(300), Some(400)]);
    assert_eq!(rows[1].stack.unwrap().base, STACKS + 1024);
    // The core on another stack (an interrupt's): the running task's use is unknown.
    let rows = task_table(&info(4), &m.bus, RAM_BASE);
    assert_eq!(rows[0].stack.unwrap().used, None);
}

#[test]
fn version_3_has_no_waits_or_stacks() {
    let m = machine();
    let rows = task_table(&info(3), &m.bus, 0);
    assert_eq!(rows.len(), 4);
    assert!(rows.iter().all(|r| r.wait.is_none() && r.stack.is_none()));
}
