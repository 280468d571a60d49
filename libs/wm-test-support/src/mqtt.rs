//! A Mosquitto broker of a test's own, on a free port of 127.0.0.1, with
//! password logins; stopped when dropped. One broker per test keeps tests
//! that use the same topics apart.

use std::{
    net::{SocketAddr, TcpStream},
    path::Path,
    process::{Child, Command, Stdio},
    time::{Duration, Instant},
};

use crate::servers;

/// A running Mosquitto.
#[derive(Debug)]
pub struct Mosquitto {
    pub addr: SocketAddr,
    /// The logins it admits: `(username, password)`.
    pub logins: Vec<(String, String)>,
    child: Child,
    _dir: tempfile::TempDir,
}

impl Mosquitto {
    /// Starts one admitting `logins`, or `None` (skip) when the binary is
    /// not configured.
    ///
    /// # Panics
    /// When it cannot start: a test must not pass without its broker.
    pub fn start(logins: &[(&str, &str)]) -> Option<Mosquitto> {
        let binary = servers::mosquitto()?;
        let dir = tempfile::tempdir().expect("a folder for mosquitto");
        // Started as root, mosquitto drops to its own user, which must read
        // its configuration.
        readable(dir.path());
        let passwords = dir.path().join("passwords");
        std::fs::write(&passwords, "").expect("password file");
        for (username, password) in logins {
            let status = Command::new(passwd_tool(&binary))
                .arg("-b")
                .arg(&passwords)
                .args([username, password])
                .status()
                .expect("run mosquitto_passwd");
            assert!(status.success(), "mosquitto_passwd failed");
        }
        let port = crate::ports::for_server();
        let config = format!(
            "listener {port} 127.0.0.1\nallow_anonymous false\npassword_file {}\npersistence false\n\
             max_inflight_messages 1000\nmax_queued_messages 100000\nlog_dest stderr\nlog_type error\n",
            passwords.display()
        );
        readable(&passwords);
        let child = launch(&binary, dir.path(), &config, &[port]);
        let addr = SocketAddr::from(([127, 0, 0, 1], port));
        let logins = logins.iter().map(|(u, p)| ((*u).to_owned(), (*p).to_owned())).collect();
        Some(Mosquitto { addr, logins, child, _dir: dir })
    }

    /// Starts one with the configuration `config` gives for two free ports
    /// and a folder of its own (where it may find the files it names),
    /// listening on both; its first port is [`Mosquitto::addr`]. `None`
    /// (skip) when the binary is not configured.
    ///
    /// # Panics
    /// When it cannot start.
    pub fn with_config(config: impl FnOnce([u16; 2], &Path) -> String) -> Option<(Mosquitto, [u16; 2])> {
        let binary = servers::mosquitto()?;
        let dir = tempfile::tempdir().expect("a folder for mosquitto");
        readable(dir.path());
        let ports = [crate::ports::for_server(), crate::ports::for_server()];
        let child = launch(&binary, dir.path(), &config(ports, dir.path()), &ports);
        let addr = SocketAddr::from(([127, 0, 0, 1], ports[0]));
        Some((Mosquitto { addr, logins: Vec::new(), child, _dir: dir }, ports))
    }

    /// Sends it SIGHUP: it reads its password and ACL files again.
    pub fn reload(&self) {
        let status = Command::new("kill").args(["-HUP", &self.child.id().to_string()]).status().expect("run kill");
        assert!(status.success(), "cannot signal mosquitto");
    }

    /// `mqtt://127.0.0.1:port`.
    pub fn url(&self) -> String {
        format!("mqtt://{}", self.addr)
    }

    /// One for w-meter: ingest signs in as [`SERVICE_LOGIN`] (shares the
    /// uplinks in [`SHARED_GROUP`]) and gateways as [`GATEWAY_LOGIN`]
    /// (username = password); `None` as [`Mosquitto::start`].
    pub fn for_wmeter() -> Option<Mosquitto> {
        Mosquitto::start(&[(SERVICE_LOGIN, SERVICE_LOGIN), (GATEWAY_LOGIN, GATEWAY_LOGIN)])
    }

    /// Its address and the gateways' login, as a test's gateways reach it.
    pub fn gateway_broker(&self) -> (SocketAddr, (String, String)) {
        (self.addr, (GATEWAY_LOGIN.to_owned(), GATEWAY_LOGIN.to_owned()))
    }
}

/// `mosquitto_pub` or `mosquitto_sub` (Debian's mosquitto-clients), from
/// the PATH, when Mosquitto is configured for the tests; `None` (skip)
/// otherwise.
///
/// # Panics
/// When Mosquitto is configured but the client is not on the PATH.
pub fn client_tool(name: &str) -> Option<std::path::PathBuf> {
    servers::mosquitto()?;
    let paths = std::env::var_os("PATH").unwrap_or_default();
    let found = std::env::split_paths(&paths).map(|dir| dir.join(name)).find(|path| path.is_file());
    Some(found.unwrap_or_else(|| panic!("{name} is not on the PATH: install mosquitto-clients")))
}

/// w-meter's own login on [`Mosquitto::for_wmeter`] (username = password).
pub const SERVICE_LOGIN: &str = "wmeter-test";
/// The gateways' login on [`Mosquitto::for_wmeter`] (username = password).
pub const GATEWAY_LOGIN: &str = "gateway-test";
/// The shared subscription ingest replicas use.
pub const SHARED_GROUP: &str = "wmeter-ingest";

/// Starts the broker with `config` (written into `dir`), and waits until it
/// listens on every one of `ports`.
fn launch(binary: &str, dir: &Path, config: &str, ports: &[u16]) -> Child {
    let path = dir.join("mosquitto.conf");
    std::fs::write(&path, config).expect("config");
    readable(&path);
    let child = Command::new(binary)
        .arg("-c")
        .arg(&path)
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start mosquitto");
    let started = Instant::now();
    for port in ports {
        let addr = SocketAddr::from(([127, 0, 0, 1], *port));
        while TcpStream::connect(addr).is_err() {
            assert!(started.elapsed() < Duration::from_secs(10), "mosquitto did not listen on {addr}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
    child
}

/// Makes `path` readable by Mosquitto's own user (it drops root).
pub fn readable(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    let mode = if path.is_dir() { 0o755 } else { 0o644 };
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).expect("permissions");
}

/// `mosquitto_passwd`, beside the broker or on the PATH.
fn passwd_tool(binary: &str) -> String {
    let beside = Path::new(binary).with_file_name("mosquitto_passwd");
    if beside.exists() { beside.display().to_string() } else { "mosquitto_passwd".to_owned() }
}

impl Drop for Mosquitto {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
