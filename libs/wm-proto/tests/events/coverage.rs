//! The samples, the topic mapping and the schema agree on the set of events.

use std::collections::{BTreeMap, BTreeSet};

use wm_proto::topics;

use crate::{generated, samples};

/// The message name and field number of every `Envelope.payload` variant,
/// read from the compiled schema rather than from the Rust code.
fn payload_fields_in_schema() -> BTreeMap<String, i32> {
    let fds = generated::descriptor_set();
    let envelope = fds
        .file
        .iter()
        .filter(|file| file.package() == "wmeter.v1")
        .flat_map(|file| &file.message_type)
        .find(|message| message.name() == "Envelope")
        .expect("Envelope is in wmeter.v1");
    let payload_index = envelope
        .oneof_decl
        .iter()
        .position(|oneof| oneof.name() == "payload")
        .and_then(|index| i32::try_from(index).ok())
        .expect("Envelope has a payload oneof");
    envelope
        .field
        .iter()
        .filter(|field| field.oneof_index == Some(payload_index))
        .map(|field| {
            let name = field.type_name().trim_start_matches(".wmeter.v1.").to_owned();
            (name, field.number())
        })
        .collect()
}

#[test]
fn samples_cover_every_payload_variant() {
    let sampled: BTreeSet<String> = samples::all().iter().map(|payload| payload.name().to_owned()).collect();
    let in_schema: BTreeSet<String> = payload_fields_in_schema().into_keys().collect();
    assert_eq!(sampled, in_schema, "add a sample to tests/events/samples.rs for every new event");
}

#[test]
fn every_payload_maps_to_a_listed_topic() {
    for payload in samples::all() {
        let topic = topics::for_payload(&payload);
        assert!(topics::ALL.contains(&topic), "{} → {topic}", payload.name());
        assert_eq!(payload.topic(), topic);
    }
}

#[test]
fn every_listed_topic_carries_some_payload() {
    let used: BTreeSet<&str> = samples::all().iter().map(topics::for_payload).collect();
    let listed: BTreeSet<&str> = topics::ALL.iter().copied().collect();
    assert_eq!(used, listed);
}

/// Field numbers come in blocks of 100 per concern (see envelope.proto): a
/// topic's events share one block, and only telemetry's block holds several
/// topics.
#[test]
fn payload_variants_sit_in_their_concerns_field_number_block() {
    const TELEMETRY_BLOCK: i32 = 2;
    let numbers = payload_fields_in_schema();
    let blocks: BTreeSet<(i32, &str)> =
        samples::all().iter().map(|payload| (numbers[payload.name()] / 100, topics::for_payload(payload))).collect();
    for (block, topic) in &blocks {
        let blocks_of_topic = blocks.iter().filter(|(_, t)| t == topic).count();
        assert_eq!(blocks_of_topic, 1, "{topic} spans several blocks");
        let topics_in_block = blocks.iter().filter(|(b, _)| b == block).count();
        assert!(*block == TELEMETRY_BLOCK || topics_in_block == 1, "block {block}");
    }
}
