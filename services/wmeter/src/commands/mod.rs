//! One function per subcommand.

mod config_print;
mod migrate;
mod password;
mod replay;
mod seed;
mod serve;
mod simulate;
mod user;

use std::path::Path;

use crate::{
    cli::{Cli, Command, ConfigCommand, ModeArg},
    config::{self, Mode, Settings},
};

pub async fn run(cli: Cli) -> anyhow::Result<()> {
    let file = cli.config.as_deref();
    match cli.command {
        Command::Serve { demo } => serve::embedded(load(file, Mode::Embedded)?, demo).await,
        Command::Run { service } => serve::service(load(file, Mode::Distributed)?, service).await,
        Command::Migrate => migrate::run(load(file, Mode::Embedded)?).await,
        Command::Replay { service } => replay::run(load(file, Mode::Embedded)?, service).await,
        Command::Seed(args) => seed::run(load(file, Mode::Embedded)?, args).await,
        Command::Simulate(args) => simulate::run(load(file, Mode::Embedded)?, args).await,
        Command::User { command } => user::run(load(file, Mode::Embedded)?, command).await,
        Command::Config { command: ConfigCommand::Print { mode } } => {
            let mode = match mode {
                ModeArg::Embedded => Mode::Embedded,
                ModeArg::Distributed => Mode::Distributed,
            };
            config_print::run(&load(file, mode)?)
        }
    }
}

fn load(file: Option<&Path>, mode: Mode) -> Result<Settings, config::ConfigError> {
    config::load(file, mode)
}

/// Prints a line for the operator. A closed or broken stdout (a supervisor
/// that dropped it, `| head`) must not stop a server or a run, so a failure
/// is only logged.
pub(crate) fn say(line: std::fmt::Arguments) {
    use std::io::Write;
    if let Err(e) = writeln!(std::io::stdout(), "{line}") {
        tracing::warn!(error = %e, "a line for the operator could not be printed");
    }
}
