//! `ubik run --uart pty`: a pseudo-terminal whose slave a terminal program opens (`screen`,
//! `picocom`, `minicom`); its path is printed on stderr. The testbed holds the slave open
//! itself, so that a program may come and go: the input of a pty never ends (the run ends
//! when the firmware halts, or at Ctrl-C or a limit). When the run ends, the testbed waits
//! a little (at most [`DRAIN_WAIT`]) for a program to read what the firmware wrote last:
//! closing the master hangs the slave up, and Linux then drops the bytes not yet read.

use crate::{code, Failure};
use std::fs::File;
use std::io::Write;
use std::os::fd::{AsRawFd, FromRawFd};

pub struct Pty {
    master: File,
    slave: File,
}

/// How long the end of a run waits for the slave's reader to take the last output.
pub const DRAIN_WAIT: std::time::Duration = std::time::Duration::from_secs(2);

fn os_failure(what: &str) -> Failure {
    let e = std::io::Error::last_os_error();
    Failure::new(code::UNAVAILABLE, format!("--uart pty: {what}: {e}"))
}

impl Pty {
    /// Opens a pty in raw mode (bytes pass as they are: no echo, no line editing) and
    /// prints its slave's path.
    pub fn open() -> Result<Pty, Failure> {
        // SAFETY: plain libc calls on a descriptor this function owns; every result is
        // checked, and the descriptors are owned by `File`s as soon as they exist.
        unsafe {
            let fd = libc::posix_openpt(libc::O_RDWR | libc::O_NOCTTY);
            if fd < 0 {
                return Err(os_failure("cannot open a pty"));
            }
            let master = File::from_raw_fd(fd);
            if libc::grantpt(fd) != 0 || libc::unlockpt(fd) != 0 {
                return Err(os_failure("cannot unlock the pty"));
            }
            let mut name = [0 as libc::c_char; 128];
            if libc::ptsname_r(fd, name.as_mut_ptr(), name.len()) != 0 {
                return Err(os_failure("cannot name the pty"));
            }
            let path = std::ffi::CStr::from_ptr(name.as_ptr());
            let sfd = libc::open(path.as_ptr(), libc::O_RDWR | libc::O_NOCTTY);
            if sfd < 0 {
                return Err(os_failure("cannot open the pty's slave"));
            }
            let slave = File::from_raw_fd(sfd);
            let mut t: libc::termios = std::mem::zeroed();
            if libc::tcgetattr(sfd, &mut t) == 0 {
                libc::cfmakeraw(&mut t);
                libc::tcsetattr(sfd, libc::TCSANOW, &t);
            }
            eprintln!("ubik: UART on pty {}", path.to_string_lossy());
            Ok(Pty { master, slave })
        }
    }

    /// The pty's input (the master's reads) and its console (writes that never wait: while
    /// no program reads the slave and its buffer is full, bytes are dropped).
    pub fn split(self) -> Result<(File, Box<dyn Write>), Failure> {
        let r = self
            .master
            .try_clone()
            .map_err(|_| os_failure("cannot share the pty"))?;
        Ok((r, Box::new(PtyOut { pty: self })))
    }
}

struct PtyOut {
    pty: Pty,
}

impl Write for PtyOut {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let mut p = libc::pollfd {
            fd: self.pty.master.as_raw_fd(),
            events: libc::POLLOUT,
            revents: 0,
        };
        // SAFETY: one pollfd, owned by this frame, for a descriptor the pty owns.
        let ready = unsafe { libc::poll(&mut p, 1, 0) } == 1 && p.revents & libc::POLLOUT != 0;
        if ready {
            let _ = self.pty.master.write(buf);
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl PtyOut {
    /// The bytes written to the slave that no program has read yet.
    fn unread(&self) -> usize {
        let mut n: libc::c_int = 0;
        // SAFETY: FIONREAD writes one int, owned by this frame, for a descriptor the pty owns.
        let ok = unsafe { libc::ioctl(self.pty.slave.as_raw_fd(), libc::FIONREAD, &mut n) } == 0;
        if ok {
            n.max(0) as usize
        } else {
            0
        }
    }
}

impl Drop for PtyOut {
    fn drop(&mut self) {
        let start = std::time::Instant::now();
        while self.unread() > 0 && start.elapsed() < DRAIN_WAIT {
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
    }
}
