//! The kernel's memory footprint, read from a firmware image and its link map (`ubik build`
//! writes `build/app.elf` and `build/app.map`, GNU ld's `-Map`):
//!
//! - code: the bytes of the ELF's `.text.uk` and `.text.uk_*` sections, where the kernel's
//!   linker script gathers every kernel function (its attribution sections);
//! - RAM: the `.data`, `.sdata`, `.bss`, `.sbss` and `COMMON` input sections the link placed
//!   from objects under `obj/kernel/`; read-only data (`.rodata`, `.srodata`) likewise;
//! - stray code: kernel `.text*` input sections outside the attribution sections (should be 0);
//! - per service: the `.text*` input sections placed from `obj/kernel/src/NAME.c.o`.
//!
//! The link map's memory map part lists each input section either on one line
//! (` .text.x  0xADDR  0xSIZE  FILE`) or, when its name is long, as the name alone on one
//! line and ` 0xADDR  0xSIZE  FILE` on the next; both are read. Pure functions over the
//! map's text and the image's section list, so the unit tests feed them small texts.

use machine::elf::Section;

/// One input section the link placed: its section name, its size in bytes and its object.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MapInput {
    pub section: String,
    pub size: u64,
    pub file: String,
}

/// A `0x` and lower-case hexadecimal number.
fn hex(s: &str) -> Option<u64> {
    let h = s.strip_prefix("0x")?;
    if h.is_empty()
        || !h
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    {
        return None;
    }
    u64::from_str_radix(h, 16).ok()
}

/// An input section's name as the map prints it: `.NAME` or `COMMON`.
fn is_section_name(s: &str) -> bool {
    (s.len() > 1 && s.starts_with('.')) || s == "COMMON"
}

/// Every input section of the map's memory map part (after "Linker script and memory map"),
/// in the map's order.
pub fn map_inputs(map: &str) -> Vec<MapInput> {
    let mut out = Vec::new();
    let mut lines = map.lines();
    if !lines.any(|l| l.starts_with("Linker script and memory map")) {
        return out;
    }
    let mut name: Option<&str> = None;
    for line in lines {
        let first = line.as_bytes().get(1).copied();
        let one_space = line.starts_with(' ') && first.is_some_and(|c| !c.is_ascii_whitespace());
        let t: Vec<&str> = line.split_whitespace().collect();
        if one_space && is_section_name(t[0]) {
            if let [sec, _addr, size, file] = t[..] {
                if let (Some(_), Some(n)) = (hex(t[1]), hex(size)) {
                    out.push(MapInput {
                        section: sec.into(),
                        size: n,
                        file: file.into(),
                    });
                    name = None;
                    continue;
                }
            }
            if t.len() == 1 {
                name = Some(t[0]);
                continue;
            }
        }
        let starts_blank = line.starts_with(|c: char| c.is_ascii_whitespace());
        if let (true, Some(sec), [addr, size, file]) = (starts_blank, name, &t[..]) {
            if let (Some(_), Some(n)) = (hex(addr), hex(size)) {
                out.push(MapInput {
                    section: sec.into(),
                    size: n,
                    file: (*file).into(),
                });
            }
        }
        name = None;
    }
    out
}

/// The kernel's footprint in one image, in bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Footprint {
    pub text: u64,
    pub ram: u64,
    pub rodata: u64,
    pub text_outside_uk_sections: u64,
}

/// `.NAME` followed by '.' or nothing: the section `NAME` or one of its `.NAME.x` parts.
fn is_part_of(sec: &str, names: &[&str]) -> bool {
    names.iter().any(|n| {
        sec.strip_prefix(n)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('.'))
    })
}

/// The kernel's footprint: its code from the image's sections, its data from the map.
pub fn footprint(sections: &[Section], inputs: &[MapInput]) -> Footprint {
    let mut f = Footprint {
        text: sections
            .iter()
            .filter(|s| s.name == ".text.uk" || s.name.starts_with(".text.uk_"))
            .map(|s| u64::from(s.size))
            .sum(),
        ..Footprint::default()
    };
    for i in inputs {
        if !i.file.contains("/obj/kernel/") || i.size == 0 {
            continue;
        }
        let sec = i.section.as_str();
        if sec == "COMMON" || is_part_of(sec, &[".data", ".sdata", ".bss", ".sbss"]) {
            f.ram += i.size;
        } else if is_part_of(sec, &[".rodata", ".srodata"]) {
            f.rodata += i.size;
        } else if sec.starts_with(".text") && !sec.starts_with(".text.uk") {
            f.text_outside_uk_sections += i.size;
        }
    }
    f
}

/// The code (`.text*`) bytes linked from each service's file `kernel/src/NAME.c`, in the
/// order of `services`.
pub fn services(inputs: &[MapInput], services: &[String]) -> Vec<(String, u64)> {
    let mut size: Vec<(String, u64)> = services.iter().map(|s| (s.clone(), 0)).collect();
    for i in inputs.iter().filter(|i| i.section.starts_with(".text")) {
        let Some((_, tail)) = i.file.rsplit_once("/obj/kernel/src/") else {
            continue;
        };
        let Some(stem) = tail.strip_suffix(".c.o") else {
            continue;
        };
        if let Some(e) = size.iter_mut().find(|(s, _)| s == stem) {
            e.1 += i.size;
        }
    }
    size
}

#[cfg(test)]
mod tests {
    use super::*;

    const MAP: &str = "\
Archive member included
 .text          0x00000000       0x10 /x/obj/kernel/src/queue.c.o
Linker script and memory map

 .text          0x00000000       0x10 /x/obj/kernel/src/queue.c.o
 .text.uk_queue_send
                0x00000010       0x24 /x/obj/kernel/src/queue.c.o
 .sbss          0x00000100        0x8 /x/obj/kernel/src/sched.c.o
 .bss.uk_tasks  0x00000200       0x40 /x/obj/kernel/src/task.c.o
 COMMON         0x00000300        0x4 /x/obj/kernel/src/task.c.o
 .data          0x00000400        0x0 /x/obj/kernel/src/task.c.o
 .data          0x00000400       0x20 /x/obj/app/main.c.o
 .srodata.cst4  0x00000500        0x4 /x/obj/kernel/src/timer.c.o
 .text.helper   0x00000600        0x6 /x/obj/kernel/src/port.c.o
 .text.uk_port_x
                0x00000700       0x30 /x/obj/kernel/src/port.c.o
 .text.x        0x00000800       0x2 /x/obj/kernel/src/portable.c.o
 .databig       0x00000900       0x8 /x/obj/kernel/src/task.c.o
 *(.text)
  .text         0x00000900       0x8 /x/obj/kernel/src/queue.c.o
";

    fn sec(name: &str, size: u32) -> Section {
        Section {
            name: name.into(),
            addr: 0,
            size,
            executable: true,
        }
    }

    #[test]
    fn reads_one_and_two_line_inputs_after_the_memory_map_heading() {
        let m = map_inputs(MAP);
        assert_eq!(m.len(), 12);
        assert_eq!(m[0].section, ".text");
        assert_eq!(m[0].size, 0x10);
        assert_eq!(m[1].section, ".text.uk_queue_send");
        assert_eq!(m[1].size, 0x24);
        assert_eq!(m[1].file, "/x/obj/kernel/src/queue.c.o");
        // "  .text" (two spaces) is no section line, "*(.text)" no input.
        assert!(m.iter().all(|i| i.size != 8 || i.section != ".text"));
    }

    #[test]
    fn sums_the_kernel_sections_by_kind() {
        let secs = [
            sec(".text.uk", 100),
            sec(".text.uk_isr", 20),
            sec(".text", 999),
        ];
        let f = footprint(&secs, &map_inputs(MAP));
        assert_eq!(f.text, 120);
        assert_eq!(f.ram, 8 + 0x40 + 4); // .sbss, .bss.uk_tasks, COMMON; not .databig
        assert_eq!(f.rodata, 4);
        assert_eq!(f.text_outside_uk_sections, 0x10 + 6 + 2);
    }

    #[test]
    fn sums_each_service_file_code() {
        let names: Vec<String> = ["queue", "port", "heap"].map(String::from).to_vec();
        let s = services(&map_inputs(MAP), &names);
        assert_eq!(
            s,
            vec![
                ("queue".into(), 0x10 + 0x24),
                ("port".into(), 6 + 0x30),
                ("heap".into(), 0)
            ]
        );
    }
}
