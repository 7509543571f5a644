//! UART: a serial port with a one-byte transmit holding register in front of the shift
//! register, and a receive FIFO fed by a script (the machine file's `[uart]`: a file sent at a
//! time, and timed strings). A byte takes 10 bit times on the line (start, 8 data, stop) at
//! `baud`; it is sent (to the console and the IO record) when its stop bit ends, and
//! received when its stop bit arrives. With its interrupt enables set, a byte received or
//! the holding register emptying latches fast line `irq_line` of the interrupt controller.
//! Besides the script, an interactive host line (`host`) may feed the receive FIFO.

pub mod host;

use super::{merge, Access, Act, Device, DeviceConfig};
use crate::clock::{Clock, FS_PER_S};
use confread::{ConfigError, Doc};
use crate::record::{IoEvent, IoKind};
use serde::Deserialize;
use std::collections::VecDeque;
use std::sync::Arc;
use toml::Spanned;

pub const TXDATA: u32 = 0x00;
pub const RXDATA: u32 = 0x04;
pub const STATUS: u32 = 0x08;
pub const CTRL: u32 = 0x0c;
pub const BAUD: u32 = 0x10;

/// STATUS bits.
pub const RX_VALID: u32 = 1 << 0;
pub const TX_READY: u32 = 1 << 1;
pub const TX_IDLE: u32 = 1 << 2;
pub const RX_OVERRUN: u32 = 1 << 3;
pub const TX_OVERRUN: u32 = 1 << 4;
/// RXDATA when the FIFO is empty.
pub const RX_EMPTY: u32 = 1 << 31;
/// CTRL bits.
pub const RX_IRQ: u32 = 1 << 0;
pub const TX_IRQ: u32 = 1 << 1;

const MAX_BAUD: i64 = 100_000_000;
const MAX_FIFO: i64 = 4096;

/// Bytes arriving from `at_us` on, back to back. The bytes are shared, not copied, by
/// copies of the configuration and of the machine (an `rx_file` may hold 64 MiB).
#[derive(Clone, Debug, PartialEq)]
pub struct RxChunk {
    pub at_us: f64,
    pub bytes: Arc<[u8]>,
}

/// `[uart]` in the machine file.
#[derive(Clone, Debug, PartialEq)]
pub struct UartConfig {
    /// Bits per second; 0: a byte takes no time.
    pub baud: u32,
    /// The fast line its interrupts latch (0..14).
    pub irq_line: u8,
    /// Bytes the receive FIFO holds.
    pub rx_fifo: u32,
    /// Whether sent bytes go to the console (else only to the IO record).
    pub tx_console: bool,
    /// What arrives on the receive line, in start order.
    pub rx: Vec<RxChunk>,
}

impl Default for UartConfig {
    fn default() -> UartConfig {
        UartConfig {
            baud: 115_200,
            irq_line: 14,
            rx_fifo: 16,
            tx_console: true,
            rx: Vec::new(),
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawUart {
    baud: Option<Spanned<i64>>,
    irq_line: Option<Spanned<i64>>,
    rx_fifo: Option<Spanned<i64>>,
    tx: Option<Spanned<String>>,
    rx_file: Option<Spanned<String>>,
    rx_start_us: Option<Spanned<f64>>,
    rx: Option<Vec<RawRx>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawRx {
    at_us: Option<Spanned<f64>>,
    text: Option<Spanned<String>>,
    bytes: Option<Spanned<Vec<i64>>>,
}

/// `cx.int_range` with the expectation `KEY = an integer from LO to HI`.
fn int_in(v: &Spanned<i64>, key: &str, lo: i64, hi: i64, cx: &Doc) -> Result<i64, ConfigError> {
    cx.int_range(v, key, lo, hi, &format!("{key} = an integer from {lo} to {hi}"))
}

fn time_us(v: &Spanned<f64>, key: &str, cx: &Doc) -> Result<f64, ConfigError> {
    let t = *v.get_ref();
    if !(t.is_finite() && (0.0..=1e12).contains(&t)) {
        return Err(cx.err(
            &v.span(),
            format!("{key} = {t} is not a time"),
            format!("{key} = microseconds from 0 to 1e12"),
        ));
    }
    Ok(t)
}

impl DeviceConfig for UartConfig {
    const DEFAULT_TOML: &'static str = r#"[uart]
# The UART at 0x0008_0000: bits per second (a byte is 10 bits on the line; 0: no time).
baud = 115200
# The fast line (0 to 14) its receive and transmit interrupts latch.
irq_line = 14
# Bytes its receive FIFO holds (1 to 4096); a byte arriving when it is full is lost.
rx_fifo = 16
# Where sent bytes go besides the IO record: "console" (stdout, with SIMCTRL's bytes) or
# "record" (only the IO record: `ubik run --io`, `--uart-out FILE`).
tx = "console"
# What arrives on the receive line: a file's bytes from rx_start_us, and timed strings
# ([[uart.rx]] at_us, text or bytes); a chunk starts when the one before has ended.
# rx_file = "input.bin"
# rx_start_us = 0
# [[uart.rx]]
# at_us = 1000
# text = "hello\n"
"#;
    type Raw = RawUart;

    fn apply(&mut self, raw: &RawUart, cx: &Doc) -> Result<(), ConfigError> {
        if let Some(v) = &raw.baud {
            self.baud = int_in(v, "baud", 0, MAX_BAUD, cx)? as u32;
        }
        if let Some(v) = &raw.irq_line {
            self.irq_line = int_in(v, "irq_line", 0, 14, cx)? as u8;
        }
        if let Some(v) = &raw.rx_fifo {
            self.rx_fifo = int_in(v, "rx_fifo", 1, MAX_FIFO, cx)? as u32;
        }
        if let Some(t) = &raw.tx {
            self.tx_console = match t.get_ref().as_str() {
                "console" => true,
                "record" => false,
                other => {
                    return Err(cx.err(
                        &t.span(),
                        format!("unknown tx \"{other}\""),
                        "tx = \"console\" or \"record\"",
                    ))
                }
            };
        }
        let mut rx = Vec::new();
        if let Some(f) = &raw.rx_file {
            let (_, bytes) = cx.read_named_file_shared(f, "UART receive file")?;
            let at_us = match &raw.rx_start_us {
                Some(t) => time_us(t, "rx_start_us", cx)?,
                None => 0.0,
            };
            rx.push(RxChunk { at_us, bytes });
        } else if let Some(t) = &raw.rx_start_us {
            return Err(cx.err(
                &t.span(),
                "rx_start_us without rx_file",
                "rx_file = \"<file of bytes to receive>\" beside rx_start_us",
            ));
        }
        for r in raw.rx.iter().flatten() {
            let bytes = match (&r.text, &r.bytes) {
                (Some(t), None) => Arc::from(t.get_ref().as_bytes()),
                (None, Some(b)) => {
                    let mut out = Vec::new();
                    for &v in b.get_ref() {
                        if !(0..=255).contains(&v) {
                            return Err(cx.err(
                                &b.span(),
                                format!("byte {v} is out of range"),
                                "bytes = [integers from 0 to 255]",
                            ));
                        }
                        out.push(v as u8);
                    }
                    out.into()
                }
                (Some(t), Some(_)) => {
                    return Err(cx.err(
                        &t.span(),
                        "[[uart.rx]] with both text and bytes",
                        "one of text = \"...\" or bytes = [...]",
                    ))
                }
                (None, None) => {
                    let at = r.at_us.as_ref().map_or(0..0, |a| a.span());
                    return Err(cx.err(
                        &at,
                        "[[uart.rx]] without text or bytes",
                        "text = \"...\" or bytes = [...]",
                    ));
                }
            };
            let at_us = match &r.at_us {
                Some(t) => time_us(t, "at_us", cx)?,
                None => {
                    let s = r.text.as_ref().map(|t| t.span());
                    let s = s.or_else(|| r.bytes.as_ref().map(|b| b.span()));
                    return Err(cx.err(
                        &s.unwrap_or(0..0),
                        "[[uart.rx]] without at_us",
                        "at_us = <microseconds>",
                    ));
                }
            };
            rx.push(RxChunk { at_us, bytes });
        }
        rx.sort_by(|a, b| a.at_us.total_cmp(&b.at_us));
        self.rx = rx;
        Ok(())
    }
}

#[derive(Clone, Debug)]
pub struct Uart {
    /// One byte's time on the line, femtoseconds (0 at baud 0).
    byte_fs: u128,
    baud: u32,
    irq_line: u8,
    rx_depth: usize,
    tx_console: bool,
    ctrl: u32,
    /// RX_OVERRUN and TX_OVERRUN, until written with 1s.
    sticky: u32,
    /// The byte on the line and when its stop bit ends.
    shifting: Option<(u8, u128)>,
    holding: Option<u8>,
    rx_fifo: VecDeque<u8>,
    /// What the script sends, in start order (shared by copies of the machine: a byte's
    /// time is worked out when it is due, so no per-byte table is built).
    rx_chunks: Arc<[RxChunk]>,
    /// The next byte to arrive: chunk, byte in it, and when that chunk's first byte starts
    /// (its `at_us`, or later if the line was still busy with the chunk before).
    rx_chunk: usize,
    rx_byte: usize,
    rx_start_fs: u128,
    /// An interrupt enable was set while its condition held: latch at the next look.
    latch_now: bool,
    /// The interactive receive line (`ubik run --uart`, `--uart-replay`).
    host: host::HostLine,
}

impl Uart {
    /// Moves the receive cursor to chunk `i` (or past the end), the line being free from
    /// `line_free`; empty chunks are passed over.
    fn rx_enter(&mut self, mut i: usize, mut line_free: u128) {
        while let Some(c) = self.rx_chunks.get(i) {
            let start = line_free.max(chunk_start_fs(c.at_us));
            if !c.bytes.is_empty() {
                self.rx_start_fs = start;
                break;
            }
            line_free = start;
            i += 1;
        }
        self.rx_chunk = i;
        self.rx_byte = 0;
    }

    /// The next byte to arrive and when its stop bit does, if any is left.
    fn rx_peek(&self) -> Option<(u128, u8)> {
        let c = self.rx_chunks.get(self.rx_chunk)?;
        let t = self.rx_start_fs + (self.rx_byte as u128 + 1) * self.byte_fs;
        Some((t, c.bytes[self.rx_byte]))
    }

    /// Past the byte `rx_peek` returned.
    fn rx_pop(&mut self) {
        let Some(c) = self.rx_chunks.get(self.rx_chunk) else {
            return;
        };
        self.rx_byte += 1;
        if self.rx_byte == c.bytes.len() {
            let line_free = self.rx_start_fs + c.bytes.len() as u128 * self.byte_fs;
            self.rx_enter(self.rx_chunk + 1, line_free);
        }
    }

    fn status(&self) -> u32 {
        let mut s = self.sticky;
        if !self.rx_fifo.is_empty() {
            s |= RX_VALID;
        }
        if self.holding.is_none() {
            s |= TX_READY;
        }
        if self.holding.is_none() && self.shifting.is_none() {
            s |= TX_IDLE;
        }
        s | (self.rx_fifo.len().min(255) as u32) << 8
    }

    /// Attaches an interactive receive line: polled every millisecond of simulated time
    /// from the start of the run (see [`host`]).
    pub fn attach_host(&mut self, source: std::sync::Arc<dyn host::HostRx>) {
        self.host.attach(source);
    }

    /// Bytes that arrive from the host line at the given cycles, in cycle order: a
    /// recorded session (the IO record's `uart_rx` rows with port bit 1 set).
    pub fn replay_host(&mut self, bytes: impl IntoIterator<Item = (u64, u8)>) {
        self.host.replay(bytes);
    }

    /// The receive side as a debugger describes it: bits per second, the FIFO's depth, and
    /// the bytes on their way on the host line.
    pub fn rx_line(&self) -> (u32, usize, usize) {
        (self.baud, self.rx_depth, self.host.queue.len())
    }

    /// Bytes typed on the host line at cycle `now` (a debugger's `monitor uart rx`): they
    /// arrive a byte time apart from then, as the bytes of `--uart` do, and are recorded
    /// the same way (port bit 1). All of them if the line's queue has room ([`host::HOST_QUEUE`]
    /// bytes on their way), else none: `Err(room)`.
    pub fn type_host(&mut self, bytes: &[u8], now: u64, clock: &Clock) -> Result<(), usize> {
        self.host
            .type_bytes(bytes, clock.time_fs(now), self.byte_fs, clock)
    }

    /// A byte arrived from the line at `at_fs` (`host`: from the host line): into the FIFO
    /// unless it is full, into the record, and the receive interrupt.
    fn receive(&mut self, cx: &mut Act, at: u64, byte: u8, host: bool) {
        let lost = self.rx_fifo.len() >= self.rx_depth;
        if lost {
            self.sticky |= RX_OVERRUN;
        } else {
            self.rx_fifo.push_back(byte);
        }
        let port = lost as u32 | (host as u32) << 1;
        Self::record_cycle(cx, IoKind::UartRx, port, at, byte);
        if self.ctrl & RX_IRQ != 0 && !lost {
            cx.latch(self.irq_line, || at);
        }
    }

    fn record(cx: &mut Act, kind: IoKind, port: u32, at_fs: u128, byte: u8) {
        let c = cx.clock.cycle_at(at_fs);
        Self::record_cycle(cx, kind, port, c, byte);
    }

    fn record_cycle(cx: &mut Act, kind: IoKind, port: u32, c: u64, byte: u8) {
        if let Some(r) = cx.record.as_deref_mut() {
            r.push(IoEvent {
                cycle: c,
                time_fs: cx.clock.time_fs(c),
                kind,
                port,
                value: byte as u32,
            });
        }
    }
}

impl Device for Uart {
    const TITLE: &'static str = "UART (serial port)";
    const WINDOW: u32 = 0x1000;
    type Config = UartConfig;

    fn build(own: &UartConfig, _seed: u64) -> Uart {
        let byte_fs = if own.baud == 0 {
            0
        } else {
            10 * FS_PER_S / own.baud as u128
        };
        let mut u = Uart {
            byte_fs,
            baud: own.baud,
            irq_line: own.irq_line,
            rx_depth: own.rx_fifo as usize,
            tx_console: own.tx_console,
            ctrl: 0,
            sticky: 0,
            shifting: None,
            holding: None,
            rx_fifo: VecDeque::new(),
            rx_chunks: own.rx.clone().into(),
            rx_chunk: 0,
            rx_byte: 0,
            rx_start_fs: 0,
            latch_now: false,
            host: host::HostLine::default(),
        };
        u.rx_enter(0, 0);
        u
    }

    fn read(&mut self, reg: u32, _cx: &mut Access) -> Option<u32> {
        Some(match reg {
            TXDATA => 0,
            RXDATA => self.rx_fifo.pop_front().map_or(RX_EMPTY, |b| b as u32),
            STATUS => self.status(),
            CTRL => self.ctrl,
            BAUD => self.baud,
            _ => return None,
        })
    }

    fn write(&mut self, reg: u32, value: u32, mask: u32, cx: &mut Access) -> Option<()> {
        match reg {
            TXDATA => {
                if mask & 0xff != 0 {
                    let b = value as u8;
                    if self.shifting.is_none() {
                        self.shifting = Some((b, cx.clock.time_fs(cx.now) + self.byte_fs));
                    } else if self.holding.is_none() {
                        self.holding = Some(b);
                    } else {
                        self.sticky |= TX_OVERRUN;
                    }
                    cx.sync();
                }
            }
            RXDATA | BAUD => {}
            STATUS => self.sticky &= !(value & mask & (RX_OVERRUN | TX_OVERRUN)),
            CTRL => {
                let new = merge(self.ctrl, value, mask) & (RX_IRQ | TX_IRQ);
                let raised = new & !self.ctrl;
                self.ctrl = new;
                if (raised & RX_IRQ != 0 && !self.rx_fifo.is_empty())
                    || (raised & TX_IRQ != 0 && self.holding.is_none())
                {
                    self.latch_now = true;
                    cx.sync();
                }
            }
            _ => return None,
        }
        Some(())
    }

    fn next_event(&mut self, clock: &Clock) -> Option<u64> {
        if self.latch_now {
            return Some(0); // due at once
        }
        let tx = self.shifting.map(|(_, t)| t);
        let rx = self.rx_peek().map(|(t, _)| t);
        let t = match (tx, rx) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let c = t.map(|t| clock.cycle_at(t));
        match (c, self.host.next_event(clock)) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    fn advance(&mut self, cx: &mut Act) {
        let until = cx.clock.time_fs(cx.now);
        let line = self.irq_line;
        if std::mem::take(&mut self.latch_now) {
            let now = cx.now;
            cx.latch(line, || now);
        }
        loop {
            let tx = self.shifting.filter(|&(_, t)| t <= until);
            let rx = self.rx_peek().filter(|&(t, _)| t <= until);
            match (tx, rx) {
                // The earlier first; a byte sent and one received at once: sent first.
                (Some((b, t)), r) if r.is_none_or(|(rt, _)| t <= rt) => {
                    if self.tx_console {
                        cx.console(b);
                    }
                    Self::record(cx, IoKind::UartTx, 0, t, b);
                    self.shifting = self.holding.take().map(|h| (h, t + self.byte_fs));
                    if self.ctrl & TX_IRQ != 0 {
                        let clock = cx.clock;
                        cx.latch(line, || clock.cycle_at(t));
                    }
                }
                (_, Some((t, b))) => {
                    self.rx_pop();
                    let at = cx.clock.cycle_at(t);
                    self.receive(cx, at, b, false);
                }
                _ => break,
            }
        }
        let clock = cx.clock;
        self.host.poll(until, self.byte_fs, clock);
        while let Some(&(at, b)) = self.host.queue.front() {
            if at > cx.now {
                break;
            }
            self.host.queue.pop_front();
            self.receive(cx, at, b, true);
        }
    }

    /// Its line, while something is still to be sent or received.
    fn wakes(&self) -> u32 {
        if self.latch_now
            || self.shifting.is_some()
            || self.rx_chunk < self.rx_chunks.len()
            || self.host.live()
        {
            1 << (16 + self.irq_line as u32)
        } else {
            0
        }
    }
}

/// When a chunk due at `at_us` may start, in femtoseconds.
fn chunk_start_fs(at_us: f64) -> u128 {
    (at_us * 1e9).round() as u128
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::MachineConfig;

    fn cfg(text: &str) -> Result<UartConfig, String> {
        MachineConfig::from_str(text, "m.toml")
            .map(|c| c.devices.uart.clone())
            .map_err(|e| e.to_string())
    }

    #[test]
    fn the_default_table_is_the_default() {
        assert_eq!(cfg(UartConfig::DEFAULT_TOML).unwrap(), UartConfig::default());
    }

    #[test]
    fn timed_strings_and_bytes_are_sorted_by_time() {
        let c = cfg("[uart]\nbaud = 0\n[[uart.rx]]\nat_us = 5\nbytes = [1, 255]\n\
                     [[uart.rx]]\nat_us = 2\ntext = \"ok\"\n")
            .unwrap();
        assert_eq!(c.baud, 0);
        assert_eq!(&c.rx[0].bytes[..], b"ok");
        assert_eq!(&c.rx[1].bytes[..], [1, 255]);
    }

    #[test]
    fn bad_values_are_refused_where_they_are() {
        for (text, want) in [
            ("[uart]\nbaud = -1\n", "m.toml:2:8: baud = -1 is out of range"),
            ("[uart]\nirq_line = 15\n", "irq_line = an integer from 0 to 14"),
            ("[uart]\nrx_fifo = 0\n", "rx_fifo = 0 is out of range"),
            ("[uart]\ntx = \"file\"\n", "unknown tx \"file\""),
            ("[uart]\nrx_start_us = 3\n", "rx_start_us without rx_file"),
            ("[[uart.rx]]\nat_us = 1\n", "without text or bytes"),
            ("[[uart.rx]]\ntext = \"a\"\n", "without at_us"),
            ("[[uart.rx]]\nat_us = 1\nbytes = [256]\n", "byte 256 is out of range"),
            ("[[uart.rx]]\nat_us = -1\ntext = \"a\"\n", "at_us = -1 is not a time"),
            ("[[uart.rx]]\nat_us = 1\ntext = \"a\"\nbytes = [1]\n", "both text and bytes"),
            ("[uart]\nrx_file = \"/nonexistent/x\"\n", "cannot read UART receive file"),
            ("[uart]\nspeed = 9600\n", "unknown key `speed`"),
        ] {
            let e = cfg(text).unwrap_err();
            assert!(e.contains(want), "{text:?}: {e}");
        }
    }

    #[test]
    fn a_chunk_waits_for_the_line() {
        let c = cfg("[uart]\nbaud = 1000000\n[[uart.rx]]\nat_us = 0\ntext = \"ab\"\n\
                     [[uart.rx]]\nat_us = 5\ntext = \"c\"\n")
            .unwrap();
        let u = Uart::build(&c, 1);
        // 10 us a byte: a at 10, b at 20, c (due from 5 us) after b, at 30.
        let us: Vec<u128> = script(u).iter().map(|&(t, _)| t / 1_000_000_000).collect();
        assert_eq!(us, [10, 20, 30]);
    }

    /// Every byte the receive script sends and when, from the cursor on.
    fn script(mut u: Uart) -> Vec<(u128, u8)> {
        let mut out = Vec::new();
        while let Some(b) = u.rx_peek() {
            out.push(b);
            u.rx_pop();
        }
        out
    }

    #[test]
    fn empty_chunks_and_a_free_line_are_passed_over() {
        let c = cfg("[uart]\nbaud = 1000000\n[[uart.rx]]\nat_us = 0\ntext = \"\"\n\
                     [[uart.rx]]\nat_us = 1\nbytes = [7]\n[[uart.rx]]\nat_us = 2\ntext = \"\"\n\
                     [[uart.rx]]\nat_us = 100\ntext = \"z\"\n")
        .unwrap();
        let u = Uart::build(&c, 1);
        assert!(u.wakes() != 0);
        let us: Vec<(u128, u8)> = script(u)
            .into_iter()
            .map(|(t, b)| (t / 1_000_000_000, b))
            .collect();
        assert_eq!(us, [(11, 7), (110, b'z')]);
        // Baud 0: a byte takes no time.
        let c = cfg("[uart]\nbaud = 0\n[[uart.rx]]\nat_us = 3\ntext = \"ab\"\n").unwrap();
        let u = Uart::build(&c, 1);
        assert_eq!(script(u), [(3_000_000_000, b'a'), (3_000_000_000, b'b')]);
        let c = cfg("[[uart.rx]]\nat_us = 3\ntext = \"\"\n").unwrap();
        let u = Uart::build(&c, 1);
        assert_eq!(u.wakes(), 0, "nothing to receive");
    }

    /// A copy of the UART (as the GDB server's snapshots make) shares the received bytes:
    /// an `rx_file` of 64 MiB is held once, not once per copy.
    #[test]
    fn copies_share_the_received_bytes() {
        let d = std::env::temp_dir().join(format!("ubik-uart-share-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(d.join("rx.bin"), vec![0x55u8; 1 << 16]).unwrap();
        let m = d.join("m.toml");
        let c = MachineConfig::from_str("[uart]\nrx_file = \"rx.bin\"\n", m.to_str().unwrap())
            .unwrap();
        let _ = std::fs::remove_dir_all(&d);
        let u = Uart::build(&c.devices.uart, 1);
        let v = u.clone();
        assert!(Arc::ptr_eq(&u.rx_chunks, &v.rx_chunks));
        assert!(Arc::ptr_eq(&u.rx_chunks[0].bytes, &c.devices.uart.rx[0].bytes));
        assert_eq!(script(v).len(), 1 << 16);
        assert_eq!(script(u).last(), Some(&((1 << 16) * 86_805_555_555u128, 0x55)));
    }
}
