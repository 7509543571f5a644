//! The one field reader the system and hypervisor descriptions need that `confread` does not
//! have: a size in bytes within bounds and a multiple of an alignment (stacks, buffers).

use confread::{Doc, Result};
use toml::Spanned;

/// `v` if it is in `lo..=hi` and a multiple of `multiple`; else `KEY = N is too small`, `is
/// too large` or `is not a multiple of M` at `v`, expecting "a size in bytes from LO to HI, a
/// multiple of M".
pub(crate) fn bytes(
    doc: &Doc,
    v: &Spanned<i64>,
    key: &str,
    (lo, hi): (i64, i64),
    multiple: i64,
) -> Result<u32> {
    let n = *v.get_ref();
    let what = if n < lo {
        "is too small".to_string()
    } else if n > hi {
        "is too large".to_string()
    } else if n % multiple != 0 {
        format!("is not a multiple of {multiple}")
    } else {
        return Ok(n as u32);
    };
    Err(doc.err(
        &v.span(),
        format!("{key} = {n} {what}"),
        format!("a size in bytes from {lo} to {hi}, a multiple of {multiple}"),
    ))
}
