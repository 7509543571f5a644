//! Random access sequences for the RTM with the model's answers: the vectors that
//! tests/rtm/check.sh plays to the Verilog (hw/rtm/rtm.v) to check it against the testbed's model.
//!
//! Usage: rtm_vectors RECORDS SEED COUNT > vectors.hex
//! One access a line, five hex fields: `we addr data be err`. A write (we = 1) gives the
//! data and byte enables it stores and whether the device refuses it; a read (we = 0) gives
//! the data and refusal the model answers. Byte offsets are from the device's base.

use machine::dev::rtm::{self, Rtm, RtmConfig};
use machine::rng::Rng;

/// The testbed's own generator, drawn as 32-bit words and small ranges.
struct Draw(Rng);
impl Draw {
    fn next(&mut self) -> u32 {
        (self.0.next_u64() >> 32) as u32
    }
    fn below(&mut self, n: u32) -> u32 {
        self.next() % n
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let num = |i: usize, what: &str| -> u64 {
        args.get(i).and_then(|s| s.parse().ok()).unwrap_or_else(|| {
            eprintln!("usage: rtm_vectors RECORDS SEED COUNT (missing or bad {what})");
            std::process::exit(2)
        })
    };
    let records = num(1, "RECORDS") as u32;
    let mut rng = Draw(Rng::new(num(2, "SEED")));
    let count = num(3, "COUNT");
    let mut dev = Rtm::new(&RtmConfig {
        records,
        ..RtmConfig::default()
    });
    let mut out = String::new();
    for _ in 0..count {
        // A record a little past the count now and then, to check the refusal.
        let rec = rng.below(records + 2).min(255);
        // Small ranges of priorities and event ids, so that ties and matches are common.
        let prio = if rng.below(4) == 0 {
            rng.below(256)
        } else {
            rng.below(8)
        };
        let event = rng.below(6);
        let (we, off, data, be) = match rng.below(16) {
            0..=4 => {
                let valid = if rng.below(4) != 0 {
                    rtm::VALID as u32
                } else {
                    0
                };
                let status = rng.below(32) | valid;
                let w = status | prio << 8 | event << 16 | rng.below(256) << 24;
                let be = if rng.below(3) == 0 {
                    1 << rng.below(4)
                } else {
                    0xf
                };
                (1, rec * 8, w, be)
            }
            5..=6 => {
                let delay = if rng.below(4) == 0 {
                    rng.next()
                } else {
                    rng.below(6)
                };
                let be = [0xf, 0x3, 0xc, 0x1][rng.below(4) as usize];
                (1, rec * 8 + 4, delay, be)
            }
            7 => {
                let n = match rng.below(8) {
                    0 => rng.next(),
                    1 => 0,
                    _ => rng.below(3),
                };
                (1, rtm::TICK, n, if rng.below(6) == 0 { 0x1 } else { 0xf })
            }
            8..=9 => (0, rtm::READY, 0, 0xf),
            10 => (0, rtm::EXPIRED, 0, 0xf),
            11 => (0, rtm::EVENT + 4 * rng.below(7), 0, 0xf),
            12 => (0, rtm::EARLIEST, 0, 0xf),
            13 => (0, rec * 8 + 4 * rng.below(2), 0, 0xf),
            14 => {
                let regs = [
                    rtm::RECORDS,
                    rtm::TICK,
                    rtm::QUERY_CYCLES,
                    rtm::NOW,
                    0x81c,
                    0xbfc,
                ];
                (0, regs[rng.below(regs.len() as u32) as usize], 0, 0xf)
            }
            _ => {
                let regs = [rtm::READY, rtm::RECORDS, 0x81c, rtm::EVENT];
                (
                    1,
                    regs[rng.below(regs.len() as u32) as usize],
                    rng.next(),
                    0xf,
                )
            }
        };
        let mask = (0..4).fold(0u32, |m, i| {
            m | if be >> i & 1 != 0 { 0xff << (8 * i) } else { 0 }
        });
        let (data, err) = if we == 1 {
            (data, dev.store(off, data & mask, mask).is_none())
        } else {
            match dev.load(off) {
                Some(v) => (v, false),
                None => (0, true),
            }
        };
        out.push_str(&format!(
            "{we:x} {off:03x} {data:08x} {be:x} {:x}\n",
            err as u8
        ));
    }
    print!("{out}");
}
