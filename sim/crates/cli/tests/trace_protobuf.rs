//! `ubik run --trace FILE.perfetto-trace` (docs/observe.md): the kernel-events app of
//! tests/trace/kevents written in Perfetto's protobuf format decodes back (with the same
//! `prost` messages) to described tracks and events: the queue's sends and receives by
//! name, a block, a wake by the producer, the marker and the counter.

mod support;

use observe::perfetto_pb::{decode, COUNTER, INSTANT, SLICE_BEGIN, SLICE_END};
use std::collections::HashMap;
use support::*;

#[test]
fn a_protobuf_trace_decodes_to_the_kernel_events() {
    require_gcc();
    let dir = scratch("pbtrace");
    let app = repo_root().join("tests/trace/kevents");
    let elf = dir.join("app.elf");
    let out = dir.join("t.perfetto-trace");
    let r = ubik(&[
        "build".as_ref(),
        app.as_os_str(),
        "-o".as_ref(),
        elf.as_os_str(),
        "--build-dir".as_ref(),
        dir.join("build").as_os_str(),
    ]);
    assert_eq!(r.code, 0, "ubik build: {}", r.stderr);
    let r = ubik(&[
        "run".as_ref(),
        elf.as_os_str(),
        "--max-time".as_ref(),
        "0.03".as_ref(),
        "--trace".as_ref(),
        out.as_os_str(),
    ]);
    assert_eq!(r.code, 72, "ubik run: {}", r.stderr);
    let bytes = std::fs::read(&out).unwrap();
    let trace = decode(&bytes).expect("the file decodes as a Perfetto Trace");
    let mut tracks: HashMap<u64, String> = HashMap::new();
    let mut events: Vec<(String, i32, String, u64)> = Vec::new();
    for p in &trace.packet {
        if let Some(d) = &p.track_descriptor {
            tracks.insert(d.uuid.unwrap(), d.name.clone().unwrap_or_default());
        }
        if let Some(e) = &p.track_event {
            let uuid = e.track_uuid.unwrap();
            assert!(
                tracks.contains_key(&uuid),
                "an event before its track's descriptor"
            );
            let name = e.name.clone().unwrap_or_default();
            events.push((
                tracks[&uuid].clone(),
                e.r#type.unwrap(),
                name,
                p.timestamp.unwrap(),
            ));
        }
    }
    let has = |track: &str, ty: i32, name: &str| {
        events
            .iter()
            .any(|(t, y, n, _)| t.starts_with(track) && *y == ty && n == name)
    };
    for (track, ty, name) in [
        ("producer", INSTANT, "send mailbox"),
        ("consumer", INSTANT, "receive mailbox"),
        ("consumer", INSTANT, "block on mailbox"),
        ("consumer", INSTANT, "woken by producer"),
        ("producer", INSTANT, "batch"),
        ("consumer", SLICE_BEGIN, "ready"),
        ("value 1", COUNTER, ""),
    ] {
        assert!(
            has(track, ty, name),
            "no {name:?} (type {ty}) on {track}: {events:?}"
        );
    }
    let begins = events.iter().filter(|e| e.1 == SLICE_BEGIN).count();
    let ends = events.iter().filter(|e| e.1 == SLICE_END).count();
    assert_eq!(begins, ends, "every slice begins and ends");
    let _ = std::fs::remove_dir_all(&dir);
}
