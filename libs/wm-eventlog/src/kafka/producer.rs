//! Appending: every record of a batch is queued in order before any
//! delivery is awaited, so a batch costs about one round trip, and the
//! idempotent producer keeps the order within each partition.

use std::time::Duration;

use rdkafka::{
    error::{KafkaError, RDKafkaErrorCode},
    message::{Header, OwnedHeaders},
    producer::{DeliveryFuture, FutureProducer, FutureRecord},
};
use tokio::time::Instant;

use crate::{EventLogError, OutgoingRecord, Position, Result, validate_topic};

/// How long to wait for room when librdkafka's local queue is full.
const QUEUE_FULL_BACKOFF: Duration = Duration::from_millis(5);

pub(super) async fn append_batch(
    producer: &FutureProducer,
    records: &[OutgoingRecord],
    timeout: Duration,
) -> Result<Vec<Position>> {
    for record in records {
        validate_topic(&record.topic)?;
    }
    let deadline = Instant::now() + timeout;
    let mut deliveries = Vec::with_capacity(records.len());
    for record in records {
        deliveries.push(enqueue(producer, record, deadline).await?);
    }
    let mut positions = Vec::with_capacity(records.len());
    for (record, delivery) in records.iter().zip(deliveries) {
        let delivered = delivery
            .await
            .map_err(|_| EventLogError::Kafka { operation: "append", source: KafkaError::Canceled })?
            .map_err(|(source, _)| EventLogError::Kafka { operation: "append", source })?;
        positions.push(Position {
            topic: record.topic.clone(),
            partition: delivered.partition,
            offset: delivered.offset,
        });
    }
    Ok(positions)
}

async fn enqueue(producer: &FutureProducer, record: &OutgoingRecord, deadline: Instant) -> Result<DeliveryFuture> {
    loop {
        let mut message = FutureRecord::to(&record.topic).key(record.key.as_str()).payload(record.payload.as_slice());
        if !record.headers.is_empty() {
            message = message.headers(headers(&record.headers));
        }
        match producer.send_result(message) {
            Ok(delivery) => return Ok(delivery),
            Err((KafkaError::MessageProduction(RDKafkaErrorCode::QueueFull), _)) if Instant::now() < deadline => {
                tokio::time::sleep(QUEUE_FULL_BACKOFF).await;
            }
            Err((source, _)) => {
                return Err(EventLogError::Kafka { operation: "append", source });
            }
        }
    }
}

fn headers(headers: &[(String, Vec<u8>)]) -> OwnedHeaders {
    headers.iter().fold(OwnedHeaders::new_with_capacity(headers.len()), |all, (name, value)| {
        all.insert(Header { key: name, value: Some(value.as_slice()) })
    })
}
