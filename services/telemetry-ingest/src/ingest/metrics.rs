//! Ingest's metrics: uplinks by outcome, dead letters by reason.

use prometheus_client::{
    encoding::EncodeLabelSet,
    metrics::{counter::Counter, family::Family},
    registry::Registry,
};

pub const UPLINKS: &str = "wmeter_ingest_uplinks";
pub const DEAD_LETTERS: &str = "wmeter_ingest_dead_letters";
pub const MQTT_REFUSED: &str = "wmeter_mqtt_refused";

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct Outcome {
    outcome: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct Action {
    action: &'static str,
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
        metrics
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
