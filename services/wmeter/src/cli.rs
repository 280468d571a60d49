use std::path::PathBuf;

use clap::{Parser, ValueEnum};

use crate::role::Service;

/// w-meter: monitoring for an IoT water-metering network.
#[derive(Debug, Parser)]
#[command(name = "wmeter", version, about)]
pub struct Cli {
    /// A TOML configuration file. `WMETER_*` variables override it.
    #[arg(long, short, global = true, env = "WMETER_CONFIG", value_name = "FILE")]
    pub config: Option<PathBuf>,

    #[command(subcommand)]
    pub subcommand: Subcommand,
}

/// What `wmeter` is asked to do: one subcommand of the command line.
#[derive(Debug, clap::Subcommand)]
pub enum Subcommand {
    /// Run every service in one process: SQLite, the embedded event log and
    /// MQTT broker (the embedded mode).
    Serve {
        /// Seed a demo network and run a live gateway simulator.
        #[arg(long)]
        demo: bool,
    },
    /// Run one service alone, over Kafka and PostgreSQL (the distributed mode).
    Run {
        #[arg(value_enum)]
        service: Service,
    },
    /// Apply pending database migrations and exit.
    Migrate,
    /// Rebuild every projection from the start of the event log, with
    /// external effects (SSE pushes, valve commands) suppressed.
    Replay {
        /// Only this service's projections, in its own database (the
        /// distributed mode); without it, every service's (embedded).
        #[arg(long, value_enum)]
        service: Option<Service>,
        /// Rebuild even though the telemetry retention expired the embedded
        /// log's oldest telemetry: totals and rollups then count only what
        /// the log still holds.
        #[arg(long)]
        allow_expired: bool,
    },
    /// Copy the embedded mode's database, consistently, while it serves and
    /// ingests: the event log, every projection, users and keys, and the
    /// access-token key and device CA files. FILE must not exist.
    Backup {
        #[arg(value_name = "FILE")]
        file: PathBuf,
    },
    /// Make a backup the embedded mode's database (and bring back its key
    /// files). Refused while any wmeter uses the database.
    Restore {
        #[arg(value_name = "FILE")]
        file: PathBuf,
        /// Restore over an existing database and key files, keeping them
        /// aside as <name>.before-restore-<time>.
        #[arg(long)]
        replace: bool,
    },
    /// Simulate a fleet of gateways over MQTT: readings, BLE signal,
    /// discoveries, alerts, shutdown requests, silences, valve-command acks.
    Simulate(SimulateArgs),
    /// Load a synthetic network into an empty database, quickly, for
    /// benchmarks: devices and readings straight into every service's
    /// tables, in bulk (multi-row statements on SQLite, COPY on PostgreSQL).
    Seed(SeedArgs),
    /// Write Mosquitto's password and ACL files from the registry's gateway
    /// credentials (the distributed mode's device plane), once or every
    /// `--watch` seconds, and make Mosquitto reload them when they change.
    Mosquitto(MosquittoArgs),
    /// Make the MQTT broker's TLS certificate, signed by the device CA
    /// (`devices.ca_cert_file`; made if there is none), for Mosquitto's TLS
    /// listeners. One that still serves is kept.
    BrokerCertificate(BrokerCertificateArgs),
    /// Manage the users who may sign in.
    User {
        #[command(subcommand)]
        subcommand: UserSubcommand,
    },
    /// The Kafka topics of the distributed mode: their partitions,
    /// replication, retention and cleanup policy (docs/operations.md).
    Topics {
        #[command(subcommand)]
        subcommand: TopicsSubcommand,
    },
    /// Inspect the configuration.
    Config {
        #[command(subcommand)]
        subcommand: ConfigSubcommand,
    },
}

#[derive(Debug, clap::Args)]
pub struct MosquittoArgs {
    /// Where to write gateways.passwords, gateways.acl, service.passwords
    /// and service.acl.
    #[arg(long, value_name = "DIR")]
    pub dir: PathBuf,
    /// Write again every this many seconds, until stopped (a sidecar).
    #[arg(long, value_name = "SECS", value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub watch: Option<u64>,
    /// Mosquitto's `pid_file`: it gets SIGHUP when a file changed.
    #[arg(long, value_name = "FILE")]
    pub pid_file: Option<PathBuf>,
}

#[derive(Debug, clap::Args)]
pub struct BrokerCertificateArgs {
    /// Where to write server.crt, server.key and device-ca.crt.
    #[arg(long, value_name = "DIR")]
    pub dir: PathBuf,
    /// A DNS name or IP address gateways reach the broker by; repeat for
    /// each.
    #[arg(long = "host", value_name = "HOST", required = true)]
    pub hosts: Vec<String>,
}

#[derive(Debug, clap::Args)]
pub struct SeedArgs {
    /// Gateways to register.
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u32).range(1..=10_000_000))]
    pub gateways: u32,
    /// Water meters to register, spread evenly over the gateways.
    #[arg(long, default_value_t = 1_000_000, value_parser = clap::value_parser!(u32).range(0..=100_000_000))]
    pub meters: u32,
    /// Readings over the last 30 days, spread evenly over the meters.
    #[arg(long, default_value_t = 50_000_000, value_parser = clap::value_parser!(u64).range(0..=10_000_000_000))]
    pub readings: u64,
    /// Rows written per transaction.
    #[arg(long, default_value_t = 20_000, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub batch: u32,
}

#[derive(Debug, clap::Args)]
pub struct SimulateArgs {
    /// Gateways in the simulated network.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub gateways: u32,
    /// Water meters, shared among the gateways.
    #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u32).range(0..=10_000_000))]
    pub meters: u32,
    /// Uplinks per second, across the gateways online (0.1 to 100000).
    #[arg(long, default_value_t = 10.0)]
    pub rate: f64,
    /// Seconds to run; 0 runs until Ctrl-C.
    #[arg(long, default_value_t = 0)]
    pub duration: u64,
    /// Picks the network's identifiers: the same seed, the same network.
    #[arg(long, default_value_t = 2)]
    pub seed: u8,
    /// Register the network through the API first (devices already
    /// registered are kept). The password is read from WMETER_SIM_PASSWORD,
    /// or from standard input.
    #[arg(long)]
    pub register: bool,
    /// The API to register through.
    #[arg(long, default_value = "http://127.0.0.1:8080")]
    pub api: String,
    /// Who registers (an operator or an admin).
    #[arg(long, default_value = "admin")]
    pub username: String,
    /// The MQTT broker, mqtt://host:port; by default the embedded one
    /// (mqtt.listen). Gateways sign in with mqtt.gateway_username and
    /// mqtt.gateway_password.
    #[arg(long)]
    pub broker: Option<String>,
    /// Make the first meters leak, burst or stick (one scenario per meter,
    /// repeat or separate with commas), each with the backlog of readings
    /// its leak detector needs, sent first.
    #[arg(long, value_enum, value_delimiter = ',')]
    pub scenario: Vec<crate::simulator::Scenario>,
}

#[derive(Debug, clap::Subcommand)]
pub enum TopicsSubcommand {
    /// Print the topic plan for the configured event_log (no broker is
    /// contacted).
    Plan,
    /// Make the cluster match the plan: create missing topics, add
    /// partitions, set the configuration that differs. Prints each change.
    Apply,
}

#[derive(Debug, clap::Subcommand)]
pub enum ConfigSubcommand {
    /// Print the effective configuration as TOML, with secrets redacted.
    Print {
        /// Validate for this mode.
        #[arg(long, value_enum, default_value = "embedded")]
        mode: ModeArg,
    },
}

#[derive(Debug, clap::Subcommand)]
pub enum UserSubcommand {
    /// Create a user. The password is read from standard input (one line),
    /// or asked for without echo on a terminal.
    Add {
        #[arg(long)]
        username: String,
        #[arg(long, value_parser = ["admin", "operator", "viewer"])]
        role: String,
    },
    /// List every user.
    List,
    /// Stop a user from signing in.
    Disable { username: String },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ModeArg {
    Embedded,
    Distributed,
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::*;

    #[test]
    fn cli_is_well_formed() {
        Cli::command().debug_assert();
    }
}
