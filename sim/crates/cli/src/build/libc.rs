//! `[build] libc = "picolibc"`: where Debian's picolibc for RISC-V is, and what an application
//! built with it adds to the build. The compiler driver finds it through its specs file
//! (`picolibc.specs`: the headers, and the library directory of the multilib the link's
//! `-march`/`-mabi` choose, rv32im/ilp32 for the testbed). Only the application's sources and
//! the BSP's glue (`bsp/libc/picolibc.c`: stdout on the console, thread-local storage) are
//! compiled with it; the kernel, NOS and the rest of the BSP never see its headers, and an
//! application without `libc` is built exactly as before.

use crate::{code, Failure};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use sysdesc::Libc;

/// The Debian package that provides picolibc for `riscv64-unknown-elf-gcc`.
pub const PICOLIBC_PACKAGE: &str = "picolibc-riscv64-unknown-elf";
/// The specs file the compiler driver reads for picolibc.
const SPECS: &str = "picolibc.specs";

/// A located C library: what its compiles and its link add.
#[derive(Debug, Clone)]
pub struct CLibrary {
    /// `--specs=/abs/path/picolibc.specs`.
    specs_flag: OsString,
    /// The BSP's glue directory, `bsp/libc`.
    glue_dir: PathBuf,
}

impl CLibrary {
    /// Finds `libc`'s specs file with the cross compiler `cc` (`-print-file-name`); exit 69
    /// with the package to install when it is not there.
    pub fn locate(libc: Libc, cc: &Path, root: &Path, ld_arch: &[String]) -> Result<Self, Failure> {
        match libc {
            Libc::Picolibc => {}
        }
        let out = Command::new(cc)
            .args(ld_arch)
            .arg(format!("-print-file-name={SPECS}"))
            .output();
        let found = out.ok().filter(|o| o.status.success()).and_then(|o| {
            let p = PathBuf::from(String::from_utf8_lossy(&o.stdout).trim());
            // GCC prints the bare name when it finds no such file.
            (p.is_absolute() && p.is_file()).then_some(p)
        });
        let Some(specs) = found else {
            return Err(Failure::new(
                code::UNAVAILABLE,
                format!(
                    "{}: picolibc is not installed ({SPECS} not found; [build] libc = \"picolibc\"); expected Debian package {PICOLIBC_PACKAGE}: run scripts/setup.sh",
                    cc.display()
                ),
            ));
        };
        let mut specs_flag = OsString::from("--specs=");
        specs_flag.push(&specs);
        Ok(CLibrary {
            specs_flag,
            glue_dir: root.join("bsp").join("libc"),
        })
    }

    /// Added to the compile of the application's sources and of the glue: the library's
    /// headers (and its thread-local storage model).
    pub fn compile_flags(&self) -> Vec<OsString> {
        vec![self.specs_flag.clone()]
    }

    /// The BSP's glue source.
    pub fn glue_source(&self) -> PathBuf {
        self.glue_dir.join("picolibc.c")
    }

    /// Added to the link before the objects: the library's directories, the TLS sections'
    /// script and main wrapped by the glue.
    pub fn link_flags(&self) -> Vec<OsString> {
        let mut tls = OsString::from("-Wl,-T,");
        tls.push(self.glue_dir.join("tls.ld"));
        vec![self.specs_flag.clone(), tls, "-Wl,--wrap=main".into()]
    }

    /// The inputs of the link besides the objects (relink when they change).
    pub fn link_inputs(&self) -> Vec<PathBuf> {
        vec![self.glue_dir.join("tls.ld")]
    }

    /// After the objects and `[build] libs`, in place of the plain `-lgcc`: the C library,
    /// libm and libgcc, which call one another.
    pub fn libraries() -> Vec<OsString> {
        [
            "-Wl,--start-group",
            "-lm",
            "-lc",
            "-lgcc",
            "-Wl,--end-group",
        ]
        .iter()
        .map(OsString::from)
        .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A compiler without the specs file: one line naming the package, exit 69.
    #[test]
    fn missing_picolibc_names_the_package() {
        // `true` prints nothing: no specs file found.
        let e =
            CLibrary::locate(Libc::Picolibc, Path::new("true"), Path::new("/"), &[]).unwrap_err();
        assert_eq!(e.code, code::UNAVAILABLE);
        assert!(!e.message.contains('\n'));
        assert!(e.message.contains(PICOLIBC_PACKAGE), "{}", e.message);
    }
}
