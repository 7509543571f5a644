//! The UART's interactive receive line: bytes from the host (a terminal, a pty, a socket:
//! `ubik run --uart`) or from a recorded session (`--uart-replay`), each arriving at a cycle.
//!
//! A host line is polled every [`POLL_FS`] of simulated time (a device event like any other);
//! the poll may wait, to pace simulated time to the wall clock, and hands over the bytes typed
//! since. Each byte then arrives one byte time later (after the byte before it, if the line
//! is still busy), at the first cycle boundary at or after that: so the cycle is all that is
//! needed to receive it again, in the same cycle, when the record is replayed. What the
//! host sends only decides at which cycles bytes arrive; the run is otherwise the same.

use std::collections::VecDeque;
use std::fmt;
use std::sync::Arc;

/// Simulated time between two polls of a host line: one millisecond.
pub const POLL_FS: u128 = 1_000_000_000_000;

/// Bytes received from the host but not yet arrived that the line holds; the host keeps the
/// rest until there is room (so a paste of a megabyte is not held twice).
pub const HOST_QUEUE: usize = 4096;

/// The host's side of an interactive receive line.
pub trait HostRx: Send + Sync {
    /// Called at simulated time `sim_fs` (every [`POLL_FS`]): may wait (to pace simulated
    /// time to the wall clock), then moves at most `max` bytes received since into `out`, in
    /// order. Returns false once the input has ended (the connection closed, end of file)
    /// and every byte has been handed over.
    fn poll(&self, sim_fs: u128, max: usize, out: &mut Vec<u8>) -> bool;
}

/// The host line of one UART: its source, if attached, and the bytes on their way.
#[derive(Clone, Default)]
pub struct HostLine {
    source: Option<Arc<dyn HostRx>>,
    next_poll_fs: u128,
    /// Bytes on their way, in order: the cycle each arrives (its stop bit ends), the byte.
    pub(super) queue: VecDeque<(u64, u8)>,
    /// When the last byte queued from the source ends on the line.
    line_free_fs: u128,
}

impl fmt::Debug for HostLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HostLine")
            .field("attached", &self.source.is_some())
            .field("next_poll_fs", &self.next_poll_fs)
            .field("queue", &self.queue.len())
            .finish()
    }
}

impl HostLine {
    pub(super) fn attach(&mut self, source: Arc<dyn HostRx>) {
        self.source = Some(source);
    }

    /// Bytes that arrive at the given cycles (a replayed session), after those queued.
    pub(super) fn replay(&mut self, bytes: impl IntoIterator<Item = (u64, u8)>) {
        self.queue.extend(bytes);
    }

    /// Whether a byte may still arrive.
    pub(super) fn live(&self) -> bool {
        self.source.is_some() || !self.queue.is_empty()
    }

    /// The next cycle at which a byte arrives or the source is polled.
    pub(super) fn next_event(&self, clock: &crate::clock::Clock) -> Option<u64> {
        let poll = self
            .source
            .as_ref()
            .map(|_| clock.cycle_at(self.next_poll_fs));
        let byte = self.queue.front().map(|&(c, _)| c);
        match (poll, byte) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Polls the source if its time has come (`until`: now), queueing what it hands over
    /// with the cycle each byte arrives; `byte_fs`: one byte's time on the line.
    pub(super) fn poll(&mut self, until: u128, byte_fs: u128, clock: &crate::clock::Clock) {
        let Some(src) = &self.source else {
            return;
        };
        if until < self.next_poll_fs {
            return;
        }
        let mut got = Vec::new();
        let room = HOST_QUEUE.saturating_sub(self.queue.len());
        let open = src.poll(until, room, &mut got);
        self.send(&got, until, byte_fs, clock);
        self.next_poll_fs = until + POLL_FS;
        if !open {
            self.source = None;
        }
    }

    /// Puts `bytes`, sent by the host at `now_fs`, on the line: each arrives one byte time
    /// after the one before it ends (or after `now_fs`), at the first cycle boundary at or
    /// after that.
    fn send(&mut self, bytes: &[u8], now_fs: u128, byte_fs: u128, clock: &crate::clock::Clock) {
        for &b in bytes {
            let end = self.line_free_fs.max(now_fs) + byte_fs;
            let c = clock.cycle_at(end);
            self.line_free_fs = clock.time_fs(c);
            self.queue.push_back((c, b));
        }
    }

    /// Bytes typed at `now_fs` without a source (a debugger's `monitor uart rx`): on the
    /// line as the host's are, if the line's queue has room for them all; else none, and
    /// the room there is.
    pub(super) fn type_bytes(
        &mut self,
        bytes: &[u8],
        now_fs: u128,
        byte_fs: u128,
        clock: &crate::clock::Clock,
    ) -> Result<(), usize> {
        let room = HOST_QUEUE.saturating_sub(self.queue.len());
        if bytes.len() > room {
            return Err(room);
        }
        self.send(bytes, now_fs, byte_fs, clock);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::Clock;
    use std::sync::Mutex;

    /// A host that has typed `bytes`, then ends its input.
    struct Typed(Mutex<Vec<u8>>);

    impl HostRx for Typed {
        fn poll(&self, _sim_fs: u128, max: usize, out: &mut Vec<u8>) -> bool {
            let mut b = self.0.lock().unwrap();
            let n = b.len().min(max);
            out.extend(b.drain(..n));
            !b.is_empty()
        }
    }

    #[test]
    fn typed_bytes_arrive_a_byte_time_apart_at_cycle_boundaries() {
        let clock = Clock::new(100_000_000);
        let byte_fs = 10 * crate::clock::FS_PER_S / 115_200; // 86.8 us
        let mut h = HostLine::default();
        h.attach(Arc::new(Typed(Mutex::new(b"ab".to_vec()))));
        assert!(h.live());
        // The first poll is due at once; it hands over both bytes and the end of input.
        assert_eq!(h.next_event(&clock), Some(0));
        h.poll(0, byte_fs, &clock);
        // a ends at 86.8056 us: cycle 8681; b one byte time after that cycle's start.
        assert_eq!(Vec::from(h.queue.clone()), [(8681, b'a'), (17362, b'b')]);
        assert_eq!(h.next_event(&clock), Some(8681), "no poll after the end of input");
        h.queue.clear();
        assert!(!h.live(), "input ended, nothing on its way");
        assert_eq!(h.next_event(&clock), None);
    }

    #[test]
    fn the_machine_holds_a_bounded_queue() {
        let clock = Clock::new(100_000_000);
        let mut h = HostLine::default();
        h.attach(Arc::new(Typed(Mutex::new(vec![b'x'; HOST_QUEUE + 10]))));
        h.poll(0, 0, &clock);
        assert_eq!(h.queue.len(), HOST_QUEUE);
        assert!(h.live());
        // The rest waits with the host until there is room, at the next poll.
        h.queue.clear();
        assert_eq!(h.next_event(&clock), Some(clock.cycle_at(POLL_FS)));
        h.poll(POLL_FS, 0, &clock);
        assert_eq!(h.queue.len(), 10);
        assert!(h.source.is_none());
    }
}
