//! `ubik run --uart stdio|pty|tcp:HOST:PORT`: the UART's receive line and its console on the
//! host, simulated time paced to the wall clock; and `--uart-replay IO.csv`, the bytes of a
//! recorded session received again at their cycles (docs/cli.md, "Interactive UART").

use crate::{code, Failure};
use machine::dev::uart::host::HostRx;
use std::collections::VecDeque;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// Bytes read from the host but not yet taken by the machine; the reader waits beyond it.
const HOST_BUF: usize = 1 << 16;

/// The largest IO record `--uart-replay` reads: 256 MiB.
const MAX_REPLAY_BYTES: u64 = 256 << 20;

/// `--uart`'s value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UartSpec {
    Stdio,
    Pty,
    /// `HOST:PORT` to listen on.
    Tcp(String),
}

/// Parses `--uart`'s value (clap's value parser: an error is a usage error).
pub fn parse_spec(s: &str) -> Result<UartSpec, String> {
    match s {
        "stdio" => return Ok(UartSpec::Stdio),
        "pty" => return Ok(UartSpec::Pty),
        _ => {}
    }
    if let Some(addr) = s.strip_prefix("tcp:") {
        if let Some((host, port)) = addr.rsplit_once(':') {
            if !host.is_empty() && port.parse::<u16>().is_ok() {
                return Ok(UartSpec::Tcp(addr.to_string()));
            }
        }
    }
    Err(format!(
        "expected stdio, pty or tcp:HOST:PORT (e.g. tcp:127.0.0.1:4321), got \"{s}\""
    ))
}

/// What the reader thread and the machine share.
#[derive(Default)]
struct Shared {
    buf: VecDeque<u8>,
    closed: bool,
}

/// The host's side of the line: bytes from a reader thread, and the pacing.
pub struct Host {
    shared: Arc<(Mutex<Shared>, Condvar)>,
    pace: bool,
    start: OnceLock<Instant>,
    stop: Arc<AtomicBool>,
}

impl HostRx for Host {
    fn poll(&self, sim_fs: u128, max: usize, out: &mut Vec<u8>) -> bool {
        if self.pace {
            // Never ahead of the wall clock: wait until it has caught up with `sim_fs`.
            let start = *self.start.get_or_init(Instant::now);
            let target = start + Duration::from_nanos((sim_fs / 1_000_000) as u64);
            let now = Instant::now();
            if target > now && !self.stop.load(Ordering::Relaxed) {
                std::thread::sleep(target - now);
            }
        }
        let (lock, room) = &*self.shared;
        let mut s = lock.lock().unwrap_or_else(|e| e.into_inner());
        let n = s.buf.len().min(max);
        out.extend(s.buf.drain(..n));
        room.notify_all();
        !(s.closed && s.buf.is_empty())
    }
}

/// Reads `r` into `shared` until end of input or an error (both end the input).
fn spawn_reader(mut r: impl Read + Send + 'static, shared: Arc<(Mutex<Shared>, Condvar)>) {
    std::thread::spawn(move || {
        let mut b = [0u8; 1024];
        loop {
            let n = match r.read(&mut b) {
                Ok(0) => 0,
                Ok(n) => n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(_) => 0,
            };
            let (lock, room) = &*shared;
            let mut s = lock.lock().unwrap_or_else(|e| e.into_inner());
            if n == 0 {
                s.closed = true;
                return;
            }
            while s.buf.len() + n > HOST_BUF {
                s = room.wait(s).unwrap_or_else(|e| e.into_inner());
            }
            s.buf.extend(&b[..n]);
        }
    });
}

/// The console on a connection: each write at once; once the peer has gone, nothing.
struct Peer<W: Write> {
    w: W,
    gone: bool,
}

impl<W: Write> Write for Peer<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if !self.gone && self.w.write_all(buf).and_then(|_| self.w.flush()).is_err() {
            self.gone = true;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// What the UART's host line receives (`--uart`, `--uart-replay`).
pub enum UartInput {
    None,
    Host(Arc<dyn HostRx>),
    /// The bytes of a recorded session and their cycles.
    Replay(Vec<(u64, u8)>),
}

/// `--uart` opened or `--uart-replay` read, before the outputs are created.
pub enum Prepared {
    None,
    Open(Opened),
    Replay(Vec<(u64, u8)>),
}

/// Reads `--uart-replay` or opens `--uart` (at most one is given).
pub fn prepare(spec: Option<&UartSpec>, replay: Option<&Path>) -> Result<Prepared, Failure> {
    Ok(match (spec, replay) {
        (Some(s), _) => Prepared::Open(open(s)?),
        (None, Some(p)) => Prepared::Replay(read_replay(p)?),
        (None, None) => Prepared::None,
    })
}

impl Prepared {
    /// The machine's input; with `--uart`, connected (see [`connect`]), its console
    /// replacing `console`.
    pub fn connect(
        self,
        pace: bool,
        stop: &Arc<AtomicBool>,
        console: &mut Box<dyn Write>,
    ) -> Result<UartInput, Failure> {
        Ok(match self {
            Prepared::None => UartInput::None,
            Prepared::Replay(bytes) => UartInput::Replay(bytes),
            Prepared::Open(o) => {
                let (src, out) = connect(o, pace, stop)?;
                *console = out;
                UartInput::Host(src)
            }
        })
    }
}

/// `--uart`, opened before the run: a socket listening, or a pty.
pub enum Opened {
    Stdio,
    Tcp(TcpListener, String),
    Pty(crate::uart_pty::Pty),
}

/// Opens `--uart`'s back end: a bad address or a port in use fails here, before the run
/// (exit 69).
pub fn open(spec: &UartSpec) -> Result<Opened, Failure> {
    match spec {
        UartSpec::Stdio => Ok(Opened::Stdio),
        UartSpec::Tcp(addr) => {
            let l = TcpListener::bind(addr).map_err(|e| {
                Failure::new(
                    code::UNAVAILABLE,
                    format!("--uart tcp:{addr}: cannot listen on {addr}: {e} (expected tcp:HOST:PORT with a free port)"),
                )
            })?;
            let at = l.local_addr().map_or(addr.clone(), |a| a.to_string());
            Ok(Opened::Tcp(l, at))
        }
        UartSpec::Pty => crate::uart_pty::Pty::open().map(Opened::Pty),
    }
}

/// The host line's source for the machine, and the console.
pub type Connected = (Arc<dyn HostRx>, Box<dyn Write>);

/// Connects the opened back end (for `tcp`, waits for one client; Ctrl-C gives up): the
/// line's source for the machine and the console the firmware's output goes to.
pub fn connect(opened: Opened, pace: bool, stop: &Arc<AtomicBool>) -> Result<Connected, Failure> {
    let shared = Arc::new((Mutex::new(Shared::default()), Condvar::new()));
    let console: Box<dyn Write> = match opened {
        Opened::Stdio => {
            spawn_reader(std::io::stdin(), shared.clone());
            Box::new(Peer {
                w: std::io::stdout(),
                gone: false,
            })
        }
        Opened::Tcp(l, at) => {
            eprintln!("ubik: UART on tcp:{at}, waiting for a client");
            let s = accept(&l, stop)?;
            let _ = s.set_nodelay(true);
            let r = s
                .try_clone()
                .map_err(|e| Failure::new(code::UNAVAILABLE, format!("--uart tcp:{at}: {e}")))?;
            spawn_reader(r, shared.clone());
            Box::new(Peer { w: s, gone: false })
        }
        Opened::Pty(p) => {
            let (r, w) = p.split()?;
            spawn_reader(r, shared.clone());
            Box::new(Peer { w, gone: false })
        }
    };
    let host = Host {
        shared,
        pace,
        start: OnceLock::new(),
        stop: stop.clone(),
    };
    Ok((Arc::new(host), console))
}

/// Waits for one client on `l`, looking at `stop` (Ctrl-C) every 20 ms.
fn accept(l: &TcpListener, stop: &AtomicBool) -> Result<TcpStream, Failure> {
    let fail = |e: std::io::Error| Failure::new(code::UNAVAILABLE, format!("--uart: accept: {e}"));
    l.set_nonblocking(true).map_err(fail)?;
    loop {
        match l.accept() {
            Ok((s, _)) => {
                s.set_nonblocking(false).map_err(fail)?;
                return Ok(s);
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                if stop.load(Ordering::Relaxed) {
                    return Err(Failure::new(
                        code::INTERRUPTED,
                        "interrupted while waiting for a UART client",
                    ));
                }
                std::thread::sleep(Duration::from_millis(20));
            }
            Err(e) => return Err(fail(e)),
        }
    }
}

/// `--uart-replay FILE`: the bytes the host line received in a recorded session (the IO
/// record's `uart_rx` rows whose port has bit 1 set), with their cycles.
pub fn read_replay(path: &Path) -> Result<Vec<(u64, u8)>, Failure> {
    let name = path.display();
    use confread::infile::{read_bounded, Pipes};
    let text = read_bounded(path, MAX_REPLAY_BYTES, Pipes::Allowed).map_err(|e| {
        let c = if e.is_too_large() {
            code::DATA
        } else {
            code::NO_INPUT
        };
        Failure::new(c, format!("cannot read --uart-replay {name}: {e}"))
    })?;
    let text = String::from_utf8(text).map_err(|_| {
        Failure::new(
            code::DATA,
            format!("{name}: not text (expected the IO record of `ubik run --io`, CSV)"),
        )
    })?;
    parse_replay(&text, &name.to_string())
}

/// The replayed bytes of the IO record `text` read from `name`.
pub fn parse_replay(text: &str, name: &str) -> Result<Vec<(u64, u8)>, Failure> {
    let bad = |line: usize, col: usize, what: String| {
        Failure::new(code::DATA, format!("{name}:{line}:{col}: {what}"))
    };
    let mut lines = text.lines();
    let header = crate::run_stats::IO_CSV_HEADER;
    if lines.next() != Some(header) {
        return Err(bad(
            1,
            1,
            format!("expected the IO record's header \"{header}\" (the CSV of `ubik run --io`)"),
        ));
    }
    let mut out: Vec<(u64, u8)> = Vec::new();
    for (i, row) in lines.enumerate() {
        let line = i + 2;
        let f: Vec<&str> = row.split(',').collect();
        if f.len() != 5 {
            return Err(bad(
                line,
                1,
                format!(
                    "{} fields, expected 5: cycle,time_s,kind,port,value",
                    f.len()
                ),
            ));
        }
        let col = |k: usize| 1 + f[..k].iter().map(|s| s.len() + 1).sum::<usize>();
        let cycle: u64 = f[0]
            .parse()
            .map_err(|_| bad(line, 1, format!("cycle \"{}\" is not a cycle count", f[0])))?;
        if f[2] != "uart_rx" {
            continue;
        }
        let port: u32 = f[3].parse().ok().filter(|&p| p < 4).ok_or_else(|| {
            bad(
                line,
                col(3),
                format!("port \"{}\", expected 0 to 3 for uart_rx", f[3]),
            )
        })?;
        if port & 2 == 0 {
            continue;
        }
        let value: u8 = f[4].parse().map_err(|_| {
            bad(
                line,
                col(4),
                format!("value \"{}\", expected a byte (0 to 255)", f[4]),
            )
        })?;
        if out.last().is_some_and(|&(c, _)| c > cycle) {
            return Err(bad(
                line,
                1,
                format!("cycle {cycle} is before the row above's; expected the rows in time order"),
            ));
        }
        out.push((cycle, value));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs() {
        assert_eq!(parse_spec("stdio"), Ok(UartSpec::Stdio));
        assert_eq!(parse_spec("pty"), Ok(UartSpec::Pty));
        assert_eq!(
            parse_spec("tcp:127.0.0.1:0"),
            Ok(UartSpec::Tcp("127.0.0.1:0".into()))
        );
        for bad in [
            "foo",
            "tcp:",
            "tcp:1234",
            "tcp::1",
            "tcp:h:99999",
            "udp:h:1",
        ] {
            assert!(parse_spec(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn replay_rows() {
        let h = crate::run_stats::IO_CSV_HEADER;
        let t = format!("{h}\n5,1e-6,uart_tx,0,65\n7,2e-6,uart_rx,0,66\n9,3e-6,uart_rx,2,67\n9,3e-6,uart_rx,3,68\n");
        assert_eq!(parse_replay(&t, "r.csv").ok(), Some(vec![(9, 67), (9, 68)]));
        for (text, want) in [
            (
                "cycle\n".to_string(),
                "r.csv:1:1: expected the IO record's header",
            ),
            (
                format!("{h}\n1,2,uart_rx\n"),
                "r.csv:2:1: 3 fields, expected 5",
            ),
            (format!("{h}\nx,2,uart_rx,2,3\n"), "r.csv:2:1: cycle \"x\""),
            (
                format!("{h}\n1,0.5,uart_rx,2,300\n"),
                "r.csv:2:17: value \"300\"",
            ),
            (
                format!("{h}\n1,0.5,uart_rx,9,3\n"),
                "r.csv:2:15: port \"9\"",
            ),
            (
                format!("{h}\n5,1,uart_rx,2,1\n4,1,uart_rx,2,1\n"),
                "r.csv:3:1: cycle 4 is before",
            ),
        ] {
            let Err(e) = parse_replay(&text, "r.csv") else {
                panic!("{text:?} was accepted")
            };
            assert_eq!(e.code, code::DATA);
            assert!(e.message.contains(want), "{text:?}: {}", e.message);
        }
    }
}
