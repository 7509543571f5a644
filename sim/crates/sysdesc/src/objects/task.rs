//! `[task.NAME]`: a task, its entry, priority, stack, start state, argument, signal handler
//! and power class; created by `uk_task_create` and activated last, after every other object.

use std::fmt::Write as _;

use serde::Deserialize;
use toml::Spanned;

use super::{
    Arg, Decls, Kind, Objects, Resolver, Role, DEFAULT_STACK_BYTES, MAX_TICKS, MIN_STACK_BYTES,
};
use crate::gen_objects::{c_string, check, descriptor_table, section, walk, Symbols, ALIGNED};
use crate::{Location, R};

// ---------------------------------------------------------------------------------------------
// The model.

/// How a task starts: `Active` tasks are activated by `uk_init()` (they run once `uk_start()`
/// starts scheduling); `Suspended` ones are only created (the application or a timer
/// activates them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TaskStart {
    Active,
    Suspended,
}

/// A task's power class (`ubik/power.h`): which operating point a policy gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PowerClass {
    Normal,
    High,
    Low,
}

impl PowerClass {
    pub const ALL: [PowerClass; 3] = [PowerClass::Normal, PowerClass::High, PowerClass::Low];

    pub fn name(self) -> &'static str {
        match self {
            PowerClass::Normal => "normal",
            PowerClass::High => "high",
            PowerClass::Low => "low",
        }
    }

    /// The C enumerator of `ubik/power.h`.
    pub fn c_name(self) -> &'static str {
        match self {
            PowerClass::Normal => "UK_POWER_NORMAL",
            PowerClass::High => "UK_POWER_HIGH",
            PowerClass::Low => "UK_POWER_LOW",
        }
    }
}

/// `[task.NAME]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Task {
    pub name: String,
    pub at: Location,
    /// `void entry(void *arg)`, defined by the application.
    pub entry: String,
    pub priority: u8,
    pub stack_bytes: u32,
    /// Round-robin slice in ticks (`uk_task_set_slice`); `None`: `[kernel] timeslice_ticks`.
    pub slice: Option<u32>,
    pub start: TaskStart,
    pub arg: Arg,
    /// `void handler(uint32_t sigs)`: the task's signal handler (`uk_signal_handler`).
    pub signal: Option<String>,
    pub power_class: Option<PowerClass>,
}

// ---------------------------------------------------------------------------------------------
// As written.

#[derive(Deserialize)]
#[serde(
    deny_unknown_fields,
    expecting = "a task table: entry, priority, stack_bytes, ..."
)]
pub(crate) struct RawTask {
    entry: Option<Spanned<String>>,
    priority: Option<Spanned<i64>>,
    stack_bytes: Option<Spanned<i64>>,
    slice: Option<Spanned<i64>>,
    start: Option<Spanned<String>>,
    arg: Option<Spanned<toml::Value>>,
    signal: Option<Spanned<String>>,
    power_class: Option<Spanned<String>>,
}

impl RawTask {
    pub(crate) fn has_power_class(&self) -> bool {
        self.power_class.is_some()
    }
}

impl Kind for RawTask {
    const KIND: &'static str = "task";
}

// ---------------------------------------------------------------------------------------------
// Resolution and checks.

impl Resolver<'_, '_> {
    pub(super) fn task(&mut self, k: &Spanned<String>, t: RawTask, earlier: &[Task]) -> R<Task> {
        let name = k.get_ref().clone();
        let what = format!("task \"{name}\"");
        let entry = match &t.entry {
            Some(e) => self.function(e, "entry", Role::Entry)?,
            None => {
                return Err(self.missing(
                    k,
                    "task",
                    "entry",
                    "entry = \"function\", the task's void function(void *arg)",
                ))
            }
        };
        let sched = self.scheduler.name();
        let hi = self.lowest_prio as i64;
        let priority = match &t.priority {
            Some(p) => {
                let n = *p.get_ref();
                if !(0..=hi).contains(&n) {
                    return Err(self.err(
                        &p.span(),
                        format!("priority = {n} is out of range for scheduler \"{sched}\""),
                        format!(
                            "an integer from 0 (highest) to {hi} ({} is the idle task's)",
                            hi + 1
                        ),
                    ));
                }
                if self.scheduler.policy().unique_priorities {
                    if let Some(o) = earlier.iter().find(|o| o.priority as i64 == n) {
                        return Err(self.err(
                            &p.span(),
                            format!(
                                "priority = {n} is already task \"{}\"'s (line {})",
                                o.name, o.at.line
                            ),
                            format!("a priority unique among tasks with scheduler \"{sched}\""),
                        ));
                    }
                }
                n as u8
            }
            None => {
                return Err(self.missing(
                    k,
                    "task",
                    "priority",
                    &format!("priority = 0 (highest) to {hi}"),
                ))
            }
        };
        let stack_bytes = match &t.stack_bytes {
            Some(v) => self.bytes(v, "stack_bytes", MIN_STACK_BYTES, 4)?,
            None => DEFAULT_STACK_BYTES,
        };
        let slice = match &t.slice {
            Some(v) => Some(self.int(v, "slice", 1, MAX_TICKS, "a number of ticks")?),
            None => None,
        };
        let start = match &t.start {
            None => TaskStart::Active,
            Some(s) => match s.get_ref().as_str() {
                "active" => TaskStart::Active,
                "suspended" => TaskStart::Suspended,
                other => {
                    return Err(self.err(
                        &s.span(),
                        format!("start = \"{other}\" is not a start state of a task"),
                        "one of \"active\", \"suspended\"",
                    ))
                }
            },
        };
        let arg = match &t.arg {
            Some(v) => self.arg(v)?,
            None => Arg::None,
        };
        let signal = match &t.signal {
            Some(v) => {
                self.need(&v.span(), &format!("{what}'s signal handler"), &["signal"])?;
                Some(self.function(v, "signal", Role::Signal)?)
            }
            None => None,
        };
        let power_class = match &t.power_class {
            Some(v) => {
                let c = PowerClass::ALL
                    .into_iter()
                    .find(|c| c.name() == v.get_ref())
                    .ok_or_else(|| {
                        self.err(
                            &v.span(),
                            format!("power_class = \"{}\" is not a power class", v.get_ref()),
                            "one of \"normal\", \"high\", \"low\"",
                        )
                    })?;
                self.need(&v.span(), &format!("{what}'s power class"), &["power"])?;
                Some(c)
            }
            None => None,
        };
        Ok(Task {
            name,
            at: self.doc.loc(k.span().start),
            entry,
            priority,
            stack_bytes,
            slice,
            start,
            arg,
            signal,
            power_class,
        })
    }
}

impl Resolver<'_, '_> {
    /// Fails when the scheduler takes fewer tasks than are declared (its priorities are
    /// unique), naming the first task too many.
    pub(super) fn task_count(&self, d: &Decls<RawTask>) -> R<()> {
        let policy = self.scheduler.policy();
        let limit = if policy.unique_priorities {
            self.lowest_prio as usize + 1
        } else {
            usize::MAX
        };
        if d.0.len() > limit {
            let k = &d.0[limit].0;
            return Err(self.err(
                &k.span(),
                format!(
                    "task \"{}\" is task number {} besides the idle task",
                    k.get_ref(),
                    limit + 1
                ),
                format!(
                    "at most {} tasks with scheduler \"{}\", the idle task included ({} declared)",
                    limit + 1,
                    policy.name,
                    limit
                ),
            ));
        }
        Ok(())
    }
}

// ---------------------------------------------------------------------------------------------
// C emission.

/// The `extern` declarations in `uk_gen.h`.
pub(crate) fn declarations<'a>(s: &mut String, o: &'a Objects, sym: &Symbols<'a>) {
    section(
        s,
        "[task.*]",
        o.tasks
            .iter()
            .map(|t| {
                sym.decl(
                    "uk_task_t",
                    &t.name,
                    format!(
                        "{}(), priority {}, {}-byte stack, {}",
                        t.entry,
                        t.priority,
                        t.stack_bytes,
                        match t.start {
                            TaskStart::Active => "active",
                            TaskStart::Suspended => "suspended",
                        }
                    ),
                )
            })
            .collect(),
    );
}

/// The definitions in `uk_gen.c`, with the memory each needs.
pub(crate) fn storage<'a>(s: &mut String, o: &'a Objects, sym: &Symbols<'a>) {
    for x in &o.tasks {
        let _ = writeln!(s, "uk_task_t {};", sym.object(&x.name));
        let _ = writeln!(
            s,
            "static uint32_t uk__gen_stack_{}[{}] {ALIGNED};",
            x.name,
            x.stack_bytes / 4
        );
    }
}

/// The descriptor table of `[task.NAME]`.
pub(crate) fn table<'a>(s: &mut String, o: &'a Objects, sym: &Symbols<'a>) {
    descriptor_table(
        s,
        "task",
        "    uk_task_t *task;\n    const char *name; /* also its name in the kernel */\n    \
         void (*entry)(void *);\n    void *arg;\n    void *stack;\n    uint32_t stack_bytes;\n    \
         uint32_t slice; /* 0: [kernel] timeslice_ticks */\n    void (*signal)(uint32_t); /* or 0 */\n    \
         uint32_t line;\n    uint8_t priority;\n    uint8_t active; /* activated by uk_init() */\n    \
         uint8_t power_class; /* a uk_power_class_t, or 255: none set */\n",
        &o.tasks
            .iter()
            .map(|x| {
                let object = sym.object(&x.name);
                let name = c_string(&x.name);
                let entry = &x.entry;
                let arg = sym.arg(&x.arg);
                let stack = format!("uk__gen_stack_{}", x.name);
                let slice = x.slice.unwrap_or(0);
                let signal = x.signal.as_deref().unwrap_or("0");
                let line = x.at.line;
                let priority = x.priority;
                let active = u8::from(x.start == TaskStart::Active);
                let power_class = x.power_class.map_or("255", |c| c.c_name());
                format!(
                    "&{object}, {name}, {entry}, {arg}, {stack}, sizeof {stack}, {slice}, {signal}, \
                     {line}, {priority}, {active}, {power_class}"
                )
            })
            .collect::<Vec<_>>(),
    );
}

/// The loop that creates the tasks, with the settings some of them have.
pub(crate) fn create(s: &mut String, o: &Objects) {
    if !o.tasks.is_empty() {
        let mut body = check(
            "uk_task_create(d->task, d->name, d->entry, d->arg, d->priority, d->stack, d->stack_bytes)",
            "uk_task_create",
        );
        if o.tasks.iter().any(|t| t.slice.is_some()) {
            body.push_str("        if (d->slice != 0)\n    ");
            body.push_str(&check(
                "uk_task_set_slice(d->task, d->slice)",
                "uk_task_set_slice",
            ));
        }
        if o.tasks.iter().any(|t| t.signal.is_some()) {
            body.push_str("        if (d->signal != 0)\n    ");
            body.push_str(&check(
                "uk_signal_handler(d->task, d->signal)",
                "uk_signal_handler",
            ));
        }
        if o.tasks.iter().any(|t| t.power_class.is_some()) {
            body.push_str("        if (d->power_class != 255)\n    ");
            body.push_str(&check(
                "uk_task_set_power_class(d->task, (uk_power_class_t)d->power_class)",
                "uk_task_set_power_class",
            ));
        }
        walk(s, "task", &body);
    }
}

/// The second walk of the tasks' table, after every object exists: activating a task may run
/// nothing yet (`uk_start()` has not started scheduling), but its objects must be there.
pub(crate) fn activate(s: &mut String, o: &Objects) {
    if o.tasks.iter().any(|t| t.start == TaskStart::Active) {
        walk(
            s,
            "task",
            &format!(
                "        if (d->active)\n    {}",
                check("uk_task_activate(d->task)", "uk_task_activate")
            ),
        );
    }
}
