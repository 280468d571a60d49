//! `wmeter topics plan`: the Kafka topic plan, printed without a broker;
//! refused for the embedded log. (`apply` against a broker is tested in
//! `wm-eventlog`'s contract tests.)

use crate::wmeter;

#[test]
fn the_plan_names_every_topic_with_its_retention_and_the_embedded_log_has_none() {
    let output = wmeter()
        .args(["topics", "plan"])
        .env("WMETER_EVENT_LOG__KIND", "kafka")
        .env("WMETER_EVENT_LOG__BROKERS", "kafka:9092")
        .env("WMETER_EVENT_LOG__NAMESPACE", "prod.")
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let out = String::from_utf8(output.stdout).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 1 + wm_proto::topics::ALL.len(), "{out}");
    assert!(lines[0].starts_with("topic ") && lines[0].ends_with("min.insync.replicas"), "{out}");
    let row = |topic: &str| lines.iter().find(|l| l.starts_with(&format!("prod.{topic} "))).copied().expect(topic);
    let readings: Vec<&str> = row(wm_proto::topics::READINGS).split_whitespace().collect();
    assert_eq!(readings[1..], ["8", "3", "delete", "-1", "(forever)", "2"], "{out}");
    let dead: Vec<&str> = row(wm_proto::topics::DEAD_LETTERS).split_whitespace().collect();
    assert_eq!(dead[4..], ["2592000000", "(30", "days)", "2"], "{out}");

    let output = wmeter().args(["topics", "plan"]).output().unwrap();
    assert_eq!(output.status.code(), Some(1));
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(err.contains("event_log.kind is \"embedded\": the topic plan is for Kafka"), "{err}");
}
