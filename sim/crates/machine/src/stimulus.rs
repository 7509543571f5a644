//! Stimulus generators.
//!
//! A generator raises its fast IRQ line at event times in absolute simulated time, measured in
//! femtoseconds (u128). Times in the machine file are microseconds; they are converted once to
//! whole femtoseconds (rounded to nearest), and all later arithmetic is in integers, so event
//! times are exact and the same on every host.
//!
//! - Periodic: events at `start + k * period`, k = 0, 1, 2, ...
//! - Geometric: time after `start` is cut into slots of `slot`; at the end of each slot an event
//!   happens with probability p, independently of all other slots. The number of slots from
//!   one event to the next (or from `start` to the first) is then geometric on {1, 2, ...}
//!   with mean 1/p; it is sampled directly by inversion, `K = ceil(ln U / ln(1 - p))` with U
//!   uniform in (0, 1], so an idle stretch of a million slots costs one draw, not a million.
//!   The PRNG is seeded with `mix_seed(mix_seed(global_seed, seed), line)`: the run's `--seed`,
//!   the generator's own seed and its line, so two generators with the default seed on
//!   different lines are independent.

use crate::rng::{ln, mix_seed, Rng};

/// What a stimulus generator does.
#[derive(Clone, Debug, PartialEq)]
pub enum StimulusKind {
    /// Events at `start_us + k * period_us`, k = 0, 1, ...
    Periodic { period_us: f64 },
    /// Time after `start_us` is cut into slots of `slot_us`; at the end of each slot an event
    /// happens with `probability`, independently.
    Geometric { slot_us: f64, probability: f64 },
    /// Events at `start_us + t` for each t of the list (scripted stimuli), in order.
    Times { times_us: std::sync::Arc<[f64]> },
}

/// One stimulus generator. TOML: `[[stimulus]]` with `line`, `kind`, `period_us` |
/// `slot_us` + `probability` | `times_us`, optional `start_us` (default 0) and `seed`
/// (default 1).
#[derive(Clone, Debug, PartialEq)]
pub struct StimulusConfig {
    /// Fast IRQ line 0..14.
    pub line: u8,
    pub kind: StimulusKind,
    /// Time of the first period / slot start, in microseconds (>= 0).
    pub start_us: f64,
    /// The generator's own seed, combined with the run's global seed.
    pub seed: u64,
}

/// Femtoseconds per microsecond.
pub const FS_PER_US: f64 = 1e9;

/// Microseconds to whole femtoseconds, rounded to nearest (saturating; negative or NaN -> 0).
/// The whole microseconds are converted exactly (below 2^53 us), only the fraction is rounded,
/// so an integer number of microseconds gives an exact result.
pub fn us_to_fs(us: f64) -> u128 {
    if us.is_nan() || us <= 0.0 {
        return 0;
    }
    if us >= 9.0e15 {
        let fs = us * FS_PER_US;
        return if fs >= u128::MAX as f64 {
            u128::MAX
        } else {
            fs as u128
        };
    }
    let whole = us.trunc();
    let frac = us - whole; // exact
    whole as u128 * 1_000_000_000 + (frac * FS_PER_US).round() as u128
}

#[derive(Clone, Debug)]
enum Law {
    Periodic {
        period_fs: u128,
    },
    Geometric {
        slot_fs: u128,
        probability: f64,
        rng: Rng,
    },
    /// The listed times (microseconds, shared with the configuration and every copy of the
    /// machine: each is converted when it is due), from `start_fs`; `next` indexes the one
    /// after the pending event.
    Times {
        times_us: std::sync::Arc<[f64]>,
        start_fs: u128,
        next: usize,
    },
}

/// One stimulus generator, created from its `StimulusConfig` and the run's global seed.
#[derive(Clone, Debug)]
pub struct StimulusGen {
    line: u8,
    law: Law,
    /// Time of the next event; None once time would overflow (never happens in practice).
    next_fs: Option<u128>,
    /// Event number of the next event (0-based).
    count: u64,
}

impl StimulusGen {
    /// A generator in its reset state: its first event is already scheduled.
    pub fn new(cfg: &StimulusConfig, global_seed: u64) -> StimulusGen {
        let start_fs = us_to_fs(cfg.start_us);
        let mut g = match &cfg.kind {
            StimulusKind::Periodic { period_us } => StimulusGen {
                line: cfg.line,
                law: Law::Periodic {
                    period_fs: us_to_fs(*period_us).max(1),
                },
                next_fs: Some(start_fs),
                count: 0,
            },
            StimulusKind::Geometric {
                slot_us,
                probability,
            } => {
                let seed = mix_seed(mix_seed(global_seed, cfg.seed), cfg.line as u64);
                StimulusGen {
                    line: cfg.line,
                    law: Law::Geometric {
                        slot_fs: us_to_fs(*slot_us).max(1),
                        probability: *probability,
                        rng: Rng::new(seed),
                    },
                    next_fs: Some(start_fs),
                    count: 0,
                }
            }
            StimulusKind::Times { times_us } => StimulusGen {
                line: cfg.line,
                next_fs: times_us
                    .first()
                    .map(|&t| start_fs.saturating_add(us_to_fs(t))),
                law: Law::Times {
                    times_us: times_us.clone(),
                    start_fs,
                    next: 1,
                },
                count: 0,
            },
        };
        if let Law::Geometric { .. } = g.law {
            // First event: K slots after start, K >= 1.
            g.next_fs = g.advance(start_fs);
        }
        g
    }

    /// The fast IRQ line (0..14) this generator raises.
    pub fn line(&self) -> u8 {
        self.line
    }

    /// Absolute time of the next event in femtoseconds, or None if there is none.
    pub fn next_event_fs(&self) -> Option<u128> {
        self.next_fs
    }

    /// Number of events fired so far (= the event number `fire` will return next).
    pub fn fired(&self) -> u64 {
        self.count
    }

    /// Fires the pending event: returns its 0-based event number and schedules the next one.
    /// Call it when simulated time reaches `next_event_fs()`.
    pub fn fire(&mut self) -> u64 {
        let n = self.count;
        self.count += 1;
        self.next_fs = match self.next_fs {
            Some(t) => self.advance(t),
            None => None,
        };
        n
    }

    /// Fires every pending event at or before `until_fs` (simulated time has reached it) and
    /// schedules the next one. Returns the time of the first event fired and how many fired,
    /// or None if none was due. `each(n, t_fs)` is called for every event fired (number and
    /// time) when given; without it a periodic generator skips any number of events in
    /// constant time, so a period far shorter than a clock cycle costs nothing: the line is
    /// a latched level, and only a record needs the events one by one.
    pub fn fire_until(
        &mut self,
        until_fs: u128,
        mut each: Option<&mut dyn FnMut(u64, u128)>,
    ) -> Option<(u128, u64)> {
        let first = self.next_fs.filter(|&t| t <= until_fs)?;
        if each.is_none() {
            if let Law::Periodic { period_fs } = self.law {
                let k = (until_fs - first) / period_fs + 1;
                let fired = u64::try_from(k).unwrap_or(u64::MAX);
                self.count = self.count.saturating_add(fired);
                self.next_fs = k.checked_mul(period_fs).and_then(|d| first.checked_add(d));
                return Some((first, fired));
            }
        }
        let mut fired = 0u64;
        while let Some(t) = self.next_fs.filter(|&t| t <= until_fs) {
            let n = self.fire();
            if let Some(f) = each.as_mut() {
                f(n, t);
            }
            fired += 1;
        }
        Some((first, fired))
    }

    /// The event after one at time `t`.
    fn advance(&mut self, t: u128) -> Option<u128> {
        match &mut self.law {
            Law::Periodic { period_fs } => t.checked_add(*period_fs),
            Law::Geometric {
                slot_fs,
                probability,
                rng,
            } => {
                let k = geometric_slots(rng, *probability);
                k.checked_mul(*slot_fs).and_then(|d| t.checked_add(d))
            }
            Law::Times {
                times_us,
                start_fs,
                next,
            } => {
                let n = times_us
                    .get(*next)
                    .map(|&t| start_fs.saturating_add(us_to_fs(t)));
                *next += 1;
                n
            }
        }
    }
}

/// A geometric variate on {1, 2, ...} with success probability `p` (0 < p <= 1), by
/// inversion: `ceil(ln U / ln(1 - p))`, U uniform in (0, 1]. Saturates at u64::MAX slots.
pub fn geometric_slots(rng: &mut Rng, p: f64) -> u128 {
    let u = rng.next_f64_open0();
    if p >= 1.0 {
        return 1;
    }
    // ln(1 - p); below 1e-8, 1 - p loses most of p's digits, so use the series -p - p^2/2
    // (its next term, p^3/3, is below half an ulp there).
    let denom = if p < 1e-8 {
        -p - 0.5 * p * p
    } else {
        ln(1.0 - p)
    };
    let k = (ln(u) / denom).ceil();
    if k.is_nan() || k < 1.0 {
        1
    } else if k >= u64::MAX as f64 {
        u64::MAX as u128
    } else {
        k as u128
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn periodic(line: u8, period_us: f64, start_us: f64) -> StimulusConfig {
        StimulusConfig {
            line,
            kind: StimulusKind::Periodic { period_us },
            start_us,
            seed: 1,
        }
    }

    #[test]
    fn listed_times_fire_in_order_from_start_then_stop() {
        let cfg = StimulusConfig {
            line: 4,
            kind: StimulusKind::Times {
                times_us: vec![0.0, 2.5, 2.5, 1000.0].into(),
            },
            start_us: 10.0,
            seed: 1,
        };
        let mut g = StimulusGen::new(&cfg, 1);
        let us = |x: f64| us_to_fs(x);
        let mut seen = Vec::new();
        let mut each = |n: u64, t: u128| seen.push((n, t));
        assert_eq!(g.fire_until(us(12.0), Some(&mut each)), Some((us(10.0), 1)));
        assert_eq!(g.fire_until(us(12.5), Some(&mut each)), Some((us(12.5), 2)));
        assert_eq!(g.fire_until(us(1009.0), Some(&mut each)), None);
        assert_eq!(g.next_event_fs(), Some(us(1010.0)));
        assert_eq!(
            g.fire_until(u128::MAX, Some(&mut each)),
            Some((us(1010.0), 1))
        );
        assert_eq!(
            g.next_event_fs(),
            None,
            "no event after the last listed one"
        );
        assert_eq!(
            seen,
            [(0, us(10.0)), (1, us(12.5)), (2, us(12.5)), (3, us(1010.0))]
        );
        // A copy shares the listed times (the GDB server's snapshots copy the machine).
        let h = g.clone();
        match (&g.law, &h.law, &cfg.kind) {
            (
                Law::Times { times_us: a, .. },
                Law::Times { times_us: b, .. },
                StimulusKind::Times { times_us: c },
            ) => {
                assert!(std::sync::Arc::ptr_eq(a, b) && std::sync::Arc::ptr_eq(a, c))
            }
            _ => unreachable!(),
        }
        let empty = StimulusConfig {
            kind: StimulusKind::Times {
                times_us: Vec::new().into(),
            },
            ..cfg
        };
        assert_eq!(StimulusGen::new(&empty, 1).next_event_fs(), None);
    }

    fn geometric(line: u8, slot_us: f64, probability: f64, seed: u64) -> StimulusConfig {
        StimulusConfig {
            line,
            kind: StimulusKind::Geometric {
                slot_us,
                probability,
            },
            start_us: 0.0,
            seed,
        }
    }

    #[test]
    fn periodic_is_exact() {
        let mut g = StimulusGen::new(&periodic(3, 1000.0, 12.5), 99);
        assert_eq!(g.line(), 3);
        for k in 0..100_000u128 {
            assert_eq!(
                g.next_event_fs(),
                Some(12_500_000_000 + k * 1_000_000_000_000)
            );
            assert_eq!(g.fire() as u128, k);
        }
        // A period that is not a whole number of nanoseconds.
        let mut g = StimulusGen::new(&periodic(0, 0.333333, 0.0), 0);
        for k in 0..1000u128 {
            assert_eq!(g.next_event_fs(), Some(k * 333_333_000));
            g.fire();
        }
        // No accumulation of rounding: event 10^6 of a 0.1 us period is at exactly 0.1 s.
        let mut g = StimulusGen::new(&periodic(0, 0.1, 0.0), 0);
        for _ in 0..1_000_000 {
            g.fire();
        }
        assert_eq!(g.next_event_fs(), Some(100_000_000_000_000));
        assert_eq!(g.fired(), 1_000_000);
    }

    #[test]
    fn geometric_mean_and_slot_alignment() {
        for &(slot_us, p) in &[(100.0, 0.01), (10.0, 0.5), (1.0, 0.001), (5.0, 1.0)] {
            let cfg = geometric(1, slot_us, p, 1);
            let mut g = StimulusGen::new(&cfg, 0);
            let slot = us_to_fs(slot_us);
            let n = 100_000u64;
            let mut prev = 0u128;
            let mut sum_slots = 0u128;
            let mut sum_sq = 0f64;
            for i in 0..n {
                let t = g.next_event_fs().unwrap();
                assert_eq!(t % slot, 0, "events at slot boundaries");
                assert!(t > prev || (i == 0 && t > 0), "strictly increasing");
                let k = (t - prev) / slot;
                assert!(k >= 1);
                sum_slots += k;
                sum_sq += (k as f64) * (k as f64);
                prev = t;
                assert_eq!(g.fire(), i);
            }
            let mean = sum_slots as f64 / n as f64;
            let expect = 1.0 / p;
            // Standard deviation of a geometric variate: sqrt(1-p)/p; the mean of n has
            // sd sqrt(1-p)/p/sqrt(n). Allow 5 sd.
            let sd = (1.0 - p).sqrt() / p / (n as f64).sqrt();
            assert!(
                (mean - expect).abs() <= 5.0 * sd + 1e-12,
                "slot {slot_us} p {p}: mean {mean} slots, expected {expect}"
            );
            let var = sum_sq / n as f64 - mean * mean;
            let expect_var = (1.0 - p) / (p * p);
            assert!(
                (var - expect_var).abs() <= 0.05 * expect_var + 1e-9,
                "variance {var} vs {expect_var}"
            );
            // Mean inter-arrival time close to slot / p.
            let mean_us = mean * slot_us;
            assert!((mean_us - slot_us / p).abs() / (slot_us / p) < 0.02);
        }
    }

    #[test]
    fn geometric_distribution_shape() {
        // P(K = 1) = p, P(K = 2) = p (1 - p).
        let mut rng = Rng::new(5);
        let p = 0.25;
        let n = 200_000;
        let mut c1 = 0;
        let mut c2 = 0;
        for _ in 0..n {
            match geometric_slots(&mut rng, p) {
                1 => c1 += 1,
                2 => c2 += 1,
                _ => {}
            }
        }
        let f1 = c1 as f64 / n as f64;
        let f2 = c2 as f64 / n as f64;
        assert!((f1 - 0.25).abs() < 0.005, "{f1}");
        assert!((f2 - 0.1875).abs() < 0.005, "{f2}");
    }

    #[test]
    fn geometric_is_deterministic() {
        let times = |cfg: &StimulusConfig, seed: u64| {
            let mut g = StimulusGen::new(cfg, seed);
            (0..1000)
                .map(|_| {
                    let t = g.next_event_fs().unwrap();
                    g.fire();
                    t
                })
                .collect::<Vec<u128>>()
        };
        let a = geometric(2, 100.0, 0.01, 1);
        assert_eq!(times(&a, 42), times(&a, 42));
        assert_ne!(times(&a, 42), times(&a, 43), "global seed matters");
        assert_ne!(
            times(&a, 42),
            times(&geometric(2, 100.0, 0.01, 2), 42),
            "own seed matters"
        );
        assert_ne!(
            times(&a, 42),
            times(&geometric(3, 100.0, 0.01, 1), 42),
            "line matters"
        );
        // Pinned: the first event times for this configuration must never change, or recorded
        // experiments stop being reproducible.
        let t = times(&geometric(0, 100.0, 0.01, 1), 0);
        let pinned = PINNED_FIRST.to_vec();
        assert_eq!(
            &t[..pinned.len()],
            &pinned[..],
            "first events {:?}",
            &t[..5]
        );
    }

    const PINNED_FIRST: [u128; 5] = [
        18_500_000_000_000,
        23_400_000_000_000,
        23_600_000_000_000,
        33_300_000_000_000,
        34_700_000_000_000,
    ];

    #[test]
    fn start_offset_and_tiny_probability() {
        let mut cfg = geometric(0, 100.0, 1.0, 1);
        cfg.start_us = 50.0;
        let mut g = StimulusGen::new(&cfg, 0);
        assert_eq!(g.next_event_fs(), Some(us_to_fs(150.0)));
        g.fire();
        assert_eq!(g.next_event_fs(), Some(us_to_fs(250.0)));
        // Tiny p: huge gaps but finite, no panic.
        let mut g = StimulusGen::new(&geometric(0, 1e15, 1e-300, 1), 0);
        let _ = g.next_event_fs();
        g.fire();
    }

    #[test]
    fn fire_until_skips_unrecorded_periodic_events_at_once() {
        // 10^12 events of a 1 fs period before 1 ms: counted, not iterated.
        let mut g = StimulusGen::new(&periodic(4, 1e-9, 0.0), 0);
        assert_eq!(
            g.fire_until(FS_PER_US as u128 * 1000 - 1, None),
            Some((0, 1_000_000_000_000))
        );
        assert_eq!(g.fired(), 1_000_000_000_000);
        assert_eq!(g.next_event_fs(), Some(1_000_000_000_000));
        assert_eq!(
            g.fire_until(999_999_999_999, None),
            None,
            "nothing due before the next"
        );
    }

    #[test]
    fn fire_until_reports_each_event_when_asked() {
        let mut a = StimulusGen::new(&periodic(0, 0.25, 1.0), 0);
        let mut b = a.clone();
        let mut seen = Vec::new();
        let got = a.fire_until(us_to_fs(2.0), Some(&mut |n, t| seen.push((n, t))));
        assert_eq!(got, Some((us_to_fs(1.0), 5)));
        let want: Vec<(u64, u128)> = (0..5)
            .map(|k| (k, us_to_fs(1.0 + 0.25 * k as f64)))
            .collect();
        assert_eq!(seen, want);
        // The same state whether the events were reported or skipped.
        assert_eq!(b.fire_until(us_to_fs(2.0), None), Some((us_to_fs(1.0), 5)));
        assert_eq!(
            (a.fired(), a.next_event_fs()),
            (b.fired(), b.next_event_fs())
        );
        // A geometric generator fires the same events either way.
        let cfg = geometric(1, 1.0, 0.5, 3);
        let mut g1 = StimulusGen::new(&cfg, 9);
        let mut g2 = g1.clone();
        let mut n1 = 0;
        let r1 = g1.fire_until(us_to_fs(1000.0), Some(&mut |_, _| n1 += 1));
        let r2 = g2.fire_until(us_to_fs(1000.0), None);
        assert_eq!(r1, r2);
        assert_eq!(r1.map(|r| r.1), Some(n1));
        assert_eq!(g1.next_event_fs(), g2.next_event_fs());
    }

    #[test]
    fn us_to_fs_rounds() {
        assert_eq!(us_to_fs(1.0), 1_000_000_000);
        assert_eq!(us_to_fs(0.1), 100_000_000);
        assert_eq!(us_to_fs(0.0), 0);
        assert_eq!(us_to_fs(-1.0), 0);
        assert_eq!(us_to_fs(1e15), 1_000_000_000_000_000_000_000_000);
    }
}
