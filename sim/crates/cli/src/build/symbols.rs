//! The functions `system.toml` names against the symbols the compiled objects define, before
//! the link (issue 28, item 27): a task entry, LISR, HISR, timer function or signal handler
//! that no object defines would otherwise fail at the link with the linker's
//! `uk_gen.c.o:(.rodata...): undefined reference to 'NAME'`, which points at generated code,
//! not at the line of `system.toml` that names the function. This reads the symbol tables of
//! the relocatable objects (ELF32, little-endian: what the cross compiler writes) and reports
//! the first function missing at its `FILE:LINE:COLUMN`; likewise `main`, which `bsp/crt0.S`
//! calls (the linker blamed crt0 for it).
//!
//! Anything this reader does not understand makes it step aside (the link still reports the
//! problem in its own words): an object it cannot read never fails a build.

use std::collections::HashMap;
use std::path::PathBuf;
use sysdesc::NamedFunction;

/// What a symbol is, as far as the check cares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `STT_FUNC`, or `STT_NOTYPE` (a label in assembly without `.type`).
    Code,
    /// `STT_OBJECT`, or a common symbol: a variable.
    Data,
}

/// One defined symbol of an object file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Defined {
    pub name: String,
    /// Global or weak binding: the linker resolves other objects' references with it.
    pub external: bool,
    pub kind: Kind,
}

const SHT_SYMTAB: u32 = 2;
const SHN_UNDEF: u16 = 0;
const SHN_COMMON: u16 = 0xfff2;
const STB_GLOBAL: u8 = 1;
const STB_WEAK: u8 = 2;
const STT_NOTYPE: u8 = 0;
const STT_OBJECT: u8 = 1;
const STT_FUNC: u8 = 2;

fn u16_at(b: &[u8], off: usize) -> Option<u16> {
    Some(u16::from_le_bytes(b.get(off..off + 2)?.try_into().ok()?))
}

fn u32_at(b: &[u8], off: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(off..off + 4)?.try_into().ok()?))
}

/// The defined function and data symbols of a relocatable ELF32 little-endian object; `None`
/// when `bytes` is not one this reader understands.
pub fn defined_symbols(bytes: &[u8]) -> Option<Vec<Defined>> {
    // e_ident: magic, ELFCLASS32, ELFDATA2LSB.
    if bytes.get(0..6)? != b"\x7fELF\x01\x01" {
        return None;
    }
    let shoff = u32_at(bytes, 0x20)? as usize;
    let shentsize = u16_at(bytes, 0x2e)? as usize;
    let shnum = u16_at(bytes, 0x30)? as usize;
    if shentsize != 40 {
        return None;
    }
    let section = |i: usize| -> Option<usize> {
        let at = shoff.checked_add(i.checked_mul(40)?)?;
        bytes.get(at..at.checked_add(40)?)?;
        Some(at)
    };
    let mut out = Vec::new();
    for i in 0..shnum {
        let sh = section(i)?;
        if u32_at(bytes, sh + 4)? != SHT_SYMTAB {
            continue;
        }
        let (off, size) = (
            u32_at(bytes, sh + 16)? as usize,
            u32_at(bytes, sh + 20)? as usize,
        );
        let entsize = u32_at(bytes, sh + 36)? as usize;
        if entsize != 16 {
            return None;
        }
        let strtab = section(u32_at(bytes, sh + 24)? as usize)?;
        let (str_off, str_size) = (
            u32_at(bytes, strtab + 16)? as usize,
            u32_at(bytes, strtab + 20)? as usize,
        );
        let strings = bytes.get(str_off..str_off.checked_add(str_size)?)?;
        let symbols = bytes.get(off..off.checked_add(size)?)?;
        for sym in symbols.chunks_exact(16) {
            let name_off = u32_at(sym, 0)? as usize;
            let info = sym[12];
            let shndx = u16_at(sym, 14)?;
            if shndx == SHN_UNDEF {
                continue;
            }
            let kind = match info & 0xf {
                _ if shndx == SHN_COMMON => Kind::Data,
                STT_FUNC | STT_NOTYPE => Kind::Code,
                STT_OBJECT => Kind::Data,
                _ => continue,
            };
            let rest = strings.get(name_off..)?;
            let end = rest.iter().position(|&c| c == 0)?;
            if end == 0 {
                continue;
            }
            let binding = info >> 4;
            out.push(Defined {
                name: String::from_utf8_lossy(&rest[..end]).into_owned(),
                external: binding == STB_GLOBAL || binding == STB_WEAK,
                kind,
            });
        }
    }
    Some(out)
}

/// What the objects define: name -> (external, kind, the source as messages show it) of its
/// best definition (an external one wins over a local one).
pub struct Definitions(HashMap<String, (bool, Kind, String)>);

impl Definitions {
    /// The symbols `objects` define ((object, the source it was compiled from as messages
    /// show it)); `None` when an object cannot be read (no verdict then: the link decides).
    pub fn read(objects: &[(PathBuf, String)]) -> Option<Definitions> {
        let mut defs: HashMap<String, (bool, Kind, String)> = HashMap::new();
        for (obj, source) in objects {
            let syms = defined_symbols(&std::fs::read(obj).ok()?)?;
            for s in syms {
                match defs.get_mut(&s.name) {
                    Some(e) if s.external && !e.0 => *e = (true, s.kind, source.clone()),
                    Some(_) => {}
                    None => {
                        defs.insert(s.name, (s.external, s.kind, source.clone()));
                    }
                }
            }
        }
        Some(Definitions(defs))
    }

    /// Why `name` is not a function with external linkage, or `None` if it is one.
    fn not_a_function(&self, name: &str) -> Option<String> {
        match self.0.get(name) {
            Some((true, Kind::Code, _)) => None,
            None => Some("names a function that no source of the application defines".into()),
            Some((false, _, src)) => Some(format!(
                "names a function that {src} defines only for itself (static in C, or without .globl in assembly), so the generated code cannot reach it"
            )),
            Some((true, Kind::Data, src)) => {
                Some(format!("names a variable of {src}, not a function"))
            }
        }
    }

    /// Checks that the objects define each function of `functions` with external linkage, as
    /// code. `Err` is the message for the first function, in the order of the text, that is
    /// not: `FILE:LINE:COLUMN: ...; expected ...`, naming the others with it.
    pub fn check_functions(&self, functions: &[NamedFunction]) -> Result<(), String> {
        let mut missing = functions
            .iter()
            .filter_map(|f| self.not_a_function(&f.name).map(|p| (f, p)));
        let Some((f, why)) = missing.next() else {
            return Ok(());
        };
        let others: Vec<String> = missing
            .map(|(g, _)| format!("{} = \"{}\" (line {})", g.key, g.name, g.at.line))
            .collect();
        let also = match others.len() {
            0 => String::new(),
            _ => format!(" (so do {})", others.join(", ")),
        };
        Err(format!(
            "{}: {} = \"{}\" {why}{also}; expected {} `{}` defined with external linkage in the application's sources",
            f.at, f.key, f.name, f.role, f.prototype
        ))
    }

    /// Checks that the objects define `main`, which the start-up code (`bsp/crt0.S`) calls;
    /// `appdir` names the application in the message.
    pub fn check_main(&self, appdir: &str) -> Result<(), String> {
        let why = match self.0.get("main") {
            Some((true, Kind::Code, _)) => return Ok(()),
            None => "no source of the application defines main".to_string(),
            Some((false, _, src)) => format!("{src} defines main static"),
            Some((true, Kind::Data, src)) => format!("main is a variable of {src}"),
        };
        Err(format!(
            "{appdir}: {why}; expected `int main(void)` with external linkage in one of its sources (bsp/crt0.S calls it; a Ubik application's main calls uk_init() and uk_start())"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sysdesc::Location;

    /// A minimal relocatable ELF32 with one symbol table: (name, binding, type, shndx).
    fn object(symbols: &[(&str, u8, u8, u16)]) -> Vec<u8> {
        let mut strtab = vec![0u8];
        let mut symtab = vec![0u8; 16]; // the null symbol
        for (name, bind, kind, shndx) in symbols {
            let off = strtab.len() as u32;
            strtab.extend_from_slice(name.as_bytes());
            strtab.push(0);
            symtab.extend_from_slice(&off.to_le_bytes());
            symtab.extend_from_slice(&[0; 8]);
            symtab.push(bind << 4 | kind);
            symtab.push(0);
            symtab.extend_from_slice(&shndx.to_le_bytes());
        }
        let mut b = vec![0u8; 52];
        b[..6].copy_from_slice(b"\x7fELF\x01\x01");
        let sym_off = b.len() as u32;
        b.extend_from_slice(&symtab);
        let str_off = b.len() as u32;
        b.extend_from_slice(&strtab);
        while !b.len().is_multiple_of(4) {
            b.push(0);
        }
        let shoff = b.len() as u32;
        b[0x20..0x24].copy_from_slice(&shoff.to_le_bytes());
        b[0x2e..0x30].copy_from_slice(&40u16.to_le_bytes());
        b[0x30..0x32].copy_from_slice(&3u16.to_le_bytes());
        let sh = |b: &mut Vec<u8>, kind: u32, off: u32, size: u32, link: u32, entsize: u32| {
            for w in [0, kind, 0, 0, off, size, link, 0, 4, entsize] {
                b.extend_from_slice(&w.to_le_bytes());
            }
        };
        sh(&mut b, 0, 0, 0, 0, 0);
        sh(&mut b, SHT_SYMTAB, sym_off, symtab.len() as u32, 2, 16);
        sh(&mut b, 3, str_off, strtab.len() as u32, 0, 0);
        b
    }

    fn named(name: &str, key: &'static str, line: usize) -> NamedFunction {
        NamedFunction {
            name: name.into(),
            key,
            role: "a task entry",
            prototype: format!("void {name}(void *arg)"),
            at: Location {
                file: "app/system.toml".into(),
                line,
                column: 9,
            },
        }
    }

    #[test]
    fn reads_defined_symbols_of_an_object() {
        let o = object(&[
            ("work", STB_GLOBAL, STT_FUNC, 1),
            ("helper", 0, STT_FUNC, 1),
            ("table", STB_GLOBAL, STT_OBJECT, 2),
            ("label", STB_WEAK, STT_NOTYPE, 1),
            ("extern_fn", STB_GLOBAL, STT_FUNC, SHN_UNDEF),
            ("shared", STB_GLOBAL, STT_OBJECT, SHN_COMMON),
        ]);
        let d = defined_symbols(&o).unwrap();
        let got: Vec<(&str, bool, Kind)> = d
            .iter()
            .map(|s| (s.name.as_str(), s.external, s.kind))
            .collect();
        assert_eq!(
            got,
            vec![
                ("work", true, Kind::Code),
                ("helper", false, Kind::Code),
                ("table", true, Kind::Data),
                ("label", true, Kind::Code),
                ("shared", true, Kind::Data),
            ]
        );
        assert_eq!(defined_symbols(b"not an elf"), None);
        assert_eq!(defined_symbols(&o[..60]), None, "truncated");
    }

    #[test]
    fn reports_the_first_missing_function_where_it_is_named() {
        let dir = std::env::temp_dir().join(format!("ubik-symbols-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let obj = dir.join("main.c.o");
        std::fs::write(
            &obj,
            object(&[
                ("producer", STB_GLOBAL, STT_FUNC, 1),
                ("quiet", 0, STT_FUNC, 1),
                ("table", STB_GLOBAL, STT_OBJECT, 2),
            ]),
        )
        .unwrap();
        let objs = vec![(obj.clone(), "main.c".to_string())];
        let check_functions = |f: &[NamedFunction], objs: &[(PathBuf, String)]| {
            Definitions::read(objs).map_or(Ok(()), |d| d.check_functions(f))
        };
        assert_eq!(
            check_functions(&[named("producer", "entry", 3)], &objs),
            Ok(())
        );
        let e = check_functions(
            &[
                named("producer", "entry", 3),
                named("consumer_main", "entry", 7),
                named("quiet", "lisr", 9),
            ],
            &objs,
        )
        .unwrap_err();
        assert_eq!(
            e,
            "app/system.toml:7:9: entry = \"consumer_main\" names a function that no source of the application defines (so do lisr = \"quiet\" (line 9)); expected a task entry `void consumer_main(void *arg)` defined with external linkage in the application's sources"
        );
        let e = check_functions(&[named("quiet", "lisr", 2)], &objs).unwrap_err();
        assert!(
            e.contains("main.c defines only for itself (static in C"),
            "{e}"
        );
        let e = check_functions(&[named("table", "entry", 2)], &objs).unwrap_err();
        assert!(
            e.contains("names a variable of main.c, not a function"),
            "{e}"
        );
        let d = Definitions::read(&objs).unwrap();
        assert_eq!(
            d.check_main("app"),
            Err("app: no source of the application defines main; expected `int main(void)` with external linkage in one of its sources (bsp/crt0.S calls it; a Ubik application's main calls uk_init() and uk_start())".into())
        );
        std::fs::write(&obj, object(&[("main", STB_GLOBAL, STT_FUNC, 1)])).unwrap();
        assert_eq!(Definitions::read(&objs).unwrap().check_main("app"), Ok(()));
        std::fs::write(&obj, object(&[("main", 0, STT_FUNC, 1)])).unwrap();
        let e = Definitions::read(&objs).unwrap().check_main("app");
        assert!(e
            .unwrap_err()
            .starts_with("app: main.c defines main static;"));
        // An object this reader cannot read: no verdict, the link decides.
        std::fs::write(&obj, b"junk").unwrap();
        assert_eq!(check_functions(&[named("x", "entry", 1)], &objs), Ok(()));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
