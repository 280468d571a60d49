//! `wmeter serve` killed with SIGKILL in the middle of a 50,000-message
//! ingest, then started again: every message the embedded broker
//! acknowledged is projected exactly once. The gateway here behaves as the
//! MQTT contract asks of one: what was not acknowledged, it sends again.

use std::{
    collections::{HashMap, VecDeque},
    io::{BufRead, BufReader, Lines},
    process::{Child, ChildStdout, Command, Stdio},
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

use crate::{serve_command, wait, wmeter};

const MESSAGES: usize = 50_000;
const KILL_AFTER: usize = 20_000;
/// Publishes the gateway keeps unacknowledged at most.
const WINDOW: usize = 200;
const METERS: usize = 5;
const GATEWAY_LOGIN: (&str, &str) = ("gw", "gw-secret");

/// The gateway's uplinks: reading `i` is meter `i % METERS`'s, `1 + i % 7`
/// litres, timed `i` seconds after `base`.
struct Uplinks {
    serial: String,
    meters: Vec<String>,
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

    fn at(&self, i: usize) -> DateTime<Utc> {
        self.base + chrono::Duration::seconds(i as i64)
    }
}

/// What the broker acknowledged, by message.
#[derive(Default)]
struct Acked {
    flags: Mutex<Vec<bool>>,
    count: AtomicUsize,
}

#[test]
fn a_killed_server_projects_every_acknowledged_message_exactly_once() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite://{}/wm.db", dir.path().display());
    let mut seed = wmeter();
    seed.args(["seed", "--gateways", "1", "--meters", &METERS.to_string(), "--readings", "0"]);
    assert!(seed.env("WMETER_DATABASE__URL", &db).output().unwrap().status.success());
    let runtime = tokio::runtime::Runtime::new().unwrap();
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
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();

    let (mut server, _stdout) = start(dir.path(), port);
    let acked = Arc::new(Acked { flags: Mutex::new(vec![false; MESSAGES]), ..Acked::default() });
    let gateway = runtime.spawn(publish_all(port, uplinks.clone(), acked.clone()));
    let waited = std::time::Instant::now();
    while acked.count.load(Ordering::Acquire) < KILL_AFTER {
        assert!(waited.elapsed() < Duration::from_secs(300), "{} acknowledged", acked.count.load(Ordering::Acquire));
        std::thread::sleep(Duration::from_millis(20));
    }
    server.kill().unwrap(); // SIGKILL
    server.wait().unwrap();
    let before_kill = acked.flags.lock().unwrap().clone();
    let acked_before_kill = before_kill.iter().filter(|a| **a).count();
    assert!(acked_before_kill < MESSAGES, "killed in the middle of the ingest");

    let (mut server, _stdout) = start(dir.path(), port);
    runtime.block_on(async { tokio::time::timeout(Duration::from_secs(600), gateway).await }).unwrap().unwrap();
    let rows = runtime.block_on(projected(&pool, &uplinks));

    let mut litres = vec![0_i64; METERS];
    for i in 0..MESSAGES {
        let key = (uplinks.meters[i % METERS].clone(), uplinks.at(i).timestamp_micros());
        let found = rows.readings.get(&key).map_or(&[][..], Vec::as_slice);
        let when = if before_kill[i] { "acknowledged before the kill" } else { "acknowledged after it" };
        assert_eq!(found, [1_000 * (1 + i as i64 % 7)], "message {} ({when}) is projected once", i + 1);
        litres[i % METERS] += 1 + i as i64 % 7;
    }
    assert_eq!(rows.readings.values().map(Vec::len).sum::<usize>(), MESSAGES, "no other reading");
    assert_eq!(rows.records_count, MESSAGES as i64, "the gateway counted each reading once");
    for (ble, consumption) in uplinks.meters.iter().zip(&litres) {
        assert_eq!(rows.consumption_ml[ble], consumption * 1_000, "meter {ble}'s total");
    }

    Command::new("kill").args(["-TERM", &server.id().to_string()]).status().unwrap();
    wait(&mut server, Duration::from_secs(30)).expect("stops on SIGTERM");
}

/// `wmeter serve` on MQTT port `port`, once its banner is out (its
/// standard output stays open).
fn start(dir: &std::path::Path, port: u16) -> (Child, Lines<BufReader<ChildStdout>>) {
    // One gateway sends 50,000 readings as fast as it can: no rate limit.
    let gateway_env = [
        ("WMETER_MQTT__GATEWAY_USERNAME", GATEWAY_LOGIN.0),
        ("WMETER_MQTT__GATEWAY_PASSWORD", GATEWAY_LOGIN.1),
        ("WMETER_TELEMETRY__GATEWAY_RATE_PER_SEC", "0"),
    ];
    let mut command = serve_command(dir, &["serve"], &gateway_env);
    let mut child = command
        .env("WMETER_MQTT__LISTEN", format!("127.0.0.1:{port}"))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap()).lines();
    let banner: Vec<String> = stdout.by_ref().take(2).map(Result::unwrap).collect();
    assert_eq!(banner[1], format!("MQTT broker at mqtt://127.0.0.1:{port}"), "{banner:?}");
    (child, stdout)
}

/// Publishes every uplink at QoS 1, keeping up to [`WINDOW`] unacknowledged,
/// and sends again what a lost connection left unacknowledged.
async fn publish_all(port: u16, uplinks: Arc<Uplinks>, acked: Arc<Acked>) {
    let mut unsent: VecDeque<(usize, bool)> = (0..MESSAGES).map(|i| (i, false)).collect();
    let mut last_pkid = 0_u16;
    while acked.count.load(Ordering::Acquire) < MESSAGES {
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
        if acked.count.load(Ordering::Acquire) == MESSAGES {
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

/// What the projections hold once the readings stop arriving.
struct Projected {
    /// (BLE address, time in µs) → the millilitres of each row.
    readings: HashMap<(String, i64), Vec<i64>>,
    records_count: i64,
    consumption_ml: HashMap<String, i64>,
}

async fn projected(pool: &SqlitePool, uplinks: &Uplinks) -> Projected {
    let count = || sqlx::query_scalar::<_, i64>("SELECT count(*) FROM readings").fetch_one(pool);
    let waited = std::time::Instant::now();
    while count().await.unwrap() < MESSAGES as i64 && waited.elapsed() < Duration::from_secs(240) {
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
