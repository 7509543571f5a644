//! Which function, and which category, every code address belongs to: built once from the
//! ELF's symbols and sections into one word per RAM halfword, so that attributing an
//! instruction is one indexed load.
//!
//! A slot word holds the function index (bits 0..29), `ENTRY` (bit 30: the first
//! instruction of the function) and `CALL` (bit 31: the instruction at this address is a
//! `jal`/`jalr` that links through `ra` or `t0`, a call by the RISC-V convention).

use crate::Category;
use machine::elf::Image;
use rv32::inst::{decode, Op};

pub const FN_MASK: u32 = (1 << 30) - 1;
pub const ENTRY: u32 = 1 << 30;
pub const CALL: u32 = 1 << 31;

/// Function 0: code outside every symbol and every executable section.
pub const NO_SYMBOL: u32 = 0;
/// Function 1: the cycles the core sleeps in `wfi` (clock gated).
pub const SLEEP: u32 = 1;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Func {
    pub name: String,
    pub start: u32,
    pub end: u32,
    /// The category of its code (by section).
    pub cat: Category,
}

#[derive(Clone, Debug)]
pub struct CodeMap {
    pub funcs: Vec<Func>,
    /// One word per halfword of `[base, base + 2 * slots.len())`.
    pub slots: Vec<u32>,
    pub base: u32,
}

/// Reads the halfword at `addr` from the image's segments.
fn image_u16(image: &Image, addr: u32) -> Option<u16> {
    image.segments.iter().find_map(|s| {
        let off = addr.checked_sub(s.addr)? as usize;
        (off + 2 <= s.data.len()).then(|| u16::from_le_bytes([s.data[off], s.data[off + 1]]))
    })
}

/// The slots of the halfwords at even addresses in `[from, to)` that lie in RAM (`base` and
/// `slots` halfwords on).
fn slot_range(from: u32, to: u32, base: u32, slots: usize) -> std::ops::Range<usize> {
    let (from, to, base) = (u64::from(from & !1), u64::from(to), u64::from(base));
    let lo = from.max(base);
    let hi = to.min(base + 2 * slots as u64);
    if lo >= hi {
        return 0..0;
    }
    (((lo - base) >> 1) as usize)..((((hi - base + 1) >> 1) as usize).min(slots))
}

impl CodeMap {
    /// The map of `image` loaded into RAM `[base, base + len)`.
    pub fn new(image: &Image, base: u32, len: u32) -> CodeMap {
        let mut funcs = vec![
            Func {
                name: "(no symbol)".into(),
                start: 0,
                end: 0,
                cat: Category::User,
            },
            Func {
                name: "(sleep)".into(),
                start: 0,
                end: 0,
                cat: Category::Idle,
            },
        ];
        let mut slots = vec![NO_SYMBOL; (len / 2) as usize];
        let in_ram = |a: u32| a.wrapping_sub(base) < len;
        let slot_of = |a: u32| (a.wrapping_sub(base) >> 1) as usize;

        for sec in image.sections.iter().filter(|s| s.executable && s.size > 0) {
            let sec_end = sec.addr.saturating_add(sec.size);
            let cat = Category::of_section(&sec.name);
            // Labels inside the section: functions first at each address, then the rest.
            let mut cands: Vec<&machine::elf::Symbol> = image
                .symbols
                .iter()
                .filter(|s| s.addr >= sec.addr && s.addr < sec_end)
                .filter(|s| s.is_func || !(s.name.starts_with("__") || s.name.starts_with(".L")))
                .collect();
            cands.sort_by(|a, b| {
                a.addr
                    .cmp(&b.addr)
                    .then(b.is_func.cmp(&a.is_func))
                    .then(a.name.starts_with('_').cmp(&b.name.starts_with('_')))
                    .then(a.name.cmp(&b.name))
            });
            cands.dedup_by_key(|s| s.addr);
            // Accept in address order; a plain label inside a sized function is one of its
            // own labels, not a function.
            let mut accepted: Vec<(usize, &machine::elf::Symbol)> = Vec::new();
            let mut covered_until = sec.addr;
            for s in cands {
                if !s.is_func && s.addr < covered_until {
                    continue;
                }
                accepted.push((0, s));
                if s.is_func && s.size > 0 {
                    covered_until = covered_until.max(s.addr.saturating_add(s.size));
                }
            }
            let mut first_fn = None;
            for i in 0..accepted.len() {
                let s = accepted[i].1;
                let next = accepted.get(i + 1).map_or(sec_end, |n| n.1.addr);
                let end = if s.is_func && s.size > 0 {
                    s.addr.saturating_add(s.size).min(next).min(sec_end)
                } else {
                    next
                };
                let idx = funcs.len();
                funcs.push(Func {
                    name: s.name.clone(),
                    start: s.addr,
                    end,
                    cat,
                });
                accepted[i].0 = idx;
                first_fn.get_or_insert(idx);
            }
            // Code of the section outside every symbol: one pseudo-function per section. Only
            // the part in RAM is mapped (a corrupt section may claim the whole address space).
            let mut gap_fn = None;
            let mut gap = |slots: &mut Vec<u32>, funcs: &mut Vec<Func>, from: u32, to: u32| {
                let r = slot_range(from, to, base, slots.len());
                if !r.is_empty() {
                    let g = *gap_fn.get_or_insert_with(|| {
                        funcs.push(Func {
                            name: format!("({})", sec.name),
                            start: sec.addr,
                            end: sec_end,
                            cat,
                        });
                        funcs.len() - 1
                    });
                    slots[r].fill(g as u32);
                }
            };
            let mut a = sec.addr & !1;
            for &(idx, _) in &accepted {
                let (fs, fe) = (funcs[idx].start, funcs[idx].end);
                if a < fs {
                    gap(&mut slots, &mut funcs, a, fs);
                }
                let r = slot_range(fs, fe, base, slots.len());
                slots[r].fill(idx as u32);
                a = a.max(fs).max(fe);
            }
            if a < sec_end {
                gap(&mut slots, &mut funcs, a, sec_end);
            }
            // Entry points and call instructions (a linear sweep through each function).
            for &(idx, _) in &accepted {
                let (fs, fe) = (funcs[idx].start, funcs[idx].end);
                if in_ram(fs) {
                    slots[slot_of(fs)] |= ENTRY;
                }
                let mut pc = fs;
                while pc < fe && in_ram(pc) {
                    let Some(lo) = image_u16(image, pc) else {
                        break;
                    };
                    let hi = if lo & 3 == 3 {
                        image_u16(image, pc.wrapping_add(2)).unwrap_or(0)
                    } else {
                        0
                    };
                    let inst = decode(lo, hi);
                    if matches!(inst.op, Op::Jal | Op::Jalr) && (inst.rd == 1 || inst.rd == 5) {
                        slots[slot_of(pc)] |= CALL;
                    }
                    pc = pc.wrapping_add(if lo & 3 == 3 { 4 } else { 2 });
                }
            }
        }
        CodeMap { funcs, slots, base }
    }

    /// The slot word of `pc`.
    #[inline(always)]
    pub fn slot(&self, pc: u32) -> u32 {
        self.slots
            .get((pc.wrapping_sub(self.base) >> 1) as usize)
            .copied()
            .unwrap_or(NO_SYMBOL)
    }

    /// The function (index into `funcs`) holding `pc`.
    pub fn func_at(&self, pc: u32) -> usize {
        (self.slot(pc) & FN_MASK) as usize
    }

    /// The function named `name`.
    pub fn find(&self, name: &str) -> Option<usize> {
        self.funcs.iter().position(|f| f.name == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use machine::elf::{Section, Segment, Symbol};

    fn sym(name: &str, addr: u32, size: u32, is_func: bool) -> Symbol {
        Symbol {
            name: name.into(),
            addr,
            size,
            is_func,
        }
    }

    #[test]
    fn functions_labels_gaps_and_kernel_sections() {
        // 0x100..0x120 .text: f (FUNC, 8 bytes) with an inner label, a gap, g (label only).
        // 0x120..0x130 .text.uk_sched: k (FUNC) and an alias label at the same address.
        let nop = 0x0001u16; // c.nop
        let mut data = vec![];
        for _ in 0..0x20 {
            data.extend_from_slice(&nop.to_le_bytes());
        }
        // jal ra, +0 at 0x100 (a call) : 0x000000ef
        data[0..4].copy_from_slice(&0x0000_00efu32.to_le_bytes());
        let image = Image {
            entry: 0x100,
            segments: vec![Segment { addr: 0x100, data }],
            symbols: vec![
                sym("f", 0x100, 8, true),
                sym("inner", 0x104, 0, false),
                sym("g", 0x110, 0, false),
                sym("__text_end", 0x118, 0, false),
                sym("alias", 0x120, 0, false),
                sym("k", 0x120, 16, true),
            ],
            sections: vec![
                Section {
                    name: ".text".into(),
                    addr: 0x100,
                    size: 0x20,
                    executable: true,
                },
                Section {
                    name: ".text.uk_sched".into(),
                    addr: 0x120,
                    size: 0x10,
                    executable: true,
                },
            ],
        };
        let m = CodeMap::new(&image, 0x100, 0x100);
        let name = |pc| m.funcs[m.func_at(pc)].name.as_str();
        assert_eq!(name(0x100), "f");
        assert_eq!(name(0x106), "f");
        assert_eq!(name(0x108), "(.text)");
        assert_eq!(name(0x110), "g");
        assert_eq!(name(0x11e), "g");
        assert_eq!(name(0x120), "k");
        assert_eq!(name(0x12e), "k");
        assert_eq!(name(0x130), "(no symbol)");
        assert_eq!(m.funcs[m.func_at(0x120)].cat, Category::KernelSched);
        assert_eq!(m.funcs[m.func_at(0x110)].cat, Category::User);
        assert!(m.slot(0x100) & ENTRY != 0 && m.slot(0x100) & CALL != 0);
        assert!(m.slot(0x104) & ENTRY == 0);
        assert!(m.slot(0x110) & ENTRY != 0 && m.slot(0x110) & CALL == 0);
        assert!(m.slot(0x120) & ENTRY != 0);
    }
}
