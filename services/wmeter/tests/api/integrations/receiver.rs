//! A real HTTP receiver of webhooks on 127.0.0.1, scripted to answer with
//! given statuses (or never), which checks each request's signature with
//! its own HMAC, as docs/integrations.md tells a receiver to.

use std::{
    collections::VecDeque,
    sync::{Arc, Mutex},
    time::Duration,
};

use actix_web::{App, HttpRequest, HttpResponse, HttpServer, dev::ServerHandle, web};
use hmac::{Hmac, Mac};
use serde_json::Value;
use sha2::Sha256;

/// A request the receiver got.
#[derive(Clone, Debug)]
pub struct Received {
    pub delivery: String,
    pub body: Value,
    /// Whether `X-WMeter-Signature` is the HMAC of `timestamp.body`.
    pub signed: bool,
}

/// What the receiver answers.
#[derive(Clone, Copy, Debug)]
pub enum Answer {
    Status(u16),
    /// Holds the request until the sender gives up.
    Never,
}

#[derive(Default)]
struct Script {
    answers: Mutex<VecDeque<Answer>>,
    received: Mutex<Vec<Received>>,
}

pub struct Receiver {
    pub url: String,
    script: Arc<Script>,
    handle: ServerHandle,
}

impl Receiver {
    /// Answers `answers` in turn, then 200 for ever; checks signatures
    /// with `secret`.
    pub async fn start(secret: &str, answers: &[Answer]) -> Receiver {
        let script = Arc::new(Script { answers: Mutex::new(answers.iter().copied().collect()), ..Script::default() });
        let (shared, secret) = (script.clone(), secret.to_owned());
        let server = HttpServer::new(move || {
            App::new()
                .app_data(web::Data::new(shared.clone()))
                .app_data(web::Data::new(secret.clone()))
                .default_service(web::to(receive))
        })
        .workers(1)
        .shutdown_timeout(0)
        .bind("127.0.0.1:0")
        .unwrap();
        let url = format!("http://{}/hooks/wmeter", server.addrs()[0]);
        let server = server.run();
        let handle = server.handle();
        tokio::spawn(server);
        Receiver { url, script, handle }
    }

    pub fn received(&self) -> Vec<Received> {
        self.script.received.lock().unwrap().clone()
    }

    pub async fn stop(self) {
        self.handle.stop(false).await;
    }
}

async fn receive(
    req: HttpRequest,
    body: web::Bytes,
    script: web::Data<Arc<Script>>,
    secret: web::Data<String>,
) -> HttpResponse {
    let header = |name: &str| req.headers().get(name).and_then(|v| v.to_str().ok()).unwrap_or_default().to_owned();
    let timestamp = header("X-WMeter-Timestamp");
    let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).unwrap();
    mac.update(format!("{timestamp}.").as_bytes());
    mac.update(&body);
    let expected: String = mac.finalize().into_bytes().iter().map(|b| format!("{b:02x}")).collect();
    script.received.lock().unwrap().push(Received {
        delivery: header("X-WMeter-Delivery"),
        body: serde_json::from_slice(&body).unwrap_or(Value::Null),
        signed: header("X-WMeter-Signature") == format!("sha256={expected}") && !timestamp.is_empty(),
    });
    let answer = script.answers.lock().unwrap().pop_front().unwrap_or(Answer::Status(200));
    match answer {
        Answer::Status(code) => HttpResponse::build(actix_web::http::StatusCode::from_u16(code).unwrap()).finish(),
        Answer::Never => {
            tokio::time::sleep(Duration::from_secs(3600)).await;
            HttpResponse::Ok().finish()
        }
    }
}
