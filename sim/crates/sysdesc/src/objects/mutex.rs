//! `[mutex.NAME]`: a mutex (no keys; `uk_mutex_init`).

use std::fmt::Write as _;

use serde::Deserialize;
use toml::Spanned;

use super::{Kind, Objects, Resolver};
use crate::gen_objects::{check, descriptor_table, name_line, section, walk, Symbols};
use crate::{Location, R};

// ---------------------------------------------------------------------------------------------
// The model.

/// `[mutex.NAME]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mutex {
    pub name: String,
    pub at: Location,
}

// ---------------------------------------------------------------------------------------------
// As written.

#[derive(Deserialize)]
#[serde(deny_unknown_fields, expecting = "a mutex table (no keys)")]
pub(crate) struct RawMutex {}

impl Kind for RawMutex {
    const KIND: &'static str = "mutex";
}

// ---------------------------------------------------------------------------------------------
// Resolution and checks.

impl Resolver<'_, '_> {
    pub(super) fn mutex(&mut self, k: &Spanned<String>) -> R<Mutex> {
        self.need(&k.span(), &format!("mutex \"{}\"", k.get_ref()), &["mutex"])?;
        Ok(Mutex {
            name: k.get_ref().clone(),
            at: self.doc.loc(k.span().start),
        })
    }
}

// ---------------------------------------------------------------------------------------------
// C emission.

/// The `extern` declarations in `uk_gen.h`.
pub(crate) fn declarations<'a>(s: &mut String, o: &'a Objects, sym: &Symbols<'a>) {
    section(
        s,
        "[mutex.*]",
        o.mutexes
            .iter()
            .map(|x| sym.decl("uk_mutex_t", &x.name, String::new()))
            .collect(),
    );
}

/// The definitions in `uk_gen.c`, with the memory each needs.
pub(crate) fn storage<'a>(s: &mut String, o: &'a Objects, sym: &Symbols<'a>) {
    for x in &o.mutexes {
        let _ = writeln!(s, "uk_mutex_t {};", sym.object(&x.name));
    }
}

/// The descriptor table of `[mutex.NAME]`.
pub(crate) fn table<'a>(s: &mut String, o: &'a Objects, sym: &Symbols<'a>) {
    descriptor_table(
        s,
        "mutex",
        "    uk_mutex_t *mutex;\n    const char *name;\n    uint32_t line;\n",
        &o.mutexes
            .iter()
            .map(|x| {
                format!(
                    "&{}, {}",
                    sym.object(&x.name),
                    name_line(&x.name, x.at.line)
                )
            })
            .collect::<Vec<_>>(),
    );
}

/// The loop of `uk__gen_init` that creates them.
pub(crate) fn create(s: &mut String, o: &Objects) {
    if !o.mutexes.is_empty() {
        walk(
            s,
            "mutex",
            &check("uk_mutex_init(d->mutex)", "uk_mutex_init"),
        );
    }
}
