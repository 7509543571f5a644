//! Loading firmware ELF files into the machine's RAM.
//!
//! Only little-endian 32-bit RISC-V ELF files are accepted. Every `PT_LOAD` program header with
//! a non-zero `p_memsz` becomes a [`Segment`] placed at its *physical* address (`p_paddr`); each
//! of its bytes must lie inside RAM. Symbols come from `.symtab`, sections are the allocated
//! ones. The loader never panics: every malformed input is reported as an [`ElfError`] whose
//! `Display` is one line saying what is wrong, where, and what was expected.

use std::fmt;
use std::path::{Path, PathBuf};

use object::elf;
use object::read::elf::{FileHeader, ProgramHeader, SectionHeader, Sym};
use object::LittleEndian;

type Hdr = elf::FileHeader32<LittleEndian>;
const LE: LittleEndian = LittleEndian;
const EHDR_SIZE: u64 = 52;
const PHDR_SIZE: u64 = 32;
const SHDR_SIZE: u64 = 40;

/// One loadable segment: `data` is the file bytes followed by zeros up to `p_memsz`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Segment {
    /// Physical load address (`p_paddr`).
    pub addr: u32,
    /// File bytes followed by zeros up to `p_memsz` (so `data.len() == p_memsz`).
    pub data: Vec<u8>,
}

/// A symbol from `.symtab` (functions, objects and plain labels).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Symbol {
    pub name: String,
    pub addr: u32,
    pub size: u32,
    /// `STT_FUNC`.
    pub is_func: bool,
}

/// An allocated section (`SHF_ALLOC`), at its virtual address (`sh_addr`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Section {
    pub name: String,
    pub addr: u32,
    pub size: u32,
    /// `SHF_EXECINSTR`.
    pub executable: bool,
}

/// A loaded firmware image.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Image {
    /// `e_entry` (informational: the core starts at the reset PC, not here).
    pub entry: u32,
    /// Loadable segments in program-header order.
    pub segments: Vec<Segment>,
    /// Sorted by address (then by name).
    pub symbols: Vec<Symbol>,
    /// Allocated sections, sorted by address (then by section-header order).
    pub sections: Vec<Section>,
}

/// Why an ELF file could not be loaded. `Display` gives one line: what, where, what was expected.
#[derive(Debug)]
#[non_exhaustive]
pub enum ElfError {
    /// The file could not be read (exit 66).
    Io {
        path: PathBuf,
        error: std::io::Error,
    },
    /// The first four bytes are not `7f 45 4c 46` (`found` holds up to four bytes).
    NotElf { found: Vec<u8> },
    /// `e_machine` is not RISC-V (243).
    WrongMachine { machine: u16 },
    /// `EI_CLASS` is not 1 (32-bit); 2 is RV64.
    WrongClass { class: u8 },
    /// `EI_DATA` is not 1 (little-endian); 2 is big-endian.
    WrongEncoding { data: u8 },
    /// `EI_VERSION` is not 1.
    WrongVersion { version: u8 },
    /// `e_type` is not `ET_EXEC` (or `ET_DYN`).
    WrongType { e_type: u16 },
    /// A header or table is cut off or inconsistent; `what` says which and what was expected.
    Malformed { what: String },
    /// A segment's file bytes lie beyond the end of the file.
    SegmentBeyondFile {
        index: usize,
        offset: u64,
        filesz: u64,
        file_len: u64,
    },
    /// A segment has `p_filesz > p_memsz`.
    SegmentSizes {
        index: usize,
        filesz: u64,
        memsz: u64,
    },
    /// A segment's bytes `[start, end)` are not all inside RAM.
    SegmentOutsideRam {
        index: usize,
        start: u64,
        end: u64,
        ram_base: u32,
        ram_size: u32,
    },
    /// Two loadable segments occupy the same bytes.
    SegmentsOverlap {
        index: usize,
        start: u64,
        end: u64,
        other: usize,
        other_start: u64,
        other_end: u64,
    },
    /// No `PT_LOAD` program header with `p_memsz > 0`.
    NoLoadableSegment,
    /// The file is longer than [`crate::infile::MAX_ELF_BYTES`] (exit 65).
    TooLarge { path: PathBuf, limit: u64 },
    /// Any of the above, found in the named file.
    InFile { path: PathBuf, error: Box<ElfError> },
}

impl ElfError {
    /// True for a file that cannot be read (exit 66); every other error is bad data (exit 65).
    pub fn is_io(&self) -> bool {
        match self {
            ElfError::Io { .. } => true,
            ElfError::InFile { error, .. } => error.is_io(),
            _ => false,
        }
    }

    fn in_file(self, path: &Path) -> ElfError {
        match self {
            e @ (ElfError::Io { .. } | ElfError::InFile { .. } | ElfError::TooLarge { .. }) => e,
            e => ElfError::InFile {
                path: path.to_path_buf(),
                error: Box::new(e),
            },
        }
    }

    fn malformed(what: impl Into<String>) -> ElfError {
        ElfError::Malformed { what: what.into() }
    }
}

fn hex_bytes(b: &[u8]) -> String {
    b.iter()
        .map(|x| format!("{x:02x}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A readable name for common `e_machine` values.
fn machine_name(m: u16) -> Option<&'static str> {
    Some(match m {
        0 => "no machine (EM_NONE)",
        2 => "SPARC",
        3 => "x86 (i386)",
        8 => "MIPS",
        20 => "PowerPC",
        21 => "PowerPC64",
        22 => "S/390",
        40 => "ARM",
        43 => "SPARC V9",
        62 => "x86-64",
        83 => "AVR",
        94 => "Xtensa",
        105 => "MSP430",
        183 => "AArch64",
        243 => "RISC-V",
        258 => "LoongArch",
        _ => return None,
    })
}

impl fmt::Display for ElfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ElfError::Io { path, error } => write!(
                f,
                "{}: cannot read file ({error}); expected a readable RV32 ELF file",
                path.display()
            ),
            ElfError::TooLarge { path, limit } => write!(
                f,
                "{}: the file is larger than {}; expected an RV32 ELF file of at most {limit} bytes",
                path.display(),
                crate::infile::size_text(*limit)
            ),
            ElfError::NotElf { found } if found.is_empty() => {
                write!(f, "not an ELF file (the file is empty; expected the bytes 7f 45 4c 46)")
            }
            ElfError::NotElf { found } => write!(
                f,
                "not an ELF file (first bytes 7f 45 4c 46 expected, found {})",
                hex_bytes(found)
            ),
            ElfError::WrongMachine { machine } => match machine_name(*machine) {
                Some(name) => {
                    write!(f, "ELF for {name} (e_machine {machine}); expected RISC-V (243)")
                }
                None => write!(f, "ELF for an unknown machine (e_machine {machine}); expected RISC-V (243)"),
            },
            ElfError::WrongClass { class: 2 } => {
                write!(f, "ELF is 64-bit (RV64); expected a 32-bit RV32 ELF")
            }
            ElfError::WrongClass { class } => write!(
                f,
                "invalid ELF class (EI_CLASS byte at offset 4 is {class}); expected 1 (32-bit RV32 ELF)"
            ),
            ElfError::WrongEncoding { data: 2 } => write!(
                f,
                "ELF is big-endian (EI_DATA byte at offset 5 is 2); expected little-endian (1)"
            ),
            ElfError::WrongEncoding { data } => write!(
                f,
                "invalid ELF data encoding (EI_DATA byte at offset 5 is {data}); expected 1 (little-endian)"
            ),
            ElfError::WrongVersion { version } => write!(
                f,
                "unsupported ELF version (EI_VERSION byte at offset 6 is {version}); expected 1"
            ),
            ElfError::WrongType { e_type } => {
                let what = match e_type {
                    0 => "has no file type (e_type 0, ET_NONE)".to_string(),
                    1 => "is a relocatable object file (e_type 1, ET_REL; link it first)".to_string(),
                    4 => "is a core dump (e_type 4, ET_CORE)".to_string(),
                    t => format!("has an unknown file type (e_type {t:#06x})"),
                };
                write!(f, "ELF {what}; expected an executable (ET_EXEC, e_type 2)")
            }
            ElfError::Malformed { what } => write!(f, "malformed ELF: {what}"),
            ElfError::SegmentBeyondFile { index, offset, filesz, file_len } => write!(
                f,
                "malformed ELF: segment {index} file bytes [{offset:#x}, {:#x}) extend beyond the end of the file ({file_len} bytes); expected them inside the file (truncated file?)",
                *offset as u128 + *filesz as u128
            ),
            ElfError::SegmentSizes { index, filesz, memsz } => write!(
                f,
                "malformed ELF: segment {index} has p_filesz {filesz:#x} larger than p_memsz {memsz:#x}; expected p_filesz <= p_memsz"
            ),
            ElfError::SegmentOutsideRam { index, start, end, ram_base, ram_size } => {
                let ram_end = *ram_base as u64 + *ram_size as u64;
                let how = if *start >= ram_end || *end <= *ram_base as u64 {
                    "lies outside"
                } else {
                    "extends outside"
                };
                write!(
                    f,
                    "segment {index} at [{start:#010x}, {end:#010x}) ({} bytes) {how} RAM [{ram_base:#010x}, {ram_end:#010x}); every loaded byte must be in RAM",
                    end - start
                )
            }
            ElfError::SegmentsOverlap { index, start, end, other, other_start, other_end } => write!(
                f,
                "malformed ELF: segment {index} at [{start:#010x}, {end:#010x}) overlaps segment {other} at [{other_start:#010x}, {other_end:#010x}); expected disjoint load addresses"
            ),
            ElfError::NoLoadableSegment => write!(
                f,
                "ELF has no loadable segment (no PT_LOAD program header with p_memsz > 0); expected at least one"
            ),
            ElfError::InFile { path, error } => write!(f, "{}: {error}", path.display()),
        }
    }
}

impl std::error::Error for ElfError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ElfError::Io { error, .. } => Some(error),
            ElfError::InFile { error, .. } => Some(error.as_ref()),
            _ => None,
        }
    }
}

/// Reads and loads the ELF file at `path`; errors name the path.
pub fn load_elf_file(path: &Path, ram_base: u32, ram_size: u32) -> Result<Image, ElfError> {
    let bytes = read_elf_file(path)?;
    load_elf_read(path, &bytes, ram_base, ram_size)
}

/// Loads the bytes [`read_elf_file`] read from `path` (errors name the file).
pub fn load_elf_read(
    path: &Path,
    bytes: &[u8],
    ram_base: u32,
    ram_size: u32,
) -> Result<Image, ElfError> {
    load_elf(bytes, ram_base, ram_size).map_err(|e| e.in_file(path))
}

/// The bytes of the ELF file at `path`, as [`load_elf_file`] reads them: a regular file or
/// a pipe (read once, so a caller that needs the bytes again keeps these), at most 256 MiB.
pub fn read_elf_file(path: &Path) -> Result<Vec<u8>, ElfError> {
    use crate::infile::{read_bounded, Pipes, ReadError, MAX_ELF_BYTES};
    read_bounded(path, MAX_ELF_BYTES, Pipes::Allowed).map_err(|e| match e {
        ReadError::Io(error) => ElfError::Io {
            path: path.to_path_buf(),
            error,
        },
        ReadError::TooLarge { limit } => ElfError::TooLarge {
            path: path.to_path_buf(),
            limit,
        },
        e @ ReadError::NotAFile(_) => ElfError::Io {
            path: path.to_path_buf(),
            error: std::io::Error::other(e.to_string()),
        },
    })
}

/// Checks the identification bytes and `e_machine`, in the order that gives the most useful
/// message (a 64-bit x86 file is reported as x86-64 rather than as 64-bit).
fn check_ident(bytes: &[u8]) -> Result<(), ElfError> {
    if bytes.len() < 4 || bytes[..4] != elf::ELFMAG {
        return Err(ElfError::NotElf {
            found: bytes[..bytes.len().min(4)].to_vec(),
        });
    }
    let too_short = || {
        ElfError::malformed(format!(
            "file is only {} bytes, too short for the ELF header; expected at least {EHDR_SIZE} bytes",
            bytes.len()
        ))
    };
    let class = *bytes.get(4).ok_or_else(too_short)?;
    let data = *bytes.get(5).ok_or_else(too_short)?;
    if class != elf::ELFCLASS32 && class != elf::ELFCLASS64 {
        return Err(ElfError::WrongClass { class });
    }
    if data != elf::ELFDATA2LSB && data != elf::ELFDATA2MSB {
        return Err(ElfError::WrongEncoding { data });
    }
    // e_machine is at offset 18 for both classes.
    let m = bytes.get(18..20).ok_or_else(too_short)?;
    let machine = if data == elf::ELFDATA2LSB {
        u16::from_le_bytes([m[0], m[1]])
    } else {
        u16::from_be_bytes([m[0], m[1]])
    };
    if machine != elf::EM_RISCV {
        return Err(ElfError::WrongMachine { machine });
    }
    if class != elf::ELFCLASS32 {
        return Err(ElfError::WrongClass { class });
    }
    if data != elf::ELFDATA2LSB {
        return Err(ElfError::WrongEncoding { data });
    }
    let version = bytes[6];
    if version != elf::EV_CURRENT {
        return Err(ElfError::WrongVersion { version });
    }
    if (bytes.len() as u64) < EHDR_SIZE {
        return Err(too_short());
    }
    Ok(())
}

/// Parses a 32-bit little-endian RISC-V ELF image and checks that every loadable byte lies in
/// RAM `[ram_base, ram_base + ram_size)`.
pub fn load_elf(bytes: &[u8], ram_base: u32, ram_size: u32) -> Result<Image, ElfError> {
    check_ident(bytes)?;
    let file_len = bytes.len() as u64;
    let hdr = Hdr::parse(bytes).map_err(|e| {
        ElfError::malformed(format!("ELF header: {e}; expected a valid ELF32 header"))
    })?;

    let e_type = hdr.e_type(LE);
    if e_type != elf::ET_EXEC && e_type != elf::ET_DYN {
        return Err(ElfError::WrongType { e_type });
    }
    let entry = hdr.e_entry(LE);

    let segments = load_segments(hdr, bytes, file_len, ram_base, ram_size)?;
    let (sections, symbols) = read_sections(hdr, bytes, file_len)?;

    Ok(Image {
        entry,
        segments,
        symbols,
        sections,
    })
}

fn load_segments(
    hdr: &Hdr,
    bytes: &[u8],
    file_len: u64,
    ram_base: u32,
    ram_size: u32,
) -> Result<Vec<Segment>, ElfError> {
    let phoff = hdr.e_phoff(LE) as u64;
    let e_phnum = hdr.e_phnum(LE);
    if phoff != 0 && e_phnum != 0 {
        let phentsize = hdr.e_phentsize(LE);
        if phentsize as u64 != PHDR_SIZE {
            return Err(ElfError::malformed(format!(
                "program header entry size (e_phentsize) is {phentsize}; expected {PHDR_SIZE}"
            )));
        }
        if e_phnum != elf::PN_XNUM && phoff + e_phnum as u64 * PHDR_SIZE > file_len {
            return Err(ElfError::malformed(format!(
                "program header table [{phoff:#x}, {:#x}) ({e_phnum} entries) extends beyond the end of the file ({file_len} bytes); expected it inside the file (truncated file?)",
                phoff + e_phnum as u64 * PHDR_SIZE
            )));
        }
    }
    let phdrs = hdr.program_headers(LE, bytes).map_err(|e| {
        ElfError::malformed(format!(
            "program header table: {e}; expected a table of ELF32 program headers inside the file"
        ))
    })?;

    let ram_lo = ram_base as u64;
    let ram_hi = ram_lo + ram_size as u64;
    // (index, start, end) of each accepted segment, to detect overlaps.
    let mut ranges: Vec<(usize, u64, u64)> = Vec::new();
    let mut segments = Vec::new();
    for (index, ph) in phdrs.iter().enumerate() {
        if ph.p_type(LE) != elf::PT_LOAD {
            continue;
        }
        let memsz = ph.p_memsz(LE) as u64;
        if memsz == 0 {
            continue;
        }
        let filesz = ph.p_filesz(LE) as u64;
        let offset = ph.p_offset(LE) as u64;
        if filesz > memsz {
            return Err(ElfError::SegmentSizes {
                index,
                filesz,
                memsz,
            });
        }
        if offset + filesz > file_len {
            return Err(ElfError::SegmentBeyondFile {
                index,
                offset,
                filesz,
                file_len,
            });
        }
        let start = ph.p_paddr(LE) as u64;
        let end = start + memsz;
        if start < ram_lo || end > ram_hi {
            return Err(ElfError::SegmentOutsideRam {
                index,
                start,
                end,
                ram_base,
                ram_size,
            });
        }
        ranges.push((index, start, end));
        segments.push((index, start, offset, filesz, memsz));
    }
    if segments.is_empty() {
        return Err(ElfError::NoLoadableSegment);
    }
    // Overlap check before allocating anything: afterwards the total size is bounded by RAM.
    ranges.sort_by_key(|&(i, s, _)| (s, i));
    for w in ranges.windows(2) {
        let (a, b) = (w[0], w[1]);
        if b.1 < a.2 {
            let ((index, start, end), (other, other_start, other_end)) =
                if a.0 > b.0 { (a, b) } else { (b, a) };
            return Err(ElfError::SegmentsOverlap {
                index,
                start,
                end,
                other,
                other_start,
                other_end,
            });
        }
    }
    Ok(segments
        .into_iter()
        .map(|(_, start, offset, filesz, memsz)| {
            let mut data = Vec::with_capacity(memsz as usize);
            data.extend_from_slice(&bytes[offset as usize..(offset + filesz) as usize]);
            data.resize(memsz as usize, 0);
            Segment {
                addr: start as u32,
                data,
            }
        })
        .collect())
}

fn lossy(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn read_sections(
    hdr: &Hdr,
    bytes: &[u8],
    file_len: u64,
) -> Result<(Vec<Section>, Vec<Symbol>), ElfError> {
    let shoff = hdr.e_shoff(LE) as u64;
    if shoff == 0 {
        return Ok((Vec::new(), Vec::new()));
    }
    let shentsize = hdr.e_shentsize(LE);
    if shentsize as u64 != SHDR_SIZE {
        return Err(ElfError::malformed(format!(
            "section header entry size (e_shentsize) is {shentsize}; expected {SHDR_SIZE}"
        )));
    }
    let e_shnum = hdr.e_shnum(LE) as u64;
    if e_shnum != 0 && shoff + e_shnum * SHDR_SIZE > file_len {
        return Err(ElfError::malformed(format!(
            "section header table [{shoff:#x}, {:#x}) ({e_shnum} entries) extends beyond the end of the file ({file_len} bytes); expected it inside the file (truncated file?)",
            shoff + e_shnum * SHDR_SIZE
        )));
    }
    let table = hdr.sections(LE, bytes).map_err(|e| {
        ElfError::malformed(format!(
            "section headers: {e}; expected valid ELF32 section headers inside the file"
        ))
    })?;

    let mut sections = Vec::new();
    for (i, sh) in table.enumerate() {
        let flags = sh.sh_flags(LE);
        if flags & elf::SHF_ALLOC == 0 {
            continue;
        }
        let name = table.section_name(LE, sh).map_err(|e| {
            ElfError::malformed(format!(
                "section {}: name: {e}; expected an offset into the section-name string table",
                i.0
            ))
        })?;
        sections.push((
            i.0,
            Section {
                name: lossy(name),
                addr: sh.sh_addr(LE),
                size: sh.sh_size(LE),
                executable: flags & elf::SHF_EXECINSTR != 0,
            },
        ));
    }
    sections.sort_by_key(|(i, s)| (s.addr, *i));
    let sections = sections.into_iter().map(|(_, s)| s).collect();

    let symtab = table.symbols(LE, bytes, elf::SHT_SYMTAB).map_err(|e| {
        ElfError::malformed(format!(
            "symbol table (.symtab): {e}; expected ELF32 symbols inside the file"
        ))
    })?;
    let mut symbols = Vec::new();
    for (i, sym) in symtab.enumerate() {
        let kind = sym.st_type();
        if !matches!(kind, elf::STT_FUNC | elf::STT_OBJECT | elf::STT_NOTYPE) {
            continue;
        }
        if sym.st_shndx(LE) == elf::SHN_UNDEF {
            continue;
        }
        let name = symtab.symbol_name(LE, sym).map_err(|e| {
            ElfError::malformed(format!(
                "symbol {}: name: {e}; expected an offset into the symbol string table",
                i.0
            ))
        })?;
        if name.is_empty() || is_mapping_symbol(name) {
            continue;
        }
        symbols.push(Symbol {
            name: lossy(name),
            addr: sym.st_value(LE),
            size: sym.st_size(LE),
            is_func: kind == elf::STT_FUNC,
        });
    }
    symbols.sort_by(|a, b| a.addr.cmp(&b.addr).then_with(|| a.name.cmp(&b.name)));
    Ok((sections, symbols))
}

/// RISC-V mapping symbols (`$x`, `$d`, `$xrv32i2p1...`) mark code/data, they are not labels.
fn is_mapping_symbol(name: &[u8]) -> bool {
    matches!(name, [b'$', b'x' | b'd', ..])
}

#[cfg(test)]
mod tests {
    use super::*;

    const RAM_BASE: u32 = 0x0010_0000;
    const RAM_SIZE: u32 = 0x0010_0000;

    struct Seg {
        paddr: u32,
        vaddr: u32,
        data: Vec<u8>,
        memsz: u32,
        p_type: u32,
    }

    struct Sec {
        name: &'static str,
        sh_type: u32,
        flags: u32,
        addr: u32,
        size: u32,
        /// File data comes from this segment (for PROGBITS), else none.
        seg: Option<usize>,
    }

    struct SymDef {
        name: &'static str,
        value: u32,
        size: u32,
        kind: u8,
        bind: u8,
        shndx: u16,
    }

    /// A tiny ELF32 little-endian writer for tests.
    struct Builder {
        machine: u16,
        e_type: u16,
        entry: u32,
        segs: Vec<Seg>,
        secs: Vec<Sec>,
        syms: Vec<SymDef>,
    }

    fn put16(v: &mut Vec<u8>, x: u16) {
        v.extend_from_slice(&x.to_le_bytes());
    }
    fn put32(v: &mut Vec<u8>, x: u32) {
        v.extend_from_slice(&x.to_le_bytes());
    }
    fn align4(v: &mut Vec<u8>) {
        while !v.len().is_multiple_of(4) {
            v.push(0);
        }
    }

    impl Builder {
        fn new() -> Builder {
            Builder {
                machine: 243,
                e_type: 2,
                entry: 0x0010_0080,
                segs: vec![],
                secs: vec![],
                syms: vec![],
            }
        }
        fn seg(mut self, paddr: u32, data: &[u8], memsz: u32) -> Builder {
            self.segs.push(Seg {
                paddr,
                vaddr: paddr,
                data: data.to_vec(),
                memsz,
                p_type: elf::PT_LOAD,
            });
            self
        }

        fn build(&self) -> Vec<u8> {
            let phnum = self.segs.len() as u32;
            let mut out = vec![0u8; 52 + 32 * phnum as usize];
            // Segment data.
            let mut seg_off = Vec::new();
            for s in &self.segs {
                align4(&mut out);
                seg_off.push(out.len() as u32);
                out.extend_from_slice(&s.data);
            }
            // Sections: 0 null, user sections, .symtab, .strtab, .shstrtab.
            let mut shstr = vec![0u8];
            let name_off = |shstr: &mut Vec<u8>, n: &str| {
                let o = shstr.len() as u32;
                shstr.extend_from_slice(n.as_bytes());
                shstr.push(0);
                o
            };
            let mut shdrs: Vec<[u32; 10]> = vec![[0; 10]];
            for s in &self.secs {
                let off = s.seg.map(|i| seg_off[i]).unwrap_or(0);
                let n = name_off(&mut shstr, s.name);
                shdrs.push([n, s.sh_type, s.flags, s.addr, off, s.size, 0, 0, 4, 0]);
            }
            let have_syms = !self.syms.is_empty();
            if have_syms {
                let mut strtab = vec![0u8];
                let mut symtab = vec![0u8; 16];
                for d in &self.syms {
                    let o = strtab.len() as u32;
                    strtab.extend_from_slice(d.name.as_bytes());
                    strtab.push(0);
                    put32(&mut symtab, o);
                    put32(&mut symtab, d.value);
                    put32(&mut symtab, d.size);
                    symtab.push((d.bind << 4) | d.kind);
                    symtab.push(0);
                    put16(&mut symtab, d.shndx);
                }
                let symtab_idx = shdrs.len() as u32;
                align4(&mut out);
                let sym_off = out.len() as u32;
                out.extend_from_slice(&symtab);
                let str_off = out.len() as u32;
                out.extend_from_slice(&strtab);
                let n = name_off(&mut shstr, ".symtab");
                shdrs.push([
                    n,
                    elf::SHT_SYMTAB,
                    0,
                    0,
                    sym_off,
                    symtab.len() as u32,
                    symtab_idx + 1,
                    1,
                    4,
                    16,
                ]);
                let n = name_off(&mut shstr, ".strtab");
                shdrs.push([
                    n,
                    elf::SHT_STRTAB,
                    0,
                    0,
                    str_off,
                    strtab.len() as u32,
                    0,
                    0,
                    1,
                    0,
                ]);
            }
            let n = name_off(&mut shstr, ".shstrtab");
            let shstr_off = out.len() as u32;
            let shstrndx = shdrs.len() as u16;
            shdrs.push([n, elf::SHT_STRTAB, 0, 0, shstr_off, 0, 0, 0, 1, 0]);
            out.extend_from_slice(&shstr);
            shdrs.last_mut().unwrap()[5] = shstr.len() as u32;
            align4(&mut out);
            let shoff = out.len() as u32;
            for h in &shdrs {
                for w in h {
                    put32(&mut out, *w);
                }
            }
            // ELF header.
            let mut h = Vec::new();
            h.extend_from_slice(&[0x7f, b'E', b'L', b'F', 1, 1, 1, 0]);
            h.extend_from_slice(&[0; 8]);
            put16(&mut h, self.e_type);
            put16(&mut h, self.machine);
            put32(&mut h, 1);
            put32(&mut h, self.entry);
            put32(&mut h, 52);
            put32(&mut h, shoff);
            put32(&mut h, 0);
            put16(&mut h, 52);
            put16(&mut h, 32);
            put16(&mut h, phnum as u16);
            put16(&mut h, 40);
            put16(&mut h, shdrs.len() as u16);
            put16(&mut h, shstrndx);
            out[..52].copy_from_slice(&h);
            // Program headers.
            for (i, s) in self.segs.iter().enumerate() {
                let mut p = Vec::new();
                put32(&mut p, s.p_type);
                put32(&mut p, seg_off[i]);
                put32(&mut p, s.vaddr);
                put32(&mut p, s.paddr);
                put32(&mut p, s.data.len() as u32);
                put32(&mut p, s.memsz);
                put32(&mut p, 5);
                put32(&mut p, 4);
                out[52 + 32 * i..52 + 32 * (i + 1)].copy_from_slice(&p);
            }
            out
        }
    }

    /// A firmware-like image: .text, .data (VMA != LMA is not used here), .bss, symbols.
    fn sample() -> Builder {
        let text: Vec<u8> = (0..64u8).collect();
        let mut b = Builder::new().seg(0x0010_0080, &text, 64).seg(
            0x0010_1000,
            &[0xAA, 0xBB, 0xCC, 0xDD],
            0x14,
        );
        // A PT_NOTE-like non-load header and an empty PT_LOAD: both ignored.
        b.segs.push(Seg {
            paddr: 0,
            vaddr: 0,
            data: vec![1, 2, 3, 4],
            memsz: 4,
            p_type: 4,
        });
        b.segs.push(Seg {
            paddr: 0xFFFF_0000,
            vaddr: 0,
            data: vec![],
            memsz: 0,
            p_type: elf::PT_LOAD,
        });
        b.secs = vec![
            Sec {
                name: ".text",
                sh_type: elf::SHT_PROGBITS,
                flags: 6,
                addr: 0x0010_0080,
                size: 64,
                seg: Some(0),
            },
            Sec {
                name: ".data",
                sh_type: elf::SHT_PROGBITS,
                flags: 3,
                addr: 0x0010_1000,
                size: 4,
                seg: Some(1),
            },
            Sec {
                name: ".bss",
                sh_type: elf::SHT_NOBITS,
                flags: 3,
                addr: 0x0010_1004,
                size: 0x10,
                seg: None,
            },
            Sec {
                name: ".comment",
                sh_type: elf::SHT_PROGBITS,
                flags: 0x30,
                addr: 0,
                size: 0,
                seg: None,
            },
        ];
        b.syms = vec![
            SymDef {
                name: "main",
                value: 0x0010_00a0,
                size: 0x20,
                kind: elf::STT_FUNC,
                bind: 1,
                shndx: 1,
            },
            SymDef {
                name: "_start",
                value: 0x0010_0080,
                size: 0x20,
                kind: elf::STT_FUNC,
                bind: 1,
                shndx: 1,
            },
            SymDef {
                name: "counter",
                value: 0x0010_1004,
                size: 4,
                kind: elf::STT_OBJECT,
                bind: 1,
                shndx: 3,
            },
            SymDef {
                name: "loop",
                value: 0x0010_0090,
                size: 0,
                kind: elf::STT_NOTYPE,
                bind: 0,
                shndx: 1,
            },
            SymDef {
                name: "",
                value: 0x0010_0090,
                size: 0,
                kind: elf::STT_NOTYPE,
                bind: 0,
                shndx: 1,
            },
            SymDef {
                name: ".text",
                value: 0x0010_0080,
                size: 0,
                kind: elf::STT_SECTION,
                bind: 0,
                shndx: 1,
            },
            SymDef {
                name: "crt0.c",
                value: 0,
                size: 0,
                kind: elf::STT_FILE,
                bind: 0,
                shndx: elf::SHN_ABS,
            },
            SymDef {
                name: "$xrv32i2p1_m2p0",
                value: 0x0010_0080,
                size: 0,
                kind: elf::STT_NOTYPE,
                bind: 0,
                shndx: 1,
            },
            SymDef {
                name: "printf",
                value: 0,
                size: 0,
                kind: elf::STT_FUNC,
                bind: 1,
                shndx: 0,
            },
            SymDef {
                name: "__stack_top",
                value: 0x0020_0000,
                size: 0,
                kind: elf::STT_NOTYPE,
                bind: 1,
                shndx: elf::SHN_ABS,
            },
        ];
        b
    }

    fn load(bytes: &[u8]) -> Result<Image, ElfError> {
        load_elf(bytes, RAM_BASE, RAM_SIZE)
    }

    fn err(bytes: &[u8]) -> String {
        let e = load(bytes).expect_err("expected an error");
        assert!(!e.is_io());
        let s = e.to_string();
        assert!(!s.contains('\n'), "multi-line message: {s}");
        s
    }

    #[test]
    fn elf_valid_load() {
        let img = load(&sample().build()).unwrap();
        assert_eq!(img.entry, 0x0010_0080);
        assert_eq!(img.segments.len(), 2);
        assert_eq!(img.segments[0].addr, 0x0010_0080);
        assert_eq!(img.segments[0].data, (0..64u8).collect::<Vec<_>>());
        assert_eq!(img.segments[1].addr, 0x0010_1000);
        assert_eq!(img.segments[1].data.len(), 0x14);
        assert_eq!(&img.segments[1].data[..4], &[0xAA, 0xBB, 0xCC, 0xDD]);
        assert!(
            img.segments[1].data[4..].iter().all(|&b| b == 0),
            "bss must be zero-filled"
        );

        let names: Vec<&str> = img.symbols.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["_start", "loop", "main", "counter", "__stack_top"]);
        assert!(img.symbols.windows(2).all(|w| w[0].addr <= w[1].addr));
        let main = &img.symbols[2];
        assert_eq!(
            (main.addr, main.size, main.is_func),
            (0x0010_00a0, 0x20, true)
        );
        assert!(!img.symbols[1].is_func);
        assert!(!img.symbols[3].is_func);

        let secs: Vec<(&str, u32, u32, bool)> = img
            .sections
            .iter()
            .map(|s| (s.name.as_str(), s.addr, s.size, s.executable))
            .collect();
        assert_eq!(
            secs,
            [
                (".text", 0x0010_0080, 64, true),
                (".data", 0x0010_1000, 4, false),
                (".bss", 0x0010_1004, 0x10, false)
            ]
        );
    }

    #[test]
    fn elf_no_section_headers_is_fine() {
        let mut b = sample().build();
        b[32..36].copy_from_slice(&0u32.to_le_bytes()); // e_shoff = 0
        let img = load(&b).unwrap();
        assert!(img.symbols.is_empty() && img.sections.is_empty());
        assert_eq!(img.segments.len(), 2);
    }

    #[test]
    fn elf_not_an_elf() {
        assert_eq!(
            err(b"#!/bin/sh\necho hi\n"),
            "not an ELF file (first bytes 7f 45 4c 46 expected, found 23 21 2f 62)"
        );
        assert!(err(b"").contains("empty"));
        assert_eq!(
            err(b"\x7fE"),
            "not an ELF file (first bytes 7f 45 4c 46 expected, found 7f 45)"
        );
    }

    #[test]
    fn elf_64bit() {
        let mut b = sample().build();
        b[4] = 2;
        assert_eq!(err(&b), "ELF is 64-bit (RV64); expected a 32-bit RV32 ELF");
        b[4] = 7;
        assert!(err(&b).contains("EI_CLASS"));
    }

    #[test]
    fn elf_x86_machine() {
        let mut b = sample().build();
        b[4] = 2; // x86-64 files are 64-bit: the machine is reported first
        b[18..20].copy_from_slice(&62u16.to_le_bytes());
        assert_eq!(
            err(&b),
            "ELF for x86-64 (e_machine 62); expected RISC-V (243)"
        );
        b[18..20].copy_from_slice(&0x1234u16.to_le_bytes());
        assert_eq!(
            err(&b),
            "ELF for an unknown machine (e_machine 4660); expected RISC-V (243)"
        );
    }

    #[test]
    fn elf_big_endian() {
        let mut b = sample().build();
        b[5] = 2;
        b[18..20].copy_from_slice(&243u16.to_be_bytes());
        assert!(err(&b).starts_with("ELF is big-endian"), "{}", err(&b));
        // A big-endian file for another machine names the machine.
        b[18..20].copy_from_slice(&20u16.to_be_bytes());
        assert!(err(&b).starts_with("ELF for PowerPC (e_machine 20)"));
    }

    #[test]
    fn elf_wrong_type() {
        let mut b = sample().build();
        b[16..18].copy_from_slice(&1u16.to_le_bytes());
        assert!(err(&b).contains("relocatable object"));
    }

    #[test]
    fn elf_segment_outside_ram() {
        let b = Builder::new().seg(0x0000_1000, &[1, 2, 3, 4], 4).build();
        assert_eq!(
            err(&b),
            "segment 0 at [0x00001000, 0x00001004) (4 bytes) lies outside RAM [0x00100000, 0x00200000); every loaded byte must be in RAM"
        );
        // Beyond the 32-bit address space (paddr + memsz overflows u32).
        let b = Builder::new().seg(0xFFFF_FFF0, &[1, 2, 3, 4], 0x20).build();
        assert!(err(&b).contains("[0xfffffff0, 0x100000010)"), "{}", err(&b));
    }

    #[test]
    fn elf_segment_straddles_ram_end() {
        let b = Builder::new()
            .seg(0x0010_0080, &[0; 8], 8)
            .seg(0x001F_FFF0, &[1, 2, 3, 4], 0x20) // bss runs past the end
            .build();
        assert_eq!(
            err(&b),
            "segment 1 at [0x001ffff0, 0x00200010) (32 bytes) extends outside RAM [0x00100000, 0x00200000); every loaded byte must be in RAM"
        );
        // Exactly up to the end is fine.
        let b = Builder::new().seg(0x001F_FFF0, &[1, 2, 3, 4], 0x10).build();
        assert_eq!(load(&b).unwrap().segments[0].data.len(), 0x10);
        // Straddling the start too.
        let b = Builder::new()
            .seg(0x000F_FFFC, &[1, 2, 3, 4, 5, 6, 7, 8], 8)
            .build();
        assert!(err(&b).contains("extends outside RAM"));
    }

    #[test]
    fn elf_misaligned_buffer() {
        // The caller's buffer need not be aligned (e.g. a sub-slice of a larger buffer).
        let b = sample().build();
        let mut shifted = vec![0u8; 1];
        shifted.extend_from_slice(&b);
        let img = load(&shifted[1..]).unwrap();
        assert_eq!(img, load(&b).unwrap());
        assert_eq!(img.symbols.len(), 5);
    }

    #[test]
    fn elf_uses_physical_address() {
        let mut b = Builder::new().seg(0x0010_2000, &[9, 8, 7], 3);
        b.segs[0].vaddr = 0x8000_0000;
        let img = load(&b.build()).unwrap();
        assert_eq!(img.segments[0].addr, 0x0010_2000);
    }

    #[test]
    fn elf_no_loadable_segment() {
        let mut b = Builder::new().seg(0x0010_0000, &[], 0);
        b.segs.push(Seg {
            paddr: 0,
            vaddr: 0,
            data: vec![1],
            memsz: 1,
            p_type: 4,
        });
        assert!(err(&b.build()).contains("no loadable segment"));
    }

    #[test]
    fn elf_overlapping_segments() {
        let b = Builder::new()
            .seg(0x0010_0000, &[0; 16], 16)
            .seg(0x0010_0008, &[0; 4], 4)
            .build();
        assert!(
            err(&b).contains("segment 1 at [0x00100008, 0x0010000c) overlaps segment 0"),
            "{}",
            err(&b)
        );
    }

    #[test]
    fn elf_filesz_larger_than_memsz() {
        let b = Builder::new().seg(0x0010_0000, &[0; 16], 8).build();
        assert!(err(&b).contains("p_filesz 0x10 larger than p_memsz 0x8"));
    }

    #[test]
    fn elf_truncated() {
        let full = sample().build();
        // Header cut short.
        assert_eq!(
            err(&full[..40]),
            "malformed ELF: file is only 40 bytes, too short for the ELF header; expected at least 52 bytes"
        );
        assert!(err(&full[..10]).contains("too short"));
        // Program headers cut short.
        assert!(
            err(&full[..60]).contains("program header table"),
            "{}",
            err(&full[..60])
        );
        // Segment data cut short (section headers are at the end, but segments are checked first).
        let first_seg_off = u32::from_le_bytes(full[52 + 4..52 + 8].try_into().unwrap()) as usize;
        let e = err(&full[..first_seg_off + 10]);
        assert!(e.starts_with("malformed ELF: segment 0 file bytes"), "{e}");
        assert!(e.contains("beyond the end of the file"), "{e}");
        // Only the section header table cut off.
        let e = err(&full[..full.len() - 10]);
        assert!(e.contains("section header table"), "{e}");
    }

    #[test]
    fn elf_io_error() {
        let p = Path::new("/nonexistent/dir/firmware.elf");
        let e = load_elf_file(p, RAM_BASE, RAM_SIZE).unwrap_err();
        assert!(e.is_io());
        let s = e.to_string();
        assert!(
            s.starts_with("/nonexistent/dir/firmware.elf: cannot read file ("),
            "{s}"
        );
        assert!(!s.contains('\n'));
    }

    #[test]
    fn elf_file_errors_name_the_path() {
        let dir = std::env::temp_dir().join(format!("ubik-elf-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("firmware.elf");
        std::fs::write(&p, b"#!/bin/sh\n").unwrap();
        let e = load_elf_file(&p, RAM_BASE, RAM_SIZE).unwrap_err();
        assert!(!e.is_io());
        assert_eq!(
            e.to_string(),
            format!(
                "{}: not an ELF file (first bytes 7f 45 4c 46 expected, found 23 21 2f 62)",
                p.display()
            )
        );
        std::fs::write(&p, sample().build()).unwrap();
        assert_eq!(
            load_elf_file(&p, RAM_BASE, RAM_SIZE)
                .unwrap()
                .segments
                .len(),
            2
        );
        // A directory cannot be read as a file.
        let e = load_elf_file(&dir, RAM_BASE, RAM_SIZE).unwrap_err();
        assert!(e.is_io(), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    fn check_no_panic(bytes: &[u8], what: &str) {
        let r = std::panic::catch_unwind(|| {
            if let Err(e) = load_elf(bytes, RAM_BASE, RAM_SIZE) {
                let s = e.to_string();
                assert!(!s.is_empty() && !s.contains('\n'));
                assert!(!e.is_io());
            }
        });
        if r.is_err() {
            panic!("load_elf panicked on {what}");
        }
    }

    #[test]
    fn elf_fuzz_no_panic() {
        let mut valid = vec![sample().build()];
        if let Some(real) = compile_fixture() {
            valid.push(real);
        }
        let mut cases = 0usize;
        for base in &valid {
            // Every truncation.
            for len in 0..base.len() {
                check_no_panic(&base[..len], &format!("truncation to {len} bytes"));
                cases += 1;
            }
            // Single-byte mutations at every position (the header and tables densely, data sparsely).
            for pos in 0..base.len() {
                for v in [0x00u8, 0xff, 0x80, 0x7f, 0x01] {
                    let mut m = base.clone();
                    m[pos] = v;
                    check_no_panic(&m, &format!("byte {pos} set to {v:#04x}"));
                    let mut m = base.clone();
                    m[pos] ^= v;
                    check_no_panic(&m, &format!("byte {pos} xor {v:#04x}"));
                    cases += 2;
                }
            }
            // Random multi-byte mutations (deterministic xorshift).
            let mut s: u64 = 0x9E37_79B9_7F4A_7C15;
            let mut rnd = || {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                s
            };
            for case in 0..20_000 {
                let mut m = base.clone();
                let n = 1 + rnd() % 6;
                for _ in 0..n {
                    let pos = (rnd() % m.len() as u64) as usize;
                    let r = rnd();
                    match r % 4 {
                        0 => m[pos] = r as u8,
                        1 if pos + 4 <= m.len() => {
                            m[pos..pos + 4].copy_from_slice(&((r >> 8) as u32).to_le_bytes())
                        }
                        2 if pos + 4 <= m.len() => {
                            m[pos..pos + 4].copy_from_slice(&u32::MAX.to_le_bytes())
                        }
                        _ => m[pos] ^= 1 << (r % 8),
                    }
                }
                if rnd() % 8 == 0 {
                    let len = (rnd() % m.len() as u64) as usize;
                    m.truncate(len);
                }
                check_no_panic(&m, &format!("random case {case}"));
                cases += 1;
            }
        }
        eprintln!("fuzz cases: {cases} over {} images", valid.len());
        assert!(cases > 10_000);
    }

    /// Compiles a tiny firmware with the cross compiler if it is installed (None otherwise).
    /// `-N` keeps the ELF headers out of the loaded segment (the default linker script would put
    /// them in a segment starting at 0x000ff000, below RAM).
    fn compile_fixture() -> Option<Vec<u8>> {
        compile_with(&["-Wl,-N"])
    }

    fn compile_with(extra: &[&str]) -> Option<Vec<u8>> {
        static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("ubik-elf-cc-{}-{n}", std::process::id()));
        std::fs::create_dir_all(&dir).ok()?;
        let src = dir.join("fw.c");
        let out = dir.join("fw.elf");
        std::fs::write(
            &src,
            "int counter; int table[4] = {1, 2, 3, 4};\n\
             int square(int x) { return x * x; }\n\
             void _start(void) { for (int i = 0; i < 4; i++) counter += square(table[i]); for (;;) {} }\n",
        )
        .ok()?;
        let status = std::process::Command::new("riscv64-unknown-elf-gcc")
            .args([
                "-march=rv32imc_zicsr",
                "-mabi=ilp32",
                "-O1",
                "-nostdlib",
                "-nostartfiles",
            ])
            .arg("-Wl,-Ttext=0x100080")
            .args(extra)
            .arg("-o")
            .arg(&out)
            .arg(&src)
            .stderr(std::process::Stdio::null())
            .status()
            .ok()?;
        let bytes = if status.success() {
            std::fs::read(&out).ok()
        } else {
            None
        };
        let _ = std::fs::remove_dir_all(&dir);
        bytes
    }

    #[test]
    fn elf_real_compiler_output() {
        let Some(bytes) = compile_fixture() else {
            eprintln!("riscv64-unknown-elf-gcc not available: skipped");
            return;
        };
        let img = load(&bytes).unwrap_or_else(|e| panic!("{e}"));
        let start = img
            .symbols
            .iter()
            .find(|s| s.name == "_start")
            .expect("_start");
        assert!(start.is_func);
        assert_eq!(img.entry, start.addr);
        let square = img
            .symbols
            .iter()
            .find(|s| s.name == "square")
            .expect("square");
        assert!(square.is_func && square.size > 0);
        assert!(img
            .symbols
            .iter()
            .any(|s| s.name == "counter" && !s.is_func));
        assert!(img.symbols.iter().all(|s| !s.name.starts_with('$')));
        assert!(img.symbols.windows(2).all(|w| w[0].addr <= w[1].addr));
        let text = img
            .sections
            .iter()
            .find(|s| s.name == ".text")
            .expect(".text");
        assert!(text.executable && text.addr == 0x0010_0080);
        assert!(img
            .segments
            .iter()
            .any(|s| s.addr <= 0x0010_0080 && 0x0010_0080 < s.addr + s.data.len() as u32));
    }

    #[test]
    fn elf_real_default_script_headers_below_ram() {
        // With the toolchain's default linker script the first PT_LOAD also maps the ELF
        // headers, at 0x000ff000: outside RAM, so the file is rejected (exit 65) by name.
        let Some(bytes) = compile_with(&[]) else {
            eprintln!("riscv64-unknown-elf-gcc not available: skipped");
            return;
        };
        let e = load(&bytes).unwrap_err().to_string();
        assert!(
            e.contains("at [0x000ff000, ") && e.contains("extends outside RAM [0x00100000"),
            "{e}"
        );
    }
}
