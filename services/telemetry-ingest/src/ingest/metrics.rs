//! Ingest's metrics: uplinks by outcome, dead letters by reason, and valve
//! commands by the status this process moved them to.

use prometheus_client::{
    encoding::EncodeLabelSet,
    metrics::{counter::Counter, family::Family},
    registry::Registry,
};
use wm_domain::ValveStatus as Status;

pub const UPLINKS: &str = "wmeter_ingest_uplinks";
pub const DEAD_LETTERS: &str = "wmeter_ingest_dead_letters";
pub const MQTT_REFUSED: &str = "wmeter_mqtt_refused";
pub const VALVE_COMMANDS: &str = "wmeter_valve_commands";

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct Outcome {
    outcome: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct Action {
    action: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct ValveStatus {
    status: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct Reason {
    reason: &'static str,
}

#[derive(Clone, Debug, Default)]
pub struct IngestMetrics {
    uplinks: Family<Outcome, Counter>,
    dead_letters: Family<Reason, Counter>,
    mqtt_refused: Family<Action, Counter>,
    valve_commands: Family<ValveStatus, Counter>,
}

impl IngestMetrics {
    pub fn register(registry: &mut Registry) -> Self {
        let metrics = Self::default();
        registry.register(UPLINKS, "MQTT uplinks by outcome: accepted, duplicate, rejected", metrics.uplinks.clone());
        registry.register(DEAD_LETTERS, "Rejected uplinks by reason", metrics.dead_letters.clone());
        registry.register(
            MQTT_REFUSED,
            "What the embedded MQTT broker refused a client, by action: connect, publish, subscribe",
            metrics.mqtt_refused.clone(),
        );
        registry.register(
            VALVE_COMMANDS,
            "Valve commands this process handed to the broker (sent) or gave up on (timed-out)",
            metrics.valve_commands.clone(),
        );
        // At zero from the start, so that rates (and the alerts on them) have a series.
        for outcome in ["accepted", "duplicate", "rejected"] {
            metrics.uplinks.get_or_create(&Outcome { outcome }).inc_by(0);
        }
        for status in [Status::Sent, Status::TimedOut] {
            metrics.valve_commands.get_or_create(&ValveStatus { status: status.as_str() }).inc_by(0);
        }
        metrics
    }

    /// `n` valve commands moved to `status` here: sent, or timed out.
    pub fn valve_commands(&self, status: Status, n: u64) {
        self.valve_commands.get_or_create(&ValveStatus { status: status.as_str() }).inc_by(n);
    }

    pub fn accepted(&self) {
        self.uplinks.get_or_create(&Outcome { outcome: "accepted" }).inc();
    }

    pub fn duplicate(&self) {
        self.uplinks.get_or_create(&Outcome { outcome: "duplicate" }).inc();
    }

    pub fn rejected(&self, reason: &'static str) {
        self.uplinks.get_or_create(&Outcome { outcome: "rejected" }).inc();
        self.dead_letters.get_or_create(&Reason { reason }).inc();
    }

    pub fn mqtt_refused(&self, action: &'static str) {
        self.mqtt_refused.get_or_create(&Action { action }).inc();
    }
}
