//! Loading firmware ELF files into the machine's RAM (owned by helper: ELF loader).
