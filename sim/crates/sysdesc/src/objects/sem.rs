//! `[sem.NAME]`: a counting semaphore, its initial and largest count (`uk_sem_init`).

use std::fmt::Write as _;

use serde::Deserialize;
use toml::Spanned;

use super::{Kind, Objects, Resolver};
use crate::gen_objects::{check, descriptor_table, name_line, section, walk, Symbols};
use crate::{Location, R};

// ---------------------------------------------------------------------------------------------
// The model.

/// `[sem.NAME]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sem {
    pub name: String,
    pub at: Location,
    pub initial: u32,
    pub max: u32,
}

// ---------------------------------------------------------------------------------------------
// As written.

#[derive(Deserialize)]
#[serde(deny_unknown_fields, expecting = "a semaphore table: initial, max")]
pub(crate) struct RawSem {
    initial: Option<Spanned<i64>>,
    max: Option<Spanned<i64>>,
}

impl Kind for RawSem {
    const KIND: &'static str = "sem";
}

// ---------------------------------------------------------------------------------------------
// Resolution and checks.

impl Resolver<'_, '_> {
    pub(super) fn sem(&mut self, k: &Spanned<String>, s: RawSem) -> R<Sem> {
        self.need(&k.span(), &format!("sem \"{}\"", k.get_ref()), &["sem"])?;
        let max = match &s.max {
            Some(v) => self.int(v, "max", 1, u32::MAX as i64, "a count")?,
            None => 1,
        };
        let initial = match &s.initial {
            Some(v) => {
                let n = self.int(v, "initial", 0, u32::MAX as i64, "a count")?;
                if n > max {
                    return Err(self.err(
                        &v.span(),
                        format!("initial = {n} is above max = {max}"),
                        format!("a count from 0 to max ({max})"),
                    ));
                }
                n
            }
            None => 0,
        };
        Ok(Sem {
            name: k.get_ref().clone(),
            at: self.doc.loc(k.span().start),
            initial,
            max,
        })
    }
}

// ---------------------------------------------------------------------------------------------
// C emission.

/// The `extern` declarations in `uk_gen.h`.
pub(crate) fn declarations<'a>(s: &mut String, o: &'a Objects, sym: &Symbols<'a>) {
    section(
        s,
        "[sem.*]",
        o.sems
            .iter()
            .map(|x| {
                sym.decl(
                    "uk_sem_t",
                    &x.name,
                    format!("initial {}, max {}", x.initial, x.max),
                )
            })
            .collect(),
    );
}

/// The definitions in `uk_gen.c`, with the memory each needs.
pub(crate) fn storage<'a>(s: &mut String, o: &'a Objects, sym: &Symbols<'a>) {
    for x in &o.sems {
        let _ = writeln!(s, "uk_sem_t {};", sym.object(&x.name));
    }
}

/// The descriptor table of `[sem.NAME]`.
pub(crate) fn table<'a>(s: &mut String, o: &'a Objects, sym: &Symbols<'a>) {
    descriptor_table(
        s,
        "sem",
        "    uk_sem_t *sem;\n    uint32_t initial;\n    uint32_t max;\n    const char *name;\n    uint32_t line;\n",
        &o.sems
            .iter()
            .map(|x| {
                format!(
                    "&{}, {}u, {}u, {}",
                    sym.object(&x.name),
                    x.initial,
                    x.max,
                    name_line(&x.name, x.at.line)
                )
            })
            .collect::<Vec<_>>(),
    );
}

/// The loop of `uk__gen_init` that creates them.
pub(crate) fn create(s: &mut String, o: &Objects) {
    if !o.sems.is_empty() {
        walk(
            s,
            "sem",
            &check("uk_sem_init(d->sem, d->initial, d->max)", "uk_sem_init"),
        );
    }
}
