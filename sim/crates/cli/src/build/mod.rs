//! `ubik build APPDIR [-o APP.elf]`: system.toml -> generated C -> one ELF with the kernel,
//! the BSP and the application (contract: `docs/contract.md`, user guide: `docs/system.md`).
//!
//! 1. Read `APPDIR/system.toml` (`sysdesc`); errors are one line `FILE:LINE:COLUMN: ...`, 65
//!    (66 when it cannot be read).
//! 2. Find the repository ([`root`]) and write `BUILD/uk_config.h`, `BUILD/uk_gen.h` and
//!    `BUILD/uk_gen.c` (`sysdesc::gen`, as `ubik gen` does; only when their content changes).
//! 3. Compile, in parallel and only what is out of date ([`compile`]): the kernel
//!    (`kernel/src/*.c`, `kernel/sched/<scheduler>.c`, `kernel/arch/rv32/*.S|*.c`), the BSP
//!    (`bsp/crt0.S`, `bsp/src/*.c` and the board's, [`board`]), `BUILD/uk_gen.c` and the
//!    application's sources, into `BUILD/obj/`; then check that they define every function
//!    `system.toml` names and `main` ([`symbols`]: a missing one is reported at its
//!    `FILE:LINE:COLUMN`, 65) and link them with `bsp/link.ld` and libgcc.
//!
//! BUILD is `--build-dir`, else `DIR/STEM.build/` beside `-o DIR/STEM.elf`, else `APPDIR/build/`
//! (which also holds the default ELF, `app.elf`).

pub mod board;
pub mod compile;
pub mod flags;
pub mod hv;
pub mod libc;
pub mod root;
pub mod symbols;

use crate::{code, Failure};
use board::Board;
use clap::Args;
use compile::{compile_all, link, LinkOutcome, Unit};
use std::ffi::OsString;
use std::path::{Component, Path, PathBuf};
use sysdesc::gen;
use sysdesc::SystemDesc;

#[derive(Args)]
pub struct BuildArgs {
    /// The application directory: system.toml and the application's C (and .S) sources.
    pub appdir: PathBuf,
    /// The ELF to write [default: APPDIR/build/app.elf].
    #[arg(short = 'o', long = "output", value_name = "APP.elf")]
    pub output: Option<PathBuf>,
    /// Where generated files and objects go [default: beside -o as STEM.build/, else
    /// APPDIR/build/].
    #[arg(long, value_name = "DIR")]
    pub build_dir: Option<PathBuf>,
    /// Compile jobs at a time [default: the number of cores].
    #[arg(short = 'j', long, value_name = "N")]
    pub jobs: Option<usize>,
    /// Print each compiler and linker command as it runs (on stderr).
    #[arg(short = 'v', long)]
    pub verbose: bool,
}

/// The cross compiler's name prefix; `UBIK_CROSS` overrides it (as `CROSS` does in bsp.mk).
const DEFAULT_CROSS: &str = "riscv64-unknown-elf-";

fn absolute(p: &Path) -> PathBuf {
    std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf())
}

fn io_failure(what: &str, path: &Path, e: &std::io::Error) -> Failure {
    Failure::new(
        code::IO_ERROR,
        format!(
            "cannot write {what} {}: {e}; expected a writable directory",
            path.display()
        ),
    )
}

/// Finds `name` in the directories of PATH (or takes it as a path if it has a slash).
fn find_on_path(name: &str) -> Option<PathBuf> {
    if name.contains('/') {
        let p = PathBuf::from(name);
        return p.is_file().then_some(p);
    }
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|d| d.join(name))
        .find(|p| {
            use std::os::unix::fs::PermissionsExt;
            std::fs::metadata(p)
                .map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
                .unwrap_or(false)
        })
}

/// The files of `dir` whose names end in one of `exts`, sorted (none if `dir` is missing).
fn list(dir: &Path, exts: &[&str]) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .map(|e| e.path())
                .filter(|p| {
                    p.is_file()
                        && p.file_name()
                            .and_then(|n| n.to_str())
                            .is_some_and(|n| exts.iter().any(|x| n.ends_with(x)))
                })
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

/// `BUILD/obj/<group>/<rel>.o` for a source at `rel` inside its group's directory: `..`
/// becomes `__`, so that no object lands outside `BUILD/obj`.
fn obj_path(obj_dir: &Path, group: &str, rel: &Path) -> PathBuf {
    let mut p = obj_dir.join(group);
    for c in rel.components() {
        match c {
            Component::Normal(s) => p.push(s),
            Component::ParentDir => p.push("__"),
            _ => {}
        }
    }
    let mut s = p.into_os_string();
    s.push(".o");
    PathBuf::from(s)
}

fn is_asm(p: &Path) -> bool {
    p.extension().is_some_and(|e| e == "S")
}

/// The RISC-V cross compiler: `riscv64-unknown-elf-gcc` (another prefix: `UBIK_CROSS`) on
/// PATH; exit 69 when it is missing.
pub fn cross_compiler() -> Result<PathBuf, Failure> {
    let cross = std::env::var("UBIK_CROSS").unwrap_or_else(|_| DEFAULT_CROSS.to_string());
    let cc_name = format!("{cross}gcc");
    find_on_path(&cc_name).ok_or_else(|| {
        Failure::new(
            code::UNAVAILABLE,
            format!("{cc_name}: the RISC-V cross compiler is not on PATH; expected it installed: run scripts/setup.sh (Debian package gcc-riscv64-unknown-elf)"),
        )
    })
}

/// Builds the ELF; Ok(0) on success.
pub fn build(args: BuildArgs) -> Result<u8, Failure> {
    // ---- The application directory and its description.
    let appdir_shown = args.appdir.display().to_string();
    match std::fs::metadata(&args.appdir) {
        Ok(m) if m.is_dir() => {}
        Ok(_) => {
            return Err(Failure::new(
                code::NO_INPUT,
                format!("{appdir_shown}: not a directory; expected an application directory holding system.toml and C sources"),
            ))
        }
        Err(e) => {
            return Err(Failure::new(
                code::NO_INPUT,
                format!(
                    "{appdir_shown}: cannot read the application directory: {}; expected a directory holding system.toml and C sources",
                    io_reason(&e)
                ),
            ))
        }
    }
    let appdir = args
        .appdir
        .canonicalize()
        .unwrap_or_else(|_| absolute(&args.appdir));
    // A directory with a hypervisor description builds the hypervisor and its guests.
    if args.appdir.join(hv::DESCRIPTION).is_file() {
        return hv::build(&args, &appdir);
    }
    let desc = SystemDesc::from_file(&args.appdir.join("system.toml"))
        .map_err(|e| Failure::new(e.exit_code() as u8, e.to_string()))?;
    let (elf, build_dir) = output_paths(&args, &appdir, "app");
    let jobs = jobs(&args);
    build_app(
        &appdir,
        &appdir_shown,
        &desc,
        &elf,
        &build_dir,
        jobs,
        args.verbose,
        None,
    )?;
    Ok(0)
}

/// The ELF to write and the build directory: `-o`, else `DIR/build/STEM.elf`; `--build-dir`,
/// else `STEM.build/` beside `-o`, else `DIR/build/`.
fn output_paths(args: &BuildArgs, dir: &Path, default_stem: &str) -> (PathBuf, PathBuf) {
    let elf = absolute(
        &args
            .output
            .clone()
            .unwrap_or_else(|| dir.join("build").join(format!("{default_stem}.elf"))),
    );
    let build_dir = match (&args.build_dir, &args.output) {
        (Some(d), _) => absolute(d),
        (None, Some(_)) => {
            let stem = elf
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| default_stem.into());
            elf.with_file_name(format!("{stem}.build"))
        }
        (None, None) => dir.join("build"),
    };
    (elf, build_dir)
}

/// Compiles `units` (`cwd`: where messages' paths are relative to); a failure as `ubik build`
/// reports it.
fn compile_units(
    units: &[Unit],
    jobs: usize,
    verbose: bool,
    cwd: &Path,
) -> Result<compile::CompileReport, Failure> {
    let report = compile_all(units, jobs, verbose, cwd);
    if let Some(e) = &report.spawn_error {
        return Err(Failure::new(
            code::UNAVAILABLE,
            format!("{e}; expected a working RISC-V cross compiler: run scripts/setup.sh"),
        ));
    }
    if report.errors > 0 {
        let n = report.errors;
        return Err(Failure::bare(
            code::DATA,
            format!(
                "ubik build: compilation failed ({n} error{})",
                if n == 1 { "" } else { "s" }
            ),
        ));
    }
    Ok(report)
}

/// The libraries of a link without `[build] libs` or `libc`: libgcc alone.
pub fn default_libs() -> Vec<OsString> {
    vec!["-lgcc".into()]
}

/// The link with the BSP's script `link_ld`: the flags of bsp/flags.mk, section garbage
/// collection, `extra`, a map beside `elf`, the objects of `units` and `libs` (libgcc:
/// [`default_libs`]). Returns the command and its inputs (the objects and the script), for
/// `link`.
fn link_command(
    cc: &Path,
    flags: &flags::Flags,
    link_ld: &Path,
    extra: Vec<OsString>,
    elf: &Path,
    units: &[Unit],
    libs: Vec<OsString>,
) -> (Vec<OsString>, Vec<PathBuf>) {
    let mut argv: Vec<OsString> = vec![cc.as_os_str().to_os_string()];
    argv.extend(flags.ld.iter().map(OsString::from));
    argv.push("-T".into());
    argv.push(link_ld.as_os_str().to_os_string());
    argv.push("-Wl,--gc-sections".into());
    argv.push("-Wl,--no-warn-rwx-segments".into());
    argv.extend(extra);
    let mut map = OsString::from("-Wl,-Map=");
    map.push(elf.with_extension("map"));
    argv.push(map);
    argv.push("-o".into());
    argv.push(elf.as_os_str().to_os_string());
    let mut inputs: Vec<PathBuf> = units.iter().map(|u| u.obj.clone()).collect();
    argv.extend(inputs.iter().map(|p| p.clone().into_os_string()));
    argv.extend(libs);
    inputs.push(link_ld.to_path_buf());
    (argv, inputs)
}

/// A link's outcome as `ubik build` reports it.
fn link_result(outcome: LinkOutcome) -> Result<(), Failure> {
    match outcome {
        LinkOutcome::UpToDate | LinkOutcome::Linked => Ok(()),
        LinkOutcome::Failed(n, text) => {
            // The linker's own lines first, as the compiler's.
            let mut err = std::io::stderr().lock();
            let _ = std::io::Write::write_all(&mut err, text.as_bytes());
            let _ = std::io::Write::flush(&mut err);
            Err(Failure::bare(
                code::DATA,
                format!(
                    "ubik build: link failed ({n} error{})",
                    if n == 1 { "" } else { "s" }
                ),
            ))
        }
        LinkOutcome::Spawn(e) => Err(Failure::new(
            code::UNAVAILABLE,
            format!("{e}; expected a working RISC-V cross compiler: run scripts/setup.sh"),
        )),
    }
}

/// Compile jobs at a time: `-j`, else the number of cores.
fn jobs(args: &BuildArgs) -> usize {
    args.jobs.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    })
}

/// Where a hypervisor guest lives: its part of RAM (it is linked there).
pub struct GuestPlace {
    pub ram_base: u32,
    pub ram_size: u32,
    /// Which partition, and where its RAM is given (`FILE:LINE:COL` of its `ram_kib`): what a
    /// guest too large for it is reported as.
    pub name: String,
    pub ram_at: String,
}

/// The one line for an image that overflowed its RAM (`link_overflow`): `who` at `at`.
pub fn too_small(at: &str, who: &str, size: u32, over: u64, expected: &str) -> Failure {
    let by = if over > 0 {
        format!(" (by {over} bytes)")
    } else {
        String::new()
    };
    Failure::new(
        code::DATA,
        format!(
            "{at}: {who} does not fit its {} KiB of RAM{by}; expected {expected}",
            size >> 10
        ),
    )
}

/// Did the link fail because the image is larger than its RAM region (`bsp/link.ld`: the
/// region overflowed, or no room is left for the stack)? The bytes missing, when the linker
/// says (0: it does not).
pub fn link_overflow(text: &str) -> Option<u64> {
    if let Some(i) = text.find("overflowed by ") {
        let n: String = text[i + 14..]
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        return Some(n.parse().unwrap_or(0));
    }
    (text.contains("will not fit in region") || text.contains("leave no room for the stack"))
        .then_some(0)
}

/// Builds one application (`desc`, from `appdir`) into `elf`, with its generated files and
/// objects in `build_dir`: for the machine, or (`guest`) for a partition of the hypervisor,
/// with the kernel's guest port (kernel/arch/rv32-guest) and the guest board (bsp/guest).
#[allow(clippy::too_many_arguments)]
pub fn build_app(
    appdir: &Path,
    appdir_shown: &str,
    desc: &SystemDesc,
    elf: &Path,
    build_dir: &Path,
    jobs: usize,
    verbose: bool,
    guest: Option<&GuestPlace>,
) -> Result<(), Failure> {
    let appdir = appdir.to_path_buf();
    let elf = elf.to_path_buf();
    let build_dir = build_dir.to_path_buf();
    // ---- Where things come from and go.
    let root = root::find_root(&appdir)?;
    // The repository's flags (bsp/flags.mk, shared with bsp.mk), not a copy in ubik.
    let flags = flags::Flags::read(&root)?;
    let obj_dir = build_dir.join("obj");

    let app_sources = app_sources(&appdir, appdir_shown, desc)?;

    // ---- Generated C.
    std::fs::create_dir_all(&obj_dir)
        .map_err(|e| io_failure("the build directory", &obj_dir, &e))?;
    gen::generate(desc, &build_dir)
        .map_err(|e| io_failure("generated files into", &build_dir, &e))?;

    // ---- Kernel and BSP sources.
    let kernel = root.join("kernel");
    let sched_src = scheduler_source(&kernel, desc, appdir_shown)?;
    let bsp = root.join("bsp");
    let board = if guest.is_some() {
        Board::Guest
    } else {
        Board::Reference
    };
    let crt0 = bsp.join("crt0.S");
    let link_ld = bsp.join("link.ld");

    // ---- The compiler, and the C library when the description asks for one.
    let cc = cross_compiler()?;
    let clib = match desc.build.libc {
        Some(l) => Some(libc::CLibrary::locate(l, &cc, &root, &flags.ld)?),
        None => None,
    };
    // Only the application and the BSP's glue see the C library's headers.
    let clib_flags: Vec<OsString> = clib.as_ref().map_or(Vec::new(), |c| c.compile_flags());

    // ---- Flags.
    let includes = include_flags(&root, &build_dir, &appdir, board);
    let mut user: Vec<OsString> = Vec::new();
    if guest.is_some() {
        // The kernel's guest port (after the configuration); the board is its directory.
        user.push("-DUK_ARCH_RV32_GUEST".into());
    }
    user.extend(desc.build.cflags.iter().map(OsString::from));
    // Kernel, generated and application sources see the configuration macros without
    // including anything (as Zephyr's autoconf.h): `#ifdef UK_CONFIG_SCHED_RR` just works. The
    // BSP does not depend on the configuration, so a system.toml change leaves it compiled.
    let config_header = build_dir.join(gen::CONFIG_HEADER);
    let flags_for = |src: &Path, group: &str, extra: &[&str]| -> Vec<OsString> {
        let base = if is_asm(src) { &flags.asm } else { &flags.c };
        let mut f: Vec<OsString> = base.iter().map(OsString::from).collect();
        f.extend(extra.iter().map(OsString::from));
        f.extend(includes.iter().cloned());
        if group != "bsp" {
            f.push("-imacros".into());
            f.push(config_header.clone().into_os_string());
        }
        f.extend(user.iter().cloned());
        if group == "app" || group == "libc" {
            f.extend(clib_flags.iter().cloned());
        }
        f
    };

    // ---- Compile units, in link order: crt0 first (the vector table), the BSP last.
    let mut units: Vec<Unit> = Vec::new();
    let mut add = |src: PathBuf, group: &str, rel: &Path, extra: &[&str]| {
        let obj = obj_path(&obj_dir, group, rel);
        units.push(Unit::new(&cc, &flags_for(&src, group, extra), src, obj));
    };
    add(crt0.clone(), "bsp", Path::new("crt0.S"), &[]);
    for (src, group, rel) in os_sources(desc, &root, sched_src, guest, appdir_shown)? {
        add(src, group, &rel, &[]);
    }
    add(
        build_dir.join(gen::GEN_SOURCE),
        "gen",
        Path::new(gen::GEN_SOURCE),
        &[],
    );
    for s in app_sources {
        let rel = s.strip_prefix(&appdir).unwrap_or(&s).to_path_buf();
        add(s, "app", &rel, &[]);
    }
    let string_c: Vec<&str> = flags.string_c.iter().map(String::as_str).collect();
    for s in board.c_sources(&root) {
        // As bsp.mk: GCC would turn the loops of memcpy/memset back into calls to themselves.
        let extra: &[&str] = if s.file_name().is_some_and(|n| n == "string.c") {
            &string_c
        } else {
            &[]
        };
        let rel = s.strip_prefix(&bsp).unwrap_or(&s).to_path_buf();
        add(s, "bsp", &rel, extra);
    }
    if let Some(c) = &clib {
        // The glue: the standard streams on the console, thread-local storage (last: an
        // image without libc keeps every address).
        add(c.glue_source(), "libc", Path::new("picolibc.c"), &[]);
    }

    // ---- Compile.
    let report = compile_units(&units, jobs, verbose, &appdir)?;

    // ---- The functions system.toml names, and main, defined? Reported where they are named
    // (main: the application), before the linker reports them against the generated code
    // and crt0.
    check_defined(&units, &appdir, &root, desc, appdir_shown)?;

    // ---- Link.
    let compiled = report.compiled > 0;
    let linking = Linking {
        cc: &cc,
        flags: &flags,
        link_ld: &link_ld,
        clib: clib.as_ref(),
        build: &desc.build,
    };
    link_app(
        &linking, &elf, &build_dir, &units, compiled, verbose, &appdir, guest,
    )
}

/// The operating system's sources, in link order, with their group and their path in it:
/// the kernel (its guest port for a hypervisor partition) or NOS.
fn os_sources(
    desc: &SystemDesc,
    root: &Path,
    sched_src: PathBuf,
    guest: Option<&GuestPlace>,
    appdir_shown: &str,
) -> Result<Vec<(PathBuf, &'static str, PathBuf)>, Failure> {
    let kernel = root.join("kernel");
    let nos = root.join("nos");
    let mut v = Vec::new();
    match desc.kernel.os {
        sysdesc::Os::Ubik => {
            let mut kernel_srcs = list(&kernel.join("src"), &[".c"]);
            kernel_srcs.push(sched_src);
            let arch = kernel.join("arch");
            if guest.is_some() {
                // The machine port's C (its privileged parts are inline, in the guest's
                // arch_impl.h) and the guest's own entries.
                kernel_srcs.extend(list(&arch.join("rv32"), &[".c"]));
                kernel_srcs.extend(list(&arch.join("rv32-guest"), &[".S", ".c"]));
            } else {
                kernel_srcs.extend(list(&arch.join("rv32"), &[".S", ".c"]));
            }
            for s in kernel_srcs {
                let rel = s.strip_prefix(&kernel).unwrap_or(&s).to_path_buf();
                v.push((s, "kernel", rel));
            }
        }
        // NOS, the baseline executive, in place of the kernel.
        sysdesc::Os::Nos if guest.is_some() => {
            return Err(Failure::new(
                code::DATA,
                format!("{appdir_shown}/system.toml: os = \"nos\" cannot be a hypervisor guest; expected a Ubik application (os = \"ubik\")"),
            ));
        }
        sysdesc::Os::Nos => {
            for s in list(&nos, &[".c"]) {
                let rel = s.strip_prefix(root).unwrap_or(&s).to_path_buf();
                v.push((s, "nos", rel));
            }
        }
    }
    Ok(v)
}

/// What an application's link is made of besides its objects.
struct Linking<'a> {
    cc: &'a Path,
    flags: &'a flags::Flags,
    link_ld: &'a Path,
    /// `[build] libc`, located.
    clib: Option<&'a libc::CLibrary>,
    /// `[build] ldflags` and `libs`.
    build: &'a sysdesc::BuildConfig,
}

impl Linking<'_> {
    /// Before the objects: the C library's flags, then `ldflags`.
    fn flags_before(&self) -> Vec<OsString> {
        let mut v: Vec<OsString> = self.clib.map_or(Vec::new(), |c| c.link_flags());
        v.extend(self.build.ldflags.iter().map(OsString::from));
        v
    }

    /// After the objects: `libs`, then the C library's group or libgcc.
    fn libs_after(&self) -> Vec<OsString> {
        let mut v: Vec<OsString> = self
            .build
            .libs
            .iter()
            .map(|l| OsString::from(format!("-l{l}")))
            .collect();
        if self.clib.is_some() {
            v.extend(libc::CLibrary::libraries());
        } else {
            v.extend(default_libs());
        }
        v
    }
}

/// `-I` for the kernel's, NOS's and the board's headers, the generated ones, the application's
/// and (a guest) the interfaces shared with the hypervisor (`include/`: `hv/abi.h`).
fn include_flags(root: &Path, build_dir: &Path, appdir: &Path, board: Board) -> Vec<OsString> {
    let kernel = root.join("kernel");
    let mut include_dirs = vec![kernel.join("include"), kernel.join("src"), root.join("nos")];
    include_dirs.extend(board.include_dirs(root));
    include_dirs.extend([build_dir.to_path_buf(), appdir.to_path_buf()]);
    if board == Board::Guest {
        include_dirs.push(root.join("include"));
    }
    include_dirs
        .iter()
        .map(|d| {
            let mut s = OsString::from("-I");
            s.push(d);
            s
        })
        .collect()
}

/// The application's sources: `[build] sources`, each readable, or its directory's *.c and
/// *.S.
fn app_sources(
    appdir: &Path,
    appdir_shown: &str,
    desc: &SystemDesc,
) -> Result<Vec<PathBuf>, Failure> {
    let app_sources: Vec<PathBuf> = match &desc.build.sources {
        Some(list) => {
            let mut v = Vec::new();
            for s in list {
                let p = appdir.join(&s.path);
                if let Err(e) = std::fs::File::open(&p) {
                    return Err(Failure::new(
                        code::NO_INPUT,
                        format!(
                            "{}: cannot read source `{}`: {}; expected a file relative to {appdir_shown}",
                            s.at,
                            s.path,
                            io_reason(&e)
                        ),
                    ));
                }
                v.push(p);
            }
            v
        }
        None => list(appdir, &[".c", ".S"]),
    };
    if app_sources.is_empty() {
        return Err(Failure::new(
            code::NO_INPUT,
            format!("{appdir_shown}: no application sources; expected *.c or *.S files (one with main) or [build] sources in system.toml"),
        ));
    }

    Ok(app_sources)
}

/// kernel/sched/NAME.c of the scheduler the description chooses, which must exist.
fn scheduler_source(
    kernel: &Path,
    desc: &SystemDesc,
    appdir_shown: &str,
) -> Result<PathBuf, Failure> {
    let sched = desc.kernel.scheduler.name();
    let sched_src = kernel.join("sched").join(format!("{sched}.c"));
    if !sched_src.is_file() {
        return Err(Failure::new(
            code::NO_INPUT,
            format!(
                "{}: cannot read the source of scheduler \"{sched}\" ([kernel] scheduler in {appdir_shown}/system.toml); expected the kernel to have kernel/sched/{sched}.c",
                sched_src.display()
            ),
        ));
    }
    Ok(sched_src)
}

/// Are the functions the description names, and main, defined in the compiled objects?
fn check_defined(
    units: &[Unit],
    appdir: &Path,
    root: &Path,
    desc: &SystemDesc,
    appdir_shown: &str,
) -> Result<(), Failure> {
    let objects: Vec<(PathBuf, String)> = units
        .iter()
        .map(|u| {
            let rel = u
                .src
                .strip_prefix(appdir)
                .or_else(|_| u.src.strip_prefix(root));
            (u.obj.clone(), rel.unwrap_or(&u.src).display().to_string())
        })
        .collect();
    if let Some(defs) = symbols::Definitions::read(&objects) {
        defs.check_functions(&desc.objects.functions)
            .and_then(|()| defs.check_main(appdir_shown))
            .map_err(|m| Failure::new(code::DATA, m))?;
    }

    Ok(())
}

/// Links the compiled units into `elf` (a guest within its partition's RAM).
#[allow(clippy::too_many_arguments)]
fn link_app(
    l: &Linking,
    elf: &Path,
    build_dir: &Path,
    units: &[Unit],
    compiled: bool,
    verbose: bool,
    appdir: &Path,
    guest: Option<&GuestPlace>,
) -> Result<(), Failure> {
    if let Some(dir) = elf.parent() {
        std::fs::create_dir_all(dir).map_err(|e| io_failure("the ELF into", dir, &e))?;
    }
    // The kernel's descriptor for the testbed's kernel awareness (docs/contract.md): nothing
    // references it, so section garbage collection would drop it. A root for the collector
    // (no error when a kernel does not define it). The interrupts' names of the generated
    // code, for the trace: likewise a root.
    let mut extra: Vec<OsString> = vec![
        "-Wl,--undefined=uk_debug_info".into(),
        "-Wl,--undefined=uk__gen_irq_names".into(),
    ];
    if let Some(g) = guest {
        extra.push(format!("-Wl,--defsym=__ram_origin=0x{:08x}", g.ram_base).into());
        extra.push(format!("-Wl,--defsym=__ram_length=0x{:08x}", g.ram_size).into());
    }
    extra.extend(l.flags_before());
    let (argv, mut inputs) =
        link_command(l.cc, l.flags, l.link_ld, extra, elf, units, l.libs_after());
    if let Some(c) = l.clib {
        inputs.extend(c.link_inputs());
    }
    let cmd_file = build_dir.join("link.cmd");
    let outcome = link(&argv, elf, &cmd_file, &inputs, compiled, verbose, appdir);
    if let (Some(g), LinkOutcome::Failed(_, text)) = (guest, &outcome) {
        if let Some(over) = link_overflow(text) {
            return Err(too_small(
                &g.ram_at,
                &format!("partition {}'s guest", g.name),
                g.ram_size,
                over,
                "a larger ram_kib (a power of two)",
            ));
        }
    }
    link_result(outcome)
}

fn io_reason(e: &std::io::Error) -> String {
    let s = e.to_string();
    match s.find(" (os error") {
        Some(i) => s[..i].to_string(),
        None => s,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_that_overflows_ram_is_recognised() {
        let ld = "/usr/bin/ld: x.elf section `.bss' will not fit in region `RAM'\n\
                  /usr/bin/ld: region `RAM' overflowed by 13632 bytes\n\
                  collect2: error: ld returned 1 exit status\n";
        assert_eq!(link_overflow(ld), Some(13632));
        let stack = "ld: program and data leave no room for the stack (__stack_size)\n";
        assert_eq!(link_overflow(stack), Some(0));
        let undefined = "main.c:(.text+0x8): undefined reference to `foo'\n";
        assert_eq!(link_overflow(undefined), None);
        let f = too_small("h.toml:3:11", "partition a's guest", 4096, 12, "more");
        assert_eq!(
            f.message,
            "h.toml:3:11: partition a's guest does not fit its 4 KiB of RAM (by 12 bytes); expected more"
        );
    }
}
