//! The machine description.
//!
//! A machine file is TOML. [`MachineConfig::default_toml`] is the built-in default, commented,
//! with every key present (`ubik machine --print-default` prints it); a user's file overrides
//! only the keys it names, and an array of tables it names (`[[opp]]`, `[[stimulus]]`,
//! `[[input]]`) replaces the default array wholesale. Unknown keys are errors at every level.
//!
//! Every error is one line, `FILE:LINE:COLUMN: what is wrong; expected what`
//! ([`ConfigError`]'s `Display`). [`ConfigError::exit_code`] gives the `ubik` exit status: 66
//! for a file that cannot be read, 65 for bad content.

use std::path::{Path, PathBuf};

mod raw;

use crate::dev::{self, DeviceConfigs};
use confread::Doc;
use raw::{RawEnergy, RawMachine};
use std::sync::OnceLock;
use toml::Spanned;

pub use crate::dev::timer::Timebase;
pub use crate::dev::WaitStates;

/// RAM base address (fixed, Ibex `simple_system`).
pub const RAM_BASE: u32 = 0x0010_0000;
/// Reset PC (fixed); it must lie in RAM, hence [`MIN_RAM_SIZE`].
pub const RESET_PC: u32 = 0x0010_0080;
/// Smallest RAM a machine file may ask for, in bytes.
pub const MIN_RAM_SIZE: u32 = 256;
/// Largest RAM a machine file may ask for, in bytes: up to the top of the 32-bit address
/// space. RAM is committed lazily (only pages the program writes cost host memory).
pub const MAX_RAM_SIZE: u32 = 0xFFF0_0000;

// The settings the devices own, and their limits, named here as before: the operating points
// are the power controller's, the stimuli the interrupt controller's, the input streams the IO
// ports'.
pub use crate::clock::MAX_HZ;
pub use crate::dev::intc::FAST_IRQ_LINES;
pub use crate::dev::io::IO_PORTS;
pub use crate::dev::power::Opp;
pub use crate::input::{InputConfig, InputKind};
pub use crate::stimulus::{StimulusConfig, StimulusKind};
pub use confread::MAX_TIME_US;

const DEFAULT_TOML: &str = include_str!("default.toml");
/// The line of `default.toml` that the devices' part of the default stands for.
const DEVICES_MARK: &str =
    "# @devices: each device's own table, then [wait_states] (src/dev/mod.rs)\n";

/// Energy-model parameters (docs/energy.md), all given at `vnom`. TOML: `[energy]`, same
/// key names as the fields.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EnergyConfig {
    /// Nominal voltage (V) at which the figures are given. Default 1.2.
    pub vnom: f64,
    /// Energy per active cycle, pJ. Default 12.
    pub e_cycle_pj: f64,
    /// Extra energy of an ALU / shift / CSR / LUI / AUIPC instruction, pJ. Default 0.
    pub e_alu_pj: f64,
    /// Extra energy of a branch or jump, pJ. Default 1.
    pub e_branch_pj: f64,
    /// Extra energy of a MUL / MULH*, pJ. Default 3.
    pub e_mul_pj: f64,
    /// Extra energy of a DIV / REM per divider cycle, pJ. Default 0.5.
    pub e_div_cycle_pj: f64,
    /// Extra energy of a load / store to SRAM, pJ. Default 10.
    pub e_mem_pj: f64,
    /// Extra energy of a load / store to a device register, pJ. Default 2.
    pub e_mmio_pj: f64,
    /// Sleep (WFI) power as a fraction of `E_cycle(V) * f`. Default 0.05.
    pub sleep_fraction: f64,
    /// Leakage power at `vnom`, W. Default 5e-6.
    pub leak_w: f64,
    /// Constant power of peripherals outside the core (a display, a radio), W: charged with
    /// every cycle like leakage but not scaled by the core's voltage. Default 0.
    pub peripheral_w: f64,
}

/// The fully resolved machine description.
#[derive(Clone, Debug, PartialEq)]
pub struct MachineConfig {
    /// RAM size in bytes (RAM starts at [`RAM_BASE`]). TOML `ram_size`.
    pub ram_size: u32,
    /// Supply voltage (V) for the average current. TOML `supply_v`.
    pub supply_v: f64,
    /// TOML `[energy]`.
    pub energy: EnergyConfig,
    /// TOML `[core]`.
    pub core: CoreConfig,
    /// TOML `[wait_states]`: a key per device of the list (`dev`).
    pub wait_states: WaitStates,
    /// Each device's settings, a field per device (`()` for one without): its own table
    /// (`[timer]`) and the top-level keys it owns (the power controller's `[[opp]]`,
    /// `initial_opp` and `settle_ns`; the interrupt controller's `[[stimulus]]`; the IO
    /// ports' `[[input]]`).
    pub devices: DeviceConfigs,
}

impl Default for MachineConfig {
    /// The built-in default machine (the same as parsing [`MachineConfig::default_toml`]).
    fn default() -> MachineConfig {
        MachineConfig {
            ram_size: 1 << 20,
            supply_v: 3.3,
            energy: EnergyConfig {
                vnom: 1.2,
                e_cycle_pj: 12.0,
                e_alu_pj: 0.0,
                e_branch_pj: 1.0,
                e_mul_pj: 3.0,
                e_div_cycle_pj: 0.5,
                e_mem_pj: 10.0,
                e_mmio_pj: 2.0,
                sleep_fraction: 0.05,
                leak_w: 5e-6,
                peripheral_w: 0.0,
            },
            wait_states: WaitStates::default(),
            devices: DeviceConfigs::default(),
            core: CoreConfig::default(),
        }
    }
}

/// How the core is built: `[core]`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CoreConfig {
    /// PMP entries, 0..=16 (0: no PMP, as simple_system; its CSRs are then illegal).
    /// TOML `pmp_regions`.
    pub pmp_regions: usize,
}

impl MachineConfig {
    /// The default machine file text: commented, every key present; parses to `default()`.
    /// The devices' tables and `[wait_states]` come from the device list (`dev`).
    pub fn default_toml() -> &'static str {
        static TEXT: OnceLock<String> = OnceLock::new();
        TEXT.get_or_init(|| {
            let (head, tail) = DEFAULT_TOML
                .split_once(DEVICES_MARK)
                .expect("default.toml has the devices' line");
            format!("{head}{}{tail}", dev::default_toml())
        })
    }

    /// Reads and resolves a machine file. Relative stream-file paths are relative to the
    /// machine file's directory.
    pub fn from_file(path: &Path) -> Result<MachineConfig, ConfigError> {
        Self::from_file_reading(path).0
    }

    /// As [`MachineConfig::from_file`], with the files the machine file names that were
    /// read (stream, script and receive files; their resolved paths, in the order read), also
    /// when it fails: `ubik run` keeps its outputs off every file it reads.
    pub fn from_file_reading(path: &Path) -> (Result<MachineConfig, ConfigError>, Vec<PathBuf>) {
        let text = match read_text_file(path, "the machine file") {
            Ok(t) => t,
            Err(e) => return (Err(e), Vec::new()),
        };
        let base_dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        let name = path.display().to_string();
        let doc = Doc::new(&name, &text, &base_dir);
        let cfg = MachineDoc(&doc).parse_over(MachineConfig::default());
        (cfg, doc.into_files_read())
    }

    /// Resolves a machine file's text. `name_for_errors` names it in messages; relative
    /// stream-file paths are relative to its directory (the current directory if it has none).
    #[allow(clippy::should_implement_trait)]
    pub fn from_str(text: &str, name_for_errors: &str) -> Result<MachineConfig, ConfigError> {
        let base_dir = Path::new(name_for_errors)
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default();
        Self::from_str_in(text, name_for_errors, &base_dir)
    }

    /// As [`MachineConfig::from_str`], with relative stream-file paths relative to `base_dir`.
    pub fn from_str_in(
        text: &str,
        name_for_errors: &str,
        base_dir: &Path,
    ) -> Result<MachineConfig, ConfigError> {
        MachineDoc(&Doc::new(name_for_errors, text, base_dir)).parse_over(MachineConfig::default())
    }

    /// The operating point the core starts in.
    pub fn initial(&self) -> Opp {
        self.devices.power.initial()
    }

    /// One past the last RAM address (as u64: may be 2^32 in principle).
    pub fn ram_end(&self) -> u64 {
        RAM_BASE as u64 + self.ram_size as u64
    }
}

// ---------------------------------------------------------------------------------------------
// Errors: the shared configuration reader's (crate `confread`), named here as before so that
// every user of `machine::config` keeps its paths.

pub use confread::{invalid_at, line_col, read_text_file, toml_error, ConfigError, Location};

// ---------------------------------------------------------------------------------------------
// Resolution

/// A machine file being resolved: the shared document reader ([`Doc`]: where errors point,
/// the field readers), with the machine's own sections as methods. Devices check their own
/// tables with the document ([`crate::dev::DeviceConfig`]).
struct MachineDoc<'d, 'a>(&'d Doc<'a>);

impl<'a> std::ops::Deref for MachineDoc<'_, 'a> {
    type Target = Doc<'a>;
    fn deref(&self) -> &Doc<'a> {
        self.0
    }
}

type R<T> = Result<T, ConfigError>;

impl MachineDoc<'_, '_> {
    /// Parses the text and applies every key it names on top of `base`, then validates.
    fn parse_over(&self, base: MachineConfig) -> R<MachineConfig> {
        let raw: RawMachine = self.parse()?;
        self.apply(raw, base)
    }

    fn apply(&self, raw: RawMachine, mut cfg: MachineConfig) -> R<MachineConfig> {
        if let Some(v) = &raw.ram_size {
            let n = *v.get_ref();
            let ok = (MIN_RAM_SIZE as i64..=MAX_RAM_SIZE as i64).contains(&n) && n % 4 == 0;
            if !ok {
                return Err(self.err(
                    &v.span(),
                    format!("ram_size {n} is not a valid RAM size"),
                    format!("a multiple of 4 from {MIN_RAM_SIZE} to {MAX_RAM_SIZE} (0x{MAX_RAM_SIZE:X}) bytes"),
                ));
            }
            cfg.ram_size = n as u32;
        }
        if let Some(v) = &raw.supply_v {
            cfg.supply_v = self.positive(v, "supply_v", "a supply voltage in volts > 0")?;
        }
        if let Some(v) = &raw.settle_ns {
            cfg.devices.power.apply_settle_ns(v, self)?;
        }
        cfg.devices.apply(&raw.devices, self.0)?;
        if let Some(v) = raw.core.as_ref().and_then(|c| c.pmp_regions.as_ref()) {
            cfg.core.pmp_regions = self.int_range(
                v,
                "pmp_regions",
                0,
                rv32::pmp::MAX_REGIONS as i64,
                "a number of PMP entries 0..16 (0: no PMP)",
            )? as usize;
        }
        if let Some(w) = &raw.wait_states {
            for id in dev::ALL {
                if let Some(v) = &w.0[id.index()] {
                    *cfg.wait_states.get_mut(id) = self.int_range(
                        v,
                        dev::NAMES[id.index()],
                        0,
                        1_000_000,
                        "a number of wait states 0..1000000",
                    )? as u32;
                }
            }
        }
        if let Some(e) = &raw.energy {
            self.energy(e, &mut cfg.energy)?;
        }
        cfg.devices
            .power
            .apply_opps(raw.opp.as_ref(), raw.initial_opp.as_ref(), self)?;
        if let Some(stims) = &raw.stimulus {
            let fastest = cfg.devices.power.fastest_hz();
            cfg.devices.intc.apply_stimuli(stims, fastest, self)?;
        }
        if let Some(inputs) = &raw.input {
            cfg.devices.io.apply_inputs(inputs, self)?;
        }
        Ok(cfg)
    }

    /// `[energy]`: the nominal voltage and the energies per event, into `en`.
    fn energy(&self, e: &RawEnergy, en: &mut EnergyConfig) -> R<()> {
        if let Some(v) = &e.vnom {
            en.vnom = self.positive(v, "vnom", "a nominal voltage in volts > 0")?;
        }
        let fields: [(&Option<Spanned<f64>>, &str, &mut f64, &str); 10] = [
            (
                &e.e_cycle_pj,
                "e_cycle_pj",
                &mut en.e_cycle_pj,
                "an energy in pJ >= 0",
            ),
            (
                &e.e_alu_pj,
                "e_alu_pj",
                &mut en.e_alu_pj,
                "an energy in pJ >= 0",
            ),
            (
                &e.e_branch_pj,
                "e_branch_pj",
                &mut en.e_branch_pj,
                "an energy in pJ >= 0",
            ),
            (
                &e.e_mul_pj,
                "e_mul_pj",
                &mut en.e_mul_pj,
                "an energy in pJ >= 0",
            ),
            (
                &e.e_div_cycle_pj,
                "e_div_cycle_pj",
                &mut en.e_div_cycle_pj,
                "an energy in pJ >= 0",
            ),
            (
                &e.e_mem_pj,
                "e_mem_pj",
                &mut en.e_mem_pj,
                "an energy in pJ >= 0",
            ),
            (
                &e.e_mmio_pj,
                "e_mmio_pj",
                &mut en.e_mmio_pj,
                "an energy in pJ >= 0",
            ),
            (
                &e.sleep_fraction,
                "sleep_fraction",
                &mut en.sleep_fraction,
                "a fraction >= 0",
            ),
            (&e.leak_w, "leak_w", &mut en.leak_w, "a power in W >= 0"),
            (
                &e.peripheral_w,
                "peripheral_w",
                &mut en.peripheral_w,
                "a power in W >= 0",
            ),
        ];
        for (v, key, slot, expected) in fields {
            if let Some(v) = v {
                *slot = self.non_negative(v, key, expected)?;
            }
        }
        Ok(())
    }
}

/// What the machine file's tests share, here and in the devices' files: a file's text
/// resolved (named `m.toml`), its one-line error, a scratch folder.
#[cfg(test)]
pub(crate) mod testing {
    use super::{MachineConfig, R};
    use std::path::PathBuf;

    pub fn parse(text: &str) -> R<MachineConfig> {
        MachineConfig::from_str(text, "m.toml")
    }

    /// The error for `text`: one line, bad data (65).
    pub fn err(text: &str) -> String {
        match parse(text) {
            Ok(c) => panic!("expected an error for {text:?}, got {c:?}"),
            Err(e) => {
                let s = e.to_string();
                assert!(!s.contains('\n'), "multi-line error: {s}");
                assert_eq!(e.exit_code(), 65, "{s}");
                s
            }
        }
    }

    pub fn tmpdir(tag: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("ubik-config-test-{}-{tag}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        d
    }
}

#[cfg(test)]
mod tests {
    use super::testing::{err, parse, tmpdir};
    use super::*;
    use crate::infile::{MAX_STREAM_BYTES, MAX_TOML_BYTES};

    #[test]
    fn core_table_sets_pmp_entries() {
        assert_eq!(
            parse("[core]\npmp_regions = 16\n")
                .unwrap()
                .core
                .pmp_regions,
            16
        );
        assert_eq!(parse("").unwrap().core.pmp_regions, 0);
        let e = err("[core]\npmp_regions = 17\n");
        assert!(e.contains("m.toml:2") && e.contains("0..16"), "{e}");
        let e = err("[core]\npmp = 4\n");
        assert!(e.contains("m.toml:2") && e.contains("pmp_regions"), "{e}");
    }

    #[test]
    fn default_toml_round_trips() {
        let c = parse(MachineConfig::default_toml()).unwrap();
        assert_eq!(c, MachineConfig::default());
    }

    #[test]
    fn default_toml_names_every_key() {
        // Apply the default text over a base that differs from the default in every field:
        // the result must still be the default, so the text names every key.
        let other = MachineConfig {
            ram_size: 4096,
            supply_v: 1.0,
            energy: EnergyConfig {
                vnom: 9.0,
                e_cycle_pj: 9.0,
                e_alu_pj: 9.0,
                e_branch_pj: 9.0,
                e_mul_pj: 9.0,
                e_div_cycle_pj: 9.0,
                e_mem_pj: 9.0,
                e_mmio_pj: 9.0,
                sleep_fraction: 9.0,
                leak_w: 9.0,
                peripheral_w: 9.0,
            },
            core: CoreConfig { pmp_regions: 9 },
            // 9 for every device of the list.
            wait_states: {
                let mut w = WaitStates::default();
                for id in dev::ALL {
                    *w.get_mut(id) = 9;
                }
                w
            },
            devices: DeviceConfigs {
                timer: dev::timer::TimerConfig {
                    timebase: Timebase::Cycle,
                },
                power: dev::power::PowerConfig {
                    opps: vec![Opp { hz: 1, volts: 1.0 }; 4],
                    initial_opp: 3,
                    settle_ns: 1,
                },
                ..DeviceConfigs::default()
            },
        };
        let doc = Doc::text_only("default", MachineConfig::default_toml());
        assert_eq!(
            MachineDoc(&doc).parse_over(other).unwrap(),
            MachineConfig::default()
        );
    }

    #[test]
    fn empty_file_is_default() {
        assert_eq!(parse("").unwrap(), MachineConfig::default());
        assert_eq!(parse("# nothing\n").unwrap(), MachineConfig::default());
    }

    #[test]
    fn override_one_key() {
        let c = parse("[energy]\ne_cycle_pj = 90\n").unwrap();
        let mut d = MachineConfig::default();
        d.energy.e_cycle_pj = 90.0;
        assert_eq!(c, d);

        let c = parse("[timer]\ntimebase = \"cycle\"\n").unwrap();
        assert_eq!(c.devices.timer.timebase, Timebase::Cycle);
        assert_eq!(
            c.devices.power.opps,
            MachineConfig::default().devices.power.opps
        );

        let c = parse("ram_size = 65536\n[wait_states]\nio = 3\n").unwrap();
        assert_eq!(c.ram_size, 65536);
        assert_eq!(
            c.wait_states,
            WaitStates {
                io: 3,
                ..WaitStates::default()
            }
        );
    }

    #[test]
    fn arrays_replace_wholesale() {
        let c = parse("initial_opp = 0\n[[opp]]\nhz = 8000000\nvolts = 1\n").unwrap();
        assert_eq!(
            c.devices.power.opps,
            vec![Opp {
                hz: 8_000_000,
                volts: 1.0
            }]
        );
    }

    #[test]
    fn unreadable_machine_file() {
        let e = MachineConfig::from_file(Path::new("/nonexistent/ubik/m.toml")).unwrap_err();
        assert_eq!(e.exit_code(), 66);
        assert_eq!(
            e.to_string(),
            "/nonexistent/ubik/m.toml: cannot read the machine file: No such file or directory; expected a readable file"
        );
    }

    #[test]
    fn syntax_error() {
        assert_eq!(
            err("ram_size = 4096\n[energy\nvnom = 1\n"),
            "m.toml:2:8: invalid table header; expected one of `.`, `]`"
        );
        assert_eq!(
            err("supply_v = \n"),
            "m.toml:1:12: invalid string; expected one of `\"`, `'`"
        );
        assert_eq!(
            err("ram_size = 4096\nram_size = 8192\n"),
            "m.toml:2:1: duplicate key `ram_size` in document root; expected each key at most once per table"
        );
        assert_eq!(
            err("[energy]\n[energy]\n"),
            "m.toml:2:1: invalid table header: duplicate key `energy` in document root; \
             expected each key and table at most once"
        );
        assert_eq!(
            err("[[opp]]\nhz = \"fast\nvolts = 1\n"),
            "m.toml:2:11: invalid basic string; expected a string closed by `\"` on the same line"
        );
    }

    #[test]
    fn unknown_keys() {
        // The devices' tables (`timer`, then those of devices added later) after settle_ns.
        let tables: String = dev::DEVICES
            .iter()
            .filter(|d| d.table)
            .map(|d| format!("`{}`, ", d.name))
            .collect();
        assert!(tables.starts_with("`timer`, "), "{tables}");
        assert_eq!(
            err("ram_size = 4096\nram_sise = 1\n"),
            format!(
                "m.toml:2:1: unknown key `ram_sise`; expected one of the keys `ram_size`, `supply_v`, `initial_opp`, \
                 `settle_ns`, {tables}`wait_states`, `energy`, `core`, `opp`, `stimulus`, `input`"
            )
        );
        assert_eq!(
            err("[timer]\ntimebase = 1\nrate = 2\n"),
            "m.toml:3:1: unknown key `rate`; expected the key `timebase`"
        );
        let s = err("[[opp]]\nhz = 1\nvolts = 1\nvolt = 2\n");
        assert!(
            s.starts_with("m.toml:4:1: unknown key `volt`; expected one of the keys `hz`, `volts`"),
            "{s}"
        );
        let s = err("[energy]\ne_cycle = 1\n");
        assert!(
            s.starts_with(
                "m.toml:2:1: unknown key `e_cycle`; expected one of the keys `vnom`, `e_cycle_pj`"
            ),
            "{s}"
        );
        let s = err("[[stimulus]]\nline = 1\nkind = \"periodic\"\nperiod = 5\n");
        assert!(
            s.starts_with("m.toml:4:1: unknown key `period`; expected one of the keys `line`"),
            "{s}"
        );
    }

    #[test]
    fn wrong_types() {
        assert_eq!(
            err("ram_size = \"big\"\n"),
            "m.toml:1:12: `ram_size`: invalid type: string \"big\"; expected an integer"
        );
        assert_eq!(
            err("\n[energy]\nvnom = \"x\"\n"),
            "m.toml:3:8: `vnom`: invalid type: string \"x\"; expected a number"
        );
        let s = err("[timer]\ntimebase = 1.5\n");
        assert!(s.starts_with("m.toml:2:12: `timebase`: invalid type: floating point `1.5`; expected \"cycle\" or a frequency in Hz"), "{s}");
        let s = err("opp = 3\n");
        assert!(
            s.starts_with("m.toml:1:7: `opp`: invalid type: integer `3`; expected "),
            "{s}"
        );
    }

    /// A table where an array of tables belongs, and the other way round, is named as such
    /// at its header (serde's "invalid type: map" names neither the key nor the fix).
    #[test]
    fn single_tables_and_arrays_of_tables_are_told_apart() {
        for (text, want) in [
            ("[uart.rx]\nat_us = 1\ntext = \"a\"\n", "m.toml:1:1: `[uart.rx]` is a single table; expected an array of tables: [[uart.rx]] (two brackets) before each entry"),
            ("[uart]\nbaud = 0\n\n[io.pin]  # the button\npin = 1\n", "m.toml:4:1: `[io.pin]` is a single table; expected an array of tables: [[io.pin]]"),
            ("[stimulus]\nline = 1\n", "m.toml:1:1: `[stimulus]` is a single table"),
            ("[input]\nport = 1\n", "m.toml:1:1: `[input]` is a single table"),
            ("[uart]\nrx = {at_us = 1}\n", "m.toml:2:6: `rx` is a single table; expected an array of tables: rx = [{ ... }, ...]"),
            ("[[uart]]\nbaud = 0\n", "m.toml:1:1: `[[uart]]` is an array of tables; expected a single table: [uart] (one bracket)"),
            ("[[io]]\n", "m.toml:1:1: `[[io]]` is an array of tables; expected a single table: [io]"),
            ("[ram_size]\nx = 1\n", "m.toml:1:1: `[ram_size]` is a table; expected an integer"),
        ] {
            let e = err(text);
            assert!(e.starts_with(want), "{text:?}: {e}");
            assert!(!e.contains("invalid type"), "{e}");
        }
    }

    #[test]
    fn semantic_errors() {
        assert_eq!(
            err("ram_size = 1002\n"),
            "m.toml:1:12: ram_size 1002 is not a valid RAM size; expected a multiple of 4 from 256 to 4293918720 (0xFFF00000) bytes"
        );
        assert_eq!(
            err("[timer]\ntimebase = \"cycles\"\n"),
            "m.toml:2:12: unknown timebase \"cycles\"; expected timebase = \"cycle\" or a frequency in Hz (positive integer)"
        );
        assert_eq!(
            err("[timer]\ntimebase = 0\n"),
            "m.toml:2:12: timebase 0 Hz is not positive; expected timebase = \"cycle\" or a frequency in Hz (positive integer)"
        );
        assert_eq!(
            err("[energy]\nleak_w = -1\n"),
            "m.toml:2:10: leak_w = -1 is negative or not finite; expected a power in W >= 0"
        );
        assert_eq!(
            err("[energy]\nperipheral_w = -0.5\n"),
            "m.toml:2:16: peripheral_w = -0.5 is negative or not finite; expected a power in W >= 0"
        );
    }

    #[test]
    fn control_characters_are_named_where_they_are() {
        // Every error names its problem: never an empty message.
        for (text, at, name) in [
            ("ram_size = 1048576 # a\u{0}b\n", "1:23", "U+0000 (NUL)"),
            ("# a\u{0}\n", "1:4", "U+0000 (NUL)"),
            ("# \u{7f}\n", "1:3", "U+007F (DEL)"),
            ("x = 1\n#\u{1}\n", "2:2", "U+0001"),
            (
                "[timer]\ntimebase = \"cy\u{0}cle\"\n",
                "2:15",
                "U+0000 (NUL)",
            ),
            (
                "ram_size = 4096\r",
                "1:16",
                "U+000D (carriage return) without a line feed after it",
            ),
            ("a = \"\"\"\n\n\u{1b}\"\"\"\n", "3:1", "U+001B (ESC)"),
        ] {
            let s = err(text);
            assert_eq!(
                s,
                format!(
                    "m.toml:{at}: control character {name} is not allowed in TOML text, not even in a comment; \
                     expected printable text: tab and line ends are the only control characters TOML allows \
                     (in a basic string, write the character as an escape such as \\u0000)"
                ),
                "{text:?}"
            );
        }
        // Tabs, CRLF line ends and C1 characters are fine.
        assert!(parse("ram_size = 4096\t# tab\r\n# \u{85}\r\n").is_ok());
    }

    #[test]
    fn syntax_errors_without_a_message_say_where() {
        // Whatever the parser says, the message part is never empty.
        for text in [
            "=",
            "[",
            "ram_size = ",
            "a = [1,",
            "\"",
            "x = 1 2\n",
            "[[opp]\n",
        ] {
            let s = err(text);
            let (_, rest) = s.split_once(": ").unwrap();
            assert!(
                !rest.starts_with(';') && !rest.starts_with(' '),
                "{text:?}: {s}"
            );
        }
    }

    #[test]
    fn a_machine_file_that_is_not_utf8_is_bad_data_at_its_byte() {
        let d = tmpdir("utf8");
        let p = d.join("m.toml");
        std::fs::write(&p, b"# caf\xe9\nram_size = 4096\n").unwrap();
        let e = MachineConfig::from_file(&p).unwrap_err();
        assert_eq!(e.exit_code(), 65);
        assert_eq!(
            e.to_string(),
            format!(
                "{}:1:6: the machine file is not UTF-8 text: byte 0xE9 at offset 5 is not valid UTF-8; expected a text file in UTF-8",
                p.display()
            )
        );
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn endless_and_huge_files_are_refused_in_one_line() {
        let d = tmpdir("endless");
        let m = d.join("m.toml");
        std::fs::write(
            &m,
            "[[input]]\nport = 0\nkind = \"file\"\npath = \"/dev/zero\"\n",
        )
        .unwrap();
        let e = MachineConfig::from_file(&m).unwrap_err();
        assert_eq!(e.exit_code(), 66);
        assert_eq!(
            e.to_string(),
            format!(
                "{}:4:8: cannot read input stream file `/dev/zero`: it is a character device, not a regular file; expected a readable file",
                m.display()
            )
        );
        std::fs::write(&m, "[[input]]\nport = 0\nkind = \"file\"\npath = \".\"\n").unwrap();
        let e = MachineConfig::from_file(&m).unwrap_err();
        assert_eq!(e.exit_code(), 66);
        assert!(
            e.to_string()
                .contains("it is a directory, not a regular file"),
            "{e}"
        );
        // A stream file one byte over the limit (sparse: no disk space needed).
        let big = d.join("big.txt");
        let f = std::fs::File::create(&big).unwrap();
        f.set_len(MAX_STREAM_BYTES + 1).unwrap();
        std::fs::write(
            &m,
            "[[input]]\nport = 0\nkind = \"file\"\npath = \"big.txt\"\n",
        )
        .unwrap();
        let e = MachineConfig::from_file(&m).unwrap_err();
        assert_eq!(e.exit_code(), 65);
        assert_eq!(
            e.to_string(),
            format!(
                "{}:4:8: input stream file `{}` is larger than 64 MiB; expected at most 67108864 bytes",
                m.display(),
                big.display()
            )
        );
        // The machine file itself.
        let e = MachineConfig::from_file(Path::new("/dev/zero")).unwrap_err();
        assert_eq!(e.exit_code(), 66);
        assert_eq!(
            e.to_string(),
            "/dev/zero: cannot read the machine file: it is a character device, not a regular file; expected a readable file"
        );
        let f = std::fs::File::create(&m).unwrap();
        f.set_len(MAX_TOML_BYTES + 1).unwrap();
        let e = MachineConfig::from_file(&m).unwrap_err();
        assert_eq!(e.exit_code(), 65);
        assert_eq!(
            e.to_string(),
            format!(
                "{}: the machine file is larger than 16 MiB; expected at most 16777216 bytes",
                m.display()
            )
        );
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn rates_fit_their_32_bit_registers() {
        assert!(parse("[timer]\ntimebase = 4294967295\n").is_ok());
        assert_eq!(
            err("[timer]\ntimebase = 4294967296\n"),
            "m.toml:2:12: timebase 4294967296 Hz does not fit the 32-bit MTIME_HZ register; \
             expected timebase = \"cycle\" or a frequency in Hz from 1 to 4294967295"
        );
        assert_eq!(
            err("[[opp]]\nhz = 5000000000\nvolts = 1\n"),
            "m.toml:2:6: hz = 5000000000 is out of range; expected a frequency in Hz from 1 to 4294967295 (FREQ_HZ is 32 bits)"
        );
    }

    #[test]
    fn ram_may_reach_the_top_of_the_address_space() {
        let c = parse("ram_size = 0xFFF00000\n").unwrap();
        assert_eq!(c.ram_end(), 1 << 32);
        assert!(err("ram_size = 0xFFF00004\n").contains("is not a valid RAM size"));
        // The default file's comment and the check agree.
        let comment = MachineConfig::default_toml()
            .lines()
            .find(|l| l.contains("from 256 bytes to"))
            .unwrap();
        assert!(comment.contains("0xFFF0_0000"), "{comment}");
    }
}
