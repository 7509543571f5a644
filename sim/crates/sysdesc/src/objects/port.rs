//! `[port.NAME]`: a port, a queue of pointers, with its static slots (`uk_port_init`).

use std::fmt::Write as _;

use serde::Deserialize;
use toml::Spanned;

use super::{Kind, Objects, Resolver, MAX_COUNT};
use crate::gen_objects::{check, descriptor_table, name_line, section, walk, Symbols};
use crate::{Location, R};

// ---------------------------------------------------------------------------------------------
// The model.

/// `[port.NAME]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Port {
    pub name: String,
    pub at: Location,
    pub capacity: u32,
}

// ---------------------------------------------------------------------------------------------
// As written.

#[derive(Deserialize)]
#[serde(deny_unknown_fields, expecting = "a port table: capacity")]
pub(crate) struct RawPort {
    capacity: Option<Spanned<i64>>,
}

impl Kind for RawPort {
    const KIND: &'static str = "port";
}

// ---------------------------------------------------------------------------------------------
// Resolution and checks.

impl Resolver<'_, '_> {
    pub(super) fn port(&mut self, k: &Spanned<String>, p: RawPort) -> R<Port> {
        self.need(&k.span(), &format!("port \"{}\"", k.get_ref()), &["port"])?;
        let capacity = match &p.capacity {
            Some(v) => self.int(v, "capacity", 1, MAX_COUNT, "a number of messages")?,
            None => {
                return Err(self.missing(
                    k,
                    "port",
                    "capacity",
                    "capacity = N, the number of pointers it holds",
                ))
            }
        };
        Ok(Port {
            name: k.get_ref().clone(),
            at: self.doc.loc(k.span().start),
            capacity,
        })
    }
}

// ---------------------------------------------------------------------------------------------
// C emission.

/// The `extern` declarations in `uk_gen.h`.
pub(crate) fn declarations<'a>(s: &mut String, o: &'a Objects, sym: &Symbols<'a>) {
    section(
        s,
        "[port.*]",
        o.ports
            .iter()
            .map(|x| sym.decl("uk_port_t", &x.name, format!("{} pointers", x.capacity)))
            .collect(),
    );
}

/// The definitions in `uk_gen.c`, with the memory each needs.
pub(crate) fn storage<'a>(s: &mut String, o: &'a Objects, sym: &Symbols<'a>) {
    for x in &o.ports {
        let _ = writeln!(s, "uk_port_t {};", sym.object(&x.name));
        let _ = writeln!(s, "static void *uk__gen_port_{}[{}];", x.name, x.capacity);
    }
}

/// The descriptor table of `[port.NAME]`.
pub(crate) fn table<'a>(s: &mut String, o: &'a Objects, sym: &Symbols<'a>) {
    descriptor_table(
        s,
        "port",
        "    uk_port_t *port;\n    void **slots;\n    uint32_t capacity;\n    const char *name;\n    uint32_t line;\n",
        &o.ports
            .iter()
            .map(|x| {
                format!(
                    "&{}, uk__gen_port_{}, {}, {}",
                    sym.object(&x.name),
                    x.name,
                    x.capacity,
                    name_line(&x.name, x.at.line)
                )
            })
            .collect::<Vec<_>>(),
    );
}

/// The loop of `uk__gen_init` that creates them.
pub(crate) fn create(s: &mut String, o: &Objects) {
    if !o.ports.is_empty() {
        walk(
            s,
            "port",
            &check(
                "uk_port_init(d->port, d->slots, d->capacity)",
                "uk_port_init",
            ),
        );
    }
}
