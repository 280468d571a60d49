//! One function per subcommand of the command line.

mod broker_certificate;
mod config_print;
mod migrate;
mod mosquitto;
mod password;
mod replay;
mod seed;
mod serve;
mod simulate;
mod user;

use std::path::Path;

use crate::{
    cli::{Cli, ConfigSubcommand, ModeArg, Subcommand},
    config::{self, Mode, Settings},
};

pub async fn run(cli: Cli) -> anyhow::Result<()> {
    let file = cli.config.as_deref();
    match cli.subcommand {
        Subcommand::Serve { demo } => serve::embedded(load(file, Mode::Embedded)?, demo).await,
        Subcommand::Run { service } => serve::service(load(file, Mode::Distributed)?, service).await,
        Subcommand::Migrate => migrate::run(load(file, Mode::Embedded)?).await,
        Subcommand::Replay { service } => replay::run(load(file, Mode::Embedded)?, service).await,
        Subcommand::Seed(args) => seed::run(load(file, Mode::Embedded)?, args).await,
        Subcommand::Simulate(args) => simulate::run(load(file, Mode::Embedded)?, args).await,
        Subcommand::Mosquitto(args) => mosquitto::run(load(file, Mode::Embedded)?, args).await,
        Subcommand::BrokerCertificate(args) => broker_certificate::run(&load(file, Mode::Embedded)?, &args),
        Subcommand::User { subcommand } => user::run(load(file, Mode::Embedded)?, subcommand).await,
        Subcommand::Config { subcommand: ConfigSubcommand::Print { mode } } => {
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
