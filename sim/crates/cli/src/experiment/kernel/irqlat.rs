//! Interrupt latency from a run's IO record: each stimulus event on the benchmark's fast
//! line is paired with the next write to its IO port (the LISR's first act) by
//! measure::edges, and the latency is that write's cycle, less the store's own cost, less
//! the event's cycle.
//!
//! With the `merged` policy, events that come while the line is still pending (before the
//! LISR of the previous one acknowledged it) share that LISR ("merged"); a write that no
//! waiting event explains answers the last event of the previous group when that group had
//! more than one (that event came after the LISR acknowledged the line, so raised it again);
//! otherwise the write is an "orphan". Events still waiting at the end are "unanswered".

use crate::experiment::measure::edges::{pair, EventSel, Policy};
use machine::record::IoEvent;
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

/// The latencies of the events `from` answered by the events `to` in `record` (in time
/// order), paired by `policy`; `store_cycles` is the cycles the answering store takes.
pub fn irqlat(
    record: &[IoEvent],
    from: &EventSel,
    to: &EventSel,
    policy: Policy,
    store_cycles: u64,
) -> IrqLat {
    let p = pair(record, from, to, policy);
    // By the event's cycle: one latency per event.
    let lats: BTreeMap<u64, i64> = p
        .pairs
        .iter()
        .map(|x| (x.start.cycle, x.cycles() - store_cycles as i64))
        .collect();
    summarise(
        &lats,
        p.unpaired_starts.len(),
        p.merged,
        p.unpaired_ends.len(),
    )
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
    use machine::record::IoKind;

    const S: EventSel = EventSel::Stimulus { line: 0 };
    const O: EventSel = EventSel::Out {
        port: 0,
        value: None,
    };

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
        let l = irqlat(&r, &S, &O, Policy::Merged, 2);
        assert_eq!((l.worst, l.worst_at, l.avg), (88, 300, 74));
        assert_eq!(
            (l.events, l.unanswered, l.merged, l.orphan_outs),
            (2, 1, 0, 1)
        );
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
        let l = irqlat(&r, &S, &O, Policy::Merged, 2);
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
        let l = irqlat(&r, &S, &O, Policy::Merged, 2);
        assert_eq!((l.worst, l.worst_at), (65, 5000));
        assert_eq!(l.hist_top.len(), 5);
        assert_eq!(l.hist_top[0], (20, 1));
        assert_eq!(l.hist_top[4], (60, 2));
        assert!(l
            .lines()
            .ends_with("irqlat_hist_top 20-29:1 30-39:1 40-49:1 50-59:1 60-69:2\n"));
    }
}
