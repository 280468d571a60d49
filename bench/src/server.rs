//! A `wmeter serve` of its own for each run: embedded mode, a fresh SQLite
//! database in a temporary folder, free ports on 127.0.0.1. Or, for the
//! API at scale on PostgreSQL, the same process on a fresh PostgreSQL
//! database and a Kafka namespace of its own, on the servers `make bench`
//! starts ([`Server::start_on_postgres`]). Or on a database seeded before
//! the run, served as it is ([`Server::start_on_existing`]).

use std::{
    io::Write,
    path::{Path, PathBuf},
    process::{Child, Command, Stdio},
    time::{Duration, Instant},
};

use anyhow::{Context, bail, ensure};
use wm_storage::{Backend, DatabaseSettings};
use wm_test_support::{TestDb, servers};

use crate::{fleet::Api, publisher::Broker};

/// The gateways' login on the embedded broker.
const GATEWAY_USER: &str = "gateway";
const GATEWAY_PASSWORD: &str = "bench-gateway-password";
/// w-meter's own login on it, which may use any topic: the raw reference's.
const SERVICE_USER: &str = "wmeter";
const SERVICE_PASSWORD: &str = "bench-service-password";
pub const ADMIN: (&str, &str) = ("bench", "a-long-bench-password");

#[derive(Debug)]
pub struct Server {
    pub url: String,
    pub mqtt_port: u16,
    /// The seeder's rates, when the server was seeded.
    pub seeded: Option<Seeded>,
    child: Child,
    /// Its warnings and errors.
    log: PathBuf,
    /// The log's length once the server was ready: what follows is the run's.
    ready_len: usize,
    /// Its files (the SQLite database, the signing key, the log), removed
    /// after the process.
    _dir: tempfile::TempDir,
    /// Where it keeps its state.
    database_url: String,
    /// The PostgreSQL database, when the server keeps its state in one of
    /// its own; dropped after the process.
    postgres: Option<TestDb>,
}

/// A database `wmeter seed` loaded before the run (`wm-bench api
/// --database`): served as it is, neither seeded nor dropped.
#[derive(Clone, Debug)]
pub struct Existing {
    /// `sqlite://…` or `postgres://…`.
    pub url: String,
    /// On PostgreSQL, the Kafka namespace it was seeded with, on the broker
    /// at `WM_TEST_KAFKA_BROKERS`.
    pub namespace: Option<String>,
}

/// What `wmeter seed` reported: devices and readings a second.
#[derive(Clone, Copy, Debug)]
pub struct Seeded {
    pub devices_per_second: f64,
    pub readings_per_second: f64,
}

impl Seeded {
    /// Reads the rates from `wmeter seed`'s output: "seeded … in 2.5 s (8404
    /// a second)", devices first, then readings.
    fn parse(out: &str) -> anyhow::Result<Seeded> {
        let rates: Vec<f64> =
            out.lines().filter_map(|line| line.rsplit_once('(')?.1.strip_suffix(" a second)")?.parse().ok()).collect();
        match rates[..] {
            [devices_per_second, readings_per_second] => Ok(Seeded { devices_per_second, readings_per_second }),
            _ => bail!("wmeter seed's output has no two rates: {out}"),
        }
    }
}

/// The network `wmeter seed` loads before the server starts.
#[derive(Clone, Copy, Debug)]
pub struct Seed {
    pub gateways: u32,
    pub meters: u32,
    pub readings: u64,
}

impl Server {
    /// The embedded broker, as the gateways sign in to it.
    pub fn broker(&self) -> Broker {
        Broker { port: self.mqtt_port, username: GATEWAY_USER.to_owned(), password: GATEWAY_PASSWORD.to_owned() }
    }

    /// The embedded broker as w-meter's own login signs in to it: any
    /// topic, for the raw publish → subscribe reference (a gateway may use
    /// only its own topics).
    pub fn raw_broker(&self) -> Broker {
        Broker { port: self.mqtt_port, username: SERVICE_USER.to_owned(), password: SERVICE_PASSWORD.to_owned() }
    }

    /// An admin signed in to the API. A refusal comes with the end of the
    /// server's log: a run at scale takes hours to get there again.
    pub async fn sign_in(&self) -> anyhow::Result<Api> {
        Api::sign_in(&self.url, ADMIN).await.with_context(|| self.log_tail())
    }

    /// The last lines of the server's log, or why there are none.
    fn log_tail(&self) -> String {
        const LINES: usize = 30;
        match std::fs::read_to_string(&self.log) {
            Ok(text) => {
                let lines: Vec<&str> = text.lines().collect();
                let tail = lines[lines.len().saturating_sub(LINES)..].join("\n");
                format!("the end of {}:\n{tail}", self.log.display())
            }
            Err(error) => format!("no log at {}: {error}", self.log.display()),
        }
    }

    /// Starts `wmeter serve`, on a database seeded with `seed` first,
    /// serving the dashboard in `dashboard` (a built `web/dist`) if given,
    /// and waits until it is ready.
    pub async fn start(wmeter: &Path, seed: Option<Seed>, dashboard: Option<&Path>) -> anyhow::Result<Server> {
        Self::start_with(wmeter, seed, dashboard, &[]).await
    }

    /// [`start`](Self::start) on a fresh database of the PostgreSQL server
    /// at `WM_TEST_PG_URL`, with a namespace of its own on the Kafka broker
    /// at `WM_TEST_KAFKA_BROKERS`: every service in one process, as in the
    /// embedded mode, but on the distributed mode's storage.
    pub async fn start_on_postgres(wmeter: &Path, seed: Option<Seed>) -> anyhow::Result<Server> {
        let db = TestDb::postgres().await.context("PostgreSQL's figures need WM_TEST_PG_URL")?;
        let namespace = format!("bench{}.", uuid::Uuid::now_v7().simple());
        let settings = on_postgres(&db.settings().url, &namespace)?;
        let mut server = Self::start_with(wmeter, seed, None, &settings).await?;
        server.postgres = Some(db);
        Ok(server)
    }

    /// [`start`](Self::start) on `existing`, without seeding it.
    pub async fn start_on_existing(wmeter: &Path, existing: &Existing) -> anyhow::Result<Server> {
        if DatabaseSettings::with_url(&existing.url).backend()? == Backend::Sqlite {
            ensure!(existing.namespace.is_none(), "--namespace: SQLite's event log has no namespace");
            return Self::start_with(wmeter, None, None, &[("WMETER_DATABASE__URL", existing.url.clone())]).await;
        }
        let namespace = existing.namespace.as_deref().context("--namespace: the one the database was seeded with")?;
        Self::start_with(wmeter, None, None, &on_postgres(&existing.url, namespace)?).await
    }

    /// [`start`](Self::start), configured further by `settings`
    /// (`WMETER_…` variables).
    pub async fn start_with(
        wmeter: &Path,
        seed: Option<Seed>,
        dashboard: Option<&Path>,
        settings: &[(&str, String)],
    ) -> anyhow::Result<Server> {
        let dir = tempfile::tempdir()?;
        let (http_port, mqtt_port) = (wm_test_support::ports::for_server(), wm_test_support::ports::for_server());
        let mut env = vec![
            ("WMETER_HTTP__HOST", "127.0.0.1".to_owned()),
            ("WMETER_HTTP__PORT", http_port.to_string()),
            ("WMETER_DATABASE__URL", format!("sqlite://{}/wmeter.db", dir.path().display())),
            ("WMETER_AUTH__KEY_FILE", format!("{}/jwt.key", dir.path().display())),
            ("WMETER_WEB__STATIC_DIR", dashboard.unwrap_or(dir.path()).display().to_string()),
            // Plain HTTP on loopback: a browser keeps only a cookie without `Secure`.
            ("WMETER_AUTH__SESSIONS__SECURE_COOKIE", "false".to_owned()),
            ("WMETER_MQTT__LISTEN", format!("127.0.0.1:{mqtt_port}")),
            ("WMETER_MQTT__GATEWAY_USERNAME", GATEWAY_USER.to_owned()),
            ("WMETER_MQTT__GATEWAY_PASSWORD", GATEWAY_PASSWORD.to_owned()),
            ("WMETER_MQTT__USERNAME", SERVICE_USER.to_owned()),
            ("WMETER_MQTT__PASSWORD", SERVICE_PASSWORD.to_owned()),
            // A benchmark's few gateways send as fast as they can: no
            // per-gateway rate limit.
            ("WMETER_TELEMETRY__GATEWAY_RATE_PER_SEC", "0".to_owned()),
            ("WMETER_LOG__LEVEL", "warn".to_owned()),
        ];
        env.extend(settings.iter().cloned());
        let database_url =
            env.iter().rev().find(|(key, _)| *key == "WMETER_DATABASE__URL").context("a database")?.1.clone();
        let mut add = Command::new(wmeter)
            .args(["user", "add", "--username", ADMIN.0, "--role", "admin"])
            .envs(env.iter().cloned())
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .with_context(|| format!("cannot run {}", wmeter.display()))?;
        writeln!(add.stdin.take().context("stdin")?, "{}", ADMIN.1)?;
        let added = add.wait_with_output()?;
        let refusal = String::from_utf8_lossy(&added.stderr);
        // An existing database has the bench's admin from an earlier run.
        let added_before = seed.is_none() && refusal.contains("is taken");
        if !added.status.success() && !added_before {
            bail!("wmeter user add: {refusal}");
        }
        let mut seeded = None;
        if let Some(Seed { gateways, meters, readings }) = seed {
            let output = Command::new(wmeter)
                .args(["seed", "--gateways", &gateways.to_string(), "--meters", &meters.to_string()])
                .args(["--readings", &readings.to_string()])
                .envs(env.iter().cloned())
                .stderr(Stdio::inherit())
                .output()?;
            if !output.status.success() {
                bail!("wmeter seed failed");
            }
            let out = String::from_utf8_lossy(&output.stdout);
            eprint!("{out}");
            seeded = Some(Seeded::parse(&out)?);
        }
        // WM_BENCH_LOGS keeps each server's log (warnings and errors) past the run.
        let log_dir = std::env::var_os("WM_BENCH_LOGS").map_or_else(|| dir.path().to_owned(), Into::into);
        let log_path = log_dir.join(format!("serve-{http_port}.log"));
        let log = std::fs::File::create(&log_path)?;
        let child =
            Command::new(wmeter).arg("serve").envs(env.iter().cloned()).stdout(log.try_clone()?).stderr(log).spawn()?;
        let mut server = Server {
            url: format!("http://127.0.0.1:{http_port}"),
            mqtt_port,
            seeded,
            child,
            log: log_path,
            ready_len: 0,
            _dir: dir,
            database_url,
            postgres: None,
        };
        server.wait_ready().await?;
        server.ready_len = std::fs::read(&server.log).map_or(0, |log| log.len());
        Ok(server)
    }

    /// The warnings and errors it logged since it was ready, for a run to
    /// show beside its figures.
    pub fn warnings(&self) -> Vec<String> {
        let log = std::fs::read(&self.log).unwrap_or_default();
        let since = String::from_utf8_lossy(log.get(self.ready_len..).unwrap_or_default()).into_owned();
        since
            .lines()
            .filter(|line| line.contains(r#""level":"WARN""#) || line.contains(r#""level":"ERROR""#))
            .map(str::to_owned)
            .collect()
    }

    async fn wait_ready(&self) -> anyhow::Result<()> {
        let deadline = Instant::now() + Duration::from_secs(60);
        let client = wm_http::client::client();
        while Instant::now() < deadline {
            if let Ok(response) = client.get(format!("{}/readyz", self.url)).send().await
                && response.status().is_success()
            {
                return Ok(());
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        bail!("wmeter serve was not ready within 60 s")
    }

    /// The process's peak resident set size so far, in MiB.
    pub fn peak_rss_mib(&self) -> anyhow::Result<f64> {
        rss_mib(self.child.id(), "VmHWM")
    }

    /// The process's resident set size now, in MiB.
    pub fn rss_mib(&self) -> anyhow::Result<f64> {
        rss_mib(self.child.id(), "VmRSS")
    }
}

impl Server {
    /// The server's database, for the raw queries.
    pub fn database_url(&self) -> String {
        self.database_url.clone()
    }

    /// Stops the process; its database stays until the server is dropped.
    pub fn stop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The settings that put a server on the PostgreSQL database at `url`, its
/// event log on the Kafka broker at `WM_TEST_KAFKA_BROKERS` in `namespace`.
fn on_postgres(url: &str, namespace: &str) -> anyhow::Result<[(&'static str, String); 5]> {
    let brokers = servers::kafka_brokers().context("PostgreSQL's figures need WM_TEST_KAFKA_BROKERS")?;
    Ok([
        ("WMETER_DATABASE__URL", url.to_owned()),
        ("WMETER_EVENT_LOG__KIND", "kafka".to_owned()),
        ("WMETER_EVENT_LOG__BROKERS", brokers),
        ("WMETER_EVENT_LOG__NAMESPACE", namespace.to_owned()),
        ("WMETER_EVENT_LOG__REPLICATION_FACTOR", "1".to_owned()),
    ])
}

/// `field` (`VmRSS`, `VmHWM`) of process `pid`, in MiB.
pub fn rss_mib(pid: u32, field: &str) -> anyhow::Result<f64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status"))?;
    let kib: f64 = status
        .lines()
        .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .with_context(|| format!("no {field} in /proc/{pid}/status"))?;
    Ok(kib / 1024.0)
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop();
    }
}

#[cfg(test)]
mod tests {
    use super::Seeded;

    #[test]
    fn the_seeder_s_two_rates_are_read_from_its_output() {
        let out = "seeded 3 gateways and 30 water meters in 0.2 s (165 a second)\n\
                   seeded 90 readings in 0.1 s (1200 a second)\n";
        let seeded = Seeded::parse(out).unwrap();
        assert_eq!((seeded.devices_per_second, seeded.readings_per_second), (165.0, 1200.0));
        assert!(Seeded::parse("seeded 3 gateways and 30 water meters in 0.2 s (165 a second)\n").is_err());
    }
}
