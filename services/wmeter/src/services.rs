//! The state of each service a role mounts, built once per process, and
//! the background work each needs (outbox relays, MQTT).

use std::sync::Arc;

use actix_web::web;
use anyhow::Context;
use prometheus_client::registry::Registry;
use wm_device_registry::device_ca::DeviceCa;
use wm_domain::Clock;
use wm_eventlog::outbox::Relay;
use wm_http::auth::AccessTokens;

use crate::{
    config::Settings,
    role::{Role, Service},
    wiring::Wiring,
};

/// The state of the services this process mounts.
pub struct Services {
    pub tokens: AccessTokens,
    pub auth: Option<web::Data<wm_auth::AuthState>>,
    pub registry: Option<web::Data<wm_device_registry::RegistryState>>,
    pub ingest: Option<web::Data<wm_telemetry_ingest::IngestState>>,
    pub notification: Option<web::Data<wm_notification::NotificationState>>,
    /// Signs gateways' client certificates; the embedded broker's TLS
    /// listener trusts it unless told another CA.
    device_ca: Arc<DeviceCa>,
    relays: Vec<Relay>,
    /// The auth topic, read to its end into `tokens`' versions, to follow.
    principals: Option<Box<dyn wm_eventlog::Consumer>>,
}

impl Services {
    pub async fn build(
        settings: &Settings,
        role: Role,
        wiring: &Wiring,
        clock: Arc<dyn Clock>,
        metrics: &mut Registry,
    ) -> anyhow::Result<Self> {
        let mut services = Services {
            tokens: crate::jwt_key::access_tokens(&settings.auth)?,
            auth: None,
            registry: None,
            ingest: None,
            notification: None,
            device_ca: Arc::new(DeviceCa::new(
                settings.devices.ca_cert_file.clone(),
                settings.devices.ca_key_file.clone(),
                role == Role::Embedded,
            )),
            relays: Vec::new(),
            principals: None,
        };
        let Some(log) = wiring.event_log() else { return Ok(services) };
        let principals = wm_auth::principals::catch_up(log.as_ref(), services.tokens.principals())
            .await
            .context("event_log: the auth topic")?;
        services.principals = Some(principals);
        let Some(db) = wiring.db() else { return Ok(services) };
        if role.mounts(Service::Auth) {
            let audit = wm_auth::audit::Audit::open(log.clone()).await.context("event_log: the auth topic")?;
            let mut auth = wm_auth::AuthState::new(db.clone(), audit, &settings.auth.sessions).await?;
            auth.logins = wm_auth::metrics::LoginMetrics::register(metrics);
            services.auth = Some(web::Data::new(auth));
        }
        if role.mounts(Service::DeviceRegistry) {
            log.ensure_topics(&[wm_proto::topics::REGISTRY, wm_proto::topics::AUDIT])
                .await
                .context("event_log: the registry and audit topics")?;
            let (state, relay) = wm_device_registry::build(
                db.clone(),
                log.clone(),
                clock.clone(),
                (settings.devices.clone(), services.device_ca.clone()),
            );
            services.registry = Some(state);
            services.relays.push(relay);
        }
        if role.mounts(Service::TelemetryIngest) {
            log.ensure_topics(wm_telemetry_ingest::TOPICS).await.context("event_log: the telemetry topics")?;
            let plumbing = wiring.ingest_relay().context("the wiring opened no relay for telemetry ingest")?.clone();
            let relay = plumbing.0.clone();
            let ingest = settings.ingest();
            services.ingest = Some(wm_telemetry_ingest::build(db.clone(), plumbing, clock, ingest, metrics));
            services.relays.push(relay);
        }
        if let Some((state, relay)) = wiring.notification() {
            log.ensure_topics(&[wm_proto::topics::NOTIFICATIONS])
                .await
                .context("event_log: the notifications topic")?;
            // The hints follow other services' topics, which may not exist yet.
            log.ensure_topics(wm_notification::hints::TOPICS).await.context("event_log: the topics hints follow")?;
            metrics.register(
                wm_notification::hub::OPEN_STREAMS_METRIC,
                "Notification streams (SSE) open in this process",
                state.hub.open_streams(),
            );
            services.notification = Some(state.clone());
            services.relays.push(relay.clone());
        }
        Ok(services)
    }

    /// Starts the relays and MQTT; call once the HTTP listener is bound.
    pub async fn start(
        &mut self,
        settings: &Settings,
        role: Role,
        wiring: &mut Wiring,
    ) -> anyhow::Result<Option<wm_telemetry_ingest::mqtt::Mqtt>> {
        for relay in self.relays.clone() {
            wiring.spawn(|stop| relay.run(stop));
        }
        if let (Some(consumer), Some(log)) = (self.principals.take(), wiring.event_log().cloned()) {
            let (followed, used) = (self.tokens.principals().clone(), self.tokens.principals().clone());
            wiring.spawn(|stop| wm_auth::principals::follow(consumer, followed, stop));
            wiring.spawn(|stop| wm_auth::principals::report_uses(log, used, stop));
        }
        if let (Some(state), Some(log)) = (&self.notification, wiring.event_log().cloned()) {
            let (pushed, checked) = (state.get_ref().clone(), state.get_ref().clone());
            let (hub, hints_log) = (state.hub.clone(), log.clone());
            wiring.spawn(|stop| wm_notification::push::run(pushed, log, stop));
            wiring.spawn(|stop| wm_notification::hints::run(hub, hints_log, stop));
            wiring.spawn(|stop| wm_notification::lost::run(checked, stop));
            let sender = wm_notification::sender(state, &settings.notifications).context("the deliveries' sender")?;
            wiring.spawn(|stop| sender.run(stop));
        }
        if let Some(registry) = &self.registry {
            let (counted, every) = (registry.clone(), wm_device_registry::map::REFRESH);
            wiring.spawn(move |stop| wm_device_registry::map::run(counted, every, stop));
            let (db, clock) = (registry.actions.db.clone(), registry.actions.clock.clone());
            let (retention, every) = (settings.telemetry.retention(), settings.telemetry.prune_every());
            wiring.spawn(move |stop| wm_device_registry::claims::run(db, clock, retention, every, stop));
        }
        let Some(ingest) = &self.ingest else { return Ok(None) };
        if role != Role::Embedded && settings.mqtt.is_embedded() {
            anyhow::bail!(
                "invalid configuration: mqtt.broker: required by wmeter run telemetry-ingest: the broker gateways \
                 publish to, mqtt://host:port"
            );
        }
        let (retained, log) = (ingest.get_ref().clone(), wiring.event_log().cloned());
        wiring.spawn(|stop| wm_telemetry_ingest::retention::run(retained, log, stop));
        if let Some(detectors) = wm_telemetry_ingest::detectors(&settings.ingest()) {
            let swept = ingest.get_ref().clone();
            let every = std::time::Duration::from_secs(60);
            wiring.spawn(move |stop| wm_telemetry_ingest::detectors::run(detectors, swept, every, stop));
        }
        let tls = self.tls_listener(settings)?;
        let mqtt = wm_telemetry_ingest::mqtt::start(&settings.mqtt, tls, ingest.get_ref().clone(), wiring.stop_token())
            .await
            .context("mqtt")?;
        Ok(Some(mqtt))
    }

    /// The embedded broker's TLS listener, if configured: it accepts client
    /// certificates of `mqtt.tls.client_ca_file`, or of the device CA.
    fn tls_listener(&self, settings: &Settings) -> anyhow::Result<Option<wm_mqtt::TlsListener>> {
        let tls = &settings.mqtt.tls;
        if tls.listen.is_empty() {
            return Ok(None);
        }
        let client_ca = match tls.client_ca_file.as_str() {
            "" => self.device_ca.certificate_pem().context("the device CA")?.into_bytes(),
            path => std::fs::read(path).with_context(|| format!("mqtt.tls.client_ca_file: cannot read {path}"))?,
        };
        wm_telemetry_ingest::mqtt::tls_listener(&settings.mqtt, Some(&client_ca)).context("mqtt.tls")
    }
}
