//! IO input streams.
//!
//! Each read of IO port IN[n] returns the next sample of stream n. Streams are deterministic
//! and do not depend on the run's seed:
//!
//! - Sine: sample k is `round(offset + amplitude * sin(2 pi k / period_samples))` (round half
//!   away from zero) as an i32, returned as its u32 bits. The sine is computed from IEEE-754
//!   basic operations only (fdlibm's kernel polynomials after an exact reduction of k modulo
//!   the period), so samples are bit-identical on every host.
//! - LFSR: a 32-bit Galois LFSR shifting right with feedback polynomial
//!   x^32 + x^22 + x^2 + x + 1 (toggle mask 0x8020_0003), which is primitive, so the state runs
//!   through all 2^32 - 1 non-zero values. Each step outputs the state's bit 0; each sample is
//!   the next `bits` output bits, the first in bit 0.
//! - File: the samples loaded from the file at configuration time, wrapping around at the end.

use std::path::PathBuf;
use std::sync::Arc;

/// What an input stream produces.
#[derive(Clone, Debug, PartialEq)]
pub enum InputKind {
    /// `round(offset + amplitude * sin(2 pi k / period_samples))` as i32 bits.
    Sine {
        amplitude: f64,
        period_samples: u64,
        offset: f64,
    },
    /// 32-bit maximal-length Galois LFSR from `seed` (non-zero); each sample is the next
    /// `bits` (1..32) output bits.
    Lfsr { seed: u32, bits: u32 },
    /// Samples read from a text file (already loaded: `samples` is non-empty); wraps around.
    /// The samples are shared by copies of the configuration and of the machine.
    File {
        path: PathBuf,
        samples: std::sync::Arc<[u32]>,
    },
}

/// One input stream. TOML: `[[input]]` with `port` and `kind` = `"sine"` (`amplitude`,
/// `period_samples`, `offset`) | `"lfsr"` (`seed`, `bits`) | `"file"` (`path`).
#[derive(Clone, Debug, PartialEq)]
pub struct InputConfig {
    /// IO port 0..31 (read at IN[port]).
    pub port: u8,
    pub kind: InputKind,
}

/// Galois toggle mask of the LFSR polynomial x^32 + x^22 + x^2 + x + 1.
pub const LFSR_MASK: u32 = 0x8020_0003;

#[derive(Clone, Debug)]
enum Gen {
    Sine {
        amplitude: f64,
        period: u64,
        offset: f64,
        k: u64,
    },
    Lfsr {
        state: u32,
        bits: u32,
    },
    /// The file's samples are shared by every copy of the stream (and of the machine);
    /// each copy has its own position.
    File {
        samples: Arc<[u32]>,
        pos: usize,
    },
}

/// One input stream, created from its `InputConfig`.
#[derive(Clone, Debug)]
pub struct InputStream {
    port: u8,
    gen: Gen,
}

impl InputStream {
    /// The stream in its reset state (sample 0 next).
    pub fn new(cfg: &InputConfig) -> InputStream {
        let gen = match &cfg.kind {
            InputKind::Sine {
                amplitude,
                period_samples,
                offset,
            } => Gen::Sine {
                amplitude: *amplitude,
                period: (*period_samples).max(1),
                offset: *offset,
                k: 0,
            },
            InputKind::Lfsr { seed, bits } => Gen::Lfsr {
                state: if *seed == 0 { 1 } else { *seed },
                bits: (*bits).clamp(1, 32),
            },
            InputKind::File { samples, .. } => Gen::File {
                samples: if samples.is_empty() {
                    Arc::from([0u32])
                } else {
                    samples.clone()
                },
                pos: 0,
            },
        };
        InputStream {
            port: cfg.port,
            gen,
        }
    }

    /// The IO port (0..31) this stream feeds.
    pub fn port(&self) -> u8 {
        self.port
    }

    /// The next sample.
    pub fn next_sample(&mut self) -> u32 {
        match &mut self.gen {
            Gen::Sine {
                amplitude,
                period,
                offset,
                k,
            } => {
                let v = *offset + *amplitude * sin_turns(*k, *period);
                *k = (*k + 1) % *period;
                round_to_i32(v) as u32
            }
            Gen::Lfsr { state, bits } => {
                let mut out = 0u32;
                for i in 0..*bits {
                    out |= (*state & 1) << i;
                    *state = lfsr_step(*state);
                }
                out
            }
            Gen::File { samples, pos } => {
                let v = samples[*pos];
                *pos += 1;
                if *pos == samples.len() {
                    *pos = 0;
                }
                v
            }
        }
    }
}

/// One step of the Galois LFSR (shift right; if the bit shifted out is 1, toggle the taps).
#[inline]
pub fn lfsr_step(state: u32) -> u32 {
    let out = state & 1;
    (state >> 1) ^ (out.wrapping_neg() & LFSR_MASK)
}

fn round_to_i32(v: f64) -> i32 {
    // f64::round is round-half-away-from-zero and exact; `as` saturates (config bounds the
    // range so it never needs to).
    v.round() as i32
}

/// sin(2 pi k / n) for 0 <= k < n, deterministic: the phase k/n is reduced to the nearest
/// quarter turn exactly, and the rest (|x| <= pi/4) goes through fdlibm's kernels.
fn sin_turns(k: u64, n: u64) -> f64 {
    let k = k % n;
    // Quarter-turn index q and remainder r/n4 in [-1/2, 1/2] quarter turn, in exact integers:
    // 4k = q n + r with |r| <= n/2.
    let four_k = 4 * k as u128;
    let n128 = n as u128;
    let mut q = four_k / n128;
    let mut r = (four_k % n128) as i128;
    if 2 * r > n128 as i128 {
        q += 1;
        r -= n128 as i128;
    }
    // x = (r / n) quarter turns = (r / n) * pi/2 radians, |x| <= pi/4.
    let x = (r as f64 / n as f64) * std::f64::consts::FRAC_PI_2;
    match q % 4 {
        0 => k_sin(x),
        1 => k_cos(x),
        2 => -k_sin(x),
        _ => -k_cos(x),
    }
}

/// fdlibm `__kernel_sin(x, 0, 0)`, |x| <= pi/4.
fn k_sin(x: f64) -> f64 {
    const S1: f64 = f64::from_bits(0xBFC5_5555_5555_5549); // -1.66666666666666324348e-01
    const S2: f64 = f64::from_bits(0x3F81_1111_1110_F8A6); // 8.33333333332248946124e-03
    const S3: f64 = f64::from_bits(0xBF2A_01A0_19C1_61D5); // -1.98412698298579493134e-04
    const S4: f64 = f64::from_bits(0x3EC7_1DE3_57B1_FE7D); // 2.75573137070700676789e-06
    const S5: f64 = f64::from_bits(0xBE5A_E5E6_8A2B_9CEB); // -2.50507602534068634195e-08
    const S6: f64 = f64::from_bits(0x3DE5_D93A_5ACF_D57C); // 1.58969099521155010221e-10
    let z = x * x;
    let v = z * x;
    let r = S2 + z * (S3 + z * (S4 + z * (S5 + z * S6)));
    x + v * (S1 + z * r)
}

/// fdlibm `__kernel_cos(x, 0)` (musl form), |x| <= pi/4.
fn k_cos(x: f64) -> f64 {
    const C1: f64 = f64::from_bits(0x3FA5_5555_5555_554C); // 4.16666666666666019037e-02
    const C2: f64 = f64::from_bits(0xBF56_C16C_16C1_5177); // -1.38888888888741095749e-03
    const C3: f64 = f64::from_bits(0x3EFA_01A0_19CB_1590); // 2.48015872894767294178e-05
    const C4: f64 = f64::from_bits(0xBE92_7E4F_809C_52AD); // -2.75573143513906633035e-07
    const C5: f64 = f64::from_bits(0x3E21_EE9E_BDB4_B1C4); // 2.08757232129817482790e-09
    const C6: f64 = f64::from_bits(0xBDA8_FAE9_BE88_38D4); // -1.13596475577881948265e-11
    let z = x * x;
    let w = z * z;
    let r = z * (C1 + z * (C2 + z * C3)) + w * w * (C4 + z * (C5 + z * C6));
    let hz = 0.5 * z;
    let w = 1.0 - hz;
    w + (((1.0 - w) - hz) + z * r)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn stream(kind: InputKind) -> InputStream {
        InputStream::new(&InputConfig { port: 7, kind })
    }

    #[test]
    fn sine_samples() {
        let mut s = stream(InputKind::Sine {
            amplitude: 1000.0,
            period_samples: 8,
            offset: 2048.0,
        });
        assert_eq!(s.port(), 7);
        let got: Vec<i32> = (0..16).map(|_| s.next_sample() as i32).collect();
        // 1000 * sin(pi/4) = 707.1
        let one = [2048, 2755, 3048, 2755, 2048, 1341, 1048, 1341];
        assert_eq!(&got[..8], &one);
        assert_eq!(&got[8..], &one, "periodic");
        // Negative values come back as two's complement.
        let mut s = stream(InputKind::Sine {
            amplitude: 5.0,
            period_samples: 4,
            offset: 0.0,
        });
        let got: Vec<u32> = (0..4).map(|_| s.next_sample()).collect();
        assert_eq!(got, vec![0, 5, 0, (-5i32) as u32]);
    }

    #[test]
    fn sine_matches_std() {
        for &n in &[1u64, 2, 3, 7, 64, 1000, 44_100, 1 << 40] {
            for k in (0..n.min(5000)).chain([n - 1, n / 3, n / 2]) {
                let a = sin_turns(k, n);
                let b = (2.0 * std::f64::consts::PI * (k as f64 / n as f64)).sin();
                assert!((a - b).abs() < 1e-14, "k {k} n {n}: {a} vs {b}");
            }
        }
        assert_eq!(sin_turns(0, 10), 0.0);
        assert_eq!(sin_turns(1, 4), 1.0);
        assert_eq!(sin_turns(3, 4), -1.0);
    }

    #[test]
    fn lfsr_samples() {
        let mut s = stream(InputKind::Lfsr { seed: 1, bits: 32 });
        // From state 1: output bit 1, state becomes MASK.
        let first = s.next_sample();
        assert_eq!(first & 1, 1);
        let mut state = 1u32;
        let mut expect = 0u32;
        for i in 0..32 {
            expect |= (state & 1) << i;
            state = lfsr_step(state);
        }
        assert_eq!(first, expect);
        let mut s = stream(InputKind::Lfsr {
            seed: 0xACE1,
            bits: 12,
        });
        for _ in 0..1000 {
            assert!(s.next_sample() < 1 << 12);
        }
        // Pinned values (documented algorithm: must never change).
        let mut s = stream(InputKind::Lfsr { seed: 1, bits: 8 });
        assert_eq!(lfsr_step(1), LFSR_MASK);
        let v: Vec<u32> = (0..3).map(|_| s.next_sample()).collect();
        let mut st = 1u32;
        let mut manual = vec![];
        for _ in 0..3 {
            let mut o = 0;
            for i in 0..8 {
                o |= (st & 1) << i;
                st = lfsr_step(st);
            }
            manual.push(o);
        }
        assert_eq!(v, manual);
    }

    /// The LFSR's state transition is linear over GF(2); its period is maximal (2^32 - 1) iff
    /// M^(2^32-1) = I and M^((2^32-1)/q) != I for every prime q dividing 2^32 - 1
    /// (= 3 * 5 * 17 * 257 * 65537). Checked on the implemented step function itself.
    #[test]
    fn lfsr_is_maximal_length() {
        type M = [u32; 32]; // column j = image of basis vector e_j
        fn apply(m: &M, v: u32) -> u32 {
            let mut r = 0;
            for (j, col) in m.iter().enumerate() {
                if v >> j & 1 == 1 {
                    r ^= col;
                }
            }
            r
        }
        fn mul(a: &M, b: &M) -> M {
            let mut c = [0u32; 32];
            for j in 0..32 {
                c[j] = apply(a, b[j]);
            }
            c
        }
        fn pow(m: &M, mut e: u64) -> M {
            let mut result: M = std::array::from_fn(|j| 1u32 << j);
            let mut base = *m;
            while e > 0 {
                if e & 1 == 1 {
                    result = mul(&result, &base);
                }
                base = mul(&base, &base);
                e >>= 1;
            }
            result
        }
        let step: M = std::array::from_fn(|j| lfsr_step(1u32 << j));
        let id: M = std::array::from_fn(|j| 1u32 << j);
        let order = (1u64 << 32) - 1;
        assert_eq!(pow(&step, order), id);
        for q in [3u64, 5, 17, 257, 65537] {
            assert_ne!(pow(&step, order / q), id, "period divides (2^32-1)/{q}");
        }
    }

    #[test]
    fn file_wraps() {
        let mut s = stream(InputKind::File {
            path: PathBuf::from("x"),
            samples: vec![5, 6, 7].into(),
        });
        let got: Vec<u32> = (0..7).map(|_| s.next_sample()).collect();
        assert_eq!(got, vec![5, 6, 7, 5, 6, 7, 5]);
        // A copy shares the samples and goes on from its own position.
        let mut t = s.clone();
        match (&s.gen, &t.gen) {
            (Gen::File { samples: a, .. }, Gen::File { samples: b, .. }) => {
                assert!(Arc::ptr_eq(a, b))
            }
            _ => unreachable!(),
        }
        assert_eq!((t.next_sample(), t.next_sample()), (6, 7));
        assert_eq!(s.next_sample(), 6);
    }

    #[test]
    fn from_machine_file() {
        let cfg = crate::config::MachineConfig::from_str(
            "[[input]]\nport = 2\nkind = \"sine\"\namplitude = 10\nperiod_samples = 4\n",
            "m.toml",
        )
        .unwrap();
        let mut s = InputStream::new(&cfg.devices.io.inputs[0]);
        assert_eq!(s.port(), 2);
        let got: Vec<i32> = (0..4).map(|_| s.next_sample() as i32).collect();
        assert_eq!(got, vec![0, 10, 0, -10]);
    }
}
