//! The compiler flags of a firmware build, read from the repository's `bsp/flags.mk`: the
//! file `bsp/bsp.mk` includes, so that `make` and `ubik build` compile with the same flags
//! from one list.

use crate::{code, Failure};
use std::path::Path;

/// Where the flags live, relative to the repository root.
pub const FLAGS_FILE: &str = "bsp/flags.mk";
/// Extra flags for every C source of a build, after the repository's (as `make`'s
/// `FW_EXTRA_CFLAGS`).
pub const EXTRA_CFLAGS_ENV: &str = "UBIK_CFLAGS";

/// The flags of one build, in the order GCC receives them.
#[derive(Debug)]
pub struct Flags {
    /// C sources: code generation, optimisation, language and warnings.
    pub c: Vec<String>,
    /// Assembly sources.
    pub asm: Vec<String>,
    /// The link, up to the linker script.
    pub ld: Vec<String>,
    /// Added for `bsp/src/string.c` (memcpy/memset must not compile into calls to themselves).
    pub string_c: Vec<String>,
}

impl Flags {
    /// Reads `FLAGS_FILE` under `root`, then adds the C flags of the environment variable
    /// `EXTRA_CFLAGS_ENV` (white-space separated; `make test` sets `-Werror`).
    pub fn read(root: &Path) -> Result<Flags, Failure> {
        let mut flags = Flags::read_file(root)?;
        if let Ok(extra) = std::env::var(EXTRA_CFLAGS_ENV) {
            flags.c.extend(extra.split_whitespace().map(str::to_string));
        }
        Ok(flags)
    }

    fn read_file(root: &Path) -> Result<Flags, Failure> {
        let path = root.join(FLAGS_FILE);
        let text = std::fs::read_to_string(&path).map_err(|e| {
            Failure::new(
                code::NO_INPUT,
                format!(
                    "cannot read {}: {e}; expected the compiler flags of the repository",
                    path.display()
                ),
            )
        })?;
        Flags::parse(&text)
            .map_err(|why| Failure::new(code::DATA, format!("{}: {why}", path.display())))
    }

    /// The flags from the text of `FLAGS_FILE`: `NAME := words` lines (a trailing `\`
    /// continues a line), `#` comments and blank lines.
    pub fn parse(text: &str) -> Result<Flags, String> {
        let vars = variables(text)?;
        let get = |name: &str| -> Result<Vec<String>, String> {
            vars.iter()
                .find(|(n, _)| n == name)
                .map(|(_, words)| words.clone())
                .ok_or_else(|| format!("{name} is not set; expected a line `{name} := flags...`"))
        };
        let arch = get("FW_ARCH")?;
        let mut c = arch.clone();
        c.extend(get("FW_OPT_DEFAULT")?);
        c.extend(get("FW_C_FLAGS")?);
        let mut asm = arch;
        asm.extend(get("FW_AS_FLAGS")?);
        Ok(Flags {
            c,
            asm,
            ld: get("FW_LD_ARCH_FLAGS")?,
            string_c: get("FW_STRING_C_FLAGS")?,
        })
    }
}

/// The `NAME := words` assignments of a make fragment limited to that form.
fn variables(text: &str) -> Result<Vec<(String, Vec<String>)>, String> {
    let mut vars = Vec::new();
    let mut logical = String::new();
    let mut first_line = 0;
    for (i, line) in text.lines().enumerate() {
        if logical.is_empty() {
            first_line = i + 1;
        }
        // A line ending in `\` continues on the next (as in make).
        if let Some(head) = line.strip_suffix('\\') {
            logical.push_str(head);
            logical.push(' ');
            continue;
        }
        logical.push_str(line);
        let stmt = std::mem::take(&mut logical);
        let stmt = stmt.split('#').next().unwrap_or("").trim();
        if stmt.is_empty() {
            continue;
        }
        let Some((name, value)) = stmt.split_once(":=") else {
            return Err(format!(
                "line {first_line}: `{stmt}` is not an assignment; expected `NAME := flags...`"
            ));
        };
        if value.contains("$(") || value.contains("${") {
            return Err(format!(
                "line {first_line}: {} refers to a make variable; expected plain flags (ubik build does not expand make)",
                name.trim()
            ));
        }
        vars.push((
            name.trim().to_string(),
            value.split_whitespace().map(str::to_string).collect(),
        ));
    }
    Ok(vars)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_continuations_and_comments() {
        let f = Flags::parse(
            "# c\nFW_ARCH := -ma \\\n  -mb\nFW_OPT_DEFAULT := -O2 # why\nFW_C_FLAGS := -g\n\
             FW_AS_FLAGS := -g\nFW_LD_ARCH_FLAGS := -x\nFW_STRING_C_FLAGS := -y\n",
        )
        .unwrap();
        assert_eq!(f.c, ["-ma", "-mb", "-O2", "-g"]);
        assert_eq!(f.asm, ["-ma", "-mb", "-g"]);
        assert_eq!(f.ld, ["-x"]);
        assert_eq!(f.string_c, ["-y"]);
    }

    #[test]
    fn rejects_make_expressions() {
        assert!(Flags::parse("FW_ARCH := $(X)\n").is_err());
        assert!(Flags::parse("ifeq (a,b)\n").is_err());
        assert!(Flags::parse("FW_ARCH := -m\n")
            .unwrap_err()
            .contains("FW_OPT_DEFAULT"));
    }

    /// The repository's own file gives the flags bsp.mk compiles with (assembly with DWARF 4,
    /// whose ranges follow linker relaxation: docs/debugging.md).
    #[test]
    fn repository_flags() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..");
        let f = Flags::read(&root).unwrap_or_else(|e| panic!("{}", e.message));
        assert_eq!(f.c[..3], ["-march=rv32imc_zicsr", "-mabi=ilp32", "-O2"]);
        assert_eq!(f.asm, ["-march=rv32imc_zicsr", "-mabi=ilp32", "-gdwarf-4"]);
        assert_eq!(
            f.ld,
            [
                "-march=rv32imc",
                "-mabi=ilp32",
                "-nostartfiles",
                "-nostdlib"
            ]
        );
    }
}
