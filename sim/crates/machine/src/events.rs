//! The run loop's event queue: for each source (a device, or the machine's own "a line
//! becomes visible to the core"), the next cycle at which it acts, ordered by cycle. The run
//! loop asks it for the next event (the core's run limit, the sleeping core's jump) and for
//! the sources due; a source's entry is replaced whenever its next action may have moved.
//!
//! Sources are few (one per device, plus one), so the queue is a sorted vector: updating an
//! entry is a scan and a few swaps, and the next event is its last element.

/// A source of events: a device's index in the list, or the machine's own beyond them.
pub type Source = u8;

#[derive(Clone, Debug, Default)]
pub struct EventQueue {
    /// (cycle, source), at most one entry per source, sorted latest first (ties: the higher
    /// source first), so that the earliest is the last: popped without a shift.
    items: Vec<(u64, Source)>,
}

impl EventQueue {
    pub fn new() -> EventQueue {
        EventQueue::default()
    }

    /// `src` next acts at cycle `at` (None: never, until told otherwise).
    pub fn set(&mut self, src: Source, at: Option<u64>) {
        let items = &mut self.items;
        let mut i = match items.iter().position(|&(_, s)| s == src) {
            Some(i) => match at {
                None => {
                    items.remove(i);
                    return;
                }
                Some(c) if items[i].0 == c => return,
                Some(c) => {
                    items[i].0 = c;
                    i
                }
            },
            None => match at {
                None => return,
                Some(c) => {
                    items.push((c, src));
                    items.len() - 1
                }
            },
        };
        // Move the entry to its place: towards the end while it is earlier than the next,
        // towards the front while later than the previous.
        while i + 1 < items.len() && items[i] < items[i + 1] {
            items.swap(i, i + 1);
            i += 1;
        }
        while i > 0 && items[i] > items[i - 1] {
            items.swap(i, i - 1);
            i -= 1;
        }
    }

    /// The cycle at which `src` next acts, if it is queued.
    pub fn get(&self, src: Source) -> Option<u64> {
        self.items.iter().find(|&&(_, s)| s == src).map(|&(c, _)| c)
    }

    /// The earliest event's cycle.
    pub fn next(&self) -> Option<u64> {
        self.items.last().map(|&(c, _)| c)
    }

    /// Removes and returns the earliest source due by cycle `now` (its event at or before it).
    pub fn pop_due(&mut self, now: u64) -> Option<Source> {
        match self.items.last() {
            Some(&(c, s)) if c <= now => {
                self.items.pop();
                Some(s)
            }
            _ => None,
        }
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    #[test]
    fn earliest_first_ties_by_source() {
        let mut q = EventQueue::new();
        assert_eq!(q.next(), None);
        q.set(3, Some(50));
        q.set(1, Some(20));
        q.set(2, Some(20));
        q.set(0, None);
        assert_eq!(q.len(), 3);
        assert_eq!(q.next(), Some(20));
        assert_eq!(q.pop_due(19), None, "nothing due before 20");
        assert_eq!(q.pop_due(30), Some(1));
        assert_eq!(q.pop_due(30), Some(2));
        assert_eq!(q.pop_due(30), None);
        assert_eq!(q.next(), Some(50));
        assert_eq!(q.get(3), Some(50));
        assert_eq!(q.get(1), None, "popped");
    }

    #[test]
    fn set_replaces_and_cancels() {
        let mut q = EventQueue::new();
        q.set(0, Some(100));
        q.set(1, Some(200));
        q.set(0, Some(300)); // moved later: 1 is now first
        assert_eq!(q.pop_due(1000), Some(1));
        assert_eq!(q.pop_due(1000), Some(0));
        assert!(q.is_empty());
        q.set(0, Some(100));
        q.set(0, Some(100));
        assert_eq!(q.len(), 1, "one entry per source");
        q.set(0, None);
        assert!(q.is_empty(), "cancelled");
        q.set(5, None);
        assert!(q.is_empty(), "cancelling what is not queued does nothing");
    }

    /// Against a model (each source's cycle in an array; the next event is their minimum),
    /// through random updates and pops.
    #[test]
    fn matches_a_per_source_minimum() {
        let mut rng = Rng::new(7);
        let mut q = EventQueue::new();
        let mut model: [Option<u64>; 8] = [None; 8];
        let mut now = 0u64;
        for _ in 0..20_000 {
            let r = rng.next_u64();
            let src = (r % 8) as u8;
            match r >> 8 & 3 {
                0 => {
                    q.set(src, None);
                    model[src as usize] = None;
                }
                1 | 2 => {
                    let c = now + (r >> 16) % 64;
                    q.set(src, Some(c));
                    model[src as usize] = Some(c);
                }
                _ => {
                    now += (r >> 16) % 16;
                    // Everything due comes out earliest first (ties: lower source), once.
                    let mut popped = Vec::new();
                    while let Some(s) = q.pop_due(now) {
                        popped.push((model[s as usize].unwrap(), s));
                        model[s as usize] = None;
                    }
                    let mut sorted = popped.clone();
                    sorted.sort();
                    assert_eq!(popped, sorted);
                    assert!(model.iter().all(|c| c.is_none_or(|c| c > now)));
                }
            }
            let min = model.iter().flatten().min().copied();
            assert_eq!(q.next(), min);
            for (s, c) in model.iter().enumerate() {
                assert_eq!(q.get(s as u8), *c);
            }
        }
    }
}
