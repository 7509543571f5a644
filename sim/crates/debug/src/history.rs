//! Snapshots of the machine for reverse execution. A position is the number of turns of the
//! debug run loop since reset (`Probe::pause` counts them); the machine is deterministic, so
//! a snapshot replayed turn by turn passes through the very states the run passed through.
//! RAM is stored in pages shared with the previous snapshot where unchanged, and the
//! snapshots are thinned (every other old one dropped) past a count, so a long session keeps
//! bounded memory and reaches far back at coarser steps.

use machine::machine::State;
use machine::Machine;
use std::rc::Rc;

const PAGE: usize = 4096;
/// Snapshots kept before thinning.
const MAX_SNAPSHOTS: usize = 128;

pub struct Snapshot {
    pub pos: u64,
    state: State,
    pages: Vec<Rc<[u8]>>,
}

#[derive(Default)]
pub struct History {
    snaps: Vec<Snapshot>,
}

impl History {
    /// Records the machine at position `pos`, replacing any snapshot at or after it.
    pub fn take(&mut self, pos: u64, m: &Machine) {
        self.truncate_from(pos);
        let prev = self.snaps.last();
        let pages = m
            .bus
            .ram
            .chunks(PAGE)
            .enumerate()
            .map(|(i, page)| match prev.and_then(|p| p.pages.get(i)) {
                Some(old) if **old == *page => old.clone(),
                _ => Rc::from(page),
            })
            .collect();
        self.snaps.push(Snapshot {
            pos,
            state: m.state(),
            pages,
        });
        if self.snaps.len() > MAX_SNAPSHOTS {
            // Every other snapshot of the older half goes (never the one at reset).
            let half = self.snaps.len() / 2;
            let mut i = 0;
            self.snaps.retain(|_| {
                i += 1;
                i == 1 || i > half || i % 2 == 1
            });
        }
    }

    /// Forgets the snapshots at or after `pos` (the future they hold has changed).
    pub fn truncate_from(&mut self, pos: u64) {
        while self.snaps.last().is_some_and(|s| s.pos >= pos) {
            self.snaps.pop();
        }
    }

    /// The index of the latest snapshot before `pos`.
    pub fn before(&self, pos: u64) -> Option<usize> {
        self.snaps.iter().rposition(|s| s.pos < pos)
    }

    pub fn get(&self, i: usize) -> &Snapshot {
        &self.snaps[i]
    }

    pub fn len(&self) -> usize {
        self.snaps.len()
    }

    pub fn is_empty(&self) -> bool {
        self.snaps.is_empty()
    }

    /// Puts the machine back to snapshot `i`; returns its position.
    pub fn restore(&self, i: usize, m: &mut Machine) -> u64 {
        let s = &self.snaps[i];
        m.restore(&s.state);
        for (dst, page) in m.bus.ram.chunks_mut(PAGE).zip(&s.pages) {
            dst.copy_from_slice(page);
        }
        s.pos
    }

    /// Bytes of RAM the snapshots hold (shared pages counted once).
    pub fn ram_bytes(&self) -> usize {
        let mut seen = std::collections::HashSet::new();
        self.snaps
            .iter()
            .flat_map(|s| s.pages.iter())
            .filter(|p| seen.insert(p.as_ptr()))
            .map(|p| p.len())
            .sum()
    }
}
