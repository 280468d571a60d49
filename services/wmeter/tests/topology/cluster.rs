//! Starts and stops the processes of one distributed deployment on 127.0.0.1.

use std::{
    collections::BTreeMap,
    fs::File,
    net::TcpListener,
    path::PathBuf,
    process::{Child, Command, Stdio},
    sync::Arc,
    time::{Duration, Instant},
};

use futures::future::BoxFuture;
use wm_http::auth::Role;
use wm_test_support::{TestDb, mqtt::Mosquitto, servers};

use crate::suite::target::{Target, Users};

pub const JWT_KEY: &str = "topology-key-topology-key-topology-key";
const SERVICE_LOGIN: (&str, &str) = ("wmeter-svc", "wmeter-svc-password");
pub const GATEWAY_LOGIN: (&str, &str) = ("gateway", "gateway-password");

/// One process of the deployment.
struct Process {
    service: &'static str,
    port: u16,
    env: Vec<(String, String)>,
    child: Option<Child>,
}

/// The running deployment. Every process is killed when it is dropped.
pub struct Cluster {
    processes: BTreeMap<&'static str, Process>,
    logs: tempfile::TempDir,
    pub mosquitto: Mosquitto,
    _databases: Vec<TestDb>,
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

fn pairs(items: &[(&str, String)]) -> Vec<(String, String)> {
    items.iter().map(|(k, v)| ((*k).to_owned(), v.clone())).collect()
}

impl Cluster {
    /// The five services (two ingest and two notification replicas), or
    /// `None` when the test servers are not configured.
    pub async fn start() -> Option<Cluster> {
        let brokers = servers::kafka_brokers()?;
        let mosquitto = Mosquitto::start(&[SERVICE_LOGIN, GATEWAY_LOGIN])?;
        let mut databases = Vec::new();
        for _ in ["auth", "device-registry", "telemetry-ingest", "notification"] {
            databases.push(TestDb::postgres().await?);
        }
        let namespace = format!("topo{}.", uuid::Uuid::now_v7().simple());
        let common = pairs(&[
            ("WMETER_HTTP__HOST", "127.0.0.1".into()),
            ("WMETER_HTTP__TRUST_FORWARDED_FOR", "true".into()),
            ("WMETER_EVENT_LOG__KIND", "kafka".into()),
            ("WMETER_EVENT_LOG__BROKERS", brokers),
            ("WMETER_EVENT_LOG__NAMESPACE", namespace),
            ("WMETER_EVENT_LOG__REPLICATION_FACTOR", "1".into()),
            ("WMETER_EVENT_LOG__PARTITIONS", "4".into()),
            ("WMETER_EVENT_LOG__SESSION_TIMEOUT_MS", "6000".into()),
            ("WMETER_AUTH__JWT_KEY", JWT_KEY.into()),
            ("WMETER_LOG__LEVEL", "info".into()),
        ]);
        let db = |i: usize| ("WMETER_DATABASE__URL", databases[i].settings().url.clone());
        let mqtt = pairs(&[
            ("WMETER_MQTT__BROKER", mosquitto.url()),
            ("WMETER_MQTT__USERNAME", SERVICE_LOGIN.0.into()),
            ("WMETER_MQTT__PASSWORD", SERVICE_LOGIN.1.into()),
            ("WMETER_MQTT__SHARED_GROUP", "wmeter-ingest".into()),
        ]);
        let mut processes = BTreeMap::new();
        let process = |service: &'static str, own: Vec<(String, String)>| {
            let env = common.iter().cloned().chain(own).collect();
            Process { service, port: free_port(), env, child: None }
        };
        let mut add = |name: &'static str, service: &'static str, own: Vec<(String, String)>| {
            processes.insert(name, process(service, own));
        };
        add("auth", "auth", pairs(&[db(0)]));
        add("device-registry", "device-registry", pairs(&[db(1)]));
        for (name, id) in [("telemetry-ingest-1", "ingest-1"), ("telemetry-ingest-2", "ingest-2")] {
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

        let mut cluster = Cluster { processes, logs: tempfile::tempdir().unwrap(), mosquitto, _databases: databases };
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
        let process = self.processes.get_mut(name).unwrap();
        let log = File::options().create(true).append(true).open(&log_path).unwrap();
        let child = Command::new(env!("CARGO_BIN_EXE_wmeter"))
            .args(["run", process.service])
            .env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .envs(process.env.iter().cloned())
            .env("WMETER_HTTP__PORT", process.port.to_string())
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .unwrap();
        process.child = Some(child);
    }

    /// Waits until `name` answers `/readyz` with 200.
    pub async fn wait_ready(&mut self, name: &'static str) {
        let url = format!("{}/readyz", self.url(name));
        let client = reqwest::Client::new();
        let deadline = Instant::now() + Duration::from_secs(90);
        loop {
            if let Some(status) = self.processes.get_mut(name).unwrap().child.as_mut().unwrap().try_wait().unwrap() {
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
        if let Some(mut child) = self.processes.get_mut(name).unwrap().child.take() {
            child.kill().unwrap();
            child.wait().unwrap();
        }
    }

    /// `wmeter user add` with the auth service's configuration: the user is
    /// stored and its event published, as an operator would do it.
    pub fn add_user(&self, username: &str, password: &str) {
        self.users().run(&["user", "add", "--username", username, "--role", "operator"], Some(password));
    }

    /// The `wmeter user` CLI on the auth service's configuration.
    pub fn users(&self) -> CliUsers {
        CliUsers { env: self.processes["auth"].env.clone() }
    }

    /// The deployment through the gateway, as the HTTP suite reaches it.
    pub fn target(&self) -> Target {
        Target::new(self.url("gateway"), JWT_KEY, Arc::new(self.users()))
    }

    /// What process `name` has logged so far.
    pub fn log(&self, name: &str) -> String {
        std::fs::read_to_string(self.logs.path().join(format!("{name}.log"))).unwrap_or_default()
    }
}

/// Users made with `wmeter user`, as an operator makes them.
pub struct CliUsers {
    env: Vec<(String, String)>,
}

impl CliUsers {
    fn run(&self, args: &[&str], stdin: Option<&str>) {
        use std::io::Write;
        let mut child = Command::new(env!("CARGO_BIN_EXE_wmeter"))
            .args(args)
            .env_clear()
            .envs(self.env.iter().cloned())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut input = child.stdin.take().unwrap();
        if let Some(line) = stdin {
            writeln!(input, "{line}").unwrap();
        }
        drop(input);
        let output = child.wait_with_output().unwrap();
        assert!(output.status.success(), "wmeter {args:?}: {}", String::from_utf8_lossy(&output.stderr));
    }
}

impl Users for CliUsers {
    fn add<'a>(&'a self, username: &'a str, password: &'a str, role: Role) -> BoxFuture<'a, ()> {
        // The other processes answer while this one blocks: nothing runs
        // in this test's runtime but the test.
        Box::pin(
            async move { self.run(&["user", "add", "--username", username, "--role", role.as_str()], Some(password)) },
        )
    }

    fn disable<'a>(&'a self, username: &'a str) -> BoxFuture<'a, ()> {
        Box::pin(async move { self.run(&["user", "disable", username], None) })
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        for process in self.processes.values_mut() {
            if let Some(mut child) = process.child.take() {
                let _ = child.kill();
                let _ = child.wait();
            }
        }
    }
}
