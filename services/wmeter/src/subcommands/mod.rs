//! One function per subcommand of the command line.

mod backup;
mod broker_certificate;
mod config_print;
mod migrate;
mod mosquitto;
mod password;
mod replay;
mod restore;
mod seed;
mod serve;
mod simulate;
mod topics;
mod user;

use std::path::Path;

use crate::{
    cli::{Cli, ConfigSubcommand, ModeArg, Subcommand},
    config::{self, Mode, Settings},
};

pub async fn run(cli: Cli) -> anyhow::Result<()> {
    let config = cli.config.as_deref();
    match cli.subcommand {
        Subcommand::Serve { demo } => serve::embedded(load(config, Mode::Embedded)?, demo).await,
        Subcommand::Run { service } => serve::service(load(config, Mode::Distributed)?, service).await,
        Subcommand::Migrate => migrate::run(load(config, Mode::Embedded)?).await,
        Subcommand::Replay { service, allow_expired } => {
            replay::run(load(config, Mode::Embedded)?, service, allow_expired).await
        }
        Subcommand::Backup { file } => backup::run(load(config, Mode::Embedded)?, &file).await,
        Subcommand::Restore { file, replace } => restore::run(load(config, Mode::Embedded)?, &file, replace).await,
        Subcommand::Seed(args) => seed::run(load(config, Mode::Embedded)?, args).await,
        Subcommand::Simulate(args) => simulate::run(load(config, Mode::Embedded)?, args).await,
        Subcommand::Mosquitto(args) => mosquitto::run(load(config, Mode::Embedded)?, args).await,
        Subcommand::BrokerCertificate(args) => broker_certificate::run(&load(config, Mode::Embedded)?, &args),
        Subcommand::Topics { subcommand } => topics::run(&load(config, Mode::Embedded)?, subcommand).await,
        Subcommand::User { subcommand } => user::run(load(config, Mode::Embedded)?, subcommand).await,
        Subcommand::Config { subcommand: ConfigSubcommand::Print { mode } } => {
            let mode = match mode {
                ModeArg::Embedded => Mode::Embedded,
                ModeArg::Distributed => Mode::Distributed,
            };
            config_print::run(&load(config, mode)?)
        }
    }
}

fn load(file: Option<&Path>, mode: Mode) -> Result<Settings, config::ConfigError> {
    config::load(file, mode)
}
