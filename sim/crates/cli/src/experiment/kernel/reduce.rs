//! The kernel benchmarks' console figures: each benchmark application prints `key value...`
//! lines (`sched_ready_16 247 240 212`: the worst, the mean and the best of its repetitions;
//! `coop 120 118 117`; `irq_disable_restore 4`; IPC's `queue 16 310`: a figure per message
//! size), and these pure functions turn a run's console text into the JSON's figures. A line
//! whose value is not an integer is the run's error (the message names the line).

use crate::experiment::measure::console::{parse, Console};
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// The console's `key value ...` lines (measure::console).
fn lines(text: &str) -> Console {
    parse(text, &[])
}

fn int(key: &str, v: &str) -> Result<u64, String> {
    v.parse()
        .map_err(|_| format!("`{key} {v}`: expected a non-negative integer after {key}"))
}

/// The first value of the last `key` line, if there is one.
pub fn first_int(text: &str, key: &str) -> Result<Option<u64>, String> {
    lines(text).values(key).map(|v| int(key, &v[0])).transpose()
}

/// `sched_overhead_cycles[sched]`: for each task count `n` of `sizes`, the worst of the
/// `sched_ready_N` and `sched_blocked_N` lines' first values (other tasks ready or blocked);
/// the counts the run did not measure are absent.
pub fn sched_row(text: &str, sizes: &[u32]) -> Result<BTreeMap<String, u64>, String> {
    let kv = lines(text);
    let mut row = BTreeMap::new();
    for n in sizes {
        let mut worst = None;
        for mode in ["ready", "blocked"] {
            let key = format!("sched_{mode}_{n}");
            if let Some(v) = kv.values(&key) {
                worst = worst.max(Some(int(&key, &v[0])?));
            }
        }
        if let Some(w) = worst {
            row.insert(n.to_string(), w);
        }
    }
    Ok(row)
}

/// The worst scheduling overhead over every `sched_*` line but `sched_empty` (the RTM's
/// figure at one record count); None without such lines.
pub fn worst_sched(text: &str) -> Result<Option<u64>, String> {
    let mut worst = None;
    for (_, key, v) in lines(text).value_lines() {
        if key.starts_with("sched_") && !key.starts_with("sched_empty") {
            worst = worst.max(Some(int(key, &v[0])?));
        }
    }
    Ok(worst)
}

/// The IPC benchmark's lines: `NAME SIZE CYCLES` (a figure per message size) and `NAME
/// CYCLES`.
fn ipc_lines(text: &str) -> Result<Map<String, Value>, String> {
    let mut kv = Map::new();
    for (_, k, v) in lines(text).value_lines() {
        match v {
            [size, v] => {
                let e = kv.entry(k).or_insert_with(|| Value::Object(Map::new()));
                if !e.is_object() {
                    *e = Value::Object(Map::new());
                }
                if let Value::Object(m) = e {
                    m.insert(size.clone(), int(k, v)?.into());
                }
            }
            [v] if v.bytes().all(|b| b.is_ascii_digit()) => {
                kv.insert(k.into(), int(k, v)?.into());
            }
            _ => {}
        }
    }
    Ok(kv)
}

/// The figures of `ipc.json` from the IPC benchmark's console (its code sizes are added by
/// the caller): the contract's keys, then the handoffs to a waiting receiver.
pub fn ipc(text: &str) -> Result<Map<String, Value>, String> {
    let kv = ipc_lines(text)?;
    let mut res = Map::new();
    let plain = [
        "queue",
        "port",
        "taskport",
        "sem_give_take",
        "flags_set_wait",
        "pool_alloc_free",
        "heap_alloc_free_worst",
    ];
    for k in plain {
        if let Some(v) = kv.get(k) {
            res.insert(k.into(), v.clone());
        }
    }
    let mut mx = Map::new();
    for (from, to) in [
        ("mutex_uncontended", "uncontended"),
        ("mutex_contended", "contended"),
    ] {
        if let Some(v) = kv.get(from) {
            mx.insert(to.into(), v.clone());
        }
    }
    if !mx.is_empty() {
        res.insert("mutex_lock_unlock".into(), Value::Object(mx));
    }
    for k in ["handoff_queue", "handoff_port"] {
        if let Some(v) = kv.get(k) {
            res.insert(k.into(), v.clone());
        }
    }
    Ok(res)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const SCHED: &str = "sched_empty 3\nsched_ready_4 250 247 240\nsched_blocked_4 251 247 240\n\
sched_ready_8 260 250 240\nsched_blocked_3 999 1 1\nsched_ready_16 7 7 7\nsched_ready_16 9 9 9\n";

    #[test]
    fn a_sched_row_is_the_worst_mode_of_each_listed_count() {
        let row = sched_row(SCHED, &[1, 2, 4, 8, 16]).unwrap();
        let want: BTreeMap<String, u64> = [("4", 251), ("8", 260), ("16", 9)]
            .map(|(k, v)| (k.to_string(), v))
            .into();
        assert_eq!(row, want);
    }

    #[test]
    fn the_rtm_figure_is_the_worst_of_every_sched_line_but_empty() {
        assert_eq!(worst_sched(SCHED).unwrap(), Some(999));
        assert_eq!(worst_sched("sched_empty 3\n").unwrap(), None);
    }

    #[test]
    fn a_value_that_is_no_integer_is_an_error_naming_its_key() {
        let e = sched_row("sched_ready_4 lots\n", &[4]).unwrap_err();
        assert!(e.contains("sched_ready_4 lots"), "{e}");
        assert!(first_int("coop -1\n", "coop").is_err());
        assert_eq!(
            first_int("coop 120 118\ncoop 121 1\n", "coop").unwrap(),
            Some(121)
        );
        assert_eq!(first_int("", "coop").unwrap(), None);
    }

    #[test]
    fn ipc_figures_by_size_and_alone() {
        let text = "empty 2\nqueue 4 300\nqueue 16 310\nsem_give_take 90\nmutex_uncontended 40\n\
mutex_contended 500\nhandoff_port 4 280\nheap_alloc_worst 70\nheap_alloc_free_worst 150\nerror x\n";
        let got = Value::Object(ipc(text).unwrap());
        let want = json!({
            "queue": {"4": 300, "16": 310},
            "sem_give_take": 90,
            "heap_alloc_free_worst": 150,
            "mutex_lock_unlock": {"uncontended": 40, "contended": 500},
            "handoff_port": {"4": 280},
        });
        assert_eq!(got, want);
    }
}
