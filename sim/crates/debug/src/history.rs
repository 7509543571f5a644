//! Snapshots of the machine for reverse execution. A position is the number of turns of the
//! debug run loop since reset (`Probe::pause` counts them); the machine is deterministic, so
//! a snapshot replayed turn by turn passes through the very states the run passed through.
//!
//! RAM is kept as deltas: a snapshot holds only the 4 KiB pages that differ from the
//! snapshot before it (the first, from all-zero RAM), and the pages the machine wrote since
//! it last matched a snapshot are tracked (`Dirty`, filled by the debug probe from the
//! core's stores and by the debugger's writes), so that neither taking nor restoring a
//! snapshot ever walks all of RAM: a machine with 4 GiB of RAM costs what its used pages
//! cost. The snapshots are thinned (every other old one dropped, its pages merged into the
//! next) past a count, so a long session keeps bounded memory and reaches far back at
//! coarser steps.

use machine::config::RAM_BASE;
use machine::machine::State;
use machine::Machine;
use std::collections::HashMap;
use std::rc::Rc;

pub const PAGE: usize = 4096;
/// Snapshots kept before thinning.
const MAX_SNAPSHOTS: usize = 128;

/// The RAM pages written since the machine last matched a snapshot.
#[derive(Default)]
pub struct Dirty {
    bits: Vec<u64>,
    list: Vec<u32>,
}

impl Dirty {
    /// Marks the page of RAM offset `off`.
    #[inline]
    pub fn mark_page(&mut self, page: u32) {
        let (w, b) = ((page / 64) as usize, page % 64);
        if w >= self.bits.len() {
            self.bits.resize(w + 1, 0);
        }
        if self.bits[w] & (1 << b) == 0 {
            self.bits[w] |= 1 << b;
            self.list.push(page);
        }
    }

    /// Marks the pages an access of `size` bytes at bus address `addr` touches, if in RAM
    /// (of `ram_len` bytes).
    #[inline]
    pub fn mark(&mut self, addr: u32, size: u32, ram_len: usize) {
        let off = addr.wrapping_sub(RAM_BASE) as usize;
        if off < ram_len {
            self.mark_page((off / PAGE) as u32);
            let last = (off + size.max(1) as usize - 1).min(ram_len - 1);
            if last / PAGE != off / PAGE {
                self.mark_page((last / PAGE) as u32);
            }
        }
    }

    fn clear(&mut self) {
        for &p in &self.list {
            self.bits[(p / 64) as usize] = 0;
        }
        self.list.clear();
    }

    pub fn len(&self) -> usize {
        self.list.len()
    }

    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }
}

pub struct Snapshot {
    pub pos: u64,
    state: State,
    /// The pages that differ from the snapshot before (from zero RAM for the first).
    pages: HashMap<u32, Rc<[u8]>>,
}

#[derive(Default)]
pub struct History {
    snaps: Vec<Snapshot>,
    /// The snapshot the machine's RAM matches but for the `dirty` pages (None: zero RAM).
    base: Option<usize>,
    /// Pages written since the machine matched `base`. Whoever runs or writes the machine
    /// must mark what it writes here (the debug probe does for the core's stores).
    pub dirty: Dirty,
}

/// Index ranges are written with `None` before snapshot 0.
fn ord(i: Option<usize>) -> usize {
    i.map_or(0, |i| i + 1)
}

impl History {
    /// The history of machine `m`, which `image` was just loaded into (it has not run):
    /// its first snapshot, at position 0, holds the pages the image loads.
    pub fn new(image: &machine::elf::Image, m: &Machine) -> History {
        let mut h = History::default();
        h.loaded(image, m);
        h.take(0, m);
        h
    }

    /// Marks the RAM an image loads (what differs from zero RAM at reset).
    fn loaded(&mut self, image: &machine::elf::Image, m: &Machine) {
        for s in &image.segments {
            let len = s.data.len() as u32;
            let mut a = s.addr;
            while a < s.addr.saturating_add(len) {
                self.dirty.mark(a, 1, m.bus.ram.len());
                a = (a & !(PAGE as u32 - 1)).saturating_add(PAGE as u32);
            }
            if len > 0 {
                self.dirty.mark(s.addr + len - 1, 1, m.bus.ram.len());
            }
        }
    }

    /// The pages that may differ between snapshots `a` and `b`: those of the deltas between.
    fn between(&self, a: Option<usize>, b: Option<usize>) -> impl Iterator<Item = u32> + '_ {
        let (lo, hi) = (ord(a).min(ord(b)), ord(a).max(ord(b)));
        self.snaps[lo..hi]
            .iter()
            .flat_map(|s| s.pages.keys().copied())
    }

    /// Page `p` as snapshot `i` holds it (None: zeros).
    fn page_at(&self, i: Option<usize>, p: u32) -> Option<&Rc<[u8]>> {
        self.snaps[..ord(i)]
            .iter()
            .rev()
            .find_map(|s| s.pages.get(&p))
    }

    /// Records the machine at position `pos`, replacing any snapshot at or after it.
    pub fn take(&mut self, pos: u64, m: &Machine) {
        let keep = self.snaps.iter().take_while(|s| s.pos < pos).count();
        let prev = keep.checked_sub(1);
        let mut candidates: Vec<u32> = self.dirty.list.clone();
        candidates.extend(self.between(self.base, prev));
        candidates.sort_unstable();
        candidates.dedup();
        let ram = &m.bus.ram;
        let mut pages = HashMap::new();
        for p in candidates {
            let off = p as usize * PAGE;
            let now = &ram[off..(off + PAGE).min(ram.len())];
            let same = match self.page_at(prev, p) {
                Some(old) => **old == *now,
                None => now.iter().all(|&b| b == 0),
            };
            if !same {
                pages.insert(p, Rc::from(now));
            }
        }
        self.snaps.truncate(keep);
        self.snaps.push(Snapshot {
            pos,
            state: m.state(),
            pages,
        });
        self.dirty.clear();
        if self.snaps.len() > MAX_SNAPSHOTS {
            // Every other snapshot of the older half goes (never the one at reset); its
            // pages go to the snapshot after it where that one has none of its own.
            let half = self.snaps.len() / 2;
            let old = std::mem::take(&mut self.snaps);
            let mut carry: HashMap<u32, Rc<[u8]>> = HashMap::new();
            for (i, mut s) in old.into_iter().enumerate() {
                let n = i + 1;
                if n == 1 || n > half || n % 2 == 1 {
                    for (p, page) in carry.drain() {
                        s.pages.entry(p).or_insert(page);
                    }
                    self.snaps.push(s);
                } else {
                    carry = s.pages;
                }
            }
        }
        self.base = Some(self.snaps.len() - 1);
    }

    /// Forgets the snapshots at or after `pos` (the future they hold has changed).
    pub fn truncate_from(&mut self, pos: u64) {
        while self.snaps.last().is_some_and(|s| s.pos >= pos) {
            let s = self.snaps.pop().expect("a snapshot");
            if self.base == Some(self.snaps.len()) {
                // The machine now matches the one before but for this one's pages too.
                for &p in s.pages.keys() {
                    self.dirty.mark_page(p);
                }
                self.base = self.snaps.len().checked_sub(1);
            }
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

    /// Puts the machine back to snapshot `i`; returns its position. Only the pages that
    /// can differ are copied.
    pub fn restore(&mut self, i: usize, m: &mut Machine) -> u64 {
        let s = &self.snaps[i];
        m.restore(&s.state);
        let mut candidates: Vec<u32> = self.dirty.list.clone();
        candidates.extend(self.between(self.base, Some(i)));
        candidates.sort_unstable();
        candidates.dedup();
        let len = m.bus.ram.len();
        for p in candidates {
            let off = p as usize * PAGE;
            let dst = &mut m.bus.ram[off..(off + PAGE).min(len)];
            match self.page_at(Some(i), p) {
                Some(page) => dst.copy_from_slice(page),
                None => dst.fill(0),
            }
        }
        self.dirty.clear();
        self.base = Some(i);
        self.snaps[i].pos
    }

    /// The RAM pages the snapshots hold, and their bytes.
    pub fn ram_pages(&self) -> (usize, usize) {
        self.snaps
            .iter()
            .flat_map(|s| s.pages.values())
            .fold((0, 0), |(n, b), p| (n + 1, b + p.len()))
    }

    /// Bytes of RAM the snapshots hold.
    pub fn ram_bytes(&self) -> usize {
        self.ram_pages().1
    }
}
