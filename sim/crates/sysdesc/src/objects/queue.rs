//! `[queue.NAME]`: a message queue of fixed-size (`msg_bytes`, `uk_queue_init`) or
//! variable-size messages (`max_msg_bytes`, `uk_queue_init_var`), with its static buffer.

use std::fmt::Write as _;

use serde::Deserialize;
use toml::Spanned;

use super::{Kind, Objects, Resolver, MAX_COUNT, MAX_MSG_BYTES};
use crate::gen_objects::{
    check, descriptor_table, name_line, section, walk, words, Symbols, ALIGNED,
};
use crate::{Location, R};

// ---------------------------------------------------------------------------------------------
// The model.

/// A queue's messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QueueKind {
    /// `capacity` messages of exactly `msg_bytes` (`uk_queue_init`).
    Fixed { msg_bytes: u32, capacity: u32 },
    /// Room for `capacity` messages of up to `max_msg_bytes` (`uk_queue_init_var`).
    Variable { max_msg_bytes: u32, capacity: u32 },
}

impl QueueKind {
    /// The size of the queue's buffer in bytes.
    pub fn buffer_bytes(self) -> u64 {
        match self {
            QueueKind::Fixed {
                msg_bytes,
                capacity,
            } => msg_bytes as u64 * capacity as u64,
            // UK_QUEUE_VAR_BYTES(max, k) of ubik/queue.h.
            QueueKind::Variable {
                max_msg_bytes,
                capacity,
            } => capacity as u64 * (4 + ((max_msg_bytes as u64 + 3) & !3)),
        }
    }
}

/// `[queue.NAME]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Queue {
    pub name: String,
    pub at: Location,
    pub kind: QueueKind,
}

// ---------------------------------------------------------------------------------------------
// As written.

#[derive(Deserialize)]
#[serde(
    deny_unknown_fields,
    expecting = "a queue table: msg_bytes or max_msg_bytes, capacity"
)]
pub(crate) struct RawQueue {
    msg_bytes: Option<Spanned<i64>>,
    max_msg_bytes: Option<Spanned<i64>>,
    capacity: Option<Spanned<i64>>,
}

impl Kind for RawQueue {
    const KIND: &'static str = "queue";
}

// ---------------------------------------------------------------------------------------------
// Resolution and checks.

impl Resolver<'_, '_> {
    pub(super) fn queue(&mut self, k: &Spanned<String>, q: RawQueue) -> R<Queue> {
        let what = format!("queue \"{}\"", k.get_ref());
        self.need(&k.span(), &what, &["queue"])?;
        let capacity = match &q.capacity {
            Some(v) => self.int(v, "capacity", 1, MAX_COUNT, "a number of messages")?,
            None => {
                return Err(self.missing(
                    k,
                    "queue",
                    "capacity",
                    "capacity = N, the number of messages it holds",
                ))
            }
        };
        let kind = match (&q.msg_bytes, &q.max_msg_bytes) {
            (Some(_), Some(v)) => {
                return Err(self.err(
                    &v.span(),
                    format!("{what} has both msg_bytes and max_msg_bytes"),
                    "one of them: msg_bytes (fixed-size messages) or max_msg_bytes (variable-size)",
                ))
            }
            (Some(v), None) => QueueKind::Fixed {
                msg_bytes: self.int(v, "msg_bytes", 1, MAX_MSG_BYTES, "a message size in bytes")?,
                capacity,
            },
            (None, Some(v)) => QueueKind::Variable {
                max_msg_bytes: self.int(
                    v,
                    "max_msg_bytes",
                    1,
                    MAX_MSG_BYTES,
                    "a message size in bytes",
                )?,
                capacity,
            },
            (None, None) => {
                return Err(self.missing(
                    k,
                    "queue",
                    "message size",
                    "msg_bytes = N (fixed-size messages) or max_msg_bytes = N (variable-size)",
                ))
            }
        };
        self.total(&k.span(), what, kind.buffer_bytes())?;
        Ok(Queue {
            name: k.get_ref().clone(),
            at: self.doc.loc(k.span().start),
            kind,
        })
    }
}

// ---------------------------------------------------------------------------------------------
// C emission.

/// The `extern` declarations in `uk_gen.h`.
pub(crate) fn declarations<'a>(s: &mut String, o: &'a Objects, sym: &Symbols<'a>) {
    section(
        s,
        "[queue.*]",
        o.queues
            .iter()
            .map(|x| {
                let comment = match x.kind {
                    QueueKind::Fixed {
                        msg_bytes,
                        capacity,
                    } => format!("{capacity} messages of {msg_bytes} bytes"),
                    QueueKind::Variable {
                        max_msg_bytes,
                        capacity,
                    } => {
                        format!("variable size: {capacity} messages of up to {max_msg_bytes} bytes")
                    }
                };
                sym.decl("uk_queue_t", &x.name, comment)
            })
            .collect(),
    );
}

/// The definitions in `uk_gen.c`, with the memory each needs.
pub(crate) fn storage<'a>(s: &mut String, o: &'a Objects, sym: &Symbols<'a>) {
    for x in &o.queues {
        let _ = writeln!(s, "uk_queue_t {};", sym.object(&x.name));
        let _ = writeln!(
            s,
            "static uint32_t uk__gen_queue_{}[{}] {ALIGNED};",
            x.name,
            words(x.kind.buffer_bytes())
        );
    }
}

/// The descriptor table of `[queue.NAME]`.
pub(crate) fn table<'a>(s: &mut String, o: &'a Objects, sym: &Symbols<'a>) {
    descriptor_table(
        s,
        "queue",
        "    uk_queue_t *queue;\n    void *buf;\n    uint32_t buf_bytes;\n    \
         uint32_t msg_bytes; /* fixed: the size; variable: the largest */\n    uint32_t capacity;\n    \
         const char *name;\n    uint32_t line;\n    uint8_t variable;\n",
        &o.queues
            .iter()
            .map(|x| {
                let (msg, capacity, variable) = match x.kind {
                    QueueKind::Fixed {
                        msg_bytes,
                        capacity,
                    } => (msg_bytes, capacity, 0),
                    QueueKind::Variable {
                        max_msg_bytes,
                        capacity,
                    } => (max_msg_bytes, capacity, 1),
                };
                format!(
                    "&{}, uk__gen_queue_{1}, sizeof uk__gen_queue_{1}, {msg}, {capacity}, {2}, {variable}",
                    sym.object(&x.name),
                    x.name,
                    name_line(&x.name, x.at.line)
                )
            })
            .collect::<Vec<_>>(),
    );
}

/// The loop that creates the queues, of fixed or variable message size.
pub(crate) fn create(s: &mut String, o: &Objects) {
    if !o.queues.is_empty() {
        let var = o
            .queues
            .iter()
            .any(|q| matches!(q.kind, QueueKind::Variable { .. }));
        let fixed = o
            .queues
            .iter()
            .any(|q| matches!(q.kind, QueueKind::Fixed { .. }));
        let init_var = check(
            "uk_queue_init_var(d->queue, d->buf, d->buf_bytes, d->msg_bytes)",
            "uk_queue_init_var",
        );
        let init = check(
            "uk_queue_init(d->queue, d->buf, d->msg_bytes, d->capacity)",
            "uk_queue_init",
        );
        let body = match (var, fixed) {
            (true, true) => {
                format!("        if (d->variable)\n    {init_var}        else\n    {init}")
            }
            (true, false) => init_var,
            _ => init,
        };
        walk(s, "queue", &body);
    }
}
