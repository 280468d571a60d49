//! Notification service: per-user notifications and the live SSE stream.
//!
//! Owns `/api/notifications*` and the alarm rules (`/api/admin/rules*`,
//! [`alarm_rules`], [`deliver`]): email and webhook deliveries of the
//! alarms each rule matches. Alerts and shutdown requests
//! become a notification for every active admin and operator ([`rules`],
//! [`projections`]); gateways going lost and coming back too ([`lost`]).
//! Each notification is stored per user and published on
//! `wmeter.notifications.v1` (keyed by the user), which wakes the streams
//! of every replica ([`push`], [`hub`]); one reader per user and process
//! reads from the table for all of the user's streams ([`feed`]), and a
//! stream reads it itself to resume after `Last-Event-ID` without loss.
//!
//! In the embedded mode `wmeter serve` mounts [`configure`] into the one
//! `App`; in the distributed mode `wmeter run notification` serves it alone.

pub mod actions;
pub mod alarm_rules;
pub mod deliver;
pub mod domain;
mod error;
pub mod feed;
pub mod hints;
pub mod hub;
pub mod lost;
pub mod projections;
pub mod push;
mod routes;
pub mod rules;
pub mod seed;
mod settings;
pub mod state;
pub mod storage;

use std::{sync::Arc, time::Duration};

use actix_web::web;
use wm_domain::Clock;
use wm_eventlog::{EventLog, outbox::Relay, projection::Projection};
use wm_storage::{Db, Migrations};

use crate::hub::Hub;

pub use error::NotificationError;
pub use settings::{DeliverySettings, NotificationSettings, SmtpSecurity, SmtpSettings};
pub use state::NotificationState;

/// The service's name, as given to `wmeter run`; also its outbox source.
pub const NAME: &str = "notification";

/// The service's tables. It also needs the outbox and the checkpoints
/// ([`wm_eventlog::outbox::MIGRATIONS`], [`wm_eventlog::checkpoint::MIGRATIONS`]:
/// the directory marks a rebuild under way there).
pub const MIGRATIONS: Migrations =
    wm_storage::migrations!("notification", 1 => "notifications", 2 => "notification_kinds", 3 => "alarm_rules");

/// The service's state and the relay that publishes its events.
pub fn build(
    db: Db,
    log: Arc<dyn EventLog>,
    clock: Arc<dyn Clock>,
    gateway_lost_after: Duration,
    heartbeat: Duration,
) -> (web::Data<NotificationState>, Relay) {
    let relay = Relay::new(db.clone(), log, NAME);
    let state = NotificationState {
        hub: Arc::new(Hub::new(db.clone(), heartbeat)),
        db,
        relay: relay.clone(),
        clock,
        gateway_lost_after,
        heartbeat,
        deliveries_due: Arc::default(),
    };
    (web::Data::new(state), relay)
}

/// The service's projections, in rebuild order.
pub fn projections(state: &NotificationState) -> Vec<Arc<dyn Projection>> {
    vec![
        Arc::new(projections::DirectoryProjection(state.clone())),
        Arc::new(projections::RulesProjection(state.clone())),
        Arc::new(projections::InboxProjection(state.clone())),
        Arc::new(alarm_rules::AlarmRulesProjection(state.clone())),
    ]
}

/// The sender of alarm rules' deliveries, to run until shutdown.
pub fn sender(
    state: &NotificationState,
    settings: &NotificationSettings,
) -> Result<deliver::sender::Sender, reqwest::Error> {
    let timeout = settings.deliveries.timeout();
    Ok(deliver::sender::Sender {
        db: state.db.clone(),
        clock: state.clock.clone(),
        webhooks: deliver::webhook::Webhooks::new(timeout)?,
        mailer: deliver::email::Mailer::new(settings.smtp.as_ref(), timeout),
        backoff: settings.deliveries.backoff(),
        timeout,
        wake: state.deliveries_due.clone(),
    })
}

/// The service's part of the OpenAPI document.
pub fn openapi() -> utoipa::openapi::OpenApi {
    <routes::NotificationApi as utoipa::OpenApi>::openapi()
}

/// Mounts this service's routes with its state.
pub fn configure(state: web::Data<NotificationState>) -> impl FnOnce(&mut web::ServiceConfig) {
    move |cfg| {
        cfg.app_data(state);
        routes::configure(cfg);
    }
}
