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

use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};

use crate::dev::{self, DeviceConfigs, RawTables};
use confread::Doc;
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
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
/// Largest core clock and fixed timebase, in Hz: `FREQ_HZ` and `MTIME_HZ` are 32 bits.
pub const MAX_HZ: u64 = u32::MAX as u64;
/// Number of fast interrupt lines (0..14; mcause 16 + line).
pub const FAST_IRQ_LINES: u8 = 15;
/// Number of IO ports (IN[n] / OUT[n], n < 32).
pub const IO_PORTS: u8 = 32;
/// Longest period / slot / start time a stimulus may have, in microseconds (about 31 years).
pub use confread::MAX_TIME_US;

const DEFAULT_TOML: &str = include_str!("default.toml");
/// The line of `default.toml` that the devices' part of the default stands for.
const DEVICES_MARK: &str =
    "# @devices: each device's own table, then [wait_states] (src/dev/mod.rs)\n";

/// One operating point. TOML: `[[opp]] hz = .., volts = ..`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Opp {
    /// Core clock frequency in Hz (> 0).
    pub hz: u64,
    /// Core voltage in volts (> 0).
    pub volts: f64,
}

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

/// What a stimulus generator does.
#[derive(Clone, Debug, PartialEq)]
pub enum StimulusKind {
    /// Events at `start_us + k * period_us`, k = 0, 1, ...
    Periodic { period_us: f64 },
    /// Time after `start_us` is cut into slots of `slot_us`; at the end of each slot an event
    /// happens with `probability`, independently.
    Geometric { slot_us: f64, probability: f64 },
    /// Events at `start_us + t` for each t of the list (scripted stimuli), in order.
    Times { times_us: std::sync::Arc<[f64]> },
}

/// One stimulus generator. TOML: `[[stimulus]]` with `line`, `kind`, `period_us` |
/// `slot_us` + `probability` | `times_us`, optional `start_us` (default 0) and `seed`
/// (default 1).
#[derive(Clone, Debug, PartialEq)]
pub struct StimulusConfig {
    /// Fast IRQ line 0..14.
    pub line: u8,
    pub kind: StimulusKind,
    /// Time of the first period / slot start, in microseconds (>= 0).
    pub start_us: f64,
    /// The generator's own seed, combined with the run's global seed.
    pub seed: u64,
}

/// What an input stream produces.
#[derive(Clone, Debug, PartialEq)]
pub enum InputKind {
    /// `round(offset + amplitude * sin(2 pi k / period_samples))` as i32 bits.
    Sine {
        amplitude: f64,
        period_samples: u64,
        offset: f64,
    },
    /// 32-bit maximal-length Galois LFSR from `seed` (non-zero); each sample is the next
    /// `bits` (1..32) output bits.
    Lfsr { seed: u32, bits: u32 },
    /// Samples read from a text file (already loaded: `samples` is non-empty); wraps around.
    /// The samples are shared by copies of the configuration and of the machine.
    File {
        path: PathBuf,
        samples: std::sync::Arc<[u32]>,
    },
}

/// One input stream. TOML: `[[input]]` with `port` and `kind` = `"sine"` (`amplitude`,
/// `period_samples`, `offset`) | `"lfsr"` (`seed`, `bits`) | `"file"` (`path`).
#[derive(Clone, Debug, PartialEq)]
pub struct InputConfig {
    /// IO port 0..31 (read at IN[port]).
    pub port: u8,
    pub kind: InputKind,
}

/// The fully resolved machine description.
#[derive(Clone, Debug, PartialEq)]
pub struct MachineConfig {
    /// RAM size in bytes (RAM starts at [`RAM_BASE`]). TOML `ram_size`.
    pub ram_size: u32,
    /// Supply voltage (V) for the average current. TOML `supply_v`.
    pub supply_v: f64,
    /// Operating points, non-empty. TOML `[[opp]]`.
    pub opps: Vec<Opp>,
    /// Index of the operating point at reset. TOML `initial_opp`.
    pub initial_opp: usize,
    /// Settling time of an operating-point switch, ns. TOML `settle_ns`.
    pub settle_ns: u64,
    /// TOML `[energy]`.
    pub energy: EnergyConfig,
    /// TOML `[core]`.
    pub core: CoreConfig,
    /// TOML `[[stimulus]]`; at most one per line.
    pub stimuli: Vec<StimulusConfig>,
    /// TOML `[[input]]`; at most one per port.
    pub inputs: Vec<InputConfig>,
    /// TOML `[wait_states]`: a key per device of the list (`dev`).
    pub wait_states: WaitStates,
    /// The devices' own tables (`[timer]`): a field per device, `()` for one without.
    pub devices: DeviceConfigs,
}

impl Default for MachineConfig {
    /// The built-in default machine (the same as parsing [`MachineConfig::default_toml`]).
    fn default() -> MachineConfig {
        MachineConfig {
            ram_size: 1 << 20,
            supply_v: 3.3,
            opps: vec![
                Opp {
                    hz: 100_000_000,
                    volts: 1.20,
                },
                Opp {
                    hz: 66_000_000,
                    volts: 1.05,
                },
                Opp {
                    hz: 24_000_000,
                    volts: 0.85,
                },
            ],
            initial_opp: 0,
            settle_ns: 10_000,
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
            stimuli: Vec::new(),
            inputs: Vec::new(),
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
        self.opps[self.initial_opp]
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
// Raw (as written) structures: every key optional, spans kept for messages.

// The top level and `[wait_states]` have keys from the device list, so they are read by hand
// (`visit_map`) where other tables derive; they read as derived ones do: an unknown key is
// serde's "unknown field" error at the key, a value of the wrong type names what was expected.

/// Top-level keys before the devices' tables and after them.
const KEYS_BEFORE_DEVICES: [&str; 4] = ["ram_size", "supply_v", "initial_opp", "settle_ns"];
const KEYS_AFTER_DEVICES: [&str; 6] = ["wait_states", "energy", "core", "opp", "stimulus", "input"];

/// Every top-level key, in the order messages list them.
fn machine_keys() -> &'static [&'static str] {
    static KEYS: OnceLock<Vec<&'static str>> = OnceLock::new();
    KEYS.get_or_init(|| {
        let tables = dev::DEVICES.iter().filter(|d| d.table).map(|d| d.name);
        KEYS_BEFORE_DEVICES
            .into_iter()
            .chain(tables)
            .chain(KEYS_AFTER_DEVICES)
            .collect()
    })
}

/// A key that must be one of `self.0`: its index there.
struct KeyIn(&'static [&'static str]);

impl<'de> DeserializeSeed<'de> for KeyIn {
    type Value = usize;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<usize, D::Error> {
        d.deserialize_identifier(self)
    }
}

impl<'de> Visitor<'de> for KeyIn {
    type Value = usize;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("field identifier")
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<usize, E> {
        self.0
            .iter()
            .position(|k| *k == v)
            .ok_or_else(|| E::unknown_field(v, self.0))
    }
}

#[derive(Default)]
struct RawMachine {
    ram_size: Option<Spanned<i64>>,
    supply_v: Option<Spanned<f64>>,
    initial_opp: Option<Spanned<i64>>,
    settle_ns: Option<Spanned<i64>>,
    devices: RawTables,
    wait_states: Option<RawWaitStates>,
    energy: Option<RawEnergy>,
    core: Option<RawCore>,
    opp: Option<Spanned<Vec<Spanned<RawOpp>>>>,
    stimulus: Option<Spanned<Vec<Spanned<RawStimulus>>>>,
    input: Option<Spanned<Vec<Spanned<RawInput>>>>,
}

impl<'de> Deserialize<'de> for RawMachine {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = RawMachine;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("struct RawMachine")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RawMachine, A::Error> {
                let keys = machine_keys();
                let mut raw = RawMachine::default();
                while let Some(i) = map.next_key_seed(KeyIn(keys))? {
                    match keys[i] {
                        "ram_size" => raw.ram_size = map.next_value()?,
                        "supply_v" => raw.supply_v = map.next_value()?,
                        "initial_opp" => raw.initial_opp = map.next_value()?,
                        "settle_ns" => raw.settle_ns = map.next_value()?,
                        "wait_states" => raw.wait_states = map.next_value()?,
                        "energy" => raw.energy = map.next_value()?,
                        "core" => raw.core = map.next_value()?,
                        "opp" => raw.opp = map.next_value()?,
                        "stimulus" => raw.stimulus = map.next_value()?,
                        "input" => raw.input = map.next_value()?,
                        device => raw.devices.read(device, &mut map)?,
                    }
                }
                Ok(raw)
            }
        }
        d.deserialize_struct("RawMachine", &[], V)
    }
}

/// `[wait_states]`: a key per device, in list order.
struct RawWaitStates([Option<Spanned<i64>>; dev::COUNT]);

impl<'de> Deserialize<'de> for RawWaitStates {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = RawWaitStates;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("struct RawWaitStates")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RawWaitStates, A::Error> {
                let mut raw = RawWaitStates(std::array::from_fn(|_| None));
                while let Some(i) = map.next_key_seed(KeyIn(&dev::NAMES))? {
                    raw.0[i] = map.next_value()?;
                }
                Ok(raw)
            }
            // As a derived table: an array gives the values in list order.
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<RawWaitStates, A::Error> {
                let mut raw = RawWaitStates(std::array::from_fn(|_| None));
                for (i, slot) in raw.0.iter_mut().enumerate() {
                    *slot = seq.next_element()?.ok_or_else(|| {
                        let n = format!("struct RawWaitStates with {} elements", dev::COUNT);
                        de::Error::invalid_length(i, &n.as_str())
                    })?;
                }
                Ok(raw)
            }
        }
        d.deserialize_struct("RawWaitStates", &[], V)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEnergy {
    vnom: Option<Spanned<f64>>,
    e_cycle_pj: Option<Spanned<f64>>,
    e_alu_pj: Option<Spanned<f64>>,
    e_branch_pj: Option<Spanned<f64>>,
    e_mul_pj: Option<Spanned<f64>>,
    e_div_cycle_pj: Option<Spanned<f64>>,
    e_mem_pj: Option<Spanned<f64>>,
    e_mmio_pj: Option<Spanned<f64>>,
    sleep_fraction: Option<Spanned<f64>>,
    leak_w: Option<Spanned<f64>>,
    peripheral_w: Option<Spanned<f64>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCore {
    pmp_regions: Option<Spanned<i64>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawOpp {
    hz: Option<Spanned<i64>>,
    volts: Option<Spanned<f64>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawStimulus {
    line: Option<Spanned<i64>>,
    kind: Option<Spanned<String>>,
    period_us: Option<Spanned<f64>>,
    start_us: Option<Spanned<f64>>,
    slot_us: Option<Spanned<f64>>,
    probability: Option<Spanned<f64>>,
    times_us: Option<Spanned<Vec<f64>>>,
    times_file: Option<Spanned<String>>,
    seed: Option<Spanned<i64>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawInput {
    port: Option<Spanned<i64>>,
    kind: Option<Spanned<String>>,
    amplitude: Option<Spanned<f64>>,
    period_samples: Option<Spanned<i64>>,
    offset: Option<Spanned<f64>>,
    seed: Option<Spanned<i64>>,
    bits: Option<Spanned<i64>>,
    path: Option<Spanned<String>>,
}

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
            cfg.settle_ns =
                self.int_range(v, "settle_ns", 0, i64::MAX, "a time in ns >= 0")? as u64;
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
        self.opps(&raw, &mut cfg)?;
        if let Some(stims) = &raw.stimulus {
            let fastest = cfg.opps.iter().map(|o| o.hz).max().unwrap_or(1);
            cfg.stimuli = self.stimuli(stims, fastest)?;
        }
        if let Some(inputs) = &raw.input {
            cfg.inputs = self.inputs(inputs)?;
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

    /// `[[opp]]` and `initial_opp`: the operating points, and the one the machine starts at
    /// (which must be one of them, also when the table is inherited or shortened).
    fn opps(&self, raw: &RawMachine, cfg: &mut MachineConfig) -> R<()> {
        if let Some(opps) = &raw.opp {
            if opps.get_ref().is_empty() {
                return Err(self.err(
                    &opps.span(),
                    "the operating-point table [[opp]] is empty",
                    "at least one [[opp]] with hz and volts",
                ));
            }
            cfg.opps = opps
                .get_ref()
                .iter()
                .map(|o| self.opp(o))
                .collect::<R<Vec<Opp>>>()?;
        }
        if let Some(v) = &raw.initial_opp {
            let n = *v.get_ref();
            if n < 0 || n as u64 >= cfg.opps.len() as u64 {
                return Err(self.err(
                    &v.span(),
                    format!("initial_opp {n} is not an operating point"),
                    format!("an index 0..{} into the [[opp]] table", cfg.opps.len() - 1),
                ));
            }
            cfg.initial_opp = n as usize;
        } else if cfg.initial_opp >= cfg.opps.len() {
            // The file shortened the table below the inherited initial_opp.
            let span = raw.opp.as_ref().map(|o| o.span()).unwrap_or(0..0);
            return Err(self.err(
                &span,
                format!(
                    "initial_opp {} is not an operating point of this {}-entry [[opp]] table",
                    cfg.initial_opp,
                    cfg.opps.len()
                ),
                format!("initial_opp = an index 0..{}", cfg.opps.len() - 1),
            ));
        }
        Ok(())
    }

    /// `[[stimulus]]`: a generator per fast interrupt line, at most one each; `fastest` is the
    /// highest clock of the operating points.
    fn stimuli(
        &self,
        stims: &Spanned<Vec<Spanned<RawStimulus>>>,
        fastest: u64,
    ) -> R<Vec<StimulusConfig>> {
        let mut out: Vec<StimulusConfig> = Vec::new();
        let mut seen: [Option<usize>; FAST_IRQ_LINES as usize] = [None; FAST_IRQ_LINES as usize];
        for s in stims.get_ref() {
            let (sc, line_span) = self.stimulus(s, fastest)?;
            if let Some(prev) = seen[sc.line as usize] {
                return Err(self.err(
                    &line_span,
                    format!(
                        "fast IRQ line {} already has a stimulus generator (line {} of this file)",
                        sc.line,
                        self.line(prev)
                    ),
                    "one [[stimulus]] per line 0..14",
                ));
            }
            seen[sc.line as usize] = Some(line_span.start);
            out.push(sc);
        }
        Ok(out)
    }

    /// `[[input]]`: an input stream per IO port, at most one each.
    fn inputs(&self, inputs: &Spanned<Vec<Spanned<RawInput>>>) -> R<Vec<InputConfig>> {
        let mut out: Vec<InputConfig> = Vec::new();
        let mut seen: [Option<usize>; IO_PORTS as usize] = [None; IO_PORTS as usize];
        for i in inputs.get_ref() {
            let (ic, port_span) = self.input(i)?;
            if let Some(prev) = seen[ic.port as usize] {
                return Err(self.err(
                    &port_span,
                    format!(
                        "IO port {} already has an input stream (line {} of this file)",
                        ic.port,
                        self.line(prev)
                    ),
                    "one [[input]] per port 0..31",
                ));
            }
            seen[ic.port as usize] = Some(port_span.start);
            out.push(ic);
        }
        Ok(out)
    }

    fn opp(&self, o: &Spanned<RawOpp>) -> R<Opp> {
        let r = o.get_ref();
        let hz = match &r.hz {
            None => {
                return Err(self.err(
                    &o.span(),
                    "[[opp]] entry without `hz`",
                    "hz = <frequency in Hz> and volts = <V>",
                ))
            }
            Some(v) => self.int_range(
                v,
                "hz",
                1,
                MAX_HZ as i64,
                "a frequency in Hz from 1 to 4294967295 (FREQ_HZ is 32 bits)",
            )? as u64,
        };
        let volts = match &r.volts {
            None => {
                return Err(self.err(
                    &o.span(),
                    "[[opp]] entry without `volts`",
                    "hz = <frequency in Hz> and volts = <V>",
                ))
            }
            Some(v) => self.positive(v, "volts", "a voltage in volts > 0")?,
        };
        Ok(Opp { hz, volts })
    }

    /// A period or slot in microseconds: a valid time, and at least one clock cycle at the
    /// fastest operating point (`fastest_hz`). A line is a latched level: events closer
    /// together than the core can see them only cost time; the floor keeps every run's event
    /// count proportional to its cycles.
    fn interval_us(&self, v: &Spanned<f64>, key: &str, fastest_hz: u64) -> R<f64> {
        let x = self.time_us(v, key, false)?;
        let cycle_fs = crate::clock::FS_PER_S / fastest_hz as u128;
        if crate::stimulus::us_to_fs(x) < cycle_fs {
            let min_us = 1e6 / fastest_hz as f64;
            return Err(self.err(
                &v.span(),
                format!(
                    "{key} = {x} is shorter than one clock cycle at the fastest operating point ({min_us} us at {fastest_hz} Hz)"
                ),
                format!("a time in microseconds from {min_us} (one cycle of the fastest [[opp]]) to {MAX_TIME_US:e}"),
            ));
        }
        Ok(x)
    }

    fn stimulus(
        &self,
        s: &Spanned<RawStimulus>,
        fastest_hz: u64,
    ) -> R<(StimulusConfig, Range<usize>)> {
        let whole = s.span();
        let r = s.get_ref();
        let (line, line_span) = match &r.line {
            None => {
                return Err(self.err(
                    &whole,
                    "[[stimulus]] entry without `line`",
                    "line = a fast IRQ line 0..14",
                ))
            }
            Some(v) => (
                self.int_range(
                    v,
                    "line",
                    0,
                    FAST_IRQ_LINES as i64 - 1,
                    "a fast IRQ line 0..14",
                )? as u8,
                v.span(),
            ),
        };
        let (kind, kind_span) = self.kind(
            &r.kind,
            &whole,
            "[[stimulus]]",
            "\"periodic\", \"geometric\" or \"times\"",
        )?;
        let start_us = match &r.start_us {
            None => 0.0,
            Some(v) => self.time_us(v, "start_us", true)?,
        };
        let seed = match &r.seed {
            None => 1,
            Some(v) => {
                self.int_range(v, "seed", 0, i64::MAX, "a seed, a non-negative integer")? as u64
            }
        };
        let kind = match kind {
            "periodic" => self.periodic_stimulus(r, &whole, fastest_hz)?,
            "geometric" => self.geometric_stimulus(r, &whole, fastest_hz)?,
            "times" => self.times_stimulus(r, &whole)?,
            other => {
                return Err(self.err(
                    &kind_span,
                    format!("unknown stimulus kind \"{other}\""),
                    "kind = \"periodic\", \"geometric\" or \"times\"",
                ))
            }
        };
        Ok((
            StimulusConfig {
                line,
                kind,
                start_us,
                seed,
            },
            line_span,
        ))
    }

    /// A periodic stimulus: `period_us` (an interval the fastest clock can resolve).
    fn periodic_stimulus(
        &self,
        r: &RawStimulus,
        whole: &Range<usize>,
        fastest_hz: u64,
    ) -> R<StimulusKind> {
        let kind = "periodic";
        let span_of = |v: &Option<Spanned<f64>>| v.as_ref().map(|v| v.span());
        let times_span = r.times_us.as_ref().map(|v| v.span());
        let file_span = r.times_file.as_ref().map(|v| v.span());
        self.not_for(
            &[
                ("slot_us", span_of(&r.slot_us)),
                ("probability", span_of(&r.probability)),
                ("times_us", times_span.clone()),
                ("times_file", file_span.clone()),
            ],
            kind,
            "period_us, and optionally start_us and seed",
        )?;
        let period_us = match &r.period_us {
            None => {
                return Err(self.err(
                    whole,
                    "periodic [[stimulus]] without `period_us`",
                    "period_us = <microseconds>",
                ))
            }
            Some(v) => self.interval_us(v, "period_us", fastest_hz)?,
        };
        Ok(StimulusKind::Periodic { period_us })
    }

    /// A geometric stimulus: a chance `probability` in every slot of `slot_us`.
    fn geometric_stimulus(
        &self,
        r: &RawStimulus,
        whole: &Range<usize>,
        fastest_hz: u64,
    ) -> R<StimulusKind> {
        let kind = "geometric";
        let span_of = |v: &Option<Spanned<f64>>| v.as_ref().map(|v| v.span());
        let times_span = r.times_us.as_ref().map(|v| v.span());
        let file_span = r.times_file.as_ref().map(|v| v.span());
        self.not_for(
            &[
                ("period_us", span_of(&r.period_us)),
                ("times_us", times_span.clone()),
                ("times_file", file_span.clone()),
            ],
            kind,
            "slot_us and probability, and optionally start_us and seed",
        )?;
        let slot_us = match &r.slot_us {
            None => {
                return Err(self.err(
                    whole,
                    "geometric [[stimulus]] without `slot_us`",
                    "slot_us = <microseconds> and probability = <0 < p <= 1>",
                ))
            }
            Some(v) => self.interval_us(v, "slot_us", fastest_hz)?,
        };
        let probability = match &r.probability {
            None => {
                return Err(self.err(
                    whole,
                    "geometric [[stimulus]] without `probability`",
                    "probability = <0 < p <= 1>",
                ))
            }
            Some(v) => {
                let p = *v.get_ref();
                if !(p > 0.0 && p <= 1.0) {
                    return Err(self.err(
                        &v.span(),
                        format!("probability {p} is out of range"),
                        "0 < probability <= 1",
                    ));
                }
                p
            }
        };
        Ok(StimulusKind::Geometric {
            slot_us,
            probability,
        })
    }

    /// A stimulus at listed times: `times_us`, or a file of them (`times_file`).
    fn times_stimulus(&self, r: &RawStimulus, whole: &Range<usize>) -> R<StimulusKind> {
        let kind = "times";
        let span_of = |v: &Option<Spanned<f64>>| v.as_ref().map(|v| v.span());
        self.not_for(
            &[
                ("period_us", span_of(&r.period_us)),
                ("slot_us", span_of(&r.slot_us)),
                ("probability", span_of(&r.probability)),
                ("seed", r.seed.as_ref().map(|v| v.span())),
            ],
            kind,
            "times_us or times_file, and optionally start_us",
        )?;
        let times = match (&r.times_us, &r.times_file) {
            (Some(list), None) => {
                let at = |_: usize| self.loc(list.span().start);
                check_times(list.get_ref(), "times_us", at)?;
                list.get_ref().as_slice().into()
            }
            (None, Some(f)) => self.load_times(f)?,
            (Some(list), Some(_)) => {
                return Err(self.err(
                    &list.span(),
                    "times [[stimulus]] with both `times_us` and `times_file`",
                    "one of times_us = [...] or times_file = \"<file>\"",
                ))
            }
            (None, None) => {
                return Err(self.err(
                    whole,
                    "times [[stimulus]] without `times_us`",
                    "times_us = [<microseconds>, ...] in increasing order, or times_file = \"<file of microseconds>\"",
                ))
            }
        };
        Ok(StimulusKind::Times { times_us: times })
    }

    fn input(&self, i: &Spanned<RawInput>) -> R<(InputConfig, Range<usize>)> {
        let whole = i.span();
        let r = i.get_ref();
        let (port, port_span) = match &r.port {
            None => {
                return Err(self.err(
                    &whole,
                    "[[input]] entry without `port`",
                    "port = an IO port 0..31",
                ))
            }
            Some(v) => (
                self.int_range(v, "port", 0, IO_PORTS as i64 - 1, "an IO port 0..31")? as u8,
                v.span(),
            ),
        };
        let (kind, kind_span) = self.kind(
            &r.kind,
            &whole,
            "[[input]]",
            "\"sine\", \"lfsr\" or \"file\"",
        )?;
        let sf = |v: &Option<Spanned<f64>>| v.as_ref().map(|v| v.span());
        let si = |v: &Option<Spanned<i64>>| v.as_ref().map(|v| v.span());
        let ss = |v: &Option<Spanned<String>>| v.as_ref().map(|v| v.span());
        let kind = match kind {
            "sine" => {
                self.not_for(
                    &[
                        ("seed", si(&r.seed)),
                        ("bits", si(&r.bits)),
                        ("path", ss(&r.path)),
                    ],
                    kind,
                    "amplitude, period_samples and optionally offset",
                )?;
                let amplitude = match &r.amplitude {
                    None => {
                        return Err(self.err(
                            &whole,
                            "sine [[input]] without `amplitude`",
                            "amplitude = <number>",
                        ))
                    }
                    Some(v) => self.finite(v, "amplitude")?,
                };
                let period_samples = match &r.period_samples {
                    None => {
                        return Err(self.err(
                            &whole,
                            "sine [[input]] without `period_samples`",
                            "period_samples = <integer > 0>",
                        ))
                    }
                    Some(v) => {
                        self.int_range(v, "period_samples", 1, i64::MAX, "a number of samples > 0")?
                            as u64
                    }
                };
                let offset = match &r.offset {
                    None => 0.0,
                    Some(v) => self.finite(v, "offset")?,
                };
                if offset.abs() + amplitude.abs() > i32::MAX as f64 {
                    let span = r
                        .amplitude
                        .as_ref()
                        .map(|v| v.span())
                        .unwrap_or(whole.clone());
                    return Err(self.err(
                        &span,
                        format!("sine samples offset {offset} +- amplitude {amplitude} do not fit in 32 bits"),
                        "|offset| + |amplitude| <= 2147483647",
                    ));
                }
                InputKind::Sine {
                    amplitude,
                    period_samples,
                    offset,
                }
            }
            "lfsr" => {
                self.not_for(
                    &[
                        ("amplitude", sf(&r.amplitude)),
                        ("period_samples", si(&r.period_samples)),
                        ("offset", sf(&r.offset)),
                        ("path", ss(&r.path)),
                    ],
                    kind,
                    "optionally seed and bits",
                )?;
                let seed = match &r.seed {
                    None => 1,
                    Some(v) => self.int_range(
                        v,
                        "seed",
                        1,
                        u32::MAX as i64,
                        "a non-zero 32-bit LFSR seed 1..4294967295",
                    )? as u32,
                };
                let bits = match &r.bits {
                    None => 32,
                    Some(v) => self.int_range(v, "bits", 1, 32, "bits per sample 1..32")? as u32,
                };
                InputKind::Lfsr { seed, bits }
            }
            "file" => {
                self.not_for(
                    &[
                        ("amplitude", sf(&r.amplitude)),
                        ("period_samples", si(&r.period_samples)),
                        ("offset", sf(&r.offset)),
                        ("seed", si(&r.seed)),
                        ("bits", si(&r.bits)),
                    ],
                    kind,
                    "path",
                )?;
                let p = match &r.path {
                    None => {
                        return Err(self.err(
                            &whole,
                            "file [[input]] without `path`",
                            "path = \"<text file of integers>\"",
                        ))
                    }
                    Some(p) => p,
                };
                let (path, samples) = self.load_stream(p)?;
                InputKind::File { path, samples }
            }
            other => {
                return Err(self.err(
                    &kind_span,
                    format!("unknown input kind \"{other}\""),
                    "kind = \"sine\", \"lfsr\" or \"file\"",
                ))
            }
        };
        Ok((InputConfig { port, kind }, port_span))
    }

    /// The times of a `times_file`: one per line (CSV: the first field), in microseconds,
    /// `#` starting a comment; a first row of names (`at_us`) is a header. The times are
    /// stored once, 8 bytes each, and every error names the file's own line and column.
    fn load_times(&self, f: &Spanned<String>) -> R<std::sync::Arc<[f64]>> {
        let (path, bytes) = self.read_named_file(f, "stimulus times file")?;
        let file = path.display().to_string();
        let text = crate::textfile::utf8(
            &bytes,
            &file,
            &format!("stimulus times file `{file}`"),
            "a text file of times in microseconds, one per line",
        )?;
        let times = self.parse_times(text, &file)?;
        // The text is not needed any more: gone before the times are copied into place.
        drop(bytes);
        if times.is_empty() {
            return Err(self.err(
                &f.span(),
                format!("stimulus times file `{file}` has no times"),
                "at least one time in microseconds",
            ));
        }
        Ok(times.into())
    }

    /// The times of a times file's `text` (of file `file`, for messages).
    fn parse_times(&self, text: &str, file: &str) -> R<Vec<f64>> {
        let at = |line: usize, column: usize| Location {
            file: file.to_string(),
            line,
            column,
        };
        let mut times = Vec::with_capacity(crate::textfile::max_rows(text));
        let mut prev = 0.0;
        for row in crate::textfile::rows(text) {
            if row.is_header() {
                continue;
            }
            let field = row.fields().next().unwrap_or("");
            let here = at(row.line, row.column(field));
            let Ok(t) = field.parse::<f64>() else {
                return Err(ConfigError::Invalid {
                    at: here,
                    message: format!("`{}` is not a time", shown(field)),
                    expected: "a time in microseconds (the line's first field)".to_string(),
                });
            };
            let before = || format!("the one before, {prev}");
            check_time(t, prev, &format!("time {t}"), before, here)?;
            prev = t;
            times.push(t);
        }
        Ok(times)
    }

    /// Loads an input-stream file eagerly, so that errors show before the run. The samples
    /// are stored once, 4 bytes each, shared by every copy of the configuration and machine.
    fn load_stream(&self, p: &Spanned<String>) -> R<(PathBuf, std::sync::Arc<[u32]>)> {
        // Read by `--check` and again by every run: a pipe would be empty the second time
        // (the document's named files refuse pipes).
        let (path, bytes) = self.read_named_file(p, "input stream file")?;
        let file = path.display().to_string();
        let text = crate::textfile::utf8(
            &bytes,
            &file,
            &format!("input stream file `{file}`"),
            "a text file of whitespace-separated integers",
        )?;
        let samples = parse_stream(text).map_err(|(offset, message)| {
            let (line, column) = line_col(text, offset);
            ConfigError::Invalid {
                at: Location { file: path.display().to_string(), line, column },
                message,
                expected: "whitespace-separated integers, decimal (-2147483648..4294967295) or 0x-hex (up to 0xffffffff)"
                    .to_string(),
            }
        })?;
        // The text is not needed any more: gone before the samples are copied into place.
        drop(bytes);
        if samples.is_empty() {
            return Err(self.err(
                &p.span(),
                format!("input stream file `{}` has no samples", path.display()),
                "at least one integer in the file",
            ));
        }
        Ok((path, samples.into()))
    }
}

/// Checks a list of event times: each in range, none before the one before. `at(i)` says
/// where time i is written.
fn check_times(times: &[f64], what: &str, at: impl Fn(usize) -> Location) -> R<()> {
    let mut prev = 0.0;
    for (i, &t) in times.iter().enumerate() {
        let name = if what == "times_us" {
            format!("times_us[{i}] = {t}")
        } else {
            format!("{what} {t}")
        };
        let before = || {
            if what == "times_us" {
                format!("times_us[{}] = {prev}", i - 1)
            } else {
                format!("the one before, {prev}")
            }
        };
        check_time(t, prev, &name, before, at(i))?;
        prev = t;
    }
    Ok(())
}

/// Checks one event time `t` (called `name`), written at `at`: in range, and not before
/// `prev`, the time before it (`before()` names it and its value).
fn check_time(t: f64, prev: f64, name: &str, before: impl Fn() -> String, at: Location) -> R<()> {
    if !(t.is_finite() && (0.0..=MAX_TIME_US).contains(&t)) {
        return Err(ConfigError::Invalid {
            at,
            message: format!("{name} is out of range"),
            expected: format!("times from 0 to {MAX_TIME_US} microseconds"),
        });
    }
    if t < prev {
        return Err(ConfigError::Invalid {
            at,
            message: format!("{name} comes before {}", before()),
            expected: "times in increasing order (equal times are one event each)".to_string(),
        });
    }
    Ok(())
}

/// At most 40 characters of a bad field, for a message.
fn shown(field: &str) -> String {
    field.chars().take(40).collect()
}

/// Parses a stream file: whitespace-separated integers; `#` starts a comment to the end of
/// the line. Decimal (optionally signed; negative values are stored as two's complement) or
/// `0x`/`0X` hexadecimal. Error: byte offset of the bad token and a message.
fn parse_stream(text: &str) -> Result<Vec<u32>, (usize, String)> {
    // Sized once (at most one sample per word), not grown by doubling.
    let mut out = Vec::with_capacity(text.split_ascii_whitespace().count());
    let mut line_start = 0;
    for line in text.split_inclusive('\n') {
        let content = match line.find('#') {
            Some(i) => &line[..i],
            None => line,
        };
        let mut pos = 0;
        for tok in content.split_whitespace() {
            let rel = content[pos..].find(tok).unwrap() + pos;
            pos = rel + tok.len();
            match parse_int_token(tok) {
                Some(v) => out.push(v),
                None => {
                    let shown: String = tok.chars().take(40).collect();
                    return Err((
                        line_start + rel,
                        format!("`{shown}` is not a 32-bit integer"),
                    ));
                }
            }
        }
        line_start += line.len();
    }
    Ok(out)
}

fn parse_int_token(tok: &str) -> Option<u32> {
    let (neg, body) = match tok.as_bytes().first()? {
        b'-' => (true, &tok[1..]),
        b'+' => (false, &tok[1..]),
        _ => (false, tok),
    };
    let hex = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X"));
    let digits_ok = |s: &str, radix: u32| !s.is_empty() && s.chars().all(|c| c.is_digit(radix));
    let mag: u64 = match hex {
        Some(h) => {
            if neg || !digits_ok(h, 16) {
                return None;
            }
            u64::from_str_radix(h, 16).ok()?
        }
        None => {
            if !digits_ok(body, 10) {
                return None;
            }
            body.parse::<u64>().ok()?
        }
    };
    if neg {
        if mag > 1 << 31 {
            return None;
        }
        Some((mag as i64).wrapping_neg() as i32 as u32)
    } else {
        u32::try_from(mag).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::infile::{MAX_STREAM_BYTES, MAX_TOML_BYTES};

    fn parse(text: &str) -> R<MachineConfig> {
        MachineConfig::from_str(text, "m.toml")
    }

    fn err(text: &str) -> String {
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

    fn tmpdir(tag: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("ubik-config-test-{}-{tag}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        d
    }

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
            opps: vec![Opp { hz: 1, volts: 1.0 }; 4],
            initial_opp: 3,
            settle_ns: 1,
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
            stimuli: vec![],
            inputs: vec![],
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
    fn top_level_keys_are_distinct() {
        let keys = machine_keys();
        for (i, k) in keys.iter().enumerate() {
            assert!(
                !keys[..i].contains(k),
                "`{k}` twice: a device's table is named like a key of the machine file"
            );
        }
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
        assert_eq!(c.opps, MachineConfig::default().opps);

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
            c.opps,
            vec![Opp {
                hz: 8_000_000,
                volts: 1.0
            }]
        );
    }

    #[test]
    fn stimuli_and_inputs() {
        let text = r#"
[[stimulus]]
line = 3
kind = "periodic"
period_us = 250
start_us = 12.5

[[stimulus]]
line = 14
kind = "geometric"
slot_us = 100
probability = 0.01
seed = 7

[[input]]
port = 0
kind = "sine"
amplitude = 1000
period_samples = 64
offset = 2048

[[input]]
port = 31
kind = "lfsr"
bits = 12
"#;
        let c = parse(text).unwrap();
        assert_eq!(
            c.stimuli,
            vec![
                StimulusConfig {
                    line: 3,
                    kind: StimulusKind::Periodic { period_us: 250.0 },
                    start_us: 12.5,
                    seed: 1
                },
                StimulusConfig {
                    line: 14,
                    kind: StimulusKind::Geometric {
                        slot_us: 100.0,
                        probability: 0.01
                    },
                    start_us: 0.0,
                    seed: 7
                },
            ]
        );
        assert_eq!(
            c.inputs,
            vec![
                InputConfig {
                    port: 0,
                    kind: InputKind::Sine {
                        amplitude: 1000.0,
                        period_samples: 64,
                        offset: 2048.0
                    }
                },
                InputConfig {
                    port: 31,
                    kind: InputKind::Lfsr { seed: 1, bits: 12 }
                },
            ]
        );
    }

    #[test]
    fn file_stream_relative_to_machine_file() {
        let d = tmpdir("rel");
        std::fs::write(d.join("s.txt"), "1 2 0x10\n-1 # comment 99\n  +7\n").unwrap();
        let m = d.join("m.toml");
        std::fs::write(
            &m,
            "[[input]]\nport = 5\nkind = \"file\"\npath = \"s.txt\"\n",
        )
        .unwrap();
        let c = MachineConfig::from_file(&m).unwrap();
        match &c.inputs[0].kind {
            InputKind::File { samples, path } => {
                assert_eq!(&samples[..], &[1, 2, 16, 0xFFFF_FFFF, 7]);
                assert_eq!(path, &d.join("s.txt"));
            }
            k => panic!("{k:?}"),
        }
    }

    #[test]
    fn file_stream_errors() {
        let d = tmpdir("err");
        std::fs::write(d.join("bad.txt"), "1 2\n3 x4 5\n").unwrap();
        std::fs::write(d.join("empty.txt"), "# only a comment\n").unwrap();
        std::fs::write(d.join("big.txt"), "4294967296\n").unwrap();
        let name = d.join("m.toml").display().to_string();
        let run = |p: &str| {
            MachineConfig::from_str(
                &format!("[[input]]\nport = 1\nkind = \"file\"\npath = \"{p}\"\n"),
                &name,
            )
        };

        let e = run("bad.txt").unwrap_err();
        assert_eq!(e.exit_code(), 65);
        let s = e.to_string();
        let want = format!(
            "{}:2:3: `x4` is not a 32-bit integer; expected whitespace-separated integers",
            d.join("bad.txt").display()
        );
        assert!(s.starts_with(&want), "{s}");

        let s = run("big.txt").unwrap_err().to_string();
        assert!(
            s.contains("big.txt:1:1: `4294967296` is not a 32-bit integer"),
            "{s}"
        );

        let s = run("empty.txt").unwrap_err().to_string();
        assert!(
            s.starts_with(&format!("{name}:4:8: input stream file")),
            "{s}"
        );
        assert!(
            s.contains("has no samples; expected at least one integer"),
            "{s}"
        );

        let e = run("missing.txt").unwrap_err();
        assert_eq!(e.exit_code(), 66);
        let s = e.to_string();
        assert!(
            s.starts_with(&format!("{name}:4:8: cannot read input stream file `")),
            "{s}"
        );
        assert!(
            s.contains("missing.txt`: No such file or directory; expected a readable file"),
            "{s}"
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
    fn stimulus_times_from_a_file() {
        let d = tmpdir("times");
        let m = |body: &str| {
            std::fs::write(d.join("t.csv"), body).unwrap();
            MachineConfig::from_str_in(
                "[[stimulus]]\nline = 3\nkind = \"times\"\ntimes_file = \"t.csv\"\n",
                "m.toml",
                &d,
            )
            .map_err(|e| e.to_string())
        };
        let c = m("time_us,label\n10,a\n# a comment\n\n10.5, b\n2000\n").unwrap();
        assert_eq!(
            c.stimuli[0].kind,
            StimulusKind::Times {
                times_us: vec![10.0, 10.5, 2000.0].into()
            }
        );
        let f = d.join("t.csv").display().to_string();
        assert_eq!(
            m("10\n5\n").unwrap_err(),
            format!("{f}:2:1: time 5 comes before the one before, 10; expected times in increasing order (equal times are one event each)")
        );
        assert_eq!(
            m("10\nsoon\n").unwrap_err(),
            format!("{f}:2:1: `soon` is not a time; expected a time in microseconds (the line's first field)")
        );
        assert!(m("# nothing\n").unwrap_err().contains("has no times"));
        // A header may follow a comment; a bad first row is data, not a header.
        let c = m("# from the logger\ntime_us\n7\n").unwrap();
        assert_eq!(
            c.stimuli[0].kind,
            StimulusKind::Times {
                times_us: vec![7.0].into()
            }
        );
        assert_eq!(
            m("10x\n20\n").unwrap_err(),
            format!("{f}:1:1: `10x` is not a time; expected a time in microseconds (the line's first field)")
        );
        assert_eq!(
            m("1\n  2e16 # far\n").unwrap_err(),
            format!("{f}:2:3: time 20000000000000000 is out of range; expected times from 0 to 1000000000000000 microseconds")
        );
        assert!(m("-3\n").unwrap_err().contains("time -3 is out of range"));
        let e = MachineConfig::from_str_in(
            "[[stimulus]]\nline = 3\nkind = \"times\"\ntimes_file = \"none.csv\"\n",
            "m.toml",
            &d,
        )
        .unwrap_err();
        assert_eq!(e.exit_code(), 66, "{e}");
        assert!(err(
            "[[stimulus]]\nline = 1\nkind = \"times\"\ntimes_us = [1]\ntimes_file = \"x\"\n"
        )
        .contains("with both `times_us` and `times_file`"));
        assert!(err(
            "[[stimulus]]\nline = 1\nkind = \"periodic\"\nperiod_us = 5\ntimes_file = \"x\"\n"
        )
        .contains("times_file"));
    }

    #[test]
    fn semantic_errors() {
        assert_eq!(
            err("[[stimulus]]\nline = 1\nkind = \"times\"\ntimes_us = [5, 3]\n"),
            "m.toml:4:12: times_us[1] = 3 comes before times_us[0] = 5; expected times in increasing order (equal times are one event each)"
        );
        assert_eq!(
            err("[[stimulus]]\nline = 1\nkind = \"times\"\ntimes_us = [-1]\n"),
            "m.toml:4:12: times_us[0] = -1 is out of range; expected times from 0 to 1000000000000000 microseconds"
        );
        assert_eq!(
            err("[[stimulus]]\nline = 1\nkind = \"times\"\n"),
            "m.toml:1:1: times [[stimulus]] without `times_us`; expected times_us = [<microseconds>, ...] in increasing order, or times_file = \"<file of microseconds>\""
        );
        assert_eq!(
            err("[[stimulus]]\nline = 1\nkind = \"periodic\"\nperiod_us = 10\ntimes_us = [1]\n"),
            "m.toml:5:12: key `times_us` does not apply to kind = \"periodic\"; expected period_us, and optionally start_us and seed"
        );
        assert_eq!(
            err("[[stimulus]]\nline = 15\nkind = \"periodic\"\nperiod_us = 10\n"),
            "m.toml:2:8: line = 15 is out of range; expected a fast IRQ line 0..14"
        );
        assert_eq!(
            err("[[input]]\nport = 32\nkind = \"lfsr\"\n"),
            "m.toml:2:8: port = 32 is out of range; expected an IO port 0..31"
        );
        assert_eq!(
            err("[[stimulus]]\nline = 1\nkind = \"geometric\"\nslot_us = 10\nprobability = 1.5\n"),
            "m.toml:5:15: probability 1.5 is out of range; expected 0 < probability <= 1"
        );
        assert_eq!(
            err("[[stimulus]]\nline = 1\nkind = \"geometric\"\nslot_us = 10\nprobability = 0\n"),
            "m.toml:5:15: probability 0 is out of range; expected 0 < probability <= 1"
        );
        assert_eq!(
            err("opp = []\n"),
            "m.toml:1:7: the operating-point table [[opp]] is empty; expected at least one [[opp]] with hz and volts"
        );
        assert_eq!(
            err("[[opp]]\nhz = 1000\nvolts = 0\n"),
            "m.toml:3:9: volts = 0 is not positive; expected a voltage in volts > 0"
        );
        assert_eq!(
            err("[[opp]]\nhz = 1000\nvolts = -1.2\n"),
            "m.toml:3:9: volts = -1.2 is not positive; expected a voltage in volts > 0"
        );
        assert_eq!(
            err("[[stimulus]]\nline = 2\nkind = \"periodic\"\nperiod_us = 10\n\n[[stimulus]]\nline = 2\nkind = \"periodic\"\nperiod_us = 20\n"),
            "m.toml:7:8: fast IRQ line 2 already has a stimulus generator (line 2 of this file); expected one [[stimulus]] per line 0..14"
        );
        assert_eq!(
            err("[[input]]\nport = 4\nkind = \"lfsr\"\n[[input]]\nport = 4\nkind = \"lfsr\"\n"),
            "m.toml:5:8: IO port 4 already has an input stream (line 2 of this file); expected one [[input]] per port 0..31"
        );
        assert_eq!(
            err("initial_opp = 3\n"),
            "m.toml:1:15: initial_opp 3 is not an operating point; expected an index 0..2 into the [[opp]] table"
        );
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
            err("[[stimulus]]\nline = 1\nkind = \"periodic\"\nperiod_us = 10\nprobability = 0.5\n"),
            "m.toml:5:15: key `probability` does not apply to kind = \"periodic\"; expected period_us, and optionally start_us and seed"
        );
        assert_eq!(
            err("[[stimulus]]\nline = 1\nkind = \"burst\"\n"),
            "m.toml:3:8: unknown stimulus kind \"burst\"; expected kind = \"periodic\", \"geometric\" or \"times\""
        );
        assert_eq!(
            err("[[stimulus]]\nline = 1\nkind = \"periodic\"\nperiod_us = 0\n"),
            "m.toml:4:13: period_us = 0 is out of range; expected a time in microseconds from 1e-9 to 1e15"
        );
        assert_eq!(
            err("[[input]]\nport = 1\nkind = \"lfsr\"\nseed = 0\n"),
            "m.toml:4:8: seed = 0 is out of range; expected a non-zero 32-bit LFSR seed 1..4294967295"
        );
        assert_eq!(
            err("[energy]\nleak_w = -1\n"),
            "m.toml:2:10: leak_w = -1 is negative or not finite; expected a power in W >= 0"
        );
        assert_eq!(
            err("[energy]\nperipheral_w = -0.5\n"),
            "m.toml:2:16: peripheral_w = -0.5 is negative or not finite; expected a power in W >= 0"
        );
        let s = err("[[stimulus]]\nkind = \"periodic\"\nperiod_us = 10\n");
        assert!(
            s.contains("[[stimulus]] entry without `line`; expected line = a fast IRQ line 0..14"),
            "{s}"
        );
        let s = err("[[opp]]\nhz = 5\n");
        assert!(s.contains("[[opp]] entry without `volts`"), "{s}");
        assert_eq!(
            err("initial_opp = 1\n[[opp]]\nhz = 5\nvolts = 1\n"),
            "m.toml:1:15: initial_opp 1 is not an operating point; expected an index 0..0 into the [[opp]] table"
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
    fn stimulus_periods_are_at_least_one_cycle_of_the_fastest_clock() {
        assert_eq!(
            err("[[stimulus]]\nline = 0\nkind = \"periodic\"\nperiod_us = 1e-9\n"),
            "m.toml:4:13: period_us = 0.000000001 is shorter than one clock cycle at the fastest operating point \
             (0.01 us at 100000000 Hz); expected a time in microseconds from 0.01 (one cycle of the fastest [[opp]]) to 1e15"
        );
        let s = err(
            "[[stimulus]]\nline = 1\nkind = \"geometric\"\nslot_us = 0.005\nprobability = 0.5\n",
        );
        assert!(
            s.starts_with("m.toml:4:11: slot_us = 0.005 is shorter than one clock cycle"),
            "{s}"
        );
        // One cycle exactly is fine; the floor follows the fastest point of the file's table.
        assert!(parse("[[stimulus]]\nline = 0\nkind = \"periodic\"\nperiod_us = 0.01\n").is_ok());
        let s = err("[[opp]]\nhz = 1000000\nvolts = 1\n[[stimulus]]\nline = 0\nkind = \"periodic\"\nperiod_us = 0.5\n");
        assert!(s.contains("(1 us at 1000000 Hz)"), "{s}");
        // 66 MHz: a cycle is not a whole number of femtoseconds; the floor shown is accepted.
        let text = "[[opp]]\nhz = 66000000\nvolts = 1\n[[stimulus]]\nline = 0\nkind = \"periodic\"\nperiod_us = PERIOD\n";
        assert!(parse(&text.replace("PERIOD", &(1e6 / 66e6).to_string())).is_ok());
        assert!(parse(&text.replace("PERIOD", "0.015")).is_err());
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

    #[test]
    fn int_tokens() {
        assert_eq!(parse_int_token("0"), Some(0));
        assert_eq!(parse_int_token("-2147483648"), Some(0x8000_0000));
        assert_eq!(parse_int_token("-2147483649"), None);
        assert_eq!(parse_int_token("4294967295"), Some(u32::MAX));
        assert_eq!(parse_int_token("0xFFFFFFFF"), Some(u32::MAX));
        assert_eq!(parse_int_token("0x1_0"), None);
        assert_eq!(parse_int_token("-0x1"), None);
        assert_eq!(parse_int_token("1.5"), None);
        assert_eq!(parse_int_token("-"), None);
        assert_eq!(parse_int_token("0x"), None);
    }
}
