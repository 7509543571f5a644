//! The hypervisor's description, `hypervisor.toml` (docs/hypervisor.md): the partitions, each
//! a guest application with its memory, devices and interrupt lines, and the scheduling
//! policy. `ubik build DIR` builds DIR/hypervisor.toml into one image: the hypervisor (hv/)
//! and every guest, each linked into its own part of RAM.
//!
//! ```toml
//! [hypervisor]
//! policy = "rt"          # "fair" (fixed slices in turn) | "rt" (the realtime partition first)
//! slice_us = 10000       # a turn: fair, and the other partitions' turns under rt
//! period_us = 10000      # rt: the window min_share is counted over
//! min_share = 0.1        # rt: the CPU the other partitions get at least (0 .. 0.9)
//! run_until = "rt"       # the partition whose exit ends the run (default: when all stopped)
//! ram_kib = 64           # the hypervisor's own RAM, at the start of RAM
//!
//! [partition.rt]         # in order: the first gets the RAM after the hypervisor's
//! app = "rt"             # the guest: an application directory (system.toml), from this file
//! ram_kib = 256          # a power of two >= 4 (one PMP entry)
//! devices = ["io"]       # device windows it may use: "io", "uart", "rtm"
//! lines = [3]            # the fast lines it owns (0..14; no two partitions share one)
//! realtime = true        # the rt policy's partition (at most one)
//! slice_us = 5000        # its own turn (default: [hypervisor] slice_us)
//! ```
//! Errors are one line `FILE:LINE:COLUMN: what is wrong; expected what` (exit 65).
//! Turns and periods are at least [`MIN_TURN_US`]: a turn shorter than a partition switch
//! would let no guest run.
//!
//! Where RAM starts, where the devices are and how many fast lines there are are the
//! machine's facts: the caller, which knows the machine, passes them in ([`MachineFacts`]),
//! so that they are written once, in the machine's device list.

use std::ops::Range;
use std::path::Path;

use confread::{quoted_list, read_text_file, Doc};
pub use confread::{ConfigError, Location};
use serde::Deserialize;
use toml::Spanned;

use crate::objects::{Decls, Kind};

/// What the description needs of the machine it is placed in, taken from the machine's
/// device list by the caller (sysdesc knows no machine).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MachineFacts {
    /// Where RAM starts: the hypervisor's vectors and reset code, then the partitions.
    pub ram_base: u32,
    /// Every device of the machine: its name (as in the machine file) and base.
    pub devices: Vec<(&'static str, u32)>,
    /// The fast interrupt lines, numbered from 0.
    pub fast_lines: u32,
}

/// Most partitions (hv/src/hv.h HV_MAX_PARTITIONS).
pub const MAX_PARTITIONS: usize = 4;
/// Most device windows per partition (hv/src/hv.h HV_MAX_DEVICES; PMP entries 1..4).
pub const MAX_DEVICES: usize = 4;
/// The devices whose window a partition may be given (4 KiB each), in the order messages
/// list them: the hypervisor keeps the others (timer, interrupt controller, power) to itself.
pub const GUEST_DEVICES: [&str; 3] = ["io", "rtm", "uart"];
/// The shortest turn (`slice_us`) and minimum-share window (`period_us`), us. A partition
/// switch costs the hypervisor several microseconds (docs/hypervisor.md: its register swap
/// alone is 124 cycles, the C path and the plan several hundred more), longer at a slower
/// operating point; a turn that ends before the switch into it is done lets no guest
/// instruction run, and the run never ends. 100 us leaves a guest most of even the
/// shortest turn.
pub const MIN_TURN_US: i64 = 100;
/// The longest partition name: it names files of the build (`guests/NAME.elf`), sections and
/// symbols.
pub const MAX_NAME_CHARS: usize = 64;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HvPolicy {
    Fair,
    Rt,
}

impl HvPolicy {
    pub fn name(self) -> &'static str {
        match self {
            HvPolicy::Fair => "fair",
            HvPolicy::Rt => "rt",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Partition {
    pub name: String,
    /// The guest application directory, as written (relative to the description's directory).
    pub app: String,
    pub ram_base: u32,
    pub ram_size: u32,
    /// Device windows (bases), in the order written.
    pub devices: Vec<u32>,
    pub lines: u32,
    pub realtime: bool,
    /// Its turn (fair) or its turn among the others (rt), us; None: `[hypervisor] slice_us`.
    pub slice_us: Option<u32>,
    /// Where its RAM is given (its `ram_kib`, else its table): for the build's "does not fit".
    pub ram_at: Location,
    /// Where `app` is written: for the build's "no application there".
    pub app_at: Location,
}

#[derive(Clone, Debug, PartialEq)]
pub struct HypervisorDesc {
    pub policy: HvPolicy,
    pub slice_us: u32,
    pub period_us: u32,
    /// In millionths.
    pub min_share_ppm: u32,
    /// Index into `partitions`; None: the run ends when every partition has stopped.
    pub run_until: Option<usize>,
    /// The hypervisor's own RAM (from [`MachineFacts::ram_base`]).
    pub ram_size: u32,
    /// Where that is given (`[hypervisor] ram_kib`, else the file's start).
    pub ram_at: Location,
    pub partitions: Vec<Partition>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawHv {
    hypervisor: Option<RawSettings>,
    partition: Option<Decls<RawPartition>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSettings {
    policy: Option<Spanned<String>>,
    slice_us: Option<Spanned<i64>>,
    period_us: Option<Spanned<i64>>,
    min_share: Option<Spanned<f64>>,
    run_until: Option<Spanned<String>>,
    ram_kib: Option<Spanned<i64>>,
}

#[derive(Deserialize)]
#[serde(
    deny_unknown_fields,
    expecting = "a partition table: app, ram_kib, devices, lines, realtime, slice_us"
)]
pub(crate) struct RawPartition {
    app: Option<Spanned<String>>,
    ram_kib: Option<Spanned<i64>>,
    devices: Option<Spanned<Vec<Spanned<String>>>>,
    lines: Option<Spanned<Vec<Spanned<i64>>>>,
    realtime: Option<Spanned<bool>>,
    slice_us: Option<Spanned<i64>>,
}

impl Kind for RawPartition {
    const KIND: &'static str = "partition";
}

/// A description being resolved: the document its errors point into, and the machine.
struct Reader<'a> {
    doc: Doc<'a>,
    machine: &'a MachineFacts,
}

type R<T> = Result<T, ConfigError>;

impl Reader<'_> {
    fn err(
        &self,
        span: &Range<usize>,
        what: impl Into<String>,
        expected: impl Into<String>,
    ) -> ConfigError {
        self.doc.err(span, what, expected)
    }

    fn at(&self, span: &Range<usize>) -> Location {
        self.doc.loc(span.start)
    }

    /// A turn or a period in us: from [`MIN_TURN_US`] (shorter than a partition switch, it
    /// would never let a guest run) to 1,000 s.
    fn turn(&self, v: &Spanned<i64>, key: &str) -> R<u32> {
        let n = *v.get_ref();
        if n < MIN_TURN_US {
            return Err(self.err(
                &v.span(),
                format!("{key} = {n} is shorter than a partition switch can be"),
                format!("a time in us from {MIN_TURN_US} to 1000000000"),
            ));
        }
        Ok(self.int(
            v,
            key,
            MIN_TURN_US,
            1_000_000_000,
            &format!("a time in us from {MIN_TURN_US} to 1000000000"),
        )? as u32)
    }

    fn int(&self, v: &Spanned<i64>, key: &str, lo: i64, hi: i64, expected: &str) -> R<i64> {
        self.doc.int_range(v, key, lo, hi, expected)
    }

    /// A RAM size in KiB: a power of two from 4 KiB (one NAPOT PMP entry covers it).
    fn kib(&self, v: &Spanned<i64>) -> R<u32> {
        let n = *v.get_ref();
        if !(4..=(1 << 21)).contains(&n) || n & (n - 1) != 0 {
            return Err(self.err(
                &v.span(),
                format!("ram_kib = {n} is not a power of two from 4"),
                "a power of two >= 4 (KiB): one PMP entry covers it",
            ));
        }
        Ok((n as u32) << 10)
    }

    fn resolve(&self, raw: RawHv) -> R<HypervisorDesc> {
        let mut d = HypervisorDesc {
            policy: HvPolicy::Fair,
            slice_us: 10_000,
            period_us: 10_000,
            min_share_ppm: 100_000,
            run_until: None,
            ram_size: 64 << 10,
            ram_at: self.at(&(0..0)),
            partitions: Vec::new(),
        };
        let mut run_until = None;
        if let Some(s) = raw.hypervisor {
            self.settings(&s, &mut d)?;
            run_until = s.run_until;
        }
        let decls = raw.partition.map(|p| p.0).unwrap_or_default();
        if decls.is_empty() {
            return Err(self.err(
                &(0..0),
                "no partition",
                "at least one [partition.NAME] table with app = \"DIR\"",
            ));
        }
        if decls.len() > MAX_PARTITIONS {
            return Err(self.err(
                &decls[MAX_PARTITIONS].0.span(),
                format!("{} partitions", decls.len()),
                format!("at most {MAX_PARTITIONS}"),
            ));
        }
        let ram_end = 1u64 << 32; // the machine file says how much RAM there is
        let mut next = self.machine.ram_base as u64 + d.ram_size as u64;
        let mut owned: u32 = 0;
        for (name, table) in decls {
            let t = table.get_ref();
            self.partition_name(&name)?;
            let app = t.app.as_ref().ok_or_else(|| {
                self.err(
                    &table.span(),
                    format!("partition {} has no app", name.get_ref()),
                    "app = \"DIR\": the guest's application directory",
                )
            })?;
            let (ram_size, ram_at) = match &t.ram_kib {
                Some(v) => (self.kib(v)?, self.at(&v.span())),
                None => (256 << 10, self.at(&table.span())),
            };
            // Aligned to its size: one NAPOT entry.
            let base = next.div_ceil(ram_size as u64) * ram_size as u64;
            if base + ram_size as u64 > ram_end {
                return Err(self.err(
                    &table.span(),
                    "the partitions do not fit in RAM",
                    "smaller ram_kib",
                ));
            }
            next = base + ram_size as u64;
            let devices = self.devices(&t.devices)?;
            let lines = self.lines(&t.lines, &mut owned)?;
            let realtime = t.realtime.as_ref().is_some_and(|r| *r.get_ref());
            if realtime && d.partitions.iter().any(|p: &Partition| p.realtime) {
                let r = t.realtime.as_ref().expect("realtime set");
                return Err(self.err(
                    &r.span(),
                    "a second realtime partition",
                    "at most one partition with realtime = true",
                ));
            }
            let slice_us = match &t.slice_us {
                Some(v) => Some(self.turn(v, "slice_us")?),
                None => None,
            };
            d.partitions.push(Partition {
                name: name.get_ref().clone(),
                app: app.get_ref().clone(),
                ram_base: base as u32,
                ram_size,
                devices,
                lines,
                realtime,
                slice_us,
                ram_at,
                app_at: self.at(&app.span()),
            });
        }
        if let Some(r) = run_until {
            match d.partitions.iter().position(|p| &p.name == r.get_ref()) {
                Some(i) => d.run_until = Some(i),
                None => {
                    return Err(self.err(
                        &r.span(),
                        format!("run_until names no partition: \"{}\"", r.get_ref()),
                        "the name of a [partition.NAME]",
                    ))
                }
            }
        }
        if d.policy == HvPolicy::Rt && !d.partitions.iter().any(|p| p.realtime) {
            return Err(self.err(
                &(0..0),
                "policy \"rt\" without a realtime partition",
                "realtime = true on one partition",
            ));
        }
        Ok(d)
    }

    /// `[hypervisor]`: the policy, the turns, the minimum share and its RAM, into `d`.
    fn settings(&self, s: &RawSettings, d: &mut HypervisorDesc) -> R<()> {
        if let Some(p) = &s.policy {
            d.policy = match p.get_ref().as_str() {
                "fair" => HvPolicy::Fair,
                "rt" => HvPolicy::Rt,
                other => {
                    return Err(self.err(
                        &p.span(),
                        format!("unknown policy \"{other}\""),
                        "\"fair\" or \"rt\"",
                    ))
                }
            };
        }
        if let Some(v) = &s.slice_us {
            d.slice_us = self.turn(v, "slice_us")?;
        }
        if let Some(v) = &s.period_us {
            d.period_us = self.turn(v, "period_us")?;
        }
        if let Some(v) = &s.min_share {
            let f = *v.get_ref();
            if !(0.0..=0.9).contains(&f) {
                return Err(self.err(
                    &v.span(),
                    format!("min_share = {f} is out of range"),
                    "a fraction of the CPU from 0 to 0.9",
                ));
            }
            d.min_share_ppm = (f * 1e6).round() as u32;
        }
        if let Some(v) = &s.ram_kib {
            d.ram_size = self.kib(v)?;
            d.ram_at = self.at(&v.span());
        }
        Ok(())
    }

    /// A partition's name: an identifier of at most MAX_NAME_CHARS characters.
    fn partition_name(&self, name: &Spanned<String>) -> R<()> {
        if !crate::names::is_identifier(name.get_ref()) {
            return Err(self.err(
                &name.span(),
                format!("partition name \"{}\" is not an identifier", name.get_ref()),
                "letters, digits and _, not starting with a digit",
            ));
        }
        if name.get_ref().chars().count() > MAX_NAME_CHARS {
            return Err(self.err(
                &name.span(),
                format!(
                    "partition name of {} characters",
                    name.get_ref().chars().count()
                ),
                format!("a name of at most {MAX_NAME_CHARS} characters"),
            ));
        }
        Ok(())
    }

    /// A partition's `devices`: each a known device, once, at most MAX_DEVICES of them; their
    /// bases.
    fn devices(&self, list: &Option<Spanned<Vec<Spanned<String>>>>) -> R<Vec<u32>> {
        let mut devices = Vec::new();
        if let Some(list) = list {
            for dev in list.get_ref() {
                let base = GUEST_DEVICES
                    .iter()
                    .find(|n| *n == dev.get_ref())
                    .and_then(|n| self.machine.devices.iter().find(|(m, _)| m == n));
                let Some(&(_, b)) = base else {
                    return Err(self.err(
                        &dev.span(),
                        format!("unknown device \"{}\"", dev.get_ref()),
                        format!("one of {}", quoted_list(&GUEST_DEVICES)),
                    ));
                };
                if devices.contains(&b) {
                    return Err(self.err(
                        &dev.span(),
                        format!("device \"{}\" listed twice", dev.get_ref()),
                        "each device once",
                    ));
                }
                devices.push(b);
            }
            if devices.len() > MAX_DEVICES {
                return Err(self.err(
                    &list.span(),
                    format!("{} devices", devices.len()),
                    format!("at most {MAX_DEVICES}"),
                ));
            }
        }
        Ok(devices)
    }

    /// A partition's `lines`, as a mask: each a fast line no other partition owns (`owned`,
    /// which gains them).
    fn lines(&self, list: &Option<Spanned<Vec<Spanned<i64>>>>, owned: &mut u32) -> R<u32> {
        let mut lines = 0u32;
        if let Some(list) = list {
            for l in list.get_ref() {
                let last = self.machine.fast_lines as i64 - 1;
                let expected = format!("a fast line 0..{last}");
                let n = self.int(l, "line", 0, last, &expected)? as u32;
                if *owned >> n & 1 != 0 {
                    return Err(self.err(
                        &l.span(),
                        format!("line {n} is already another partition's (or listed twice)"),
                        "each line owned by one partition",
                    ));
                }
                *owned |= 1 << n;
                lines |= 1 << n;
            }
        }
        Ok(lines)
    }
}

impl HypervisorDesc {
    /// Reads and resolves a `hypervisor.toml` for `machine`; its path as given names it in
    /// messages.
    pub fn from_file(path: &Path, machine: &MachineFacts) -> Result<HypervisorDesc, ConfigError> {
        let text = read_text_file(path, "the hypervisor description")?;
        Self::from_str(&text, &path.display().to_string(), machine)
    }

    /// Resolves the text of a `hypervisor.toml` for `machine`; `name_for_errors` names it in
    /// messages.
    pub fn from_str(
        text: &str,
        name_for_errors: &str,
        machine: &MachineFacts,
    ) -> Result<HypervisorDesc, ConfigError> {
        let raw: RawHv =
            toml::from_str(text).map_err(|e| crate::toml_err(name_for_errors, text, &e))?;
        Reader {
            doc: Doc::text_only(name_for_errors, text),
            machine,
        }
        .resolve(raw)
    }

    /// The generated C of the partition table (hv/src/hv.h's hv_config); `entries[i]` is
    /// partition i's entry point.
    pub fn config_c(&self, entries: &[u32]) -> String {
        let mut s = String::from(
            "/* Generated by ubik build from hypervisor.toml: do not edit. */\n#include \"hv.h\"\n\n",
        );
        s.push_str("static const struct hv_partition_config partitions[] = {\n");
        for (p, e) in self.partitions.iter().zip(entries) {
            let devs: Vec<String> = p.devices.iter().map(|d| format!("0x{d:08X}u")).collect();
            s.push_str(&format!(
                "    {{.name = \"{}\", .ram_base = 0x{:08X}u, .ram_size = 0x{:08X}u, .entry = 0x{:08X}u,\n     .devices = {{{}}}, .n_devices = {}, .lines = 0x{:04X}u, .realtime = {}, .slice_us = {}}},\n",
                p.name,
                p.ram_base,
                p.ram_size,
                e,
                devs.join(", "),
                p.devices.len(),
                p.lines,
                p.realtime,
                p.slice_us.unwrap_or(0)
            ));
        }
        s.push_str("};\n\n");
        s.push_str(&format!(
            "const struct hv_config hv_config = {{\n    .policy = {},\n    .slice_us = {},\n    .period_us = {},\n    .min_share_ppm = {},\n    .run_until = {},\n    .n = {},\n    .partitions = partitions,\n}};\n",
            match self.policy {
                HvPolicy::Fair => "HV_POLICY_FAIR",
                HvPolicy::Rt => "HV_POLICY_RT",
            },
            self.slice_us,
            self.period_us,
            self.min_share_ppm,
            self.run_until.map(|i| i as i64).unwrap_or(-1),
            self.partitions.len()
        ));
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reference machine's facts (the cli passes the machine crate's, `build::hv`).
    fn reference() -> MachineFacts {
        MachineFacts {
            ram_base: 0x0010_0000,
            devices: vec![
                ("timer", 0x0003_0000),
                ("io", 0x0004_0000),
                ("intc", 0x0005_0000),
                ("rtm", 0x0007_0000),
                ("uart", 0x0008_0000),
            ],
            fast_lines: 15,
        }
    }

    fn err(text: &str) -> String {
        HypervisorDesc::from_str(text, "h.toml", &reference())
            .unwrap_err()
            .to_string()
    }

    const TWO: &str = "[hypervisor]\npolicy = \"rt\"\nrun_until = \"rt\"\n\n[partition.rt]\napp = \"a\"\nlines = [3]\nrealtime = true\ndevices = [\"io\"]\n\n[partition.gp]\napp = \"b\"\nram_kib = 128\nlines = [4, 5]\nslice_us = 5000\n";

    #[test]
    fn partitions_are_placed_aligned_after_the_hypervisor() {
        let d = HypervisorDesc::from_str(TWO, "h.toml", &reference()).unwrap();
        assert_eq!(d.policy, HvPolicy::Rt);
        assert_eq!(d.run_until, Some(0));
        let p = &d.partitions;
        assert_eq!((p[0].ram_base, p[0].ram_size), (0x140000, 0x40000));
        assert_eq!((p[1].ram_base, p[1].ram_size), (0x180000, 0x20000));
        assert_eq!((p[0].lines, p[1].lines), (1 << 3, 3 << 4));
        assert_eq!(p[0].devices, vec![0x40000]);
        assert_eq!((p[0].slice_us, p[1].slice_us), (None, Some(5000)));
        let c = d.config_c(&[0x140080, 0x180080]);
        assert!(
            c.contains(".policy = HV_POLICY_RT") && c.contains(".run_until = 0"),
            "{c}"
        );
    }

    #[test]
    fn small_shares_and_turns_are_kept() {
        // min_share in millionths: 0.0004 is not rounded away (issue 28, item 7).
        let d = HypervisorDesc::from_str(
            "[hypervisor]\npolicy = \"rt\"\nmin_share = 0.0004\nslice_us = 100\nperiod_us = 100\n[partition.a]\napp = \"x\"\nrealtime = true\n",
            "h.toml", &reference(),
        )
        .unwrap();
        assert_eq!((d.min_share_ppm, d.slice_us, d.period_us), (400, 100, 100));
        assert!(d.config_c(&[0]).contains(".min_share_ppm = 400,"));
        // Where each RAM is given: its ram_kib, else its table (the file's start for the
        // hypervisor's).
        let d = HypervisorDesc::from_str(TWO, "h.toml", &reference()).unwrap();
        assert_eq!(d.ram_at.to_string(), "h.toml:1:1");
        assert_eq!(d.partitions[0].ram_at.to_string(), "h.toml:5:1");
        assert_eq!(d.partitions[1].ram_at.to_string(), "h.toml:13:11");
        assert_eq!(d.partitions[0].app_at.to_string(), "h.toml:6:7");
    }

    #[test]
    fn errors_say_where_and_what() {
        assert!(err("[partition.a]\napp = \"x\"\nram_kib = 100\n")
            .starts_with("h.toml:3:11: ram_kib = 100"));
        assert!(err(
            "[partition.a]\napp = \"x\"\nlines = [3]\n[partition.b]\napp = \"y\"\nlines = [3]\n"
        )
        .contains("h.toml:6:10: line 3 is already"));
        assert!(err("[partition.a]\napp = \"x\"\ndevices = [\"gpu\"]\n")
            .contains("unknown device \"gpu\""));
        assert!(
            err("[hypervisor]\npolicy = \"edf\"\n[partition.a]\napp = \"x\"\n")
                .contains("h.toml:2:10: unknown policy")
        );
        assert!(
            err("[hypervisor]\nrun_until = \"z\"\n[partition.a]\napp = \"x\"\n")
                .contains("run_until names no partition")
        );
        assert!(
            err("[hypervisor]\npolicy = \"rt\"\n[partition.a]\napp = \"x\"\n")
                .contains("without a realtime partition")
        );
        assert!(err("[partition.a]\nram_kib = 8\n").contains("has no app"));
        assert!(err("[hypervisor]\n").contains("no partition"));
        assert!(
            err("[partition.a]\napp = \"x\"\nslice_us = 0\n").contains("h.toml:3:12: slice_us = 0")
        );
        // Turns shorter than a partition switch never let a guest run (issue 28, item 8).
        for (text, want) in [
            (
                "[hypervisor]\nslice_us = 1\n[partition.a]\napp = \"x\"\n",
                "h.toml:2:12: slice_us = 1 is shorter than a partition switch",
            ),
            (
                "[hypervisor]\nperiod_us = 99\n[partition.a]\napp = \"x\"\n",
                "h.toml:2:13: period_us = 99 is shorter",
            ),
            (
                "[partition.a]\napp = \"x\"\nslice_us = 5\n",
                "h.toml:3:12: slice_us = 5 is shorter",
            ),
        ] {
            let e = err(text);
            assert!(e.starts_with(want), "{e}");
        }
        // A name too long for the build's files, a dotted table name: one line at the name.
        let long = format!("[partition.{}]\napp = \"x\"\n", "a".repeat(3000));
        let e = err(&long);
        assert!(
            e.starts_with(
                "h.toml:1:12: partition name of 3000 characters; expected a name of at most 64"
            ),
            "{e}"
        );
        let e = err("[partition.a.b]\napp = \"x\"\n");
        assert!(
            e.starts_with("h.toml:1:14: a dotted table name `[partition.a.b]`"),
            "{e}"
        );
        assert!(!e.contains("borrowed") && !e.contains('\n'), "{e}");
        let e = err("[bogus = 1\n");
        assert!(e.starts_with("h.toml:1:"), "{e}");
        let e = err("[partition.a]\napp = \"x\"\nbogus = 1\n");
        assert!(
            e.starts_with("h.toml:3:1: unknown") && e.contains("bogus"),
            "{e}"
        );
    }
}
