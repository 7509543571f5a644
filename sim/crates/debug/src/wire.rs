//! GDB's side of the connection, in front of `gdbstub`: the bytes GDB sends are read in
//! blocks (not one system call per byte) and framed into packets here, so that a packet
//! `gdbstub` would choke on never reaches it: a wrong checksum is answered `-` (the
//! protocol's "send it again"), a packet longer than the advertised `PacketSize` is refused
//! without being stored. What GDB is sent goes through `Wire`, a shared handle, so that a
//! stub that failed on a packet can be replaced by a new one over the same connection.

use gdbstub::conn::Connection;
use std::cell::RefCell;
use std::io::{ErrorKind, Read, Write};
use std::net::TcpStream;
use std::rc::Rc;
use std::time::Duration;

/// The largest packet the server takes, framing (`$`, `#` and the checksum) included: the
/// size of `gdbstub`'s packet buffer, which it advertises to GDB as `PacketSize`.
pub const PACKET_SIZE: usize = 4096;

/// What GDB sent, framed.
#[derive(Debug, PartialEq, Eq)]
pub enum Input {
    /// A whole packet with a good checksum, `$...#cc`.
    Packet(Vec<u8>),
    /// Ctrl-C (0x03 outside a packet).
    Interrupt,
    /// `-`: GDB asks for the last reply again.
    Nack,
    /// A packet whose checksum does not match its body (the body, for the message).
    BadChecksum(Vec<u8>),
    /// A packet over `PACKET_SIZE` bytes (its length; its body was not kept).
    TooLong(usize),
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    Between,
    Body,
    Sum1,
    Sum2,
}

/// Frames GDB's bytes into `Input`s. A packet's body is kept up to `limit` bytes and
/// counted past it, so an endless packet costs no memory.
pub struct Framer {
    state: State,
    buf: Vec<u8>,
    len: usize,
    limit: usize,
}

impl Framer {
    pub fn new(limit: usize) -> Framer {
        Framer {
            state: State::Between,
            buf: Vec::new(),
            len: 0,
            limit,
        }
    }

    /// Takes one byte; an input when it completes one.
    pub fn push(&mut self, b: u8) -> Option<Input> {
        match self.state {
            State::Between => match b {
                b'$' => {
                    self.state = State::Body;
                    self.buf.clear();
                    self.buf.push(b);
                    self.len = 1;
                }
                0x03 => return Some(Input::Interrupt),
                b'-' => return Some(Input::Nack),
                _ => {} // acks, and noise between packets
            },
            State::Body | State::Sum1 | State::Sum2 => {
                self.len += 1;
                if self.len <= self.limit {
                    self.buf.push(b);
                }
                self.state = match self.state {
                    State::Body if b == b'#' => State::Sum1,
                    State::Body => State::Body,
                    State::Sum1 => State::Sum2,
                    _ => return Some(self.finish()),
                };
            }
        }
        None
    }

    fn finish(&mut self) -> Input {
        self.state = State::Between;
        if self.len > self.limit {
            self.buf.clear();
            return Input::TooLong(self.len);
        }
        let n = self.buf.len();
        let body = &self.buf[1..n - 3];
        let sum = body.iter().fold(0u8, |a, &x| a.wrapping_add(x));
        let given = std::str::from_utf8(&self.buf[n - 2..])
            .ok()
            .and_then(|s| u8::from_str_radix(s, 16).ok());
        if given != Some(sum) {
            return Input::BadChecksum(body.to_vec());
        }
        Input::Packet(std::mem::take(&mut self.buf))
    }
}

/// `$body#cc`.
pub fn packet(body: &[u8]) -> Vec<u8> {
    let sum = body.iter().fold(0u8, |a, &x| a.wrapping_add(x));
    let mut p = Vec::with_capacity(body.len() + 4);
    p.push(b'$');
    p.extend_from_slice(body);
    p.extend_from_slice(format!("#{sum:02x}").as_bytes());
    p
}

struct Inner {
    stream: TcpStream,
    rbuf: Vec<u8>,
    /// What `gdbstub` wrote since its last flush.
    out: Vec<u8>,
    /// The last packet sent (for a `-`).
    last: Vec<u8>,
    /// Writes dropped (while a new stub is brought to the old one's state).
    muted: bool,
}

/// The connection to GDB, shared between the server loop and the stub.
#[derive(Clone)]
pub struct Wire(Rc<RefCell<Inner>>);

impl Wire {
    pub fn new(stream: TcpStream) -> Wire {
        Wire(Rc::new(RefCell::new(Inner {
            stream,
            rbuf: vec![0; 16384],
            out: Vec::new(),
            last: Vec::new(),
            muted: false,
        })))
    }

    pub fn set_muted(&self, muted: bool) {
        let mut w = self.0.borrow_mut();
        w.muted = muted;
        w.out.clear();
    }

    /// The bytes GDB sent that are ready now, without waiting (empty: none yet). Err when
    /// the connection is closed or failed.
    pub fn poll(&self) -> std::io::Result<Vec<u8>> {
        self.read(Some(Duration::ZERO))
    }

    /// Waits up to `timeout` (None: for ever) for bytes from GDB.
    pub fn read(&self, timeout: Option<Duration>) -> std::io::Result<Vec<u8>> {
        let mut guard = self.0.borrow_mut();
        let w = &mut *guard;
        let nonblocking = timeout == Some(Duration::ZERO);
        w.stream.set_nonblocking(nonblocking)?;
        if !nonblocking {
            w.stream.set_read_timeout(timeout)?;
        }
        let r = w.stream.read(&mut w.rbuf);
        match r {
            Ok(0) => Err(ErrorKind::UnexpectedEof.into()),
            Ok(n) => Ok(w.rbuf[..n].to_vec()),
            Err(e)
                if matches!(
                    e.kind(),
                    ErrorKind::WouldBlock | ErrorKind::TimedOut | ErrorKind::Interrupted
                ) =>
            {
                Ok(Vec::new())
            }
            Err(e) => Err(e),
        }
    }

    /// Sends `bytes` at once (a reply the server makes itself).
    pub fn send(&self, bytes: &[u8]) -> std::io::Result<()> {
        let mut w = self.0.borrow_mut();
        if w.muted {
            return Ok(());
        }
        if bytes.first() == Some(&b'$') {
            w.last = bytes.to_vec();
        }
        w.stream.set_nonblocking(false)?;
        Write::write_all(&mut w.stream, bytes)
    }

    /// Sends the last packet again (GDB's `-`).
    pub fn resend(&self) -> std::io::Result<()> {
        let last = self.0.borrow().last.clone();
        if last.is_empty() {
            return Ok(());
        }
        self.send(&last)
    }
}

impl Connection for Wire {
    type Error = std::io::Error;

    fn write(&mut self, byte: u8) -> Result<(), std::io::Error> {
        let mut w = self.0.borrow_mut();
        if !w.muted {
            w.out.push(byte);
        }
        Ok(())
    }

    fn write_all(&mut self, buf: &[u8]) -> Result<(), std::io::Error> {
        let mut w = self.0.borrow_mut();
        if !w.muted {
            w.out.extend_from_slice(buf);
        }
        Ok(())
    }

    fn flush(&mut self) -> Result<(), std::io::Error> {
        let out = std::mem::take(&mut self.0.borrow_mut().out);
        if out.is_empty() {
            return Ok(());
        }
        if let Some(i) = out.iter().position(|&b| b == b'$') {
            self.0.borrow_mut().last = out[i..].to_vec();
        }
        let mut w = self.0.borrow_mut();
        w.stream.set_nonblocking(false)?;
        Write::write_all(&mut w.stream, &out)?;
        Write::flush(&mut w.stream)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(f: &mut Framer, bytes: &[u8]) -> Vec<Input> {
        bytes.iter().filter_map(|&b| f.push(b)).collect()
    }

    #[test]
    fn packets_are_framed_and_checked() {
        let mut f = Framer::new(64);
        let good = packet(b"m1000,4");
        let mut bad = packet(b"g");
        let n = bad.len();
        bad[n - 1] = b'0';
        bad[n - 2] = b'0';
        let mut stream = b"+".to_vec();
        stream.extend_from_slice(&good);
        stream.push(0x03);
        stream.extend_from_slice(&bad);
        stream.push(b'-');
        assert_eq!(
            frame(&mut f, &stream),
            vec![
                Input::Packet(good),
                Input::Interrupt,
                Input::BadChecksum(b"g".to_vec()),
                Input::Nack
            ]
        );
        // A checksum that is not hex.
        assert_eq!(
            frame(&mut f, b"$g#zz"),
            vec![Input::BadChecksum(b"g".to_vec())]
        );
    }

    #[test]
    fn a_packet_over_the_limit_is_refused_without_being_kept() {
        let mut f = Framer::new(16);
        let big = packet(&[b'a'; 100]);
        assert_eq!(frame(&mut f, &big), vec![Input::TooLong(104)]);
        assert!(f.buf.capacity() <= 64, "the body was not kept");
        // An unterminated packet: bytes counted, none kept.
        for _ in 0..100_000 {
            assert_eq!(f.push(b'x'), None);
        }
        let _ = f.push(b'$');
        assert!(f.buf.capacity() <= 64);
        // The next packet is framed as usual.
        let ok = packet(b"?");
        let mut f = Framer::new(16);
        assert_eq!(frame(&mut f, &ok), vec![Input::Packet(ok.clone())]);
        // Exactly at the limit is fine.
        let at = packet(&[b'b'; 12]);
        assert_eq!(frame(&mut f, &at), vec![Input::Packet(at.clone())]);
    }
}
