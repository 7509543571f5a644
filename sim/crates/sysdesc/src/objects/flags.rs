//! `[flags.NAME]`: event flags and their initial bits (`uk_flags_init`, `uk_flags_set`).

use std::fmt::Write as _;

use serde::Deserialize;
use toml::Spanned;

use super::{Kind, Objects, Resolver};
use crate::gen_objects::{check, descriptor_table, name_line, section, walk, Symbols};
use crate::{Location, R};

// ---------------------------------------------------------------------------------------------
// The model.

/// `[flags.NAME]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Flags {
    pub name: String,
    pub at: Location,
    pub initial: u32,
}

// ---------------------------------------------------------------------------------------------
// As written.

#[derive(Deserialize)]
#[serde(deny_unknown_fields, expecting = "a flags table: initial")]
pub(crate) struct RawFlags {
    initial: Option<Spanned<i64>>,
}

impl Kind for RawFlags {
    const KIND: &'static str = "flags";
}

// ---------------------------------------------------------------------------------------------
// Resolution and checks.

impl Resolver<'_, '_> {
    pub(super) fn flags(&mut self, k: &Spanned<String>, f: RawFlags) -> R<Flags> {
        self.need(&k.span(), &format!("flags \"{}\"", k.get_ref()), &["flags"])?;
        let initial = match &f.initial {
            Some(v) => self.int(v, "initial", 0, u32::MAX as i64, "32 bits")?,
            None => 0,
        };
        Ok(Flags {
            name: k.get_ref().clone(),
            at: self.doc.loc(k.span().start),
            initial,
        })
    }
}

// ---------------------------------------------------------------------------------------------
// C emission.

/// The `extern` declarations in `uk_gen.h`.
pub(crate) fn declarations<'a>(s: &mut String, o: &'a Objects, sym: &Symbols<'a>) {
    section(
        s,
        "[flags.*]",
        o.flags
            .iter()
            .map(|x| sym.decl("uk_flags_t", &x.name, String::new()))
            .collect(),
    );
}

/// The definitions in `uk_gen.c`, with the memory each needs.
pub(crate) fn storage<'a>(s: &mut String, o: &'a Objects, sym: &Symbols<'a>) {
    for x in &o.flags {
        let _ = writeln!(s, "uk_flags_t {};", sym.object(&x.name));
    }
}

/// The descriptor table of `[flags.NAME]`.
pub(crate) fn table<'a>(s: &mut String, o: &'a Objects, sym: &Symbols<'a>) {
    descriptor_table(
        s,
        "flags",
        "    uk_flags_t *flags;\n    uint32_t initial;\n    const char *name;\n    uint32_t line;\n",
        &o.flags
            .iter()
            .map(|x| {
                format!(
                    "&{}, 0x{:x}u, {}",
                    sym.object(&x.name),
                    x.initial,
                    name_line(&x.name, x.at.line)
                )
            })
            .collect::<Vec<_>>(),
    );
}

/// The loop of `uk__gen_init` that creates them.
pub(crate) fn create(s: &mut String, o: &Objects) {
    if !o.flags.is_empty() {
        let mut body = check("uk_flags_init(d->flags)", "uk_flags_init");
        if o.flags.iter().any(|f| f.initial != 0) {
            body.push_str("        if (d->initial != 0)\n    ");
            body.push_str(&check("uk_flags_set(d->flags, d->initial)", "uk_flags_set"));
        }
        walk(s, "flags", &body);
    }
}
