//! `[power]`: the DPM policy `uk_init()` sets (`ubik/power.h`), `UK_POWER_POLICY` in
//! `uk_config.h`. Not an object: a kernel setting the objects' feature checks share.

use serde::Deserialize;
use toml::Spanned;

use super::Resolver;
use crate::{Os, R};

/// A DPM policy of `ubik/power.h` (UbiFOS Table 1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PowerPolicy {
    /// Always the fastest operating point.
    #[default]
    Default,
    /// Idle scaling: slow only while idle.
    Idle,
    /// Load scaling, three levels.
    Ls0,
    Ls1,
    Ls2,
}

impl PowerPolicy {
    pub const ALL: [PowerPolicy; 5] = [
        PowerPolicy::Default,
        PowerPolicy::Idle,
        PowerPolicy::Ls0,
        PowerPolicy::Ls1,
        PowerPolicy::Ls2,
    ];

    pub fn name(self) -> &'static str {
        match self {
            PowerPolicy::Default => "default",
            PowerPolicy::Idle => "idle",
            PowerPolicy::Ls0 => "ls0",
            PowerPolicy::Ls1 => "ls1",
            PowerPolicy::Ls2 => "ls2",
        }
    }

    /// The value of `uk_power_policy_t` (`UK_POWER_POLICY` in `uk_config.h`).
    pub fn value(self) -> u32 {
        self as u32
    }
}

/// The `[power]` table, resolved.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PowerConfig {
    pub policy: PowerPolicy,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, expecting = "the power table: policy")]
pub(crate) struct RawPower {
    policy: Option<Spanned<String>>,
}

impl RawPower {
    pub(crate) fn policy(&self) -> Option<&str> {
        self.policy.as_ref().map(|p| p.get_ref().as_str())
    }
}

impl Resolver<'_, '_> {
    /// `[power]`.
    pub(crate) fn power(&self, p: RawPower) -> R<PowerConfig> {
        let mut out = PowerConfig::default();
        if let Some(s) = &p.policy {
            out.policy = PowerPolicy::ALL
                .into_iter()
                .find(|x| x.name() == s.get_ref())
                .ok_or_else(|| {
                    self.err(
                        &s.span(),
                        format!("policy = \"{}\" is not a power policy", s.get_ref()),
                        format!(
                            "one of {}",
                            confread::quoted_list(&PowerPolicy::ALL.map(PowerPolicy::name))
                        ),
                    )
                })?;
            if out.policy != PowerPolicy::Default {
                if self.os == Os::Nos {
                    return Err(self.err(
                        &s.span(),
                        format!("policy = \"{}\" is a kernel policy and [kernel] os = \"nos\" has no kernel", s.get_ref()),
                        "os = \"ubik\", or policy = \"default\"",
                    ));
                }
                self.need(
                    &s.span(),
                    &format!("policy = \"{}\"", s.get_ref()),
                    &["power"],
                )?;
            }
        }
        Ok(out)
    }
}
