//! What `ubik run` writes: the `--stats` JSON object and the `--io` CSV record.

use machine::record::IoEvent;
use machine::Counts;
use observe::{Category, Results};
use serde::Serialize;
use std::collections::BTreeMap;
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

/// One category's share of a run, as `--stats` writes it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CategoryStats {
    pub cycles: u64,
    /// Joules; `None` (null) when energy was not modelled (`--no-energy`).
    pub energy_j: Option<f64>,
    pub instret: u64,
}

/// The `--stats` object of one run (docs/contract.md): fields in the order they are written,
/// which is alphabetical. `ubik run` writes it; an experiment measures from it directly.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Stats {
    pub avg_current_a: Option<f64>,
    pub avg_power_w: Option<f64>,
    /// Category name -> its cycles, instructions and energy.
    pub by_category: BTreeMap<String, CategoryStats>,
    pub cycles: u64,
    pub energy_j: Option<f64>,
    pub host_seconds: f64,
    pub instret: u64,
    /// Interrupt line (`timer`, `line3`, ...) -> its service times; null without the
    /// observer.
    pub irqs: Option<BTreeMap<String, IrqStats>>,
    pub mcycle: u64,
    pub mips: f64,
    /// Operating-point index (as a string, a JSON key) -> seconds spent there.
    pub opp_time_s: BTreeMap<String, f64>,
    /// What ran and how it ended (`ubik run` fills it; absent in an experiment's own use).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub run: Option<RunInfo>,
    pub sim_time_s: f64,
    /// Task name -> its figures (kernel-aware images; empty for bare metal); null without
    /// the observer.
    pub tasks: Option<BTreeMap<String, TaskStats>>,
}

/// One task's figures in `--stats` `tasks` (observe::tasks defines them).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct TaskStats {
    pub activations: u64,
    pub cpu_cycles: u64,
    pub cpu_us: f64,
    pub preemptions: u64,
    /// Percentiles (nearest rank, observe::tasks::nearest_rank) and the maximum of the
    /// response times, us; null when the task completed no response.
    pub response_max_us: Option<f64>,
    pub response_p50_us: Option<f64>,
    pub response_p99_us: Option<f64>,
    /// Responses completed.
    pub responses: u64,
}

/// One interrupt line's service times in `--stats` `irqs`, cycles.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct IrqStats {
    pub count: u64,
    pub max_cycles: u64,
    pub mean_cycles: f64,
    /// The line's name in `system.toml` (null when the image does not carry it).
    pub name: Option<String>,
}

/// The per-task and per-line objects of `--stats` from the observer's results.
fn tasks_and_irqs(r: &Results) -> (BTreeMap<String, TaskStats>, BTreeMap<String, IrqStats>) {
    let tasks = r
        .tasks
        .iter()
        .map(|t| {
            let s = TaskStats {
                activations: t.activations,
                cpu_cycles: t.cpu_cycles,
                cpu_us: t.cpu_us,
                preemptions: t.preemptions,
                response_max_us: t.response_max_us,
                response_p50_us: t.response_p50_us,
                response_p99_us: t.response_p99_us,
                responses: t.responses,
            };
            (t.name.clone(), s)
        })
        .collect();
    let irqs = r
        .irqs
        .iter()
        .map(|i| {
            let s = IrqStats {
                count: i.count,
                max_cycles: i.max_cycles,
                mean_cycles: i.mean_cycles,
                name: i.name.clone(),
            };
            (i.line.clone(), s)
        })
        .collect();
    (tasks, irqs)
}

/// The run's provenance in `--stats`: enough to rerun it and to know it is the same image.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct RunInfo {
    /// The ELF's path as given on the command line.
    pub elf: String,
    /// SHA-256 of the ELF image as it was read (the bytes that ran, also from a pipe),
    /// lower-case hex (null if it could not be read).
    pub elf_sha256: Option<String>,
    /// `ubik run`'s exit status.
    pub exit_code: u8,
    /// The machine file's path as given, or "default".
    pub machine: String,
    pub seed: u64,
    /// The testbed's version (the ubik crate's).
    pub ubik_version: String,
}

impl RunInfo {
    /// `elf_bytes`: the image that ran (or did not load), as it was read: a pipe cannot be
    /// read twice, so the file is not read again here.
    pub fn new(
        elf: &Path,
        elf_bytes: Option<&[u8]>,
        machine: Option<&Path>,
        seed: u64,
        exit_code: u8,
    ) -> RunInfo {
        RunInfo {
            elf: elf.display().to_string(),
            elf_sha256: elf_bytes.map(sha256_hex),
            exit_code,
            machine: machine.map_or("default".into(), |p| p.display().to_string()),
            seed,
            ubik_version: env!("CARGO_PKG_VERSION").to_string(),
        }
    }
}

/// SHA-256 of `bytes`, lower-case hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

impl Stats {
    /// The cycles of category `name` (0 if absent).
    pub fn category_cycles(&self, name: &str) -> u64 {
        self.by_category.get(name).map_or(0, |c| c.cycles)
    }
}

pub fn stats_of(s: &RunStats) -> Stats {
    let c = s.counts;
    let mut by_category = BTreeMap::new();
    let (energy, power, current);
    let (mut tasks, mut irqs) = (None, None);
    match s.observed {
        Some(r) => {
            let (t, i) = tasks_and_irqs(r);
            (tasks, irqs) = (Some(t), Some(i));
            for cat in Category::ALL {
                let st = r.category(cat);
                by_category.insert(
                    cat.name().to_string(),
                    CategoryStats {
                        cycles: st.cycles,
                        energy_j: Some(st.energy_j),
                        instret: st.instret,
                    },
                );
            }
            energy = Some(r.total.energy_j);
            let p = if c.sim_time_s > 0.0 {
                r.total.energy_j / c.sim_time_s
            } else {
                0.0
            };
            power = Some(p);
            current = Some(if s.supply_v > 0.0 {
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
                by_category.insert(
                    name.to_string(),
                    CategoryStats {
                        cycles,
                        energy_j: None,
                        instret,
                    },
                );
            }
            energy = None;
            power = None;
            current = None;
        }
    }
    let opp_time_s = c
        .opp_time_s
        .iter()
        .enumerate()
        .map(|(i, t)| (i.to_string(), *t))
        .collect();
    let mips = if s.host_seconds > 0.0 {
        c.instret as f64 / s.host_seconds / 1e6
    } else {
        0.0
    };
    Stats {
        avg_current_a: current,
        avg_power_w: power,
        by_category,
        cycles: c.cycles,
        energy_j: energy,
        host_seconds: s.host_seconds,
        instret: c.instret,
        irqs,
        mcycle: c.mcycle,
        mips,
        run: None,
        opp_time_s,
        sim_time_s: c.sim_time_s,
        tasks,
    }
}

pub fn write_stats(path: &Path, stats: &Stats) -> std::io::Result<()> {
    let mut text = serde_json::to_string_pretty(stats).map_err(std::io::Error::other)?;
    text.push('\n');
    std::fs::write(path, text)
}

/// The IO record as CSV, in time order (a stimulus is recorded when the machine reaches it,
/// so the record is sorted by cycle, stable for events of the same cycle).
pub fn write_io_csv(path: &Path, record: &[IoEvent]) -> std::io::Result<()> {
    let mut w = std::io::BufWriter::new(std::fs::File::create(path)?);
    writeln!(w, "{IO_CSV_HEADER}")?;
    if record.is_sorted_by_key(|e| e.cycle) {
        write_io_rows(&mut w, record.iter())?;
    } else {
        let mut rows: Vec<&IoEvent> = record.iter().collect();
        rows.sort_by_key(|e| e.cycle);
        write_io_rows(&mut w, rows.into_iter())?;
    }
    w.flush()
}

/// The first line of the IO record's CSV.
pub const IO_CSV_HEADER: &str = "cycle,time_s,kind,port,value";

/// Rows of the IO record's CSV, one per event, in the order given.
pub fn write_io_rows<'a>(
    w: &mut impl Write,
    events: impl Iterator<Item = &'a IoEvent>,
) -> std::io::Result<()> {
    for e in events {
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
    Ok(())
}
