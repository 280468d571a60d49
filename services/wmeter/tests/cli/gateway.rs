//! A gateway that behaves as the MQTT contract asks of one, for the tests
//! that stop, kill or copy a server in the middle of an ingest: it
//! publishes numbered readings at QoS 1 as fast as the server takes them,
//! notes each acknowledgement, and sends again what a lost connection left
//! unacknowledged.

use std::{
    collections::{HashMap, VecDeque},
    io::{BufRead, BufReader, Lines},
    process::{ChildStdout, Stdio},
    sync::{
        Arc, Mutex,
        atomic::{AtomicUsize, Ordering},
    },
    time::Duration,
};

use bytes::BytesMut;
use chrono::{DateTime, SecondsFormat, Utc};
use rumqttc::{ConnectReturnCode, Packet, Publish, QoS};
use sqlx::{Row, SqlitePool};
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::TcpStream,
};

use crate::{Running, serve_command, wmeter};

/// Publishes the gateway keeps unacknowledged at most.
const WINDOW: usize = 200;
pub const METERS: usize = 5;
const GATEWAY_LOGIN: (&str, &str) = ("gw", "gw-secret");

/// Seeds one gateway and [`METERS`] meters into the database in `dir`, and
/// returns the uplinks of that gateway.
pub fn seed(dir: &std::path::Path, runtime: &tokio::runtime::Runtime) -> (SqlitePool, Arc<Uplinks>) {
    let db = format!("sqlite://{}/wm.db", dir.display());
    let mut seed = wmeter();
    seed.args(["seed", "--gateways", "1", "--meters", &METERS.to_string(), "--readings", "0"]);
    assert!(seed.env("WMETER_DATABASE__URL", &db).output().unwrap().status.success());
    let pool = runtime.block_on(SqlitePool::connect(&db)).unwrap();
    let uplinks = runtime.block_on(async {
        let serial: String =
            sqlx::query_scalar("SELECT serial_number FROM ingest_gateways").fetch_one(&pool).await.unwrap();
        let meters = sqlx::query_scalar("SELECT ble_address FROM ingest_meters ORDER BY serial_number")
            .fetch_all(&pool)
            .await
            .unwrap();
        let base = DateTime::from_timestamp(Utc::now().timestamp() - 20 * 3600, 0).unwrap();
        Arc::new(Uplinks { serial, meters, base })
    });
    (pool, uplinks)
}

/// The gateway's uplinks: reading `i` is meter `i % METERS`'s, `1 + i % 7`
/// litres, timed `i` seconds after `base`.
pub struct Uplinks {
    pub serial: String,
    pub meters: Vec<String>,
    base: DateTime<Utc>,
}

impl Uplinks {
    fn publish(&self, i: usize, pkid: u16, dup: bool) -> Publish {
        let payload = serde_json::json!({
            "messageId": i + 1,
            "timestamp": self.at(i).to_rfc3339_opts(SecondsFormat::Secs, true),
            "meter": self.meters[i % METERS],
            "record": 1 + i % 7,
            "unit": "L",
        });
        let mut publish =
            Publish::new(format!("wmeter/v1/gw/{}/reading", self.serial), QoS::AtLeastOnce, payload.to_string());
        publish.pkid = pkid;
        publish.dup = dup;
        publish
    }

    pub fn at(&self, i: usize) -> DateTime<Utc> {
        self.base + chrono::Duration::seconds(i as i64)
    }
}

/// What the broker acknowledged, by message.
pub struct Acked {
    flags: Mutex<Vec<bool>>,
    count: AtomicUsize,
}

impl Acked {
    /// For a gateway that sends `messages` readings.
    pub fn new(messages: usize) -> Arc<Self> {
        Arc::new(Self { flags: Mutex::new(vec![false; messages]), count: AtomicUsize::new(0) })
    }

    pub fn count(&self) -> usize {
        self.count.load(Ordering::Acquire)
    }

    /// Whether each message was acknowledged, now.
    pub fn flags(&self) -> Vec<bool> {
        self.flags.lock().unwrap().clone()
    }

    fn all(&self) -> bool {
        self.count() == self.flags.lock().unwrap().len()
    }
}

/// `wmeter serve` on the database in `dir` and on MQTT port `port`, once
/// its banner is out.
pub fn start(dir: &std::path::Path, port: u16) -> Server {
    // One gateway sends its readings as fast as it can: no rate limit.
    let gateway_env = [
        ("WMETER_MQTT__GATEWAY_USERNAME", GATEWAY_LOGIN.0),
        ("WMETER_MQTT__GATEWAY_PASSWORD", GATEWAY_LOGIN.1),
        ("WMETER_TELEMETRY__GATEWAY_RATE_PER_SEC", "0"),
    ];
    let mut command = serve_command(dir, &["serve"], &gateway_env);
    let mut child = Running::spawn(
        command.env("WMETER_MQTT__LISTEN", format!("127.0.0.1:{port}")).stdout(Stdio::piped()).stderr(Stdio::null()),
    );
    let mut stdout = BufReader::new(child.stdout.take().unwrap()).lines();
    let banner: Vec<String> = stdout.by_ref().take(2).map(Result::unwrap).collect();
    assert_eq!(banner[1], format!("MQTT broker at mqtt://127.0.0.1:{port}"), "{banner:?}");
    let url = banner[0].strip_prefix("w-meter is running at ").expect(&banner[0]).to_owned();
    Server { child, url, _stdout: stdout }
}

/// A `wmeter serve` started by [`start`].
pub struct Server {
    pub child: Running,
    /// Where its API answers.
    pub url: String,
    /// Kept open: the server prints more after its banner, and a closed
    /// pipe would fail that print.
    _stdout: Lines<BufReader<ChildStdout>>,
}

/// Publishes every uplink at QoS 1, keeping up to [`WINDOW`] unacknowledged,
/// and sends again what a lost connection left unacknowledged.
pub async fn publish_all(port: u16, uplinks: Arc<Uplinks>, acked: Arc<Acked>) {
    let messages = acked.flags.lock().unwrap().len();
    let mut unsent: VecDeque<(usize, bool)> = (0..messages).map(|i| (i, false)).collect();
    let mut last_pkid = 0_u16;
    while !acked.all() {
        let Ok(stream) = TcpStream::connect(("127.0.0.1", port)).await else {
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        };
        let mut inflight: HashMap<u16, usize> = HashMap::new();
        let lost = session(stream, &uplinks, &acked, &mut unsent, &mut inflight, &mut last_pkid).await;
        let mut again: Vec<usize> = inflight.into_values().collect();
        again.sort_unstable();
        for i in again.into_iter().rev() {
            unsent.push_front((i, true));
        }
        if lost {
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
}

/// One connection; true when it was lost before every message was acknowledged.
async fn session(
    mut stream: TcpStream,
    uplinks: &Uplinks,
    acked: &Acked,
    unsent: &mut VecDeque<(usize, bool)>,
    inflight: &mut HashMap<u16, usize>,
    last_pkid: &mut u16,
) -> bool {
    let mut output = BytesMut::new();
    let mut connect = rumqttc::Connect::new(format!("crash-{}", uplinks.serial));
    connect.keep_alive = 30;
    connect.set_login(GATEWAY_LOGIN.0, GATEWAY_LOGIN.1);
    Packet::Connect(connect).write(&mut output, usize::MAX).unwrap();
    if stream.write_all(&output).await.is_err() {
        return true;
    }
    output.clear();
    let mut input = BytesMut::new();
    let mut connected = false;
    loop {
        while inflight.len() < WINDOW && connected {
            let Some((i, dup)) = unsent.pop_front() else { break };
            *last_pkid = last_pkid.checked_add(1).unwrap_or(1);
            Packet::Publish(uplinks.publish(i, *last_pkid, dup)).write(&mut output, usize::MAX).unwrap();
            inflight.insert(*last_pkid, i);
        }
        if !output.is_empty() {
            if stream.write_all(&output).await.is_err() {
                return true;
            }
            output.clear();
        }
        if acked.all() {
            return false;
        }
        match tokio::time::timeout(Duration::from_secs(30), stream.read_buf(&mut input)).await {
            Ok(Ok(n)) if n > 0 => {}
            _ => return true,
        }
        loop {
            match Packet::read(&mut input, usize::MAX) {
                Ok(Packet::ConnAck(ack)) => {
                    assert_eq!(ack.code, ConnectReturnCode::Success);
                    connected = true;
                }
                Ok(Packet::PubAck(ack)) => {
                    let Some(i) = inflight.remove(&ack.pkid) else { continue };
                    let mut flags = acked.flags.lock().unwrap();
                    if !std::mem::replace(&mut flags[i], true) {
                        acked.count.fetch_add(1, Ordering::AcqRel);
                    }
                }
                Ok(other) => panic!("unexpected {other:?}"),
                Err(rumqttc::Error::InsufficientBytes(_)) => break,
                Err(e) => panic!("{e}"),
            }
        }
    }
}

/// What the projections hold once `at_least` readings arrived, or four
/// minutes passed.
pub struct Projected {
    /// (BLE address, time in µs) → the millilitres of each row.
    pub readings: HashMap<(String, i64), Vec<i64>>,
    pub records_count: i64,
    pub consumption_ml: HashMap<String, i64>,
}

pub async fn projected(pool: &SqlitePool, uplinks: &Uplinks, at_least: usize) -> Projected {
    let count = || sqlx::query_scalar::<_, i64>("SELECT count(*) FROM readings").fetch_one(pool);
    let waited = std::time::Instant::now();
    while count().await.unwrap() < at_least as i64 && waited.elapsed() < Duration::from_secs(240) {
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    // Give a duplicate the time to show up.
    tokio::time::sleep(Duration::from_secs(3)).await;
    let mut readings: HashMap<(String, i64), Vec<i64>> = HashMap::new();
    let sql =
        "SELECT m.ble_address, r.occurred_at, r.record_ml FROM readings r JOIN ingest_meters m ON m.id = r.meter_id";
    for row in sqlx::query(sql).fetch_all(pool).await.unwrap() {
        readings.entry((row.get(0), row.get(1))).or_default().push(row.get(2));
    }
    let records_count = sqlx::query_scalar("SELECT records_count FROM gateways WHERE serial_number = ?")
        .bind(&uplinks.serial)
        .fetch_one(pool)
        .await
        .unwrap();
    let consumption_ml = sqlx::query("SELECT ble_address, total_consumption_ml FROM meters")
        .fetch_all(pool)
        .await
        .unwrap()
        .into_iter()
        .map(|row| (row.get(0), row.get(1)))
        .collect();
    Projected { readings, records_count, consumption_ml }
}
