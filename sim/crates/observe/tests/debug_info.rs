//! The kernel descriptor (`uk_debug_info`) as the observer reads it: version 4 carries what
//! tasks wait on, their stacks and the objects' names, version 3 the task list, version 2 the idle task, version 1 is still read (without either), and a
//! descriptor of an unknown version is refused with a message that names the version, the
//! observer then seeing bare metal.

use machine::elf::{Image, Segment, Symbol};
use observe::kernel::{TaskList, Waits, DEBUG_MAGIC, DEBUG_SYMBOL, DEBUG_VERSION};
use observe::{DebugInfo, DebugInfoError};

const AT: u32 = 0x0010_0400;

/// An image with a `uk_debug_info` of `version` at AT (the symbol only if `symbol`), laid
/// out as the kernel does, with `tail` as the version-2 idle-task word (and, for version 3,
/// the task list: head 0x0010_2008, next at 120, sp at 0; for version 4, wait at 48, stack
/// at 88 and 92, objects at 0x0010_2100).
fn image(version: u32, tail: Option<u32>, symbol: bool) -> Image {
    let mut data = Vec::new();
    for w in [DEBUG_MAGIC, version, 0x0010_2000, 0x0010_2004] {
        data.extend_from_slice(&w.to_le_bytes());
    }
    for h in [4u16, 40, 41, 96] {
        data.extend_from_slice(&h.to_le_bytes());
    }
    if let Some(t) = tail {
        data.extend_from_slice(&t.to_le_bytes());
        if version >= 3 {
            data.extend_from_slice(&0x0010_2008u32.to_le_bytes());
            data.extend_from_slice(&120u16.to_le_bytes());
            data.extend_from_slice(&0u16.to_le_bytes());
        }
        if version >= 4 {
            for h in [48u16, 88, 92, 0] {
                data.extend_from_slice(&h.to_le_bytes());
            }
            data.extend_from_slice(&0x0010_2100u32.to_le_bytes());
        }
    }
    Image {
        entry: AT,
        segments: vec![Segment { addr: AT, data }],
        symbols: if symbol {
            vec![Symbol {
                name: DEBUG_SYMBOL.into(),
                addr: AT,
                size: 28,
                is_func: false,
            }]
        } else {
            vec![]
        },
        sections: vec![],
    }
}

#[test]
fn version_4_carries_waits_and_stacks() {
    assert_eq!(DEBUG_VERSION, 4);
    let d = DebugInfo::read(&image(4, Some(0x0010_3000), true))
        .unwrap()
        .unwrap();
    assert_eq!(d.tasks.map(|t| t.off_next), Some(120));
    assert_eq!(
        d.waits,
        Some(Waits {
            off_wait: 48,
            off_stack: 88,
            off_stack_bytes: 92,
            objects: 0x0010_2100
        })
    );
    let mut short = image(4, Some(0x0010_3000), true);
    short.segments[0].data.truncate(40);
    assert_eq!(
        DebugInfo::read(&short),
        Err(DebugInfoError::Truncated { version: 4 })
    );
}

#[test]
fn version_3_carries_the_task_list() {
    let d = DebugInfo::read(&image(3, Some(0x0010_3000), true))
        .unwrap()
        .unwrap();
    assert_eq!(d.idle_tcb, Some(0x0010_3000));
    assert_eq!(
        d.tasks,
        Some(TaskList {
            head: 0x0010_2008,
            off_next: 120,
            off_sp: 0
        })
    );
}

#[test]
fn version_2_carries_the_idle_task() {
    let d = DebugInfo::read(&image(2, Some(0x0010_3000), true))
        .unwrap()
        .unwrap();
    assert_eq!(
        d,
        DebugInfo {
            version: 2,
            current_task: 0x0010_2000,
            current_hisr: 0x0010_2004,
            off_name: 4,
            off_prio: 40,
            off_state: 41,
            tcb_size: 96,
            idle_tcb: Some(0x0010_3000),
            tasks: None,
            waits: None,
        }
    );
    assert_eq!(
        DebugInfo::from_image(&image(2, Some(0x0010_3000), true)),
        Some(d)
    );
}

#[test]
fn version_1_has_no_idle_task() {
    let d = DebugInfo::read(&image(1, None, true)).unwrap().unwrap();
    assert_eq!(d.version, 1);
    assert_eq!(d.tcb_size, 96);
    assert_eq!(d.idle_tcb, None);
}

#[test]
fn no_descriptor_is_bare_metal() {
    assert_eq!(DebugInfo::read(&image(2, Some(1), false)), Ok(None));
    let mut bad_magic = image(2, Some(1), true);
    bad_magic.segments[0].data[0] ^= 1;
    assert_eq!(DebugInfo::read(&bad_magic), Ok(None));
}

#[test]
fn unknown_versions_are_refused() {
    for v in [0, 5, 0xFFFF_FFFF] {
        let img = image(v, Some(0x0010_3000), true);
        let e = DebugInfo::read(&img).unwrap_err();
        assert_eq!(e, DebugInfoError::UnknownVersion(v));
        let msg = e.to_string();
        assert!(
            msg.contains(&format!("version {v}")) && msg.contains("versions 1 to 4"),
            "{msg}"
        );
        assert_eq!(DebugInfo::from_image(&img), None, "observed as bare metal");
    }
}

#[test]
fn a_short_descriptor_is_refused() {
    assert_eq!(
        DebugInfo::read(&image(2, None, true)),
        Err(DebugInfoError::Truncated { version: 2 })
    );
    assert_eq!(
        DebugInfo::read(&image(3, None, true)),
        Err(DebugInfoError::Truncated { version: 3 })
    );
}
