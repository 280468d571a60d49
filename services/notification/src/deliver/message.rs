//! What a delivery says: the webhook's JSON body and the email's text.

use chrono::{DateTime, SecondsFormat, Utc};
use serde_json::{Value, json};

use crate::{domain::alarm_rule::AlarmRule, storage::deliveries::Delivery};

/// The webhook body: the delivery, its rule and its alarms.
pub fn webhook_body(delivery: &Delivery, rule: &AlarmRule, now: DateTime<Utc>) -> Value {
    json!({
        "deliveryId": delivery.id,
        "rule": {"id": rule.id, "name": rule.name},
        "test": delivery.test,
        "sentAt": now.to_rfc3339_opts(SecondsFormat::Millis, true),
        "alarms": delivery.alarms,
    })
}

/// The email's subject and plain-text body.
pub fn email(delivery: &Delivery, rule: &AlarmRule) -> (String, String) {
    if delivery.test {
        let subject = format!("[w-meter] Test message of the rule \"{}\"", rule.name);
        let body = format!(
            "This is a test message of the w-meter alarm rule \"{}\".\nIf you read it, the rule's emails reach you.\n",
            rule.name
        );
        return (subject, body);
    }
    let subject = match delivery.alarms.as_slice() {
        [one] => format!("[w-meter] {} alarm ({}): {}", one.alarm_type, one.severity, one.device_name),
        many => format!("[w-meter] {} alarms matched \"{}\"", many.len(), rule.name),
    };
    let mut body = format!("The w-meter alarm rule \"{}\" matched:\n\n", rule.name);
    for alarm in &delivery.alarms {
        body.push_str(&format!(
            "- {} ({}) on {} {} ({}), raised {}\n",
            alarm.alarm_type, alarm.severity, alarm.device_kind, alarm.device_name, alarm.device_id, alarm.raised_at
        ));
    }
    body.push_str(&format!("\nDelivery {}.\n", delivery.id));
    (subject, body)
}
