//! `[pool.NAME]`: a pool of fixed-size blocks, in its own static buffer (`uk_pool_init`) or
//! carved from a declared heap (`uk_pool_create`), which must then hold it.

use std::fmt::Write as _;

use serde::Deserialize;
use std::collections::HashMap;
use toml::Spanned;

use super::{Kind, Objects, Resolver, MAX_COUNT};
use crate::gen_objects::{
    check, descriptor_table, name_line, section, walk, words, Symbols, ALIGNED,
};
use crate::{Location, R};

// ---------------------------------------------------------------------------------------------
// The model.

/// `[pool.NAME]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pool {
    pub name: String,
    pub at: Location,
    pub block_bytes: u32,
    pub count: u32,
    /// Carved from this declared heap (`uk_pool_create`) instead of a static buffer.
    pub heap: Option<String>,
}

// ---------------------------------------------------------------------------------------------
// As written.

#[derive(Deserialize)]
#[serde(
    deny_unknown_fields,
    expecting = "a pool table: block_bytes, count, heap"
)]
pub(crate) struct RawPool {
    block_bytes: Option<Spanned<i64>>,
    count: Option<Spanned<i64>>,
    heap: Option<Spanned<String>>,
}

impl Kind for RawPool {
    const KIND: &'static str = "pool";
}

// ---------------------------------------------------------------------------------------------
// Resolution and checks.

impl Resolver<'_, '_> {
    pub(super) fn pool(&mut self, k: &Spanned<String>, p: RawPool) -> R<Pool> {
        let what = format!("pool \"{}\"", k.get_ref());
        self.need(&k.span(), &what, &["pool"])?;
        let block_bytes = match &p.block_bytes {
            Some(v) => self.bytes(v, "block_bytes", 8, 4)?,
            None => {
                return Err(self.missing(
                    k,
                    "pool",
                    "block size",
                    "block_bytes = N (>= 8, a multiple of 4)",
                ))
            }
        };
        let count = match &p.count {
            Some(v) => self.int(v, "count", 1, MAX_COUNT, "a number of blocks")?,
            None => {
                return Err(self.missing(k, "pool", "count", "count = N, the number of blocks"))
            }
        };
        self.total(&k.span(), what.clone(), block_bytes as u64 * count as u64)?;
        let heap = match &p.heap {
            Some(v) => {
                self.need(&v.span(), &format!("{what} carved from a heap"), &["heap"])?;
                self.refs
                    .push((v.span(), "heap", v.get_ref().clone(), "heap"));
                Some(v.get_ref().clone())
            }
            None => None,
        };
        Ok(Pool {
            name: k.get_ref().clone(),
            at: self.doc.loc(k.span().start),
            block_bytes,
            count,
            heap,
        })
    }
}

/// Every pool carved from a heap must fit in it (its blocks' payload, at least): checked once
/// every object is known, at the first pool of a heap too small.
pub(super) fn heaps_hold_their_pools(o: &Objects) -> R<()> {
    let mut carved: HashMap<&str, (u64, &Pool)> = HashMap::new();
    for p in &o.pools {
        if let Some(h) = &p.heap {
            let e = carved.entry(h.as_str()).or_insert((0, p));
            *e = (e.0 + p.block_bytes as u64 * p.count as u64, p);
        }
    }
    for h in &o.heaps {
        let Some(&(need, p)) = carved.get(h.name.as_str()) else {
            continue;
        };
        if need > h.bytes as u64 {
            return Err(crate::ConfigError::Invalid {
                    at: p.at.clone(),
                    message: format!(
                        "pool \"{}\": the pools carved from heap \"{}\" take {need} bytes, the heap has {}",
                        p.name, h.name, h.bytes
                    ),
                    expected: format!(
                        "heap \"{}\" larger than its pools (each block costs 16 bytes of header)",
                        h.name
                    ),
                });
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// C emission.

/// The `extern` declarations in `uk_gen.h`.
pub(crate) fn declarations<'a>(s: &mut String, o: &'a Objects, sym: &Symbols<'a>) {
    section(
        s,
        "[pool.*]",
        o.pools
            .iter()
            .map(|x| {
                let from = x
                    .heap
                    .as_ref()
                    .map(|h| format!(", from heap {h}"))
                    .unwrap_or_default();
                sym.decl(
                    "uk_pool_t",
                    &x.name,
                    format!("{} blocks of {} bytes{from}", x.count, x.block_bytes),
                )
            })
            .collect(),
    );
}

/// The definitions in `uk_gen.c`, with the memory each needs.
pub(crate) fn storage<'a>(s: &mut String, o: &'a Objects, sym: &Symbols<'a>) {
    for x in &o.pools {
        let _ = writeln!(s, "uk_pool_t {};", sym.object(&x.name));
        if x.heap.is_none() {
            let _ = writeln!(
                s,
                "static uint32_t uk__gen_pool_{}[{}] {ALIGNED};",
                x.name,
                words(x.block_bytes as u64 * x.count as u64)
            );
        }
    }
}

/// The descriptor table of `[pool.NAME]`.
pub(crate) fn table<'a>(s: &mut String, o: &'a Objects, sym: &Symbols<'a>) {
    descriptor_table(
        s,
        "pool",
        "    uk_pool_t *pool;\n    uk_heap_t *heap; /* carved from it, or 0: buf */\n    void *buf;\n    \
         uint32_t block_bytes;\n    uint32_t count;\n    const char *name;\n    uint32_t line;\n",
        &o.pools
            .iter()
            .map(|x| {
                let (heap, buf) = match &x.heap {
                    Some(h) => (format!("&{}", sym.object(h)), "0".to_string()),
                    None => ("0".to_string(), format!("uk__gen_pool_{}", x.name)),
                };
                format!(
                    "&{}, {heap}, {buf}, {}, {}, {}",
                    sym.object(&x.name),
                    x.block_bytes,
                    x.count,
                    name_line(&x.name, x.at.line)
                )
            })
            .collect::<Vec<_>>(),
    );
}

/// The loop that creates the pools, each carved from its heap or in its own buffer.
pub(crate) fn create(s: &mut String, o: &Objects) {
    if !o.pools.is_empty() {
        let carved = o.pools.iter().any(|p| p.heap.is_some());
        let fixed = o.pools.iter().any(|p| p.heap.is_none());
        let create = check(
            "uk_pool_create(d->pool, d->heap, d->block_bytes, d->count)",
            "uk_pool_create",
        );
        let init = check(
            "uk_pool_init(d->pool, d->buf, d->block_bytes, d->count)",
            "uk_pool_init",
        );
        let body = match (carved, fixed) {
            (true, true) => format!("        if (d->heap)\n    {create}        else\n    {init}"),
            (true, false) => create,
            _ => init,
        };
        walk(s, "pool", &body);
    }
}
