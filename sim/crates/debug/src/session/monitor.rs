//! GDB's `monitor` commands (docs/debugging.md, "Monitor commands"): the core's counters,
//! the run's counts, reset, the kernel's task table, and input for the bench: bytes typed
//! into the UART, a GPIO input pin driven, a stimulus line raised. An input is given at the
//! position the machine stands at and acts when the run goes on, through the device's own
//! path (as the machine file's scripted input would at that cycle), so it is in the IO
//! record; the session keeps it, so that replays from a snapshot (reverse execution) give it
//! again at its position. `monitor reset` drops the inputs given.

use super::Session;
use crate::history::PAGE;
use machine::dev::uart::host::HOST_QUEUE;
use machine::Machine;
use observe::tasktable::task_table;

/// GPIO input pins (`IO.GPIO_IN`) and stimulus lines (the fast lines).
const GPIO_PINS: u32 = 32;
const STIMULUS_LINES: u32 = 15;

/// An input a monitor command gives the machine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    Uart(Vec<u8>),
    Gpio(u8, bool),
    Stimulus(u8),
}

impl Input {
    /// Gives it to the machine (at the cycle it stands at).
    pub fn apply(&self, m: &mut Machine) {
        match self {
            // The room was checked when it was given; a replay has the same.
            Input::Uart(b) => {
                let _ = m.type_uart(b);
            }
            Input::Gpio(pin, level) => m.drive_gpio(*pin, *level),
            Input::Stimulus(line) => m.raise_stimulus(*line),
        }
    }
}

const HELP: &str = "monitor commands:\n\
  cycles             the core's counters and simulated time\n\
  stats              the run's counts so far\n\
  reset              back to reset: the same run replays (inputs given here are dropped)\n\
  tasks              the kernel's tasks: name, state, priority, what each waits on, stack use\n\
  uart rx TEXT       bytes into the UART's receive line (escapes \\n \\r \\t \\0 \\\\ \\xHH)\n\
  gpio PIN LEVEL     drive GPIO input pin PIN (0 to 31) to LEVEL (0 or 1)\n\
  stimulus LINE      raise stimulus line LINE (0 to 14), as a [[stimulus]] event\n\
  help               this list\n\
(an input acts when the run goes on, at the cycle the machine stands at)";

/// TEXT with its escapes replaced by the bytes they stand for.
pub fn unescape(text: &str) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    let mut it = text.bytes();
    while let Some(b) = it.next() {
        if b != b'\\' {
            out.push(b);
            continue;
        }
        let bad = |e: &str| {
            format!(
                "uart rx: unknown escape \"\\{e}\" in TEXT (expected \\n, \\r, \\t, \\0, \\\\ or \\xHH)"
            )
        };
        match it.next() {
            Some(b'n') => out.push(b'\n'),
            Some(b'r') => out.push(b'\r'),
            Some(b't') => out.push(b'\t'),
            Some(b'0') => out.push(0),
            Some(b'\\') => out.push(b'\\'),
            Some(b'x') => {
                let hex: Vec<u8> = it.by_ref().take(2).collect();
                let h = std::str::from_utf8(&hex).unwrap_or("");
                match u8::from_str_radix(h, 16) {
                    Ok(v) if h.len() == 2 => out.push(v),
                    _ => return Err(bad(&format!("x{h}"))),
                }
            }
            Some(c) => return Err(bad(&(c as char).to_string())),
            None => return Err(bad("")),
        }
    }
    Ok(out)
}

/// `WORD` as a number below `limit`.
fn number(word: &str, limit: u32) -> Option<u8> {
    word.parse::<u32>()
        .ok()
        .filter(|&n| n < limit)
        .map(|n| n as u8)
}

impl Session {
    pub(super) fn monitor(&mut self, raw: &str) -> String {
        let cmd = raw.trim();
        let mut words = cmd.split_whitespace();
        match words.next().unwrap_or("") {
            "cycles" => self.cycles(),
            "stats" => self.stats(),
            "reset" => self.reset_machine(),
            "tasks" => self.tasks(),
            "uart" => match words.next() {
                Some("rx") => {
                    let text = cmd["uart".len()..].trim_start()["rx".len()..].trim_start();
                    self.uart_rx(text)
                }
                _ => "usage: monitor uart rx TEXT (bytes into the UART's receive line)".into(),
            },
            "gpio" => match (words.next(), words.next(), words.next()) {
                (Some(pin), Some(level), None) => self.gpio(pin, level),
                _ => "usage: monitor gpio PIN LEVEL (PIN 0 to 31, LEVEL 0 or 1)".into(),
            },
            "stimulus" => match (words.next(), words.next()) {
                (Some(line), None) => self.stimulus(line),
                _ => "usage: monitor stimulus LINE (a fast line, 0 to 14)".into(),
            },
            "" | "help" => HELP.into(),
            _ => format!("unknown monitor command \"{cmd}\" (try: monitor help)"),
        }
    }

    fn cycles(&self) -> String {
        let h = &self.m.hart;
        format!(
            "cycle {} mcycle {} instret {} time {:.9} s position {}",
            h.cycle,
            h.counter(0),
            h.instret,
            self.m.bus.clock.time_s(h.cycle),
            self.pos
        )
    }

    fn stats(&mut self) -> String {
        let c = self.m.counts();
        let mut s = format!(
            "cycles {}\nmcycle {}\ninstret {}\nslept {}\nsim_time_s {:.9}\n",
            c.cycles, c.mcycle, c.instret, self.m.hart.slept, c.sim_time_s
        );
        for (i, t) in c.opp_time_s.iter().enumerate() {
            s += &format!("opp{i}_time_s {t:.9}\n");
        }
        let (pages, bytes) = self.history.ram_pages();
        s += &format!(
            "io_events {}\nsnapshots {} ({} KiB of RAM: {} pages of {} KiB; the machine has {} KiB)\n\
             pages_written_since_snapshot {}",
            self.m.record().len(),
            self.history.len(),
            bytes / 1024,
            pages,
            PAGE / 1024,
            self.m.bus.ram.len() / 1024,
            self.history.dirty.len()
        );
        s
    }

    fn reset_machine(&mut self) -> String {
        let seen = self.live_tid();
        self.high = self.high.max(self.pos);
        let dropped = self.inputs.len();
        if let Some(&(first, _)) = self.inputs.first() {
            // The run from the first input on was not the firmware's own: its snapshots go,
            // and what it printed is printed again as the run without the inputs goes.
            self.history.truncate_from(first + 1);
            self.high = self.high.min(first);
            self.last_snapshot = self.last_snapshot.min(first);
            self.inputs.clear();
            self.next_input = 0;
        }
        self.go_to(0);
        self.step = None;
        self.stand_in = None;
        self.reset = true;
        if self.live_tid() != seen {
            self.stand_in = Some(seen);
        }
        let mut s = String::from(
            "machine back at reset (cycle counts from 0; the console resumes where it stopped)",
        );
        if dropped > 0 {
            s += &format!("; the {dropped} input(s) given by monitor commands are dropped");
        }
        s
    }

    /// Records `input`, given now: it acts when the run goes on. The future it changes is
    /// dropped (the snapshots after this position, the inputs given after it).
    fn give(&mut self, input: Input) {
        let pos = self.pos;
        let keep = self.inputs.partition_point(|e| e.0 <= pos);
        self.inputs.truncate(keep);
        self.next_input = self.next_input.min(keep);
        self.inputs.push((pos, input));
        self.history.truncate_from(pos + 1);
        self.last_snapshot = self.last_snapshot.min(pos);
        self.high = pos;
        self.altered = true;
        self.unmute();
    }

    fn uart_rx(&mut self, text: &str) -> String {
        let bytes = match unescape(text) {
            Ok(b) if b.is_empty() => {
                return "usage: monitor uart rx TEXT (TEXT: at least one byte)".into()
            }
            Ok(b) => b,
            Err(e) => return e,
        };
        let (baud, fifo, queued) = self.m.bus.dev.uart.rx_line();
        let waiting: usize = self.inputs[self.next_input..]
            .iter()
            .map(|(_, i)| match i {
                Input::Uart(b) => b.len(),
                _ => 0,
            })
            .sum();
        let room = HOST_QUEUE.saturating_sub(queued + waiting);
        if bytes.len() > room {
            return format!(
                "uart rx: {} bytes do not fit: the receive line holds {HOST_QUEUE} bytes on their \
                 way and has room for {room} (continue, so that the firmware reads some)",
                bytes.len()
            );
        }
        let n = bytes.len();
        self.give(Input::Uart(bytes));
        format!(
            "uart rx: {n} byte(s) on the receive line at cycle {}: they arrive a byte time apart \
             ({baud} baud) when the run goes on; one arriving while the {fifo}-byte FIFO is \
             full is lost (RX_OVERRUN)",
            self.m.hart.cycle
        )
    }

    fn gpio(&mut self, pin: &str, level: &str) -> String {
        let Some(p) = number(pin, GPIO_PINS) else {
            let lines: Vec<String> = (0..GPIO_PINS as u8)
                .filter_map(|p| self.m.gpio_line(p).map(|l| format!("{p} (line {l})")))
                .collect();
            return format!(
                "gpio: there is no input pin \"{pin}\": the GPIO input pins are 0 to 31{}",
                if lines.is_empty() {
                    "; none has a line (a [[io.pin]] of the machine file with `line`)".into()
                } else {
                    format!("; with a line: {}", lines.join(", "))
                }
            );
        };
        let lv = match level {
            "0" => false,
            "1" => true,
            _ => return format!("gpio: level \"{level}\": expected 0 or 1"),
        };
        let line = self.m.gpio_line(p);
        self.give(Input::Gpio(p, lv));
        format!(
            "gpio: input pin {p} driven to {} at cycle {} when the run goes on; {}",
            lv as u8,
            self.m.hart.cycle,
            match line {
                Some(l) => format!("an edge the firmware enabled latches line {l}"),
                None => "it has no line (only a [[io.pin]] with `line` interrupts)".into(),
            }
        )
    }

    fn stimulus(&mut self, line: &str) -> String {
        let Some(l) = number(line, STIMULUS_LINES) else {
            return format!(
                "stimulus: there is no line \"{line}\": the stimulus lines are the fast lines 0 to 14"
            );
        };
        self.give(Input::Stimulus(l));
        format!(
            "stimulus: line {l} raised at cycle {} when the run goes on (latched in PENDING; \
             it interrupts once enabled)",
            self.m.hart.cycle
        )
    }

    fn tasks(&self) -> String {
        let Some(k) = &self.kernel else {
            return "tasks: no task list (bare metal, or a kernel without uk_debug_info version 3 \
                    or later)"
                .into();
        };
        let rows = task_table(&k.info, &self.m.bus, self.m.hart.x[2]);
        if rows.is_empty() {
            return "tasks: none yet (the kernel has created no task)".into();
        }
        let mut s = format!(
            "{:<16} {:<20} {:>4}  {:<28} {}\n",
            "task", "state", "prio", "waits on", "stack (bytes used now / size, range)"
        );
        for t in &rows {
            let wait = match &t.wait {
                Some(w) => format!("{} {}", w.kind, w.name),
                None if k.info.waits.is_none() => "?".into(),
                None => "-".into(),
            };
            let stack = match t.stack {
                Some(st) => format!(
                    "{}/{} 0x{:08x}-0x{:08x}",
                    st.used.map_or("?".into(), |u| u.to_string()),
                    st.bytes,
                    st.base,
                    st.base.wrapping_add(st.bytes)
                ),
                None => "?".into(),
            };
            s += &format!(
                "{:<16} {:<20} {:>4}  {:<28} {}\n",
                t.name,
                t.state_text(),
                t.prio,
                wait,
                stack
            );
        }
        s += if k.info.waits.is_some() {
            "(stack use: the current depth; Ubik does not fill stacks, so there is no high-water mark)"
        } else {
            "(uk_debug_info before version 4: what tasks wait on and their stacks are not known)"
        };
        s
    }
}

#[cfg(test)]
mod tests {
    use super::unescape;

    #[test]
    fn escapes() {
        assert_eq!(unescape("a b\\n").unwrap(), b"a b\n");
        assert_eq!(
            unescape("\\r\\t\\0\\\\\\x41\\x7f").unwrap(),
            b"\r\t\0\\A\x7f"
        );
        for bad in ["\\q", "\\", "\\x4", "\\xzz"] {
            let e = unescape(bad).unwrap_err();
            assert!(e.starts_with("uart rx: unknown escape"), "{bad}: {e}");
        }
    }
}
