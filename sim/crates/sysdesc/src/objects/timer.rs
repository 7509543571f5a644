//! `[timer.NAME]`: a timer and its action (call a function in the timer HISR, activate a
//! task, or set event flags), started by `uk_init()` with a delay and period or left stopped.

use std::fmt::Write as _;

use serde::Deserialize;
use toml::Spanned;

use super::{Arg, Kind, Objects, Resolver, Role, MAX_TICKS};
use crate::gen_objects::{check, descriptor_table, name_line, section, walk, Symbols};
use crate::{Location, R};

// ---------------------------------------------------------------------------------------------
// The model.

/// What a timer does when it expires.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TimerAction {
    /// `void function(uk_timer_t *tm, void *arg)`, called in the kernel's timer HISR.
    Call { function: String, arg: Arg },
    /// Makes a declared task ready (activates it the first time, then resumes it).
    Activate { task: String },
    /// Sets `bits` in declared event flags.
    SetFlags { flags: String, bits: u32 },
}

/// `[timer.NAME]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Timer {
    pub name: String,
    pub at: Location,
    pub action: TimerAction,
    /// `Some((delay, period))`: started by `uk_init()` (first expiry `delay` ticks after the
    /// start, then every `period` ticks; 0 = one-shot). `None`: created stopped.
    pub start: Option<(u32, u32)>,
}

// ---------------------------------------------------------------------------------------------
// As written.

#[derive(Deserialize)]
#[serde(
    deny_unknown_fields,
    expecting = "a timer table: call, activate or flags, delay, period, start"
)]
pub(crate) struct RawTimer {
    call: Option<Spanned<String>>,
    arg: Option<Spanned<toml::Value>>,
    activate: Option<Spanned<String>>,
    flags: Option<Spanned<String>>,
    bits: Option<Spanned<i64>>,
    delay: Option<Spanned<i64>>,
    period: Option<Spanned<i64>>,
    start: Option<Spanned<String>>,
}

impl Kind for RawTimer {
    const KIND: &'static str = "timer";
}

// ---------------------------------------------------------------------------------------------
// Resolution and checks.

impl Resolver<'_, '_> {
    pub(super) fn timer(&mut self, k: &Spanned<String>, t: RawTimer) -> R<Timer> {
        let what = format!("timer \"{}\"", k.get_ref());
        self.need(&k.span(), &what, &["timer"])?;
        let actions: Vec<(&str, &Spanned<String>)> = [
            ("call", &t.call),
            ("activate", &t.activate),
            ("flags", &t.flags),
        ]
        .into_iter()
        .filter_map(|(n, v)| v.as_ref().map(|v| (n, v)))
        .collect();
        let expected_action = "one action: call = \"function\", activate = \"task\" or flags = \"flags\" with bits = N";
        match actions.as_slice() {
            [] => return Err(self.missing(k, "timer", "action", expected_action)),
            [_, (second, v), ..] => {
                return Err(self.err(
                    &v.span(),
                    format!("{what} has two actions, {} and {second}", actions[0].0),
                    expected_action,
                ))
            }
            [_] => {}
        }
        if let (Some(a), None) = (&t.arg, &t.call) {
            return Err(self.err(
                &a.span(),
                format!("arg of {what}, which calls no function"),
                "arg only with call = \"function\"",
            ));
        }
        if let (Some(b), None) = (&t.bits, &t.flags) {
            return Err(self.err(
                &b.span(),
                format!("bits of {what}, which sets no flags"),
                "bits only with flags = \"flags\"",
            ));
        }
        let action = if let Some(f) = &t.call {
            self.need(
                &f.span(),
                &format!("{what}'s function (run in the timer HISR)"),
                &["hisr"],
            )?;
            let function = self.function(f, "call", Role::TimerCall)?;
            let arg = match &t.arg {
                Some(v) => self.arg(v)?,
                None => Arg::None,
            };
            TimerAction::Call { function, arg }
        } else if let Some(task) = &t.activate {
            self.refs
                .push((task.span(), "activate", task.get_ref().clone(), "task"));
            TimerAction::Activate {
                task: task.get_ref().clone(),
            }
        } else {
            let f = t.flags.as_ref().expect("one action");
            self.need(&f.span(), &format!("{what} setting flags"), &["flags"])?;
            self.refs
                .push((f.span(), "flags", f.get_ref().clone(), "flags"));
            let bits = match &t.bits {
                Some(v) => self.int(v, "bits", 1, u32::MAX as i64, "a non-zero 32-bit mask")?,
                None => {
                    return Err(self.err(
                        &f.span(),
                        format!("{what} sets flags but has no bits"),
                        "bits = N, the non-zero mask to set",
                    ))
                }
            };
            TimerAction::SetFlags {
                flags: f.get_ref().clone(),
                bits,
            }
        };
        let running = match &t.start {
            None => true,
            Some(s) => match s.get_ref().as_str() {
                "running" => true,
                "stopped" => false,
                other => {
                    return Err(self.err(
                        &s.span(),
                        format!("start = \"{other}\" is not a start state of a timer"),
                        "one of \"running\", \"stopped\"",
                    ))
                }
            },
        };
        let start = if running {
            let delay = match &t.delay {
                Some(v) => self.int(v, "delay", 1, MAX_TICKS, "a number of ticks")?,
                None => {
                    return Err(self.missing(
                        k,
                        "timer",
                        "delay",
                        "delay = N, the ticks to its first expiry (or start = \"stopped\")",
                    ))
                }
            };
            let period = match &t.period {
                Some(v) => {
                    self.int(v, "period", 0, MAX_TICKS, "a number of ticks (0: one-shot)")?
                }
                None => 0,
            };
            Some((delay, period))
        } else {
            if let Some(v) = t.delay.as_ref().or(t.period.as_ref()) {
                return Err(self.err(
                    &v.span(),
                    format!("{what} starts stopped: the application starts it with its own delay and period"),
                    "no delay or period with start = \"stopped\" (or start = \"running\")",
                ));
            }
            None
        };
        Ok(Timer {
            name: k.get_ref().clone(),
            at: self.doc.loc(k.span().start),
            action,
            start,
        })
    }
}

// ---------------------------------------------------------------------------------------------
// C emission.

/// The `extern` declarations in `uk_gen.h`.
pub(crate) fn declarations<'a>(s: &mut String, o: &'a Objects, sym: &Symbols<'a>) {
    section(
        s,
        "[timer.*]",
        o.timers
            .iter()
            .map(|x| sym.decl("uk_timer_t", &x.name, String::new()))
            .collect(),
    );
}

/// The definitions in `uk_gen.c`, with the memory each needs.
pub(crate) fn storage<'a>(s: &mut String, o: &'a Objects, sym: &Symbols<'a>) {
    for x in &o.timers {
        let _ = writeln!(s, "uk_timer_t {};", sym.object(&x.name));
    }
}

/// The descriptor table of `[timer.NAME]`.
pub(crate) fn table<'a>(s: &mut String, o: &'a Objects, sym: &Symbols<'a>) {
    descriptor_table(
        s,
        "timer",
        "    uk_timer_t *timer;\n    void (*call)(uk_timer_t *, void *);\n    void *arg;\n    \
         uk_task_t *task;\n    uk_flags_t *flags;\n    uint32_t bits;\n    uint32_t delay;\n    \
         uint32_t period;\n    const char *name;\n    uint32_t line;\n    \
         uint8_t action; /* 0: call, 1: activate task, 2: set flags */\n    \
         uint8_t running; /* started by uk_init() */\n",
        &o.timers
            .iter()
            .map(|x| {
                let action = match &x.action {
                    TimerAction::Call { function, arg } => {
                        (0, format!("{function}, {}, 0, 0, 0", sym.arg(arg)))
                    }
                    TimerAction::Activate { task } => {
                        (1, format!("0, 0, &{}, 0, 0", sym.object(task)))
                    }
                    TimerAction::SetFlags { flags, bits } => {
                        (2, format!("0, 0, 0, &{}, 0x{bits:x}u", sym.object(flags)))
                    }
                };
                let (running, delay, period) = match x.start {
                    Some((delay, period)) => (1, delay, period),
                    None => (0, 0, 0),
                };
                format!(
                    "&{}, {}, {delay}, {period}, {}, {}, {running}",
                    sym.object(&x.name),
                    action.1,
                    name_line(&x.name, x.at.line),
                    action.0
                )
            })
            .collect::<Vec<_>>(),
    );
}

/// The loop that creates the timers, by the action each takes.
pub(crate) fn create(s: &mut String, o: &Objects) {
    if !o.timers.is_empty() {
        let mut arms = Vec::new();
        for (action, call) in [
            (
                0,
                check("uk_timer_init(d->timer, d->call, d->arg)", "uk_timer_init"),
            ),
            (
                1,
                check(
                    "uk_timer_init_task(d->timer, d->task)",
                    "uk_timer_init_task",
                ),
            ),
            (
                2,
                check(
                    "uk_timer_init_flags(d->timer, d->flags, d->bits)",
                    "uk_timer_init_flags",
                ),
            ),
        ] {
            let used = o.timers.iter().any(|t| {
                matches!(
                    (&t.action, action),
                    (TimerAction::Call { .. }, 0)
                        | (TimerAction::Activate { .. }, 1)
                        | (TimerAction::SetFlags { .. }, 2)
                )
            });
            if used {
                arms.push((action, call));
            }
        }
        let body = if arms.len() == 1 {
            arms.remove(0).1
        } else {
            let mut b = String::new();
            for (i, (action, call)) in arms.iter().enumerate() {
                if i + 1 < arms.len() {
                    let _ = write!(
                        b,
                        "        {}if (d->action == {action})\n    {call}",
                        if i == 0 { "" } else { "else " }
                    );
                } else {
                    let _ = write!(b, "        else\n    {call}");
                }
            }
            b
        };
        walk(s, "timer", &body);
    }
}

/// The walk that starts the timers `uk_init()` starts, last: a timer expiring into a task
/// or flags needs them created.
pub(crate) fn start(s: &mut String, o: &Objects) {
    if o.timers.iter().any(|t| t.start.is_some()) {
        walk(
            s,
            "timer",
            &format!(
                "        if (d->running)\n    {}",
                check(
                    "uk_timer_start(d->timer, d->delay, d->period)",
                    "uk_timer_start"
                )
            ),
        );
    }
}
