//! `[interrupt.NAME]`: a handler of a fast interrupt line, its LISR (`uk_irq_install`) and
//! optional HISR, the object `uk_hisr_t NAME` with its own stack (`uk_hisr_create`).

use std::fmt::Write as _;

use serde::Deserialize;
use toml::Spanned;

use super::{Kind, Objects, Resolver, Role, HISR_PRIOS, MAX_LINE, MIN_STACK_BYTES};
use crate::gen_objects::{
    c_string, check, descriptor_table, name_line, section, walk, Symbols, ALIGNED,
};
use crate::{Location, R};

// ---------------------------------------------------------------------------------------------
// The model.

/// The HISR of an interrupt handler: the object `uk_hisr_t NAME`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hisr {
    /// `void function(uk_hisr_t *h)`.
    pub function: String,
    pub priority: u8,
    pub stack_bytes: u32,
}

/// `[interrupt.NAME]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Interrupt {
    pub name: String,
    pub at: Location,
    /// Fast interrupt line 0..14.
    pub line: u8,
    /// `void lisr(unsigned line)`, installed with `uk_irq_install`.
    pub lisr: String,
    pub hisr: Option<Hisr>,
}

// ---------------------------------------------------------------------------------------------
// As written.

#[derive(Deserialize)]
#[serde(
    deny_unknown_fields,
    expecting = "an interrupt table: line, lisr, hisr, hisr_priority, hisr_stack_bytes"
)]
pub(crate) struct RawInterrupt {
    line: Option<Spanned<i64>>,
    lisr: Option<Spanned<String>>,
    hisr: Option<Spanned<String>>,
    hisr_priority: Option<Spanned<i64>>,
    hisr_stack_bytes: Option<Spanned<i64>>,
}

impl RawInterrupt {
    /// Whether it declares a HISR, the one part of an interrupt that is a C object.
    pub(crate) fn has_hisr(&self) -> bool {
        self.hisr.is_some()
    }
}

impl Kind for RawInterrupt {
    const KIND: &'static str = "interrupt";
}

// ---------------------------------------------------------------------------------------------
// Resolution and checks.

impl Resolver<'_, '_> {
    pub(super) fn interrupt(
        &mut self,
        k: &Spanned<String>,
        i: RawInterrupt,
        earlier: &[Interrupt],
    ) -> R<Interrupt> {
        let what = format!("interrupt \"{}\"", k.get_ref());
        let line = match &i.line {
            Some(v) => {
                let n = self.int(v, "line", 0, MAX_LINE, "a fast interrupt line")? as u8;
                if let Some(o) = earlier.iter().find(|o| o.line == n) {
                    return Err(self.err(
                        &v.span(),
                        format!(
                            "line = {n} is already interrupt \"{}\"'s (line {})",
                            o.name, o.at.line
                        ),
                        "one handler per fast interrupt line",
                    ));
                }
                n
            }
            None => {
                return Err(self.missing(
                    k,
                    "interrupt",
                    "line",
                    "line = 0..14, its fast interrupt line",
                ))
            }
        };
        let lisr = match &i.lisr {
            Some(v) => self.function(v, "lisr", Role::Lisr)?,
            None => {
                return Err(self.missing(
                    k,
                    "interrupt",
                    "lisr",
                    "lisr = \"function\", its void function(unsigned line)",
                ))
            }
        };
        let hisr = match &i.hisr {
            Some(h) => {
                self.need(&h.span(), &format!("{what}'s HISR"), &["hisr"])?;
                let function = self.function(h, "hisr", Role::Hisr)?;
                let priority = match &i.hisr_priority {
                    Some(v) => self.int(
                        v,
                        "hisr_priority",
                        0,
                        HISR_PRIOS - 1,
                        "a HISR level (0 highest)",
                    )? as u8,
                    None => 0,
                };
                let stack_bytes = match &i.hisr_stack_bytes {
                    Some(v) => self.bytes(v, "hisr_stack_bytes", MIN_STACK_BYTES, 4)?,
                    None => {
                        return Err(self.err(
                            &h.span(),
                            format!("{what} has a HISR without a stack"),
                            format!(
                            "hisr_stack_bytes = N (at least {MIN_STACK_BYTES}, a multiple of 4)"
                        ),
                        ))
                    }
                };
                Some(Hisr {
                    function,
                    priority,
                    stack_bytes,
                })
            }
            None => {
                if let Some(v) = i.hisr_priority.as_ref().or(i.hisr_stack_bytes.as_ref()) {
                    return Err(self.err(
                        &v.span(),
                        format!("{what} has HISR settings but no HISR"),
                        "hisr = \"function\" with them, or neither",
                    ));
                }
                None
            }
        };
        Ok(Interrupt {
            name: k.get_ref().clone(),
            at: self.doc.loc(k.span().start),
            line,
            lisr,
            hisr,
        })
    }
}

// ---------------------------------------------------------------------------------------------
// C emission.

/// The `extern` declarations in `uk_gen.h`.
pub(crate) fn declarations<'a>(s: &mut String, o: &'a Objects, sym: &Symbols<'a>) {
    section(
        s,
        "[interrupt.*]: the HISRs (an interrupt without one has no object)",
        o.interrupts
            .iter()
            .filter_map(|x| {
                x.hisr.as_ref().map(|h| {
                    sym.decl(
                        "uk_hisr_t",
                        &x.name,
                        format!("line {}, {}(), level {}", x.line, h.function, h.priority),
                    )
                })
            })
            .collect(),
    );
}

/// The definitions in `uk_gen.c`, with the memory each needs.
pub(crate) fn storage<'a>(s: &mut String, o: &'a Objects, sym: &Symbols<'a>) {
    for x in &o.interrupts {
        if let Some(h) = &x.hisr {
            let _ = writeln!(s, "uk_hisr_t {};", sym.object(&x.name));
            let _ = writeln!(
                s,
                "static uint32_t uk__gen_hisr_stack_{}[{}] {ALIGNED};",
                x.name,
                h.stack_bytes / 4
            );
        }
    }
}

/// The interrupts that have a HISR, each with it.
pub(crate) fn hisrs(o: &Objects) -> Vec<(&Interrupt, &Hisr)> {
    o.interrupts
        .iter()
        .filter_map(|x| x.hisr.as_ref().map(|h| (x, h)))
        .collect()
}

/// The descriptor table of the HISRs of `[interrupt.NAME]`.
pub(crate) fn hisr_table<'a>(s: &mut String, o: &'a Objects, sym: &Symbols<'a>) {
    let hisrs = hisrs(o);
    descriptor_table(
        s,
        "hisr",
        "    uk_hisr_t *hisr;\n    const char *name; /* also its name in the kernel */\n    \
         void (*entry)(uk_hisr_t *);\n    void *stack;\n    uint32_t stack_bytes;\n    uint32_t line;\n    \
         uint8_t priority;\n",
        &hisrs
            .iter()
            .map(|(x, h)| {
                let object = sym.object(&x.name);
                let name = c_string(&x.name);
                let entry = &h.function;
                let stack = format!("uk__gen_hisr_stack_{}", x.name);
                let line = x.at.line;
                let priority = h.priority;
                format!("&{object}, {name}, {entry}, {stack}, sizeof {stack}, {line}, {priority}")
            })
            .collect::<Vec<_>>(),
    );
}

/// The descriptor table of `[interrupt.NAME]`, and the interrupts' names by line.
pub(crate) fn irq_table(s: &mut String, o: &Objects) {
    descriptor_table(
        s,
        "irq",
        "    unsigned number; /* the fast interrupt line */\n    void (*lisr)(unsigned);\n    \
         const char *name;\n    uint32_t line;\n",
        &o.interrupts
            .iter()
            .map(|x| format!("{}, {}, {}", x.line, x.lisr, name_line(&x.name, x.at.line)))
            .collect::<Vec<_>>(),
    );
    if !o.interrupts.is_empty() {
        // Not static: the testbed reads it from the ELF (`ubik build` keeps it linked).
        s.push_str(
            "\n/* The interrupts' names by fast line, for the testbed's trace (docs/observe.md). */\n\
             extern const char *const uk__gen_irq_names[15];\nconst char *const uk__gen_irq_names[15] = {",
        );
        for x in &o.interrupts {
            let _ = write!(s, " [{}] = {},", x.line, c_string(&x.name));
        }
        s.push_str(" };\n");
    }
}

/// The loop of `uk__gen_init` that creates the HISRs.
pub(crate) fn create(s: &mut String, o: &Objects) {
    if !hisrs(o).is_empty() {
        walk(
            s,
            "hisr",
            &check(
                "uk_hisr_create(d->hisr, d->name, d->entry, d->priority, d->stack, d->stack_bytes)",
                "uk_hisr_create",
            ),
        );
    }
}

/// The walk that installs the LISRs, after the HISRs they may activate exist.
pub(crate) fn install(s: &mut String, o: &Objects) {
    if !o.interrupts.is_empty() {
        walk(
            s,
            "irq",
            &check("uk_irq_install(d->number, d->lisr)", "uk_irq_install"),
        );
    }
}
