//! One client's session: the messages waiting for it, the ones sent and not
//! acknowledged yet, and the acknowledgement a publisher waits for.

use std::{
    collections::{HashMap, VecDeque},
    sync::{
        Arc,
        atomic::{AtomicBool, AtomicUsize, Ordering},
    },
};

use bytes::Bytes;
use rumqttc::{Publish, QoS};
use tokio::sync::{Notify, futures::Notified, mpsc::UnboundedSender};

/// What the rest of the broker tells a connection's task.
#[derive(Debug)]
pub enum Outbound {
    /// Acknowledge the client's QoS 1 publish with this packet id.
    PubAck(u16),
    /// Deliver a message to the client.
    Deliver(Message),
    /// A newer connection took this client id over: close, without the will.
    TakenOver,
}

/// The QoS 1 publishes waiting for the durable session's acknowledgement,
/// from every publisher together ([`Durable::held`](super::Durable)): past
/// the limit no publisher is read until some are acknowledged, so what
/// waits for ingest stays bounded in memory however many gateways publish.
#[derive(Debug)]
pub struct Total {
    count: AtomicUsize,
    limit: usize,
    freed: Notify,
}

impl Total {
    pub fn new(limit: usize) -> Self {
        Self { count: AtomicUsize::new(0), limit: limit.max(1), freed: Notify::new() }
    }

    pub fn full(&self) -> bool {
        self.count.load(Ordering::Acquire) >= self.limit
    }

    /// Resolves when the count falls below the limit. Enable it before
    /// asking [`Total::full`], so that a fall in between still wakes it.
    pub fn freed(&self) -> Notified<'_> {
        self.freed.notified()
    }
}

/// One publisher's QoS 1 publishes waiting for the durable session, counted
/// on their own and in the broker's [`Total`].
#[derive(Clone, Debug)]
pub struct Held {
    /// The publisher's connection, as the router numbers them.
    publisher: u64,
    mine: Arc<AtomicUsize>,
    total: Arc<Total>,
}

impl Held {
    pub fn new(publisher: u64, total: Arc<Total>) -> Self {
        Self { publisher, mine: Arc::default(), total }
    }

    pub fn mine(&self) -> usize {
        self.mine.load(Ordering::Acquire)
    }

    pub fn total(&self) -> &Arc<Total> {
        &self.total
    }

    fn add(&self) {
        self.mine.fetch_add(1, Ordering::AcqRel);
        self.total.count.fetch_add(1, Ordering::AcqRel);
    }

    /// Wakes the publishers waiting for room when the total falls below its
    /// limit (it may overshoot by a few: each publisher checks, then adds).
    fn release(&self) {
        self.mine.fetch_sub(1, Ordering::AcqRel);
        if self.total.count.fetch_sub(1, Ordering::AcqRel) == self.total.limit {
            self.total.freed.notify_waiters();
        }
    }
}

/// A publisher's acknowledgement of one QoS 1 publish, held by every copy
/// of the message a durable session has not acknowledged yet. The PUBACK
/// goes out when the last copy is dropped, unless one copy was let go
/// unstored ([`Acker::withhold`]); if the publisher's connection is gone by
/// then, it goes nowhere and the publisher sends it again.
#[derive(Debug)]
pub struct Acker {
    pkid: u16,
    connection: UnboundedSender<Outbound>,
    held: Held,
    withheld: AtomicBool,
}

impl Acker {
    /// `held` counts the publisher's acknowledgements not sent yet.
    pub fn new(pkid: u16, connection: UnboundedSender<Outbound>, held: Held) -> Arc<Self> {
        held.add();
        Arc::new(Self { pkid, connection, held, withheld: AtomicBool::new(false) })
    }

    /// The connection that published the message: its acknowledgements
    /// must go out in the order it published (MQTT 3.1.1, 4.6).
    pub fn publisher(&self) -> u64 {
        self.held.publisher
    }

    /// The message is let go without being stored: no PUBACK, so the
    /// publisher sends it again when it reconnects.
    pub fn withhold(&self) {
        self.withheld.store(true, Ordering::Release);
    }
}

impl Drop for Acker {
    fn drop(&mut self) {
        self.held.release();
        if !self.withheld.load(Ordering::Acquire) {
            let _ = self.connection.send(Outbound::PubAck(self.pkid));
        }
    }
}

/// A message on its way to one session, at the QoS it is delivered with.
#[derive(Clone, Debug)]
pub struct Message {
    pub topic: String,
    pub payload: Bytes,
    pub qos: QoS,
    pub retain: bool,
    pub ack: Option<Arc<Acker>>,
}

impl Message {
    /// The connection whose publish this is, when it waits for an
    /// acknowledgement.
    pub fn publisher(&self) -> Option<u64> {
        self.ack.as_ref().map(|ack| ack.publisher())
    }

    fn publish(&self, pkid: u16, dup: bool) -> Publish {
        let mut publish = Publish::from_bytes(self.topic.clone(), self.qos, self.payload.clone());
        publish.pkid = pkid;
        publish.dup = dup;
        publish.retain = self.retain;
        publish
    }
}

/// The state of a session, kept between connections unless it is clean.
#[derive(Debug, Default)]
pub struct Session {
    queue: VecDeque<Message>,
    /// Sent at QoS 1 and not acknowledged: packet id → (send order, message).
    inflight: HashMap<u16, (u64, Message)>,
    sent: u64,
    last_pkid: u16,
}

impl Session {
    /// Queues `message`. One that holds a publisher's acknowledgement is
    /// always kept (publishers bound those); any other is dropped once
    /// `limit` messages wait. False when dropped.
    pub fn push(&mut self, message: Message, limit: usize) -> bool {
        if message.ack.is_none() && self.queue.len() >= limit {
            return false;
        }
        self.queue.push_back(message);
        true
    }

    /// The next message to write, while fewer than `window` wait for their
    /// acknowledgement.
    pub fn next(&mut self, window: usize) -> Option<Publish> {
        if self.inflight.len() >= window {
            return None;
        }
        let message = self.queue.pop_front()?;
        if message.qos == QoS::AtMostOnce {
            return Some(message.publish(0, false));
        }
        let pkid = self.free_pkid();
        let publish = message.publish(pkid, false);
        self.sent += 1;
        self.inflight.insert(pkid, (self.sent, message));
        Some(publish)
    }

    /// The client acknowledged `pkid`: let the message go (and with it,
    /// perhaps, its publisher's acknowledgement).
    pub fn acked(&mut self, pkid: u16) {
        self.inflight.remove(&pkid);
    }

    /// What was sent and not acknowledged, in the order it was sent, marked
    /// as sent again: for a client resuming its session.
    pub fn unacknowledged(&self) -> Vec<Publish> {
        let mut sent: Vec<_> =
            self.inflight.iter().map(|(pkid, (order, m))| (*order, m.publish(*pkid, true))).collect();
        sent.sort_unstable_by_key(|(order, _)| *order);
        sent.into_iter().map(|(_, publish)| publish).collect()
    }

    /// Every message of the session, the ones sent first (in the order
    /// sent), then the queued ones: for a connection in this process,
    /// which takes messages without packet ids.
    pub fn drain(&mut self) -> Vec<Message> {
        let mut sent: Vec<_> = self.inflight.drain().map(|(_, sent)| sent).collect();
        sent.sort_unstable_by_key(|(order, _)| *order);
        sent.into_iter().map(|(_, message)| message).chain(self.queue.drain(..)).collect()
    }

    fn free_pkid(&mut self) -> u16 {
        loop {
            self.last_pkid = self.last_pkid.checked_add(1).unwrap_or(1);
            if !self.inflight.contains_key(&self.last_pkid) {
                return self.last_pkid;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use tokio::sync::mpsc;

    use super::*;

    fn message(qos: QoS, ack: Option<Arc<Acker>>) -> Message {
        Message { topic: "t".into(), payload: Bytes::from_static(b"p"), qos, retain: false, ack }
    }

    #[test]
    fn the_publisher_is_acknowledged_when_the_last_copy_is() {
        let (tx, mut rx) = mpsc::unbounded_channel();
        let held = Held::new(1, Arc::new(Total::new(10)));
        let ack = Acker::new(7, tx, held.clone());
        let (mut a, mut b) = (Session::default(), Session::default());
        a.push(message(QoS::AtLeastOnce, Some(ack.clone())), 10);
        b.push(message(QoS::AtLeastOnce, Some(ack)), 10);
        let (sent_a, sent_b) = (a.next(10).unwrap(), b.next(10).unwrap());
        assert_eq!(held.mine(), 1);
        a.acked(sent_a.pkid);
        assert!(rx.try_recv().is_err(), "one copy is still held");
        b.acked(sent_b.pkid);
        assert!(matches!(rx.try_recv(), Ok(Outbound::PubAck(7))));
        assert_eq!(held.mine(), 0);
    }

    #[test]
    fn the_window_bounds_what_waits_for_an_acknowledgement() {
        let mut session = Session::default();
        for _ in 0..3 {
            session.push(message(QoS::AtLeastOnce, None), 10);
        }
        let first = session.next(2).unwrap();
        let second = session.next(2).unwrap();
        assert!(session.next(2).is_none());
        assert_ne!(first.pkid, second.pkid);
        session.acked(first.pkid);
        assert!(session.next(2).is_some());
        let resent = session.unacknowledged();
        assert_eq!(resent.len(), 2);
        assert!(resent.iter().all(|p| p.dup));
        assert_eq!(resent[0].pkid, second.pkid, "in the order sent");
    }

    #[test]
    fn only_messages_without_a_waiting_publisher_are_dropped_when_full() {
        let (tx, _rx) = mpsc::unbounded_channel();
        let held = Held::new(1, Arc::new(Total::new(10)));
        let mut session = Session::default();
        assert!(session.push(message(QoS::AtMostOnce, None), 1));
        assert!(!session.push(message(QoS::AtMostOnce, None), 1));
        assert!(session.push(message(QoS::AtLeastOnce, Some(Acker::new(1, tx, held))), 1));
    }

    #[test]
    fn a_withheld_acknowledgement_is_never_sent() {
        let (tx, mut rx) = mpsc::unbounded_channel();
        let held = Held::new(1, Arc::new(Total::new(10)));
        let ack = Acker::new(3, tx, held.clone());
        ack.withhold();
        drop(ack);
        assert!(rx.try_recv().is_err());
        assert_eq!(held.mine(), 0);
    }

    #[tokio::test]
    async fn the_total_is_shared_by_publishers_and_its_fall_below_the_limit_wakes_them() {
        let total = Arc::new(Total::new(2));
        let (a, b) = (Held::new(1, total.clone()), Held::new(2, total.clone()));
        let (tx, _rx) = mpsc::unbounded_channel();
        let first = Acker::new(1, tx.clone(), a.clone());
        assert!(!total.full());
        let second = Acker::new(2, tx.clone(), b.clone());
        assert!(total.full(), "two publishers, one message each");
        assert_eq!((a.mine(), b.mine()), (1, 1));
        let freed = total.freed();
        tokio::pin!(freed);
        freed.as_mut().enable();
        drop(first);
        assert!(!total.full());
        tokio::time::timeout(std::time::Duration::from_secs(1), freed).await.expect("woken by the fall");
        drop(second);
        assert_eq!((a.mine(), b.mine()), (0, 0));
    }

    #[test]
    fn a_drained_session_gives_the_sent_messages_first_in_order() {
        let mut session = Session::default();
        for topic in ["a", "b", "c"] {
            let mut m = message(QoS::AtLeastOnce, None);
            m.topic = topic.into();
            session.push(m, 10);
        }
        let first = session.next(10).unwrap();
        session.next(10).unwrap();
        session.acked(first.pkid);
        let topics: Vec<String> = session.drain().into_iter().map(|m| m.topic).collect();
        assert_eq!(topics, ["b", "c"]);
        assert!(session.next(10).is_none(), "nothing is left");
    }

    #[test]
    fn packet_ids_skip_zero_and_those_in_flight() {
        let mut session = Session { last_pkid: u16::MAX - 1, ..Session::default() };
        for _ in 0..3 {
            session.push(message(QoS::AtLeastOnce, None), 10);
        }
        let ids: Vec<u16> = (0..3).map(|_| session.next(10).unwrap().pkid).collect();
        assert_eq!(ids, [u16::MAX, 1, 2]);
    }
}
