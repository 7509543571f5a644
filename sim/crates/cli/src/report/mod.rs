//! `ubik report OUT/ -o OUT/report`: one HTML page with every figure and table of the
//! experiments under OUT (each directory holding a `summary.json` written by `ubik
//! experiment`, or the `app.csv` of `kind = "app"`, OUT itself included) and the benchmark
//! figures of `OUT/bench/*.json`; with `--markdown`, the experiments' tables as Markdown on
//! stdout instead.
//!
//! One concern per file: `results.rs` reads and checks every result file first (bad data is
//! one line naming the file, exit 65, and no page); `html.rs` renders the page, `markdown.rs`
//! the Markdown tables; `app.rs` reads and renders the app experiments, `bench_tables.rs`
//! any benchmark file as tables; `suite.rs` (the OS-overhead suite's files), `hypervisor.rs` (the
//! hypervisor experiment's) and `paper.rs` (what the papers report) are sections of it.

mod app;
mod bench_tables;
mod html;
mod hypervisor;
mod markdown;
mod paper;
mod results;
mod suite;

use crate::{code, Failure};
use clap::Args;
use results::{experiment_dirs, read_benches, read_experiment};
use std::path::PathBuf;

#[derive(Args)]
pub struct ReportArgs {
    /// The results directory (`out/`, or one experiment's directory).
    pub dir: PathBuf,
    /// Where the report goes [default: DIR/report]; the page is DIR/report/index.html.
    #[arg(short = 'o', long = "output", value_name = "DIR")]
    pub output: Option<PathBuf>,
    /// Print every experiment's table as Markdown on stdout instead (docs/results.md's
    /// tables are made this way: scripts/results-tables.sh).
    #[arg(long, conflicts_with = "output")]
    pub markdown: bool,
}

pub fn report(args: ReportArgs) -> Result<u8, Failure> {
    if !args.dir.is_dir() {
        return Err(Failure::new(
            code::NO_INPUT,
            format!(
                "{}: not a directory; expected the results directory (out/)",
                args.dir.display()
            ),
        ));
    }
    let out = args
        .output
        .clone()
        .unwrap_or_else(|| args.dir.join("report"));
    // Every file is read and checked before the page is written.
    let exps = experiment_dirs(&args.dir)?
        .iter()
        .map(|d| read_experiment(d))
        .collect::<Result<Vec<_>, _>>()?;
    let apps = app::app_dirs(&args.dir)?
        .iter()
        .map(|d| app::read_app(d))
        .collect::<Result<Vec<_>, _>>()?;
    if args.markdown {
        if exps.is_empty() && apps.is_empty() {
            return Err(Failure::new(
                code::NO_INPUT,
                format!("{}: no experiments; expected directories with a summary.json or an app.csv (from `ubik experiment`)", args.dir.display()),
            ));
        }
        print!("{}", markdown::render(&exps));
        for a in &apps {
            print!("{}", app::markdown(a));
        }
        return Ok(0);
    }
    let benches = read_benches(&args.dir)?;
    if exps.is_empty() && apps.is_empty() && benches.is_empty() {
        return Err(Failure::new(
            code::NO_INPUT,
            format!("{}: no results; expected experiment directories (from `ubik experiment`: a summary.json or an app.csv) or bench/*.json", args.dir.display()),
        ));
    }

    let h = html::page(&args.dir, &exps, &apps, &benches);
    std::fs::create_dir_all(&out).map_err(|e| {
        Failure::new(
            code::IO_ERROR,
            format!("cannot write the report directory {}: {e}", out.display()),
        )
    })?;
    let page = out.join("index.html");
    std::fs::write(&page, h).map_err(|e| {
        Failure::new(
            code::IO_ERROR,
            format!("cannot write {}: {e}", page.display()),
        )
    })?;
    println!("{}", page.display());
    Ok(0)
}
