//! The testbed's GDB server (`ubik run --gdb`): a `gdbstub` target over the machine, with
//! the kernel's tasks as threads (`tasks`), breakpoints and watchpoints checked between
//! instructions by an observer (`probe`), and reverse execution by snapshots and
//! deterministic replay (`history`). See docs/debugging.md.

pub mod arch;
pub mod history;
pub mod probe;
pub mod session;
pub mod tasks;

use gdbstub::conn::ConnectionExt;
use gdbstub::stub::run_blocking::{BlockingEventLoop, Event, WaitForStopReasonError};
use gdbstub::stub::{DisconnectReason, GdbStub};
use machine::elf::Image;
use machine::{Machine, Outcome};
use session::{Session, StopReason};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

enum Loop {}

impl BlockingEventLoop for Loop {
    type Target = Session;
    type Connection = TcpStream;
    type StopReason = StopReason;

    fn wait_for_stop_reason(
        target: &mut Session,
        conn: &mut TcpStream,
    ) -> Result<Event<StopReason>, WaitForStopReasonError<String, std::io::Error>> {
        loop {
            if let Some(reason) = target.run_chunk() {
                return Ok(Event::TargetStopped(reason));
            }
            if conn
                .peek()
                .map_err(WaitForStopReasonError::Connection)?
                .is_some()
            {
                let byte = conn.read().map_err(WaitForStopReasonError::Connection)?;
                return Ok(Event::IncomingData(byte));
            }
        }
    }

    fn on_interrupt(target: &mut Session) -> Result<Option<StopReason>, String> {
        Ok(Some(target.interrupted()))
    }
}

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
/// machine back with how it ended. The machine stands at reset until GDB resumes it.
pub fn serve(
    listener: &TcpListener,
    m: Machine,
    image: &Image,
    max_cycles: Option<u64>,
    stop: Arc<AtomicBool>,
) -> (Machine, Result<Ended, String>) {
    // Polled, so that Ctrl-C ends the wait.
    let conn = loop {
        if stop.load(Ordering::Relaxed) {
            return (m, Ok(Ended::Killed));
        }
        match listener
            .set_nonblocking(true)
            .and_then(|_| listener.accept())
        {
            Ok((c, _)) => break c,
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                std::thread::sleep(std::time::Duration::from_millis(20))
            }
            Err(e) => return (m, Err(format!("cannot accept GDB's connection: {e}"))),
        }
    };
    let _ = conn.set_nonblocking(false);
    let _ = conn.set_nodelay(true);
    let mut session = Session::new(m, image, max_cycles, stop);
    let result = GdbStub::new(conn).run_blocking::<Loop>(&mut session);
    let ended = session.ended.take();
    (
        session.finish(),
        match result {
            Ok(DisconnectReason::TargetExited(_)) | Ok(DisconnectReason::TargetTerminated(_)) => {
                Ok(Ended::Run(ended.unwrap_or(Outcome::Interrupted)))
            }
            Ok(DisconnectReason::Disconnect) => Ok(match ended {
                Some(o) => Ended::Run(o),
                None => Ended::Detached,
            }),
            Ok(DisconnectReason::Kill) => Ok(Ended::Killed),
            Err(e) if e.is_connection_error() => Ok(match ended {
                Some(o) => Ended::Run(o),
                None => Ended::Killed,
            }),
            Err(e) => Err(format!("GDB session failed: {e}")),
        },
    )
}
