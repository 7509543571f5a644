//! Interrupt controller: fast lines 0..14 latch in PENDING when a source (a stimulus
//! generator, or a device through `Act::latch`) fires, or when software writes 1s to SET
//! (a software-raised line, as the Cortex-M NVIC's ISPR); software clears them by writing 1s
//! to ACK. Line i reaches the core while PENDING[i] and ENABLE[i] are both set. MSIP drives the
//! machine software interrupt. The stimulus generators (`[[stimulus]]`) are the controller's:
//! its events are theirs.

mod stimuli;

use super::{merge, Access, Act, Device, DeviceConfig, MIP_FAST, MIP_MSIP};
use crate::clock::Clock;
use crate::record::{IoEvent, IoKind};
use crate::stimulus::{StimulusConfig, StimulusGen};
use confread::{ConfigError, Doc};
use toml::Spanned;

pub use stimuli::RawStimulus;

pub const PENDING: u32 = 0x0;
pub const ENABLE: u32 = 0x4;
pub const ACK: u32 = 0x8;
pub const MSIP: u32 = 0xc;
pub const SET: u32 = 0x10;

pub const FAST_LINES: u32 = 15;
/// Number of fast interrupt lines (0..14; mcause 16 + line), as a machine file numbers them.
pub const FAST_IRQ_LINES: u8 = FAST_LINES as u8;
const LINE_MASK: u32 = (1 << FAST_LINES) - 1;

/// The controller's settings: its stimulus generators, `[[stimulus]]` at the top level of the
/// machine file (at most one per line). It has no table `[intc]`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct IntcConfig {
    pub stimuli: Vec<StimulusConfig>,
}

impl DeviceConfig for IntcConfig {
    const TABLE: bool = false;
    type Raw = serde::de::IgnoredAny;
    fn apply(&mut self, _raw: &Self::Raw, _cx: &Doc) -> Result<(), ConfigError> {
        Ok(())
    }
}

impl IntcConfig {
    /// Replaces the generators with the file's `[[stimulus]]` array. `fastest_hz` is the
    /// highest clock of the operating points: no period may be shorter than its cycle.
    pub fn apply_stimuli(
        &mut self,
        raw: &Spanned<Vec<Spanned<RawStimulus>>>,
        fastest_hz: u64,
        doc: &Doc,
    ) -> Result<(), ConfigError> {
        self.stimuli = stimuli::stimuli(doc, raw, fastest_hz)?;
        Ok(())
    }
}

#[derive(Clone, Debug, Default)]
pub struct Intc {
    pub pending: u32,
    pub enable: u32,
    pub msip: bool,
    /// The stimulus generators, in the machine file's order.
    stimuli: Vec<StimulusGen>,
    /// Stimulus events due in one `advance`, sorted into the IO record (kept to reuse its
    /// allocation): time, generator, line, event number.
    due_scratch: Vec<(u128, usize, u8, u64)>,
    /// Lines raised from outside the generators (a debugger's `monitor stimulus`), in
    /// order: the cycle, the line. Each acts as a generator's event then would.
    raised: std::collections::VecDeque<(u64, u8)>,
    /// Events raised so far on each line (their event numbers in the IO record).
    raised_count: [u32; FAST_LINES as usize],
}

impl Intc {
    /// Raises stimulus line `line` (0..14) at cycle `now` (a debugger's `monitor
    /// stimulus`), as a generator's event then would: latched in PENDING and recorded as a
    /// `stimulus` event, numbered from 0 on each line apart from any generator's.
    pub fn raise(&mut self, line: u8, now: u64) {
        self.raised.push_back((now, line % FAST_LINES as u8));
    }

    pub fn read(&self, reg: u32) -> Option<u32> {
        Some(match reg {
            PENDING => self.pending,
            ENABLE => self.enable,
            ACK | SET => 0,
            MSIP => self.msip as u32,
            _ => return None,
        })
    }

    pub fn write(&mut self, reg: u32, value: u32, mask: u32) -> Option<()> {
        match reg {
            PENDING => {} // read-only: only sources set it, only ACK clears it
            ENABLE => self.enable = merge(self.enable, value, mask) & LINE_MASK,
            ACK => self.pending &= !(value & mask),
            // Latches like a source: the line rises when the store completes and the machine
            // looks at the lines again (the write requests that).
            SET => self.pending |= value & mask & LINE_MASK,
            MSIP => {
                if mask & 1 != 0 {
                    self.msip = value & 1 != 0;
                }
            }
            _ => return None,
        }
        Some(())
    }
}

impl Device for Intc {
    const TITLE: &'static str = "interrupt controller and stimuli";
    const WINDOW: u32 = 0x1000;
    const LINES: u32 = MIP_FAST | MIP_MSIP;
    type Config = IntcConfig;

    /// `seed` is mixed into every random stimulus generator.
    fn build(own: &IntcConfig, seed: u64) -> Intc {
        Intc {
            stimuli: own
                .stimuli
                .iter()
                .map(|s| StimulusGen::new(s, seed))
                .collect(),
            ..Intc::default()
        }
    }

    fn read(&mut self, reg: u32, _cx: &mut Access) -> Option<u32> {
        Intc::read(self, reg)
    }

    fn write(&mut self, reg: u32, value: u32, mask: u32, cx: &mut Access) -> Option<()> {
        cx.sync();
        Intc::write(self, reg, value, mask)
    }

    /// The first cycle at or after the next stimulus event of any generator.
    fn next_event(&mut self, clock: &Clock) -> Option<u64> {
        self.stimuli
            .iter()
            .filter_map(|g| g.next_event_fs())
            .map(|t| clock.cycle_at(t))
            .chain(self.raised.front().map(|r| r.0))
            .min()
    }

    /// Fires every stimulus event due by `cx.now`: each generator's line latches once in
    /// PENDING however many of its events came due (a latched line is a level), and the line
    /// rises at its first event's cycle. The events are stored only when the IO record is on,
    /// in time order across generators (ties: the lower generator first).
    fn advance(&mut self, cx: &mut Act) {
        while let Some((c, line)) = self.raised.front().copied().filter(|r| r.0 <= cx.now) {
            self.raised.pop_front();
            cx.latch(line, || c);
            let n = &mut self.raised_count[line as usize];
            if let Some(record) = cx.record.as_deref_mut() {
                record.push(IoEvent {
                    cycle: c,
                    time_fs: cx.clock.time_fs(c),
                    kind: IoKind::Stimulus,
                    port: line as u32,
                    value: *n,
                });
            }
            *n += 1;
        }
        let until = cx.clock.time_fs(cx.now);
        let recording = cx.record.is_some();
        let mut due = std::mem::take(&mut self.due_scratch);
        for (i, g) in self.stimuli.iter_mut().enumerate() {
            let line = g.line();
            let fired = if recording {
                g.fire_until(until, Some(&mut |n, t| due.push((t, i, line, n))))
            } else {
                g.fire_until(until, None)
            };
            let Some((first, _)) = fired else { continue };
            let clock = cx.clock;
            cx.latch(line, || clock.cycle_at(first));
        }
        if let Some(record) = cx.record.as_deref_mut() {
            due.sort_by_key(|&(t, i, _, _)| (t, i));
            for &(t, _, line, n) in &due {
                let c = cx.clock.cycle_at(t);
                record.push(IoEvent {
                    cycle: c,
                    time_fs: cx.clock.time_fs(c),
                    kind: IoKind::Stimulus,
                    port: line as u32,
                    value: n as u32,
                });
            }
        }
        due.clear();
        self.due_scratch = due;
    }

    fn lines(&self) -> u32 {
        (self.pending & self.enable) << 16 | if self.msip { MIP_MSIP } else { 0 }
    }

    /// The lines of generators with an event to come (whether ENABLE lets them through is
    /// the machine's to check).
    fn wakes(&self) -> u32 {
        let raised = self.raised.iter().map(|r| r.1);
        self.stimuli
            .iter()
            .filter(|g| g.next_event_fs().is_some())
            .map(|g| g.line())
            .chain(raised)
            .fold(0, |m, line| m | 1 << (16 + line as u32))
    }
}
