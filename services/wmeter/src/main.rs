//! `wmeter`: see `wmeter --help`.

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    wmeter::malloc::tune();
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
