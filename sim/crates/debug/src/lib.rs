//! The testbed's GDB server (`ubik run --gdb`): a `gdbstub` target over the machine, with
//! the kernel's tasks as threads (`tasks`), breakpoints and watchpoints checked between
//! instructions by an observer (`probe`), and reverse execution by snapshots and
//! deterministic replay (`history`). See docs/debugging.md.

pub mod arch;
pub mod history;
pub mod probe;
pub mod session;
pub mod tasks;

pub mod wire;

use gdbstub::stub::state_machine::GdbStubStateMachine;
use gdbstub::stub::{DisconnectReason, GdbStubBuilder, GdbStubError};
use machine::elf::Image;
use machine::{Machine, Outcome};
use session::Session;
use std::collections::VecDeque;
use std::net::TcpListener;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
use wire::{packet, Framer, Input, Wire, PACKET_SIZE};

type Gdb = GdbStubStateMachine<'static, Session, Wire>;
type StubError = GdbStubError<String, std::io::Error>;

/// How a debug session ended.
pub enum Ended {
    /// The run ended under the debugger (the firmware halted, a limit, ...).
    Run(Outcome),
    /// GDB detached: the run is to go on without it.
    Detached,
    /// GDB killed the run or went away.
    Killed,
}

/// Waits for GDB on `listener`, then serves it until the run ends or GDB leaves; gives the
/// machine back with how it ended, and whether GDB changed it (wrote memory or a
/// register). The machine stands at reset until GDB resumes it. The listener is closed once
/// GDB is connected: a second debugger is refused.
pub fn serve(
    listener: TcpListener,
    m: Machine,
    image: &Image,
    max_cycles: Option<u64>,
    stop: Arc<AtomicBool>,
) -> (Machine, Result<Ended, String>, bool) {
    // Polled, so that Ctrl-C ends the wait.
    let conn = loop {
        if stop.load(Ordering::Relaxed) {
            return (m, Ok(Ended::Killed), false);
        }
        match listener
            .set_nonblocking(true)
            .and_then(|_| listener.accept())
        {
            Ok((c, _)) => break c,
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                std::thread::sleep(std::time::Duration::from_millis(20))
            }
            Err(e) => {
                return (
                    m,
                    Err(format!("cannot accept GDB's connection: {e}")),
                    false,
                )
            }
        }
    };
    drop(listener);
    let _ = conn.set_nodelay(true);
    let mut session = Session::new(m, image, max_cycles, stop.clone());
    let over = converse(&Wire::new(conn), &mut session, &stop);
    let ended = session.ended.take();
    let altered = session.altered;
    (
        session.finish(),
        match over {
            Over::Reason(DisconnectReason::TargetExited(_))
            | Over::Reason(DisconnectReason::TargetTerminated(_)) => {
                Ok(Ended::Run(ended.unwrap_or(Outcome::Interrupted)))
            }
            Over::Reason(DisconnectReason::Disconnect) => Ok(match ended {
                Some(o) => Ended::Run(o),
                None => Ended::Detached,
            }),
            Over::Reason(DisconnectReason::Kill) => Ok(Ended::Killed),
            Over::Lost => Ok(match ended {
                Some(o) => Ended::Run(o),
                None => Ended::Killed,
            }),
            Over::Failed(e) => Err(format!("GDB session failed: {e}")),
        },
        altered,
    )
}

/// How the conversation with GDB ended.
enum Over {
    Reason(DisconnectReason),
    /// The connection closed or failed, or Ctrl-C ended the wait for GDB.
    Lost,
    /// The stub failed where the protocol cannot go on.
    Failed(String),
}

/// The packets that set the stub's state for the rest of the session, kept so that a stub
/// that replaces a failed one can be brought to the same state.
fn sets_state(p: &[u8]) -> Option<&'static [u8]> {
    [&b"$qSupported"[..], b"$QStartNoAckMode", b"$Hg", b"$Hc"]
        .into_iter()
        .find(|k| p.starts_with(k))
}

/// A stub over `wire`, in the state the `kept` packets put it in (their replies dropped).
fn start(wire: &Wire, s: &mut Session, kept: &[Vec<u8>]) -> Result<Gdb, String> {
    let fresh = |s: &mut Session| {
        GdbStubBuilder::new(wire.clone())
            .packet_buffer_size(PACKET_SIZE)
            .build()
            .map_err(|e| e.to_string())?
            .run_state_machine(s)
            .map_err(|e| e.to_string())
    };
    let mut g = fresh(s)?;
    wire.set_muted(true);
    for p in kept {
        g = match feed(g, s, p) {
            Ok(g) => g,
            Err(_) => {
                wire.set_muted(false);
                return fresh(s);
            }
        };
    }
    wire.set_muted(false);
    match g {
        GdbStubStateMachine::Idle(_) => Ok(g),
        _ => fresh(s),
    }
}

/// Gives the stub a whole packet (or a Ctrl-C).
fn feed(mut g: Gdb, s: &mut Session, bytes: &[u8]) -> Result<Gdb, StubError> {
    for &b in bytes {
        g = match g {
            GdbStubStateMachine::Idle(i) => i.incoming_data(s, b)?,
            GdbStubStateMachine::Running(r) => r.incoming_data(s, b)?,
            other => return Ok(other),
        };
    }
    Ok(g)
}

/// Serves GDB over `wire`: the machine runs in chunks while resumed, and GDB's bytes are
/// read between them. A packet the stub cannot take (malformed, unexpected, or refused by
/// the target) is answered with an error and the session goes on under a new stub.
fn converse(wire: &Wire, s: &mut Session, stop: &AtomicBool) -> Over {
    let mut framer = Framer::new(PACKET_SIZE);
    let mut kept: Vec<Vec<u8>> = Vec::new();
    let mut no_ack = false;
    let mut pending: VecDeque<u8> = VecDeque::new();
    let mut gdb = match start(wire, s, &kept) {
        Ok(g) => g,
        Err(e) => return Over::Failed(e),
    };
    let error_reply = |no_ack: bool| {
        let mut r = if no_ack { vec![] } else { vec![b'+'] };
        r.extend_from_slice(&packet(b"E01"));
        wire.send(&r)
    };
    loop {
        gdb = match gdb {
            GdbStubStateMachine::Disconnected(g) => return Over::Reason(g.get_reason()),
            GdbStubStateMachine::CtrlCInterrupt(g) => {
                let reason = s.interrupted();
                s.flush_console();
                match g.interrupt_handled(s, Some(reason)) {
                    Ok(g) => g,
                    Err(e) if e.is_connection_error() => return Over::Lost,
                    Err(e) => return Over::Failed(e.to_string()),
                }
            }
            GdbStubStateMachine::Running(g) if pending.is_empty() => {
                if let Some(reason) = s.run_chunk() {
                    s.flush_console();
                    match g.report_stop(s, reason) {
                        Ok(g) => g,
                        Err(e) if e.is_connection_error() => return Over::Lost,
                        Err(e) => return Over::Failed(e.to_string()),
                    }
                } else {
                    match wire.poll() {
                        Ok(bytes) => pending.extend(bytes),
                        Err(_) => return Over::Lost,
                    }
                    GdbStubStateMachine::Running(g)
                }
            }
            GdbStubStateMachine::Idle(g) if pending.is_empty() => {
                if stop.load(Ordering::Relaxed) {
                    return Over::Lost;
                }
                match wire.read(Some(Duration::from_millis(100))) {
                    Ok(bytes) => pending.extend(bytes),
                    Err(_) => return Over::Lost,
                }
                GdbStubStateMachine::Idle(g)
            }
            g => {
                let b = pending.pop_front().expect("bytes are pending");
                let mut bytes = match framer.push(b) {
                    None => {
                        gdb = g;
                        continue;
                    }
                    Some(Input::Packet(p)) => p,
                    Some(Input::Interrupt) => vec![0x03],
                    Some(Input::Nack) => {
                        if wire.resend().is_err() {
                            return Over::Lost;
                        }
                        gdb = g;
                        continue;
                    }
                    Some(bad) => {
                        let sent = match &bad {
                            Input::BadChecksum(body) => {
                                eprintln!(
                                    "ubik: GDB sent packet \"{}\" with a wrong checksum; asked for it again",
                                    shown(body)
                                );
                                if no_ack {
                                    error_reply(true)
                                } else {
                                    wire.send(b"-")
                                }
                            }
                            _ => {
                                eprintln!(
                                    "ubik: GDB sent a packet over the {PACKET_SIZE}-byte PacketSize the server advertises; refused it with an error"
                                );
                                error_reply(no_ack)
                            }
                        };
                        if sent.is_err() {
                            return Over::Lost;
                        }
                        gdb = g;
                        continue;
                    }
                };
                // A plain `qSupported` (no features) is valid: the stub wants a list.
                if bytes == packet(b"qSupported") {
                    bytes = packet(b"qSupported:multiprocess-");
                }
                match feed(g, s, &bytes) {
                    Ok(g) => {
                        if let Some(k) = sets_state(&bytes) {
                            no_ack |= k == b"$QStartNoAckMode";
                            kept.retain(|p| !p.starts_with(k));
                            kept.push(bytes);
                        }
                        g
                    }
                    Err(e) if e.is_connection_error() => return Over::Lost,
                    Err(e) => {
                        let why = if e.is_target_error() {
                            e.into_target_error().unwrap_or_default()
                        } else {
                            "malformed, or not valid here".into()
                        };
                        let body = &bytes[1..bytes.len().saturating_sub(3).max(1)];
                        eprintln!(
                            "ubik: GDB sent packet \"{}\": {why}; answered with an error",
                            shown(body)
                        );
                        if error_reply(no_ack).is_err() {
                            return Over::Lost;
                        }
                        match start(wire, s, &kept) {
                            Ok(g) => g,
                            Err(e) => return Over::Failed(e),
                        }
                    }
                }
            }
        };
    }
}

/// A packet's body for a message: printable, at most 40 characters.
fn shown(body: &[u8]) -> String {
    let text: String = body
        .iter()
        .take(40)
        .map(|&b| {
            if b.is_ascii_graphic() || b == b' ' {
                b as char
            } else {
                '.'
            }
        })
        .collect();
    if body.len() > 40 {
        text + "..."
    } else {
        text
    }
}
