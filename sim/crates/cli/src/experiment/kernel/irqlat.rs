//! Interrupt latency from a run's IO record: each stimulus event on the benchmark's fast
//! line is paired with the next write to its IO port (the LISR's first act), and the latency
//! is that write's cycle, less the store's own cost, less the event's cycle.
//!
//! Events that come while the line is still pending (before the LISR of the previous one
//! acknowledged it) share that LISR: they are "merged", each paired with the same write. A
//! write that no pending event explains answers the last event of the previous group when
//! that group had more than one: that event came after the LISR acknowledged the line
//! (between its acknowledge and its store), so it raised the line again and this LISR is its
//! own; otherwise the write is an "orphan". Events still pending at the end are
//! "unanswered".

use machine::record::{IoEvent, IoKind};
use std::collections::BTreeMap;

/// The latency figures of one run, in cycles.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IrqLat {
    pub worst: i64,
    /// The mean, rounded down.
    pub avg: i64,
    /// The cycle of the (first) event with the worst latency.
    pub worst_at: u64,
    pub events: usize,
    pub unanswered: usize,
    pub merged: usize,
    pub orphan_outs: usize,
    /// The five highest 10-cycle bins that hold a latency: (bin start, count), ascending.
    pub hist_top: Vec<(i64, usize)>,
}

impl IrqLat {
    /// The `key value` lines of the figures (the run's `irqlat.txt`).
    pub fn lines(&self) -> String {
        let top: Vec<String> = self
            .hist_top
            .iter()
            .map(|(b, c)| format!("{b}-{}:{c}", b + 9))
            .collect();
        format!(
            "irqlat_worst {}\nirqlat_avg {}\nirqlat_worst_at {}\nirqlat_events {}\nirqlat_unanswered {}\nirqlat_merged {}\nirqlat_orphan_outs {}\nirqlat_hist_top {}\n",
            self.worst,
            self.avg,
            self.worst_at,
            self.events,
            self.unanswered,
            self.merged,
            self.orphan_outs,
            top.join(" ")
        )
    }
}

/// The latencies of the stimulus events on `line` answered by writes to OUT[`port`] in
/// `record` (in time order); `store_cost` is the cycles a store takes to complete.
pub fn irqlat(record: &[IoEvent], line: u32, port: u32, store_cost: u64) -> IrqLat {
    let mut pending: Vec<u64> = Vec::new();
    let mut last: Vec<u64> = Vec::new();
    let mut lats: BTreeMap<u64, i64> = BTreeMap::new();
    let (mut merged, mut orphan) = (0, 0);
    for e in record {
        match e.kind {
            IoKind::Stimulus if e.port == line => pending.push(e.cycle),
            IoKind::Out if e.port == port => {
                let c = e.cycle as i64 - store_cost as i64;
                if pending.is_empty() {
                    if last.len() > 1 {
                        let s = *last.last().unwrap_or(&0);
                        lats.insert(s, c - s as i64);
                        last = vec![s];
                    } else {
                        orphan += 1;
                    }
                    continue;
                }
                merged += pending.len() - 1;
                for &s in &pending {
                    lats.insert(s, c - s as i64);
                }
                last = std::mem::take(&mut pending);
            }
            _ => {}
        }
    }
    summarise(&lats, pending.len(), merged, orphan)
}

fn summarise(lats: &BTreeMap<u64, i64>, unanswered: usize, merged: usize, orphan: usize) -> IrqLat {
    let n = lats.len();
    // The worst latency; of equal ones, the earliest event.
    let (worst_at, worst) = lats
        .iter()
        .fold(None, |best: Option<(u64, i64)>, (&at, &v)| match best {
            Some((_, w)) if w >= v => best,
            _ => Some((at, v)),
        })
        .unwrap_or((0, 0));
    let mut hist: BTreeMap<i64, usize> = BTreeMap::new();
    for v in lats.values() {
        *hist.entry(v.div_euclid(10) * 10).or_default() += 1;
    }
    let total: i64 = lats.values().sum();
    let skip = hist.len().saturating_sub(5);
    IrqLat {
        worst,
        avg: if n > 0 { total.div_euclid(n as i64) } else { 0 },
        worst_at,
        events: n,
        unanswered,
        merged,
        orphan_outs: orphan,
        hist_top: hist.into_iter().skip(skip).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(cycle: u64, kind: IoKind, port: u32) -> IoEvent {
        IoEvent {
            cycle,
            time_fs: 0,
            kind,
            port,
            value: 0,
        }
    }

    #[test]
    fn pairs_each_event_with_the_next_write_less_the_store() {
        use IoKind::*;
        let r = [
            ev(100, Stimulus, 0),
            ev(105, Stimulus, 1), // another line
            ev(150, Out, 1),      // another port
            ev(162, Out, 0),      // 160 - 100 = 60
            ev(300, Stimulus, 0),
            ev(390, Out, 0), // 88
            ev(500, Out, 0), // an orphan
            ev(600, Stimulus, 0),
        ];
        let l = irqlat(&r, 0, 0, 2);
        assert_eq!((l.worst, l.worst_at, l.avg), (88, 300, 74));
        assert_eq!((l.events, l.unanswered, l.merged, l.orphan_outs), (2, 1, 0, 1));
        assert_eq!(l.hist_top, vec![(60, 1), (80, 1)]);
    }

    #[test]
    fn merged_events_share_a_write_and_a_late_one_takes_the_next() {
        use IoKind::*;
        let r = [
            ev(100, Stimulus, 0),
            ev(130, Stimulus, 0), // merged into the first one's LISR ...
            ev(152, Out, 0),
            ev(232, Out, 0), // ... but this write answers it: 230 - 130
        ];
        let l = irqlat(&r, 0, 0, 2);
        assert_eq!((l.events, l.merged, l.orphan_outs), (2, 1, 0));
        assert_eq!((l.worst, l.worst_at, l.avg), (100, 130, 75));
    }

    #[test]
    fn ties_go_to_the_earliest_event_and_the_histogram_keeps_five_bins() {
        use IoKind::*;
        let mut r = Vec::new();
        for (i, lat) in [15, 25, 35, 45, 55, 65, 65].iter().enumerate() {
            let s = 1000 * i as u64;
            r.push(ev(s, Stimulus, 0));
            r.push(ev(s + lat + 2, Out, 0));
        }
        let l = irqlat(&r, 0, 0, 2);
        assert_eq!((l.worst, l.worst_at), (65, 5000));
        assert_eq!(l.hist_top.len(), 5);
        assert_eq!(l.hist_top[0], (20, 1));
        assert_eq!(l.hist_top[4], (60, 2));
        assert!(l
            .lines()
            .ends_with("irqlat_hist_top 20-29:1 30-39:1 40-49:1 50-59:1 60-69:2\n"));
    }
}
