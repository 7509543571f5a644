//! `[heap.NAME]`: a heap of variable-size blocks in a static buffer (`uk_heap_init`).

use std::fmt::Write as _;

use serde::Deserialize;
use toml::Spanned;

use super::{Kind, Objects, Resolver};
use crate::gen_objects::{
    check, descriptor_table, name_line, section, walk, words, Symbols, ALIGNED,
};
use crate::{Location, R};

// ---------------------------------------------------------------------------------------------
// The model.

/// `[heap.NAME]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Heap {
    pub name: String,
    pub at: Location,
    pub bytes: u32,
}

// ---------------------------------------------------------------------------------------------
// As written.

#[derive(Deserialize)]
#[serde(deny_unknown_fields, expecting = "a heap table: bytes")]
pub(crate) struct RawHeap {
    bytes: Option<Spanned<i64>>,
}

impl Kind for RawHeap {
    const KIND: &'static str = "heap";
}

// ---------------------------------------------------------------------------------------------
// Resolution and checks.

impl Resolver<'_, '_> {
    pub(super) fn heap(&mut self, k: &Spanned<String>, h: RawHeap) -> R<Heap> {
        self.need(&k.span(), &format!("heap \"{}\"", k.get_ref()), &["heap"])?;
        let bytes = match &h.bytes {
            Some(v) => self.bytes(v, "bytes", 48, 8)?,
            None => return Err(self.missing(k, "heap", "size", "bytes = N, its size in bytes")),
        };
        Ok(Heap {
            name: k.get_ref().clone(),
            at: self.doc.loc(k.span().start),
            bytes,
        })
    }
}

// ---------------------------------------------------------------------------------------------
// C emission.

/// The `extern` declarations in `uk_gen.h`.
pub(crate) fn declarations<'a>(s: &mut String, o: &'a Objects, sym: &Symbols<'a>) {
    section(
        s,
        "[heap.*]",
        o.heaps
            .iter()
            .map(|x| sym.decl("uk_heap_t", &x.name, format!("{} bytes", x.bytes)))
            .collect(),
    );
}

/// The definitions in `uk_gen.c`, with the memory each needs.
pub(crate) fn storage<'a>(s: &mut String, o: &'a Objects, sym: &Symbols<'a>) {
    for x in &o.heaps {
        let _ = writeln!(s, "uk_heap_t {};", sym.object(&x.name));
        let _ = writeln!(
            s,
            "static uint32_t uk__gen_heap_{}[{}] {ALIGNED};",
            x.name,
            words(x.bytes as u64)
        );
    }
}

/// The descriptor table of `[heap.NAME]`.
pub(crate) fn table<'a>(s: &mut String, o: &'a Objects, sym: &Symbols<'a>) {
    descriptor_table(
        s,
        "heap",
        "    uk_heap_t *heap;\n    void *buf;\n    uint32_t bytes;\n    const char *name;\n    uint32_t line;\n",
        &o.heaps
            .iter()
            .map(|x| {
                format!(
                    "&{}, uk__gen_heap_{1}, sizeof uk__gen_heap_{1}, {2}",
                    sym.object(&x.name),
                    x.name,
                    name_line(&x.name, x.at.line)
                )
            })
            .collect::<Vec<_>>(),
    );
}

/// The loop of `uk__gen_init` that creates them.
pub(crate) fn create(s: &mut String, o: &Objects) {
    if !o.heaps.is_empty() {
        walk(
            s,
            "heap",
            &check("uk_heap_init(d->heap, d->buf, d->bytes)", "uk_heap_init"),
        );
    }
}
