//! What `ubik run` writes: the `--stats` JSON object and the `--io` CSV record.

use machine::record::IoEvent;
use machine::Counts;
use observe::{Category, Results};
use serde_json::{json, Map, Value};
use std::io::Write;
use std::path::Path;

pub struct RunStats<'a> {
    pub counts: &'a Counts,
    /// Cycles the core slept (clock gated).
    pub slept: u64,
    pub host_seconds: f64,
    /// The energy and attribution observer's results (`--energy`, `--profile`, `--trace`).
    pub observed: Option<&'a Results>,
    /// Supply voltage for the average current.
    pub supply_v: f64,
}

pub fn stats_json(s: &RunStats) -> Value {
    let c = s.counts;
    let mut by_cat = Map::new();
    let (energy, power, current);
    match s.observed {
        Some(r) => {
            for cat in Category::ALL {
                let st = r.category(cat);
                by_cat.insert(
                    cat.name().into(),
                    json!({"cycles": st.cycles, "instret": st.instret, "energy_j": st.energy_j}),
                );
            }
            energy = json!(r.total.energy_j);
            let p = if c.sim_time_s > 0.0 {
                r.total.energy_j / c.sim_time_s
            } else {
                0.0
            };
            power = json!(p);
            current = json!(if s.supply_v > 0.0 {
                p / s.supply_v
            } else {
                0.0
            });
        }
        None => {
            // Without the observer (`--energy`), cycles split only into asleep (idle) and
            // awake (user), and energy is not modelled: null.
            for name in Category::NAMES {
                let (cycles, instret) = match name {
                    "user" => (c.cycles - s.slept, c.instret),
                    "idle" => (s.slept, 0),
                    _ => (0, 0),
                };
                by_cat.insert(
                    name.into(),
                    json!({"cycles": cycles, "instret": instret, "energy_j": null}),
                );
            }
            energy = Value::Null;
            power = Value::Null;
            current = Value::Null;
        }
    }
    let mut opp = Map::new();
    for (i, t) in c.opp_time_s.iter().enumerate() {
        opp.insert(i.to_string(), json!(t));
    }
    let mips = if s.host_seconds > 0.0 {
        c.instret as f64 / s.host_seconds / 1e6
    } else {
        0.0
    };
    json!({
        "cycles": c.cycles,
        "mcycle": c.mcycle,
        "instret": c.instret,
        "sim_time_s": c.sim_time_s,
        "energy_j": energy,
        "avg_power_w": power,
        "avg_current_a": current,
        "by_category": by_cat,
        "opp_time_s": opp,
        "host_seconds": s.host_seconds,
        "mips": mips,
    })
}

pub fn write_stats(path: &Path, v: &Value) -> std::io::Result<()> {
    let mut text = serde_json::to_string_pretty(v).expect("stats serialise");
    text.push('\n');
    std::fs::write(path, text)
}

/// The IO record as CSV, in time order (a stimulus is recorded when the machine reaches it,
/// so the record is sorted by cycle, stable for events of the same cycle).
pub fn write_io_csv(path: &Path, record: &[IoEvent]) -> std::io::Result<()> {
    let mut rows: Vec<&IoEvent> = record.iter().collect();
    rows.sort_by_key(|e| e.cycle);
    let mut w = std::io::BufWriter::new(std::fs::File::create(path)?);
    writeln!(w, "cycle,time_s,kind,port,value")?;
    for e in rows {
        writeln!(
            w,
            "{},{},{},{},{}",
            e.cycle,
            e.time_s(),
            e.kind.name(),
            e.port,
            e.value
        )?;
    }
    w.flush()
}
