//! `ubik`: the command line of the Ubik testbed (contract: `docs/contract.md`).

mod build;
mod experiment;
mod gen;
mod outputs;
mod report;
mod run;
mod run_stats;
mod uart_host;
mod uart_pty;

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

/// Exit codes of `docs/contract.md`.
pub mod code {
    pub const USAGE: u8 = 64;
    pub const DATA: u8 = 65;
    pub const NO_INPUT: u8 = 66;
    /// A tool Ubik needs is missing (`ubik build`: the RISC-V cross compiler).
    pub const UNAVAILABLE: u8 = 69;
    pub const INTERNAL: u8 = 70;
    pub const MACHINE_FAULT: u8 = 71;
    pub const MAX_CYCLES: u8 = 72;
    /// No task can ever run again (`ubik run`'s deadlock check).
    pub const DEADLOCK: u8 = 73;
    pub const IO_ERROR: u8 = 74;
    pub const INTERRUPTED: u8 = 130;
}

#[derive(Parser)]
#[command(
    name = "ubik",
    version,
    about = "Ubik testbed: a cycle-accurate RV32IMC microcontroller (lowRISC Ibex timing)"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run a firmware ELF on the reference machine.
    Run(Box<run::RunArgs>),
    /// Build an application (APPDIR: system.toml + C sources) with the kernel and BSP into one ELF.
    Build(build::BuildArgs),
    /// Turn a system description (system.toml) into C: uk_config.h, uk_gen.h, uk_gen.c.
    Gen(gen::GenArgs),
    /// Build, run and measure the firmware variants of an experiment file; write data and plots.
    Experiment(experiment::ExperimentArgs),
    /// Write one HTML page with every figure and table of the results under DIR.
    Report(report::ReportArgs),
    /// Show the machine description.
    Machine {
        /// Print the built-in default machine file (the reference for its keys).
        #[arg(long)]
        print_default: bool,
        /// Check a machine file and print it resolved over the default.
        #[arg(long, value_name = "M.toml")]
        check: Option<PathBuf>,
    },
}

/// A failure: the exit code and the one line that explains it.
pub struct Failure {
    pub code: u8,
    pub message: String,
    /// Print `message` as is, without the `ubik: ` prefix.
    pub bare: bool,
    /// Lines printed after the message (`ubik run`'s task report), as they are.
    pub report: Option<String>,
}

impl Failure {
    pub fn new(code: u8, message: impl Into<String>) -> Failure {
        Failure {
            code,
            message: message.into(),
            bare: false,
            report: None,
        }
    }

    /// A failure whose message is printed as is (it names its command itself).
    pub fn bare(code: u8, message: impl Into<String>) -> Failure {
        Failure {
            bare: true,
            ..Failure::new(code, message)
        }
    }
}

fn machine_cmd(print_default: bool, check: Option<PathBuf>) -> Result<u8, Failure> {
    if let Some(path) = check {
        machine::config::MachineConfig::from_file(&path)
            .map_err(|e| Failure::new(e.exit_code() as u8, e.to_string()))?;
        println!("{}: ok", path.display());
        return Ok(0);
    }
    if print_default {
        print!("{}", machine::config::MachineConfig::default_toml());
        return Ok(0);
    }
    Err(Failure::new(
        code::USAGE,
        "ubik machine: nothing to do; expected --print-default or --check M.toml",
    ))
}

/// Clap's whole message on one line (the contract: one line per failure): what is wrong,
/// what is missing or allowed, the usage and the pointer to `--help`.
fn one_line_usage(rendered: &str) -> String {
    let mut line = String::new();
    for part in rendered
        .lines()
        .map(|l| l.trim().trim_start_matches("error: "))
        .filter(|l| !l.is_empty())
    {
        if !line.is_empty() {
            line.push_str(if line.ends_with(':') { " " } else { "; " });
        }
        line.push_str(part);
    }
    if line.is_empty() {
        "bad arguments; see `ubik --help`".to_string()
    } else {
        line
    }
}

fn real_main() -> u8 {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(
                e.kind(),
                ErrorKind::DisplayHelp
                    | ErrorKind::DisplayVersion
                    | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
            ) {
                let _ = e.print();
                return if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                    code::USAGE
                } else {
                    0
                };
            }
            eprintln!(
                "ubik: usage error: {}",
                one_line_usage(&e.render().to_string())
            );
            return code::USAGE;
        }
    };
    let result = match cli.command {
        Command::Run(args) => run::run(*args),
        Command::Build(args) => build::build(args),
        Command::Gen(args) => gen::gen(args),
        Command::Experiment(args) => experiment::experiment(args),
        Command::Report(args) => report::report(args),
        Command::Machine {
            print_default,
            check,
        } => machine_cmd(print_default, check),
    };
    match result {
        Ok(c) => c,
        Err(f) => {
            if f.bare {
                eprintln!("{}", f.message);
            } else {
                eprintln!("ubik: {}", f.message);
            }
            if let Some(r) = &f.report {
                eprintln!("{r}");
            }
            f.code
        }
    }
}

fn main() -> ExitCode {
    // A bug must still end in one line and exit 70, never a panic trace.
    std::panic::set_hook(Box::new(|info| {
        let msg = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".into());
        let at = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        eprintln!("ubik: internal error: {msg}{at}; this is a bug in Ubik, please report it with the command line and firmware");
    }));
    match std::panic::catch_unwind(real_main) {
        Ok(c) => ExitCode::from(c),
        Err(_) => ExitCode::from(code::INTERNAL),
    }
}
