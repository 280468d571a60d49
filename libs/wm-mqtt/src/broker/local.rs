//! The durable session taken in this process: `wmeter serve`'s ingest reads
//! its messages straight from the router, without MQTT packets, and
//! acknowledges a whole batch by letting it go: each message's publisher
//! gets its PUBACK then, exactly as if ingest had sent a PUBACK per message
//! over the loopback (docs/architecture.md, "Embedded broker").

use std::{collections::VecDeque, sync::Arc};

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
        if let Some(message) = self.pending.pop_front() {
            return Some(LocalDelivery { message: Some(message) });
        }
        loop {
            if let Some(delivery) = delivered(self.rx.recv().await?) {
                return Some(delivery);
            }
        }
    }

    /// The next message if one is waiting.
    pub fn try_recv(&mut self) -> Option<LocalDelivery> {
        if let Some(message) = self.pending.pop_front() {
            return Some(LocalDelivery { message: Some(message) });
        }
        loop {
            if let Some(delivery) = delivered(self.rx.try_recv().ok()?) {
                return Some(delivery);
            }
        }
    }
}

/// The message `outbound` delivers, if it is one. Nobody may take this
/// session over (the network client that asked is told it is busy), and it
/// publishes nothing that a PUBACK would answer.
fn delivered(outbound: Outbound) -> Option<LocalDelivery> {
    match outbound {
        Outbound::Deliver(message) => Some(LocalDelivery { message: Some(message) }),
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
