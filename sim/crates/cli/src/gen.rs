//! `ubik gen SYSTEM.toml [-o DIR]`: the system description -> `DIR/uk_config.h`,
//! `DIR/uk_gen.h` and `DIR/uk_gen.c` (the same generator `ubik build` runs; docs/system.md).
//! `ubik gen --list-schedulers` prints the scheduler names, one a line; `--with PROPERTY` and
//! `--without PROPERTY` keep only those that have (or lack) a property of sysdesc's policy
//! table, so that scripts choose schedulers by what they do rather than by name.
//!
//! The description is validated completely before anything is written: a mistake is one line
//! `FILE:LINE:COLUMN: what; expected what` and exit 65 (66 when it cannot be read). Files whose
//! content is unchanged are not rewritten. Silent on success; `-v` lists the files on stderr.

use crate::{code, Failure};
use clap::builder::PossibleValuesParser;
use clap::Args;
use std::path::PathBuf;
use sysdesc::gen;
use sysdesc::SystemDesc;

#[derive(Args)]
pub struct GenArgs {
    /// The system description (system.toml).
    #[arg(required_unless_present = "list_schedulers")]
    pub system: Option<PathBuf>,
    /// The directory to write uk_config.h, uk_gen.h and uk_gen.c into [default: build/ beside
    /// the description, where `ubik build` puts them].
    #[arg(short = 'o', long = "output", value_name = "DIR")]
    pub output: Option<PathBuf>,
    /// Print each file written (or left unchanged) on stderr.
    #[arg(short = 'v', long)]
    pub verbose: bool,
    /// Print the scheduler names `[kernel] scheduler` accepts, one a line, and stop. The test
    /// scripts expand `all` in their `schedulers` files with it, so that the list lives only
    /// in sysdesc (`Scheduler::ALL`).
    #[arg(long, conflicts_with_all = ["system", "output", "verbose"])]
    pub list_schedulers: bool,
    /// With --list-schedulers: only the schedulers that have PROPERTY (repeat it to require several).
    #[arg(long, value_name = "PROPERTY", requires = "list_schedulers", conflicts_with = "system",
          value_parser = PossibleValuesParser::new(sysdesc::Policy::PROPERTIES))]
    pub with: Vec<String>,
    /// With --list-schedulers: only the schedulers that lack PROPERTY (repeat it to exclude several).
    #[arg(long, value_name = "PROPERTY", requires = "list_schedulers", conflicts_with = "system",
          value_parser = PossibleValuesParser::new(sysdesc::Policy::PROPERTIES))]
    pub without: Vec<String>,
}

/// The schedulers, in the table's order, that have every property of `with` and none of
/// `without` (names already checked against `Policy::PROPERTIES` by the parser).
fn schedulers_selected(with: &[String], without: &[String]) -> Vec<&'static str> {
    let has = |s: &sysdesc::Scheduler, name: &String| s.policy().property(name) == Some(true);
    sysdesc::Scheduler::ALL
        .iter()
        .filter(|s| with.iter().all(|p| has(s, p)) && !without.iter().any(|p| has(s, p)))
        .map(|s| s.name())
        .collect()
}

pub fn gen(args: GenArgs) -> Result<u8, Failure> {
    let Some(system) = &args.system else {
        for name in schedulers_selected(&args.with, &args.without) {
            println!("{name}");
        }
        return Ok(0);
    };
    let desc = SystemDesc::from_file(system)
        .map_err(|e| Failure::new(e.exit_code() as u8, e.to_string()))?;
    let dir = args.output.clone().unwrap_or_else(|| {
        system
            .parent()
            .map(|p| p.join("build"))
            .unwrap_or_else(|| PathBuf::from("build"))
    });
    if dir.exists() && !dir.is_dir() {
        return Err(Failure::new(
            code::IO_ERROR,
            format!(
                "cannot write generated files into {}: not a directory; expected a directory (-o DIR)",
                dir.display()
            ),
        ));
    }
    let written = gen::generate(&desc, &dir).map_err(|e| {
        Failure::new(
            code::IO_ERROR,
            format!(
                "cannot write generated files into {}: {e}; expected a writable directory",
                dir.display()
            ),
        )
    })?;
    if args.verbose {
        for (p, changed) in written {
            eprintln!(
                "ubik gen: {} {}",
                if changed { "wrote" } else { "unchanged" },
                p.display()
            );
        }
    }
    Ok(0)
}
