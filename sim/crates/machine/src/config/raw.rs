//! The machine file as written: every key optional, spans kept for messages. The top level
//! and `[wait_states]` have keys from the device list, so they are read by hand
//! (`visit_map`) where other tables derive; they read as derived ones do: an unknown key is
//! serde's "unknown field" error at the key, a value of the wrong type names what was
//! expected.

use std::fmt;
use std::sync::OnceLock;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use toml::Spanned;

use crate::dev::intc::RawStimulus;
use crate::dev::io::RawInput;
use crate::dev::power::RawOpp;
use crate::dev::{self, RawTables};

/// Top-level keys before the devices' tables and after them.
const KEYS_BEFORE_DEVICES: [&str; 4] = ["ram_size", "supply_v", "initial_opp", "settle_ns"];
const KEYS_AFTER_DEVICES: [&str; 6] = ["wait_states", "energy", "core", "opp", "stimulus", "input"];

/// Every top-level key, in the order messages list them.
pub(super) fn machine_keys() -> &'static [&'static str] {
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
pub(super) struct RawMachine {
    pub(super) ram_size: Option<Spanned<i64>>,
    pub(super) supply_v: Option<Spanned<f64>>,
    pub(super) initial_opp: Option<Spanned<i64>>,
    pub(super) settle_ns: Option<Spanned<i64>>,
    pub(super) devices: RawTables,
    pub(super) wait_states: Option<RawWaitStates>,
    pub(super) energy: Option<RawEnergy>,
    pub(super) core: Option<RawCore>,
    pub(super) opp: Option<Spanned<Vec<Spanned<RawOpp>>>>,
    pub(super) stimulus: Option<Spanned<Vec<Spanned<RawStimulus>>>>,
    pub(super) input: Option<Spanned<Vec<Spanned<RawInput>>>>,
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
pub(super) struct RawWaitStates(pub(super) [Option<Spanned<i64>>; dev::COUNT]);

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
pub(super) struct RawEnergy {
    pub(super) vnom: Option<Spanned<f64>>,
    pub(super) e_cycle_pj: Option<Spanned<f64>>,
    pub(super) e_alu_pj: Option<Spanned<f64>>,
    pub(super) e_branch_pj: Option<Spanned<f64>>,
    pub(super) e_mul_pj: Option<Spanned<f64>>,
    pub(super) e_div_cycle_pj: Option<Spanned<f64>>,
    pub(super) e_mem_pj: Option<Spanned<f64>>,
    pub(super) e_mmio_pj: Option<Spanned<f64>>,
    pub(super) sleep_fraction: Option<Spanned<f64>>,
    pub(super) leak_w: Option<Spanned<f64>>,
    pub(super) peripheral_w: Option<Spanned<f64>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawCore {
    pub(super) pmp_regions: Option<Spanned<i64>>,
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
