//! Which schedulers a scenario applies to, chosen by the policy table's properties (sysdesc's
//! `Policy`: `unique_priorities`, `time_slices`, `deadlines`, `priority_preemption`,
//! `task_manager`), never by name, so that a policy added to the table is measured wherever
//! its properties fit. In an experiment file:
//!
//! ```toml
//! schedulers = { with = ["priority_preemption"], without = ["unique_priorities"] }
//! schedulers = { any = ["priority_preemption", "time_slices"] }
//! ```
//!
//! A scheduler is selected when it has every property of `with`, none of `without`, and (if
//! `any` is given) at least one of `any`. Every key is optional; `{}` (or no `schedulers`
//! key, as the kind decides) selects every scheduler. A name that is not a property, or a
//! property both required and excluded, is an error at its FILE:LINE:COL (exit 65).
//! Selection is evaluated in this process from the table (`sysdesc::Scheduler::ALL`, in its
//! order), as `ubik gen --list-schedulers --with P --without Q` prints it.

// A library the benchmark kinds draw on: no kind uses all of it.
#![allow(dead_code)]

use confread::{quoted_list, ConfigError, Doc};
use serde::Deserialize;
use sysdesc::{Policy, Scheduler};
use toml::Spanned;

/// `schedulers = { with = [...], without = [...], any = [...] }` as written.
#[derive(Deserialize, Debug, Clone, Default)]
#[serde(deny_unknown_fields)]
pub struct RawSelect {
    pub with: Option<Vec<Spanned<String>>>,
    pub without: Option<Vec<Spanned<String>>>,
    pub any: Option<Vec<Spanned<String>>>,
}

/// A selection of schedulers by properties (names checked against `Policy::PROPERTIES`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Select {
    pub with: Vec<&'static str>,
    pub without: Vec<&'static str>,
    pub any: Vec<&'static str>,
}

impl Select {
    /// Reads `raw`, checking every name and that no property is both in `with` and in
    /// `without` (which would select nothing).
    pub fn read(src: &Doc, raw: &RawSelect) -> Result<Select, ConfigError> {
        let names = |v: &Option<Vec<Spanned<String>>>, key: &str| -> Result<_, ConfigError> {
            let mut out = Vec::new();
            for n in v.iter().flatten() {
                let Some(p) = Policy::PROPERTIES.iter().find(|p| **p == n.get_ref()) else {
                    return Err(src.err(
                        &n.span(),
                        format!(
                            "schedulers.{key}: {:?} is not a scheduler property",
                            n.get_ref()
                        ),
                        format!("one of {}", quoted_list(&Policy::PROPERTIES)),
                    ));
                };
                out.push(*p);
            }
            Ok(out)
        };
        let sel = Select {
            with: names(&raw.with, "with")?,
            without: names(&raw.without, "without")?,
            any: names(&raw.any, "any")?,
        };
        if let Some(n) = raw
            .without
            .iter()
            .flatten()
            .find(|n| sel.with.contains(&n.get_ref().as_str()))
        {
            return Err(src.err(
                &n.span(),
                format!(
                    "schedulers: {:?} is both in `with` and in `without`, which selects no scheduler",
                    n.get_ref()
                ),
                "each property in one of `with` and `without`",
            ));
        }
        Ok(sel)
    }

    /// Does the policy `p` have the selection's properties?
    pub fn applies(&self, p: &Policy) -> bool {
        let has = |name: &&str| p.property(name) == Some(true);
        self.with.iter().all(has)
            && !self.without.iter().any(has)
            && (self.any.is_empty() || self.any.iter().any(has))
    }

    /// The schedulers selected, in the policy table's order.
    pub fn schedulers(&self) -> Vec<Scheduler> {
        Scheduler::ALL
            .into_iter()
            .filter(|s| self.applies(s.policy()))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Deserialize)]
    struct File {
        schedulers: RawSelect,
    }

    fn read(text: &str) -> Result<Select, String> {
        let src = Doc::text_only("x.toml", text);
        let f: File = src.parse().map_err(|e| e.to_string())?;
        Select::read(&src, &f.schedulers).map_err(|e| e.to_string())
    }

    fn names(text: &str) -> Vec<&'static str> {
        read(text)
            .unwrap()
            .schedulers()
            .iter()
            .map(|s| s.name())
            .collect()
    }

    #[test]
    fn selection_follows_the_properties_not_the_names() {
        assert_eq!(
            names("schedulers = { without = [\"unique_priorities\"] }"),
            ["rr", "prio", "prio_rr", "edf", "coop"]
        );
        assert_eq!(
            names("schedulers = { with = [\"priority_preemption\"] }"),
            ["prio", "prio_rr", "bitmap", "edf", "rtm"]
        );
        // The reporting task must preempt: by priority or by time slice.
        assert_eq!(
            names("schedulers = { any = [\"priority_preemption\", \"time_slices\"] }"),
            ["rr", "prio", "prio_rr", "bitmap", "edf", "rtm"]
        );
        assert_eq!(names("schedulers = {}").len(), Scheduler::ALL.len());
    }

    #[test]
    fn selection_agrees_with_the_policy_table_for_every_property() {
        for p in Policy::PROPERTIES {
            let with = names(&format!("schedulers = {{ with = [{p:?}] }}"));
            let without = names(&format!("schedulers = {{ without = [{p:?}] }}"));
            assert_eq!(with.len() + without.len(), Scheduler::ALL.len(), "{p}");
            for s in Scheduler::ALL {
                assert_eq!(
                    with.contains(&s.name()),
                    s.policy().property(p) == Some(true)
                );
            }
        }
    }

    #[test]
    fn a_bad_property_is_located() {
        let e = read("schedulers = { with = [\"priority_preemption\", \"fast\"] }").unwrap_err();
        assert!(
            e.starts_with("x.toml:1:47: schedulers.with: \"fast\" is not a scheduler property"),
            "{e}"
        );
        assert!(e.contains("\"unique_priorities\""), "{e}");
        let e =
            read("[schedulers]\nwith = [\"deadlines\"]\nwithout = [\"deadlines\"]\n").unwrap_err();
        assert!(e.starts_with("x.toml:3:12: "), "{e}");
        let e = read("schedulers = { wiht = [\"deadlines\"] }").unwrap_err();
        assert!(e.starts_with("x.toml:1:"), "{e}");
        assert!(e.contains("wiht"), "{e}");
    }
}
