//! One distributed deployment on 127.0.0.1, as separate `wmeter run`
//! processes: PostgreSQL (a database per service), the Kafka-protocol
//! broker, a Mosquitto of its own, two telemetry-ingest and two
//! notification replicas, all behind the gateway. Used by the topology test
//! and by `make bench`. Every process is killed when it is dropped.

use std::{
    collections::BTreeMap,
    fs::File,
    io::Write,
    path::{Path, PathBuf},
    process::{Child, Command, Output, Stdio},
    time::{Duration, Instant},
};

use futures::future::BoxFuture;
use wm_http::auth::Role;

use crate::{TestDb, mqtt::Mosquitto, servers, target::Users};

pub const JWT_KEY: &str = "topology-key-topology-key-topology-key";
const SERVICE_LOGIN: (&str, &str) = ("wmeter-svc", "wmeter-svc-password");
pub const GATEWAY_LOGIN: (&str, &str) = ("gateway", "gateway-password");

/// One process of the deployment.
#[derive(Debug)]
struct Process {
    service: &'static str,
    port: u16,
    env: Vec<(String, String)>,
    child: Option<Child>,
}

/// The running deployment. Every process is killed when it is dropped.
#[derive(Debug)]
pub struct Cluster {
    binary: PathBuf,
    processes: BTreeMap<&'static str, Process>,
    logs: tempfile::TempDir,
    pub mosquitto: Mosquitto,
    _databases: Vec<TestDb>,
    /// The prefix of this deployment's topics, deleted with it.
    namespace: String,
}

/// A folder for the processes' logs: a temporary one, or, when
/// `WM_BENCH_LOGS` names a folder, a new one inside it that outlives the
/// cluster, as the benchmark's own server's log does.
fn cluster_logs() -> tempfile::TempDir {
    let Some(keep) = std::env::var_os("WM_BENCH_LOGS") else {
        return tempfile::tempdir().expect("a folder for the logs");
    };
    let mut logs = tempfile::Builder::new().prefix("cluster-").tempdir_in(keep).expect("a folder in WM_BENCH_LOGS");
    logs.disable_cleanup(true);
    logs
}

fn pairs(items: &[(&str, String)]) -> Vec<(String, String)> {
    items.iter().map(|(k, v)| ((*k).to_owned(), v.clone())).collect()
}

/// Where the deployment reaches its servers when a test puts something in
/// between (a [`crate::proxy::Proxy`] it can cut): PostgreSQL at this
/// address instead of the test server's, the Kafka-protocol broker at these
/// bootstrap servers instead of the shared one; and the OTLP/HTTP endpoint
/// every process exports its traces to (none by default).
#[derive(Clone, Debug, Default)]
pub struct Via {
    pub postgres: Option<std::net::SocketAddr>,
    pub brokers: Option<String>,
    pub otlp: Option<String>,
}

/// `url` with its `host:port` replaced by `addr`.
fn through(url: &str, addr: std::net::SocketAddr) -> String {
    let Some((scheme_user, rest)) = url.split_once('@') else { return url.to_owned() };
    let path = rest.find('/').map_or("", |at| &rest[at..]);
    format!("{scheme_user}@{addr}{path}")
}

/// The ingest replicas' process names and MQTT client ids.
const INGEST_REPLICAS: [(&str, &str); 4] = [
    ("telemetry-ingest-1", "ingest-1"),
    ("telemetry-ingest-2", "ingest-2"),
    ("telemetry-ingest-3", "ingest-3"),
    ("telemetry-ingest-4", "ingest-4"),
];

impl Cluster {
    /// The five services of `binary` (two ingest and two notification
    /// replicas), or `None` when the test servers are not configured.
    pub async fn start(binary: &Path) -> Option<Cluster> {
        Self::start_via(binary, Via::default()).await
    }

    /// [`Cluster::start`], reaching the servers `via` what the test put in between.
    pub async fn start_via(binary: &Path, via: Via) -> Option<Cluster> {
        Self::launch(binary, via, 2).await
    }

    /// [`Cluster::start`] with `replicas` ingest replicas (1 to 4), named
    /// `telemetry-ingest-1` and on.
    pub async fn with_ingest_replicas(binary: &Path, replicas: usize) -> Option<Cluster> {
        Self::launch(binary, Via::default(), replicas).await
    }

    async fn launch(binary: &Path, via: Via, replicas: usize) -> Option<Cluster> {
        assert!((1..=INGEST_REPLICAS.len()).contains(&replicas), "1 to 4 ingest replicas, not {replicas}");
        let brokers = match via.brokers {
            Some(brokers) => brokers,
            None => servers::kafka_brokers()?,
        };
        let mosquitto = Mosquitto::start(&[SERVICE_LOGIN, GATEWAY_LOGIN])?;
        let mut databases = Vec::new();
        for _ in ["auth", "device-registry", "telemetry-ingest", "notification"] {
            databases.push(TestDb::postgres().await?);
        }
        let urls: Vec<String> = databases
            .iter()
            .map(|db| match via.postgres {
                Some(addr) => through(&db.settings().url, addr),
                None => db.settings().url.clone(),
            })
            .collect();
        let namespace = format!("topo{}.", uuid::Uuid::now_v7().simple());
        let mut common = pairs(&[
            ("WMETER_HTTP__HOST", "127.0.0.1".into()),
            ("WMETER_HTTP__TRUST_FORWARDED_FOR", "true".into()),
            ("WMETER_EVENT_LOG__KIND", "kafka".into()),
            ("WMETER_EVENT_LOG__BROKERS", brokers),
            ("WMETER_EVENT_LOG__NAMESPACE", namespace.clone()),
            ("WMETER_EVENT_LOG__REPLICATION_FACTOR", "1".into()),
            ("WMETER_EVENT_LOG__PARTITIONS", "4".into()),
            ("WMETER_EVENT_LOG__SESSION_TIMEOUT_MS", "6000".into()),
            ("WMETER_AUTH__JWT_KEY", JWT_KEY.into()),
            ("WMETER_LOG__LEVEL", "info".into()),
        ]);
        if let Some(endpoint) = via.otlp {
            // Spans leave every 200 ms instead of every 5 s.
            common.extend(pairs(&[("WMETER_LOG__OTLP_ENDPOINT", endpoint), ("OTEL_BSP_SCHEDULE_DELAY", "200".into())]));
        }
        let db = |i: usize| ("WMETER_DATABASE__URL", urls[i].clone());
        let mqtt = pairs(&[
            ("WMETER_MQTT__BROKER", mosquitto.url()),
            ("WMETER_MQTT__USERNAME", SERVICE_LOGIN.0.into()),
            ("WMETER_MQTT__PASSWORD", SERVICE_LOGIN.1.into()),
            ("WMETER_MQTT__SHARED_GROUP", "wmeter-ingest".into()),
            // The distributed benchmark's few gateways send as fast as they
            // can: no per-gateway rate limit.
            ("WMETER_TELEMETRY__GATEWAY_RATE_PER_SEC", "0".into()),
        ]);
        let mut processes = BTreeMap::new();
        let process = |service: &'static str, own: Vec<(String, String)>| {
            let env = common.iter().cloned().chain(own).collect();
            Process { service, port: crate::ports::for_server(), env, child: None }
        };
        let mut add = |name: &'static str, service: &'static str, own: Vec<(String, String)>| {
            processes.insert(name, process(service, own));
        };
        add("auth", "auth", pairs(&[db(0)]));
        add("device-registry", "device-registry", pairs(&[db(1)]));
        for &(name, id) in &INGEST_REPLICAS[..replicas] {
            let mut own = pairs(&[db(2), ("WMETER_MQTT__CLIENT_ID", id.into())]);
            own.extend(mqtt.clone());
            add(name, "telemetry-ingest", own);
        }
        add("notification-1", "notification", pairs(&[db(3)]));
        add("notification-2", "notification", pairs(&[db(3)]));
        let url = |name: &str| format!("http://127.0.0.1:{}", processes[name].port);
        // Any replica of a service will do behind the gateway; production
        // puts a Kubernetes Service there.
        let upstreams = pairs(&[
            ("WMETER_GATEWAY__UPSTREAMS__AUTH", url("auth")),
            ("WMETER_GATEWAY__UPSTREAMS__DEVICE_REGISTRY", url("device-registry")),
            ("WMETER_GATEWAY__UPSTREAMS__TELEMETRY_INGEST", url("telemetry-ingest-1")),
            ("WMETER_GATEWAY__UPSTREAMS__NOTIFICATION", url("notification-1")),
            ("WMETER_DATABASE__URL", "postgres://unused@127.0.0.1:1/unused".into()),
        ]);
        processes.insert("gateway", process("gateway", upstreams));

        let logs = cluster_logs();
        let binary = binary.to_path_buf();
        let mut cluster = Cluster { binary, processes, logs, mosquitto, _databases: databases, namespace };
        let names: Vec<&'static str> = cluster.processes.keys().copied().collect();
        for name in names {
            cluster.start_process(name);
        }
        for name in cluster.processes.keys().copied().collect::<Vec<_>>() {
            cluster.wait_ready(name).await;
        }
        Some(cluster)
    }

    /// `http://127.0.0.1:<port>` of process `name` (e.g. `gateway`, `notification-2`).
    pub fn url(&self, name: &str) -> String {
        format!("http://127.0.0.1:{}", self.processes[name].port)
    }

    /// (Re)starts process `name` with its configuration.
    pub fn start_process(&mut self, name: &'static str) {
        let log_path: PathBuf = self.logs.path().join(format!("{name}.log"));
        let process = self.processes.get_mut(name).expect("a process of the deployment");
        let log = File::options().create(true).append(true).open(&log_path).expect("the process log");
        let child = Command::new(&self.binary)
            .args(["run", process.service])
            .env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .envs(process.env.iter().cloned())
            .env("WMETER_HTTP__PORT", process.port.to_string())
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .expect("run wmeter");
        process.child = Some(child);
    }

    /// Waits until `name` answers `/readyz` with 200.
    pub async fn wait_ready(&mut self, name: &'static str) {
        let url = format!("{}/readyz", self.url(name));
        let client = wm_http::client::client();
        let deadline = Instant::now() + Duration::from_secs(90);
        loop {
            let process = self.processes.get_mut(name).expect("a process of the deployment");
            if let Some(status) = process.child.as_mut().expect("started").try_wait().expect("its status") {
                panic!("{name} exited with {status}:\n{}", self.log(name));
            }
            if client.get(&url).send().await.is_ok_and(|r| r.status() == 200) {
                return;
            }
            assert!(Instant::now() < deadline, "{name} is not ready after 90 s:\n{}", self.log(name));
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }

    /// SIGKILL: no chance to commit, flush or say goodbye.
    pub fn kill(&mut self, name: &str) {
        if let Some(mut child) = self.processes.get_mut(name).expect("a process of the deployment").child.take() {
            child.kill().expect("SIGKILL");
            child.wait().expect("reaped");
        }
    }

    /// `wmeter user add` with the auth service's configuration: the user is
    /// stored and its event published, as an operator would do it.
    pub fn add_user(&self, username: &str, password: &str, role: &str) {
        self.cli().run(&["user", "add", "--username", username, "--role", role], Some(password));
    }

    /// The `wmeter` CLI on the auth service's configuration.
    pub fn cli(&self) -> Cli {
        Cli { binary: self.binary.clone(), env: self.processes["auth"].env.clone() }
    }

    /// What process `name` has logged so far.
    pub fn log(&self, name: &str) -> String {
        std::fs::read_to_string(self.logs.path().join(format!("{name}.log"))).unwrap_or_default()
    }
}

/// The `wmeter` binary with one service's configuration.
#[derive(Clone, Debug)]
pub struct Cli {
    binary: PathBuf,
    env: Vec<(String, String)>,
}

impl Cli {
    /// Runs `wmeter args…` with `stdin` as its input; panics unless it succeeds.
    pub fn run(&self, args: &[&str], stdin: Option<&str>) -> Output {
        let mut child = Command::new(&self.binary)
            .args(args)
            .env_clear()
            .envs(self.env.iter().cloned())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("run wmeter");
        let mut input = child.stdin.take().expect("stdin");
        if let Some(line) = stdin {
            writeln!(input, "{line}").expect("write stdin");
        }
        drop(input);
        let output = child.wait_with_output().expect("wait for wmeter");
        assert!(output.status.success(), "wmeter {args:?}: {}", String::from_utf8_lossy(&output.stderr));
        output
    }
}

impl Drop for Cluster {
    /// Kills every process, then deletes the deployment's topics: the test
    /// broker keeps every record in memory, and a broker some deployments
    /// old answered slower (docs/performance.md §2).
    fn drop(&mut self) {
        for process in self.processes.values_mut() {
            if let Some(mut child) = process.child.take() {
                let _ = child.kill();
                let _ = child.wait();
            }
        }
        if let Some(brokers) = servers::kafka_brokers() {
            crate::kafka::delete_topics(&brokers, &self.namespace);
        }
    }
}

/// Users as an operator creates them: with the `wmeter user` subcommand.
impl Users for Cli {
    fn add<'a>(&'a self, username: &'a str, password: &'a str, role: Role) -> BoxFuture<'a, ()> {
        // The other processes answer while this one blocks: nothing runs
        // in this test's runtime but the test.
        Box::pin(async move {
            self.run(&["user", "add", "--username", username, "--role", role.as_str()], Some(password));
        })
    }

    fn disable<'a>(&'a self, username: &'a str) -> BoxFuture<'a, ()> {
        Box::pin(async move {
            self.run(&["user", "disable", username], None);
        })
    }
}
