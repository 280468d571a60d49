//! `wmeter`: see `wmeter --help`.

use std::process::ExitCode;

use clap::Parser;

// mimalloc, for Rust and SQLite alike (wm_alloc).
#[global_allocator]
static ALLOCATOR: wm_alloc::MiMalloc = wm_alloc::MiMalloc;

fn main() -> ExitCode {
    if let Err(e) = wm_alloc::start() {
        eprintln!("wmeter: {e}");
    }
    let cli = wmeter::cli::Cli::parse();
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("wmeter: cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(wmeter::subcommands::run(cli)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            // The whole cause chain, once: start-up errors are for operators.
            eprintln!("wmeter: {e:#}");
            if e.downcast_ref::<wmeter::config::ConfigError>().is_some() {
                ExitCode::from(2)
            } else {
                ExitCode::FAILURE
            }
        }
    }
}
