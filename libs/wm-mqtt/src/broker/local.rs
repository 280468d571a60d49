//! The durable session taken in this process: `wmeter serve`'s ingest reads
//! its messages straight from the router, without MQTT packets, and
//! acknowledges a whole batch by letting it go: each message's publisher
//! gets its PUBACK then, exactly as if ingest had sent a PUBACK per message
//! over the loopback (docs/architecture.md, "Embedded broker").

use std::{
    collections::{HashMap, VecDeque},
    sync::Arc,
};

use tokio::sync::mpsc;

use super::{
    connection::Shared,
    router::Attach,
    session::{Message, Outbound, Session},
};

/// Ingest's session, held in this process until dropped. Messages taken
/// and not acknowledged are withheld (their publishers send them again);
/// those not taken yet go back to the session when it is dropped.
#[derive(Debug)]
pub struct LocalSession {
    shared: Arc<Shared>,
    connection: u64,
    /// What the session held when it was taken, before what arrives.
    pending: VecDeque<Message>,
    rx: mpsc::UnboundedReceiver<Outbound>,
}

/// One message taken from the durable session. [`LocalDelivery::ack`] lets its
/// publisher's acknowledgement go; dropped without it, the acknowledgement
/// is withheld.
#[derive(Debug)]
pub struct LocalDelivery {
    message: Option<Message>,
}

impl LocalDelivery {
    pub fn topic(&self) -> &str {
        self.message.as_ref().map_or("", |m| m.topic.as_str())
    }

    pub fn payload(&self) -> &[u8] {
        self.message.as_ref().map_or(&[], |m| &m.payload)
    }

    /// The message is stored: its publisher may be told so.
    pub fn ack(mut self) {
        drop(self.message.take());
    }
}

impl Drop for LocalDelivery {
    fn drop(&mut self) {
        if let Some(ack) = self.message.take().and_then(|m| m.ack) {
            ack.withhold();
        }
    }
}

impl LocalSession {
    /// Takes the durable session for this process, or `None` while a
    /// network connection holds it.
    pub(super) fn attach(shared: Arc<Shared>) -> Option<Self> {
        let (tx, rx) = mpsc::unbounded_channel();
        let durable = shared.router.durable().clone();
        match shared.router.attach(&durable.client_id, &durable.identity, false, &tx) {
            Attach::Attached { connection, mut session, .. } => {
                let pending = session.drain().into();
                Some(Self { shared, connection, pending, rx })
            }
            Attach::Busy | Attach::Foreign => None,
        }
    }

    /// The next message; `None` once the broker is gone.
    pub async fn recv(&mut self) -> Option<LocalDelivery> {
        self.batch(1).await?.pop()
    }

    /// The next batch of at most `max` messages, waiting for the first;
    /// `None` once the broker is gone. Everything delivered so far is
    /// looked at, and a batch takes whole runs of one publisher's messages
    /// before the next publisher's ([`take_batch`]).
    pub async fn batch(&mut self, max: usize) -> Option<Vec<LocalDelivery>> {
        while self.pending.is_empty() {
            if let Some(message) = delivered(self.rx.recv().await?) {
                self.pending.push_back(message);
            }
        }
        while let Ok(outbound) = self.rx.try_recv() {
            self.pending.extend(delivered(outbound));
        }
        let batch = take_batch(&mut self.pending, max.max(1));
        Some(batch.into_iter().map(|message| LocalDelivery { message: Some(message) }).collect())
    }
}

/// Takes at most `max` of `pending`, a publisher at a time (the publishers
/// in the order of their oldest message, all of each one's while they fit),
/// and gives them in the order received: a batch's rows then fall on as few
/// pages of the B-trees keyed by gateway and meter as they can
/// (docs/performance.md, §1). Each publisher's messages, and so its
/// acknowledgements, keep their order. A message without a publisher (a
/// will) is a barrier: nothing after it is taken before it, nor it before
/// anything ahead of it.
fn take_batch(pending: &mut VecDeque<Message>, max: usize) -> Vec<Message> {
    let window = pending.iter().position(|m| m.publisher().is_none()).unwrap_or(pending.len());
    if window == 0 {
        let unkeyed = pending.iter().take(max).take_while(|m| m.publisher().is_none()).count();
        return pending.drain(..unkeyed).collect();
    }
    // Each publisher's messages in the window, in the order of its oldest;
    // then how many of them the batch takes: all, while they fit.
    let mut order: Vec<u64> = Vec::new();
    let mut quota: HashMap<u64, usize> = HashMap::new();
    for publisher in pending.range(..window).filter_map(Message::publisher) {
        *quota.entry(publisher).or_insert_with(|| {
            order.push(publisher);
            0
        }) += 1;
    }
    let mut room = max;
    for publisher in order {
        if let Some(count) = quota.get_mut(&publisher) {
            *count = (*count).min(room);
            room -= *count;
        }
    }
    let mut batch = Vec::with_capacity(max.min(window));
    let mut kept = VecDeque::with_capacity(pending.len());
    for (at, message) in pending.drain(..).enumerate() {
        let left = message.publisher().filter(|_| at < window).and_then(|p| quota.get_mut(&p)).filter(|q| **q > 0);
        match left {
            Some(left) => {
                *left -= 1;
                batch.push(message);
            }
            None => kept.push_back(message),
        }
    }
    *pending = kept;
    batch
}

/// The message `outbound` delivers, if it is one. Nobody may take this
/// session over (the network client that asked is told it is busy), and it
/// publishes nothing that a PUBACK would answer.
fn delivered(outbound: Outbound) -> Option<Message> {
    match outbound {
        Outbound::Deliver(message) => Some(message),
        Outbound::TakenOver | Outbound::PubAck(_) => None,
    }
}

impl Drop for LocalSession {
    fn drop(&mut self) {
        let mut session = Session::default();
        for message in self.pending.drain(..) {
            session.push(message, usize::MAX);
        }
        let client_id = self.shared.router.durable().client_id.clone();
        self.shared.router.detach(&client_id, self.connection, session, &mut self.rx);
    }
}

#[cfg(test)]
mod tests {
    use bytes::Bytes;
    use rumqttc::QoS;

    use super::*;
    use crate::broker::session::{Acker, Held, Total};

    /// Messages named `{publisher}{n}`; a publisher `W` publishes without
    /// waiting for an acknowledgement, as a will does.
    fn pending(names: &[&str]) -> VecDeque<Message> {
        let (tx, _) = mpsc::unbounded_channel();
        let total = Arc::new(Total::new(1_000));
        let mut held = HashMap::new();
        names
            .iter()
            .map(|name| {
                let publisher = name.as_bytes()[0];
                let ack = (publisher != b'W').then(|| {
                    let held = held.entry(publisher).or_insert_with(|| Held::new(publisher.into(), total.clone()));
                    Acker::new(1, tx.clone(), held.clone())
                });
                let payload = Bytes::copy_from_slice(name.as_bytes());
                Message { topic: "t".into(), payload, qos: QoS::AtLeastOnce, retain: false, ack }
            })
            .collect()
    }

    fn names(messages: &[Message]) -> Vec<String> {
        messages.iter().map(|m| String::from_utf8_lossy(&m.payload).into_owned()).collect()
    }

    fn batches(mut pending: VecDeque<Message>, max: usize) -> Vec<Vec<String>> {
        let mut batches = Vec::new();
        while !pending.is_empty() {
            batches.push(names(&take_batch(&mut pending, max)));
        }
        batches
    }

    #[test]
    fn a_batch_takes_a_publisher_s_messages_together_in_the_order_of_each_one_s_oldest() {
        let taken = batches(pending(&["A1", "B1", "C1", "A2", "B2", "A3", "C2"]), 4);
        assert_eq!(taken, [vec!["A1", "B1", "A2", "A3"], vec!["C1", "B2", "C2"]], "each batch in the order received");
    }

    #[test]
    fn a_publisher_split_between_batches_keeps_its_order_and_its_place() {
        let taken = batches(pending(&["A1", "B1", "A2", "A3", "B2"]), 2);
        assert_eq!(taken, [vec!["A1", "A2"], vec!["B1", "B2"], vec!["A3"]]);
    }

    #[test]
    fn a_message_without_a_publisher_is_taken_after_all_before_it_and_before_all_after_it() {
        let taken = batches(pending(&["A1", "B1", "W1", "A2", "W2", "W3", "B2", "A3", "B3"]), 10);
        assert_eq!(taken, [vec!["A1", "B1"], vec!["W1"], vec!["A2"], vec!["W2", "W3"], vec!["B2", "A3", "B3"]]);
    }
}
