//! RAM: the declared objects must fit in the machine before anything is compiled. Every
//! object is static: its control block, its stack or buffer (16-byte aligned), its descriptor
//! in the tables of `uk_gen.c` and its name. Their sum, in the order written, must stay within
//! [`OBJECT_RAM_BYTES`], less the kernel's own stacks (`[kernel] irq_stack_bytes` and
//! `idle_stack_bytes`, counted first); the object that takes it over is named, one line,
//! exit 65.

use crate::objects::Objects;
use crate::{ConfigError, Location};

/// The RAM of the machine `ubik build` links for: `bsp/link.ld`'s RAM region (1 MiB, the
/// default machine's `ram_size`; a test keeps the two equal).
pub const RAM_BYTES: u64 = 1 << 20;
/// What the objects leave to the rest of the image: the kernel's, the BSP's and the
/// application's code and data and the start-up stack (`__stack_size`, 4 KiB); the kernel's
/// interrupt and idle stacks are counted apart, from `[kernel]`. The tutorial takes about 20 KiB of it.
pub const RESERVED_BYTES: u64 = 64 << 10;
/// The RAM the declared objects may take together.
pub const OBJECT_RAM_BYTES: u64 = RAM_BYTES - RESERVED_BYTES;

/// Upper bounds of the kernel's control blocks on RV32 with every feature on, by C type (a
/// test compiles `sizeof(T) <= N` for each, so that a kernel change cannot outgrow them).
pub const CONTROL_BLOCK_BYTES: [(&str, u64); 10] = [
    ("uk_task_t", 160),
    ("uk_sem_t", 32),
    ("uk_mutex_t", 48),
    ("uk_queue_t", 80),
    ("uk_port_t", 64),
    ("uk_flags_t", 32),
    ("uk_heap_t", 1024),
    ("uk_pool_t", 64),
    ("uk_timer_t", 80),
    ("uk_hisr_t", 64),
];

fn control_block(c_type: &str) -> u64 {
    CONTROL_BLOCK_BYTES
        .iter()
        .find(|(t, _)| *t == c_type)
        .map(|(_, n)| *n)
        .unwrap_or(0)
}

/// The size of one descriptor of `uk_gen.c`'s tables (`gen`), by kind, on RV32 (an interrupt
/// has one, and one more for its HISR if it has one).
pub const DESCRIPTOR_BYTES: [(&str, u64); 11] = [
    ("task", 40),
    ("sem", 20),
    ("mutex", 12),
    ("queue", 32),
    ("port", 20),
    ("flags", 16),
    ("heap", 20),
    ("pool", 28),
    ("timer", 44),
    ("interrupt", 16),
    ("hisr", 28),
];

fn descriptor(kind: &str) -> u64 {
    DESCRIPTOR_BYTES
        .iter()
        .find(|(k, _)| *k == kind)
        .map(|(_, n)| *n)
        .unwrap_or(0)
}

/// A buffer's size once 16-byte aligned.
fn aligned(bytes: u64) -> u64 {
    bytes.div_ceil(16) * 16
}

/// One object's RAM: where it is written, its kind and name, its bytes.
struct Cost<'a> {
    at: &'a Location,
    kind: &'static str,
    name: &'a str,
    bytes: u64,
}

fn costs<'a>(o: &'a Objects) -> Vec<Cost<'a>> {
    let mut v = Vec::new();
    // Each object: its control block (by C type; none for an interrupt without a HISR), its
    // memory, its descriptor and its name (a string of the tables).
    let mut add = |at, kind: &'static str, name: &'a str, c_type: Option<&str>, memory: u64| {
        v.push(Cost {
            at,
            kind,
            name,
            bytes: c_type.map_or(0, control_block)
                + memory
                + descriptor(kind)
                + name.len() as u64
                + 1,
        })
    };
    for x in &o.tasks {
        let stack = aligned(x.stack_bytes as u64);
        add(&x.at, "task", &x.name, Some("uk_task_t"), stack);
    }
    for x in &o.sems {
        add(&x.at, "sem", &x.name, Some("uk_sem_t"), 0);
    }
    for x in &o.mutexes {
        add(&x.at, "mutex", &x.name, Some("uk_mutex_t"), 0);
    }
    for x in &o.queues {
        let buffer = aligned(x.kind.buffer_bytes());
        add(&x.at, "queue", &x.name, Some("uk_queue_t"), buffer);
    }
    for x in &o.ports {
        add(
            &x.at,
            "port",
            &x.name,
            Some("uk_port_t"),
            4 * x.capacity as u64,
        );
    }
    for x in &o.flags {
        add(&x.at, "flags", &x.name, Some("uk_flags_t"), 0);
    }
    for x in &o.heaps {
        add(
            &x.at,
            "heap",
            &x.name,
            Some("uk_heap_t"),
            aligned(x.bytes as u64),
        );
    }
    for x in &o.pools {
        // A pool carved from a heap takes its blocks from the heap's buffer.
        let buffer = match x.heap {
            Some(_) => 0,
            None => aligned(x.block_bytes as u64 * x.count as u64),
        };
        add(&x.at, "pool", &x.name, Some("uk_pool_t"), buffer);
    }
    for x in &o.timers {
        add(&x.at, "timer", &x.name, Some("uk_timer_t"), 0);
    }
    for x in &o.interrupts {
        match &x.hisr {
            Some(h) => {
                let memory = aligned(h.stack_bytes as u64) + descriptor("hisr");
                add(&x.at, "interrupt", &x.name, Some("uk_hisr_t"), memory)
            }
            None => add(&x.at, "interrupt", &x.name, None, 0),
        }
    }
    v
}

/// Fails at the first object, in the order written, with which the kernel's stacks
/// (`kernel_stack_bytes`, at most 512 KiB: they always fit alone) and the objects no longer
/// fit in [`OBJECT_RAM_BYTES`].
pub fn check(o: &Objects, kernel_stack_bytes: u64) -> Result<(), ConfigError> {
    let mut v = costs(o);
    if kernel_stack_bytes + v.iter().map(|c| c.bytes).sum::<u64>() <= OBJECT_RAM_BYTES {
        return Ok(());
    }
    v.sort_by_key(|c| (c.at.line, c.at.column));
    let mut total = kernel_stack_bytes;
    for c in v {
        total += c.bytes;
        if total > OBJECT_RAM_BYTES {
            return Err(ConfigError::Invalid {
                at: c.at.clone(),
                message: format!(
                    "{} \"{}\" takes the objects declared up to it to {total} bytes of RAM \
                     (stacks, buffers, control blocks; the kernel's interrupt and idle stacks \
                     included), more than the {OBJECT_RAM_BYTES} the machine has for them",
                    c.kind, c.name
                ),
                expected: format!(
                    "objects within {} KiB ({} MiB of RAM less {} KiB for code, data and the \
                     start-up stack): smaller stacks and buffers, or fewer objects",
                    OBJECT_RAM_BYTES >> 10,
                    RAM_BYTES >> 20,
                    RESERVED_BYTES >> 10
                ),
            });
        }
    }
    Ok(())
}
