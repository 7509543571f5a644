//! Results of an observation: totals, the split by category (`--stats` `by_category`) and
//! by function (`--profile`).

use crate::tasks::{IrqFigures, TaskFigures};
use crate::Category;
use std::io::Write;

/// Cycles, retired instructions and energy of a category, a function or the whole run.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Stat {
    pub cycles: u64,
    pub instret: u64,
    pub energy_j: f64,
}

impl Stat {
    pub fn add(&mut self, o: &Stat) {
        self.cycles += o.cycles;
        self.instret += o.instret;
        self.energy_j += o.energy_j;
    }
}

#[derive(Clone, Debug)]
pub struct Results {
    /// The sum of `by_category` in category order (so the sums equal the total exactly).
    pub total: Stat,
    /// Indexed by `Category as usize`.
    pub by_category: [Stat; 8],
    /// (function, calls, stats) for every function of the code map, pseudo-functions
    /// included: `(sleep)` holds the clock-gated cycles, `(no symbol)` code outside every
    /// symbol and executable section, `(SECTION)` code of a section outside its symbols.
    pub functions: Vec<(String, u64, Stat)>,
    pub task_switches: u64,
    /// The ELF had the kernel's descriptor (task timeline, idle and HISR contexts).
    pub kernel_aware: bool,
    /// Per task, by name (kernel-aware runs; empty otherwise): `crate::tasks`.
    pub tasks: Vec<TaskFigures>,
    /// Per interrupt line that was served, by cause.
    pub irqs: Vec<IrqFigures>,
}

impl Results {
    pub fn category(&self, c: Category) -> &Stat {
        &self.by_category[c as usize]
    }

    /// The `--profile` CSV: `function,calls,cycles,instret,energy_j`, one row per function
    /// that ran (or was called), most cycles first, then by name.
    pub fn write_profile<W: Write>(&self, mut w: W) -> std::io::Result<()> {
        let mut rows: Vec<&(String, u64, Stat)> = self
            .functions
            .iter()
            .filter(|(_, calls, s)| s.cycles > 0 || *calls > 0)
            .collect();
        rows.sort_by(|a, b| b.2.cycles.cmp(&a.2.cycles).then_with(|| a.0.cmp(&b.0)));
        writeln!(w, "function,calls,cycles,instret,energy_j")?;
        for (name, calls, s) in rows {
            writeln!(
                w,
                "{},{},{},{},{:e}",
                csv_field(name),
                calls,
                s.cycles,
                s.instret,
                s.energy_j
            )?;
        }
        w.flush()
    }
}

/// A CSV field: quoted when it holds a comma, a quote or a line break.
pub fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn profile_csv() {
        let r = Results {
            total: Stat::default(),
            by_category: [Stat::default(); 8],
            functions: vec![
                ("a".into(), 0, Stat::default()),
                (
                    "b,c".into(),
                    2,
                    Stat {
                        cycles: 10,
                        instret: 5,
                        energy_j: 1.5e-10,
                    },
                ),
                (
                    "main".into(),
                    1,
                    Stat {
                        cycles: 20,
                        instret: 9,
                        energy_j: 3e-10,
                    },
                ),
            ],
            task_switches: 0,
            kernel_aware: false,
            tasks: Vec::new(),
            irqs: Vec::new(),
        };
        let mut out = Vec::new();
        r.write_profile(&mut out).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "function,calls,cycles,instret,energy_j\nmain,1,20,9,3e-10\n\"b,c\",2,10,5,1.5e-10\n"
        );
    }
}
