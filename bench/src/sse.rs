//! SSE fan-out: open streams on one server, an alert through MQTT, and the
//! time until every stream has it; against a bare actix SSE handler fed by
//! a broadcast channel, in a process of its own (`wm-bench sse-reference`).

use std::{
    process::{Child, Command, Stdio},
    sync::{
        Arc, Mutex,
        atomic::{AtomicUsize, Ordering},
    },
    time::{Duration, Instant},
};

use anyhow::{Context, bail, ensure};
use futures::StreamExt;
use rumqttc::{AsyncClient, QoS};
use serde_json::json;
use tokio::sync::Semaphore;

use crate::{Common, fleet::Fleet, publisher, report, server::Server};

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    common: Common,
    /// Open streams.
    #[arg(long, default_value_t = 10_000)]
    streams: usize,
    /// Events sent to every stream, one after another.
    #[arg(long, default_value_t = 10)]
    events: u32,
    /// Carry this many streams on each HTTP/2 connection (h2c) instead of
    /// one HTTP/1.1 connection per stream: past the process's file
    /// descriptors, as a proxy in front of w-meter would.
    #[arg(long)]
    http2: Option<usize>,
}

/// Streams opening at once.
const CONNECTING: usize = 200;
/// How long every stream may take to get one event.
const EVENT_TIMEOUT: Duration = Duration::from_secs(120);

pub async fn run(args: Args) -> anyhow::Result<()> {
    ensure!(args.streams > 0 && args.events > 0, "every count must be positive");
    ensure!(args.http2 != Some(0), "--http2 carries at least one stream per connection");
    let server = Server::start(&args.common.wmeter, None, None).await?;
    let fleet = Fleet::register(server.sign_in().await?, server.broker(), 1, args.events).await?;
    let (serial, meters) = fleet.gateways[0].clone();
    let url = format!("{}/api/notifications", server.url);
    let before = server.rss_mib()?;
    let streams = Streams::open(&url, Some(&fleet.api.token), args.streams, args.http2).await?;
    let ours_per_stream = (server.rss_mib()? - before) * 1024.0 / args.streams as f64;
    let (client, mut eventloop) = rumqttc::AsyncClient::new(publisher::options(&fleet.broker, "bench-sse-alerts"), 100);
    tokio::spawn(async move { while eventloop.poll().await.is_ok() {} });
    let alert = |k: u32| {
        let client: AsyncClient = client.clone();
        let (topic, meter) = (format!("wmeter/v1/gw/{serial}/alert"), meters[k as usize].clone());
        async move {
            let timestamp = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
            let body = json!({"messageId": 2_000_000 + k, "timestamp": timestamp, "meter": meter, "type": "leak", "state": "raised"});
            client.publish(topic, QoS::AtLeastOnce, false, body.to_string()).await?;
            anyhow::Ok(())
        }
    };
    let ours = streams.each_event(args.events, alert).await?;
    drop(streams);
    drop(server);

    let mut reference = Reference::start()?;
    let before = reference.rss_mib()?;
    let streams = Streams::open(&format!("{}/sse", reference.url), None, args.streams, args.http2).await?;
    let reference_per_stream = (reference.rss_mib()? - before) * 1024.0 / args.streams as f64;
    let http = wm_http::client::client();
    let publish = |_| {
        let request = http.post(format!("{}/publish", reference.url));
        async move {
            request.send().await?.error_for_status()?;
            anyhow::Ok(())
        }
    };
    let bare = streams.each_event(args.events, publish).await?;
    drop(streams);
    reference.stop();

    let over = args.http2.map_or_else(String::new, |n| format!(", {n} per HTTP/2 connection"));
    let what = format!("SSE: alert over MQTT → every client, {} open streams{over}", args.streams);
    report::row(&what, "ms", &ours, Some(&bare), false, "p99 ≤ 200 ms");
    let what = format!("SSE: memory per open stream, {} streams{over}", args.streams);
    report::row(&what, "KiB", &[ours_per_stream], Some(&[reference_per_stream]), false, "—");
    Ok(())
}

/// Open event streams, and when each got each event.
struct Streams {
    /// When event k was sent, once it was.
    sent: Arc<Mutex<Vec<Option<Instant>>>>,
    /// How many streams have had event k.
    received: Arc<Vec<AtomicUsize>>,
    latencies_ms: Arc<Mutex<Vec<f64>>>,
    count: usize,
    readers: tokio::task::JoinSet<anyhow::Result<()>>,
}

impl Streams {
    /// Opens `count` streams on `url` and returns once every one answered:
    /// a connection each, or `http2` on each HTTP/2 connection.
    async fn open(url: &str, token: Option<&str>, count: usize, http2: Option<usize>) -> anyhow::Result<Streams> {
        const MAX_EVENTS: usize = 1000;
        // reqwest keeps one HTTP/2 connection per client and host.
        let clients = match http2 {
            None => vec![wm_http::client::builder().pool_max_idle_per_host(0).build()?],
            Some(per) => (0..count.div_ceil(per))
                .map(|_| wm_http::client::builder().http2_prior_knowledge().build())
                .collect::<Result<_, _>>()?,
        };
        let sent: Arc<Mutex<Vec<Option<Instant>>>> = Arc::new(Mutex::new(vec![None; MAX_EVENTS]));
        let received = Arc::new((0..MAX_EVENTS).map(|_| AtomicUsize::new(0)).collect::<Vec<_>>());
        let latencies_ms = Arc::new(Mutex::new(Vec::new()));
        let connecting = Arc::new(Semaphore::new(CONNECTING));
        let opened = Arc::new(AtomicUsize::new(0));
        let mut readers = tokio::task::JoinSet::new();
        for i in 0..count {
            let client = &clients[http2.map_or(0, |per| i / per)];
            let mut request = client.get(url).header("Accept", "text/event-stream");
            if let Some(token) = token {
                request = request.bearer_auth(token);
            }
            let (sent, received, latencies) = (sent.clone(), received.clone(), latencies_ms.clone());
            let (connecting, opened) = (connecting.clone(), opened.clone());
            readers.spawn(async move {
                let permit = connecting.acquire_owned().await?;
                let response = request.send().await?.error_for_status()?;
                drop(permit);
                opened.fetch_add(1, Ordering::Relaxed);
                let (mut body, mut seen, mut text) = (response.bytes_stream(), 0, String::new());
                while let Some(chunk) = body.next().await {
                    text.push_str(&String::from_utf8_lossy(&chunk?));
                    while let Some(end) = text.find("\n\n") {
                        let event: String = text.drain(..end + 2).collect();
                        // A notification has an id; a change hint (`event: hint`) has none.
                        if event.lines().any(|l| l.starts_with("id:")) {
                            let at = sent.lock().map_err(|_| anyhow::anyhow!("poisoned"))?[seen];
                            if let Some(at) = at {
                                latencies
                                    .lock()
                                    .map_err(|_| anyhow::anyhow!("poisoned"))?
                                    .push(at.elapsed().as_secs_f64() * 1000.0);
                            }
                            received[seen].fetch_add(1, Ordering::Relaxed);
                            seen += 1;
                        }
                    }
                }
                Ok(())
            });
        }
        let deadline = Instant::now() + Duration::from_secs(300);
        while opened.load(Ordering::Relaxed) < count {
            if let Some(Ok(Err(e))) = readers.try_join_next() {
                bail!("a stream failed: {e:#}");
            }
            ensure!(Instant::now() < deadline, "only {} of {count} streams opened", opened.load(Ordering::Relaxed));
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        // Every stream's server side is listening before the first event.
        tokio::time::sleep(Duration::from_secs(1)).await;
        Ok(Streams { sent, received, latencies_ms, count, readers })
    }

    /// Sends `events` events with `send(k)`, each once every stream had
    /// the one before; returns every stream's latency of every event.
    async fn each_event<F, Fut>(&self, events: u32, send: F) -> anyhow::Result<Vec<f64>>
    where
        F: Fn(u32) -> Fut,
        Fut: Future<Output = anyhow::Result<()>>,
    {
        for k in 0..events {
            self.sent.lock().map_err(|_| anyhow::anyhow!("poisoned"))?[k as usize] = Some(Instant::now());
            send(k).await?;
            let deadline = Instant::now() + EVENT_TIMEOUT;
            while self.received[k as usize].load(Ordering::Relaxed) < self.count {
                let got = self.received[k as usize].load(Ordering::Relaxed);
                ensure!(Instant::now() < deadline, "event {k} reached {got} of {} streams", self.count);
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
        }
        let latencies = self.latencies_ms.lock().map_err(|_| anyhow::anyhow!("poisoned"))?.clone();
        Ok(latencies)
    }
}

impl Drop for Streams {
    fn drop(&mut self) {
        self.readers.abort_all();
    }
}

/// `wm-bench sse-reference` in its own process.
struct Reference {
    url: String,
    child: Child,
}

impl Reference {
    fn start() -> anyhow::Result<Reference> {
        let port = wm_test_support::ports::for_server();
        let child = Command::new(std::env::current_exe()?)
            .args(["sse-reference", "--port", &port.to_string()])
            .stdout(Stdio::null())
            .spawn()
            .context("starting the reference SSE server")?;
        let deadline = Instant::now() + Duration::from_secs(10);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            ensure!(Instant::now() < deadline, "the reference SSE server did not listen");
            std::thread::sleep(Duration::from_millis(20));
        }
        Ok(Reference { url: format!("http://127.0.0.1:{port}"), child })
    }

    fn rss_mib(&self) -> anyhow::Result<f64> {
        crate::server::rss_mib(self.child.id(), "VmRSS")
    }

    fn stop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Reference {
    fn drop(&mut self) {
        self.stop();
    }
}

/// The bare SSE handler: `GET /sse` streams what `POST /publish` sends.
pub async fn reference_server(port: u16) -> anyhow::Result<()> {
    use actix_web::{App, HttpResponse, HttpServer, web};
    use bytes::Bytes;
    let (tx, _) = tokio::sync::broadcast::channel::<Bytes>(1024);
    let data = web::Data::new(tx);
    HttpServer::new(move || {
        App::new()
            .app_data(data.clone())
            .route(
                "/sse",
                web::get().to(|tx: web::Data<tokio::sync::broadcast::Sender<Bytes>>| async move {
                    let rx = tx.subscribe();
                    let body = futures::stream::unfold(rx, |mut rx| async move {
                        let chunk = rx.recv().await.ok()?;
                        Some((Ok::<_, actix_web::Error>(chunk), rx))
                    });
                    HttpResponse::Ok().content_type("text/event-stream").streaming(body)
                }),
            )
            .route(
                "/publish",
                web::post().to(|tx: web::Data<tokio::sync::broadcast::Sender<Bytes>>| async move {
                    let data =
                        json!({"id": 1, "deviceName": "W-SM00000001", "event": "leak alert", "status": "raised"});
                    let _ = tx.send(Bytes::from(format!("id: 1\ndata: {data}\n\n")));
                    HttpResponse::NoContent().finish()
                }),
            )
    })
    .bind_auto_h2c(("127.0.0.1", port))?
    .run()
    .await?;
    Ok(())
}
