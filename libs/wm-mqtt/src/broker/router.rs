//! The broker's shared state: sessions, subscriptions, retained messages,
//! and the routing of each publish to the sessions whose filters match.

use std::{
    collections::{HashMap, HashSet},
    sync::{Arc, Mutex, MutexGuard},
};

use bytes::Bytes;
use rumqttc::{Publish, QoS, valid_filter};
use tokio::sync::{
    Notify,
    mpsc::{UnboundedReceiver, UnboundedSender},
};

use super::{
    access::matches,
    session::{Acker, Message, Outbound, Session, Total},
};

/// Messages without a waiting publisher that a session keeps queued, while
/// disconnected or slower than its publishers; past it, new ones are
/// dropped. Ingest's session gets every gateway's status and will.
pub const QUEUE_LIMIT: usize = 100_000;

/// The session whose acknowledgement a publisher waits for: ingest's. Its
/// subscription exists from the start, so nothing sent before ingest first
/// connects is lost, and only `identity` may take it.
#[derive(Clone, Debug)]
pub struct Durable {
    pub client_id: String,
    pub identity: String,
    pub filter: String,
    /// Messages sent to it and not acknowledged yet, at most.
    pub window: usize,
    /// QoS 1 publishes waiting for its acknowledgement, from all publishers
    /// together, at most: past it, no publisher is read until some are
    /// acknowledged (each publisher also holds at most a thousand).
    pub held: usize,
}

/// A connection's claim on its client id's session.
#[derive(Debug)]
pub enum Attach {
    Attached {
        connection: u64,
        session: Session,
        present: bool,
        durable: bool,
    },
    /// Another connection holds it; it was told to let go.
    Busy,
    /// The session belongs to another identity.
    Foreign,
}

#[derive(Debug)]
pub struct Router {
    state: Mutex<State>,
    /// Woken when a connection lets go of its session.
    released: Notify,
    durable: Durable,
    /// What waits for the durable session's acknowledgement.
    total: Arc<Total>,
}

#[derive(Debug, Default)]
struct State {
    clients: HashMap<String, Client>,
    /// Filters without wildcards, by topic: client → QoS.
    exact: HashMap<String, HashMap<String, QoS>>,
    /// Filters with wildcards: filter → client → QoS.
    wild: HashMap<String, HashMap<String, QoS>>,
    retained: HashMap<String, (Bytes, QoS)>,
    next_connection: u64,
}

#[derive(Debug, Default)]
struct Client {
    /// The identity that made the session: the only one that may use it.
    owner: String,
    durable: bool,
    clean: bool,
    filters: HashSet<String>,
    /// The connection serving it, if any, and how to reach it.
    live: Option<(u64, UnboundedSender<Outbound>)>,
    /// The session while no connection holds it.
    stored: Session,
}

impl Router {
    pub fn new(durable: Durable) -> Self {
        let total = Arc::new(Total::new(durable.held));
        let router = Self { state: Mutex::default(), released: Notify::new(), durable, total };
        let mut state = router.lock();
        let owner = router.durable.identity.clone();
        state.clients.insert(router.durable.client_id.clone(), Client { owner, durable: true, ..Client::default() });
        state.add_filter(&router.durable.client_id, &router.durable.filter, QoS::AtLeastOnce);
        drop(state);
        router
    }

    /// The session whose acknowledgement publishers wait for.
    pub fn durable(&self) -> &Durable {
        &self.durable
    }

    /// The QoS 1 publishes waiting for the durable session, from all
    /// publishers together.
    pub fn total(&self) -> &Arc<Total> {
        &self.total
    }

    /// How many messages a connection of this session may have in flight.
    pub fn window(&self, durable: bool, default: usize) -> usize {
        if durable { self.durable.window } else { default }
    }

    /// Claims `client_id`'s session for a new connection of `identity`
    /// that `tx` reaches. A clean session starts empty (the durable one
    /// never does).
    pub fn attach(&self, client_id: &str, identity: &str, clean: bool, tx: &UnboundedSender<Outbound>) -> Attach {
        let mut state = self.lock();
        state.next_connection += 1;
        let connection = state.next_connection;
        let mut existing = state.clients.contains_key(client_id);
        let client = state
            .clients
            .entry(client_id.to_owned())
            .or_insert_with(|| Client { owner: identity.to_owned(), ..Client::default() });
        if client.owner != identity {
            // Another identity's session: never while it is connected, nor
            // the durable one; otherwise it starts again, empty, as this
            // identity's (what it held is not this one's to read).
            if client.durable || client.live.is_some() {
                return Attach::Foreign;
            }
            let filters: Vec<String> = client.filters.drain().collect();
            *client = Client { owner: identity.to_owned(), ..Client::default() };
            for filter in filters {
                state.remove_filter(client_id, &filter);
            }
            existing = false;
        }
        let Some(client) = state.clients.get_mut(client_id) else { return Attach::Busy };
        if let Some((_, holder)) = &client.live {
            let _ = holder.send(Outbound::TakenOver);
            return Attach::Busy;
        }
        let durable = client.durable;
        let present = existing && !clean;
        client.clean = clean && !durable;
        client.live = Some((connection, tx.clone()));
        let session = std::mem::take(&mut client.stored);
        let (session, present) = if client.clean {
            let filters: Vec<String> = client.filters.drain().collect();
            for filter in filters {
                state.remove_filter(client_id, &filter);
            }
            (Session::default(), false)
        } else {
            (session, present || durable)
        };
        Attach::Attached { connection, session, present, durable }
    }

    /// Tells every connection of `identity` to close.
    pub fn disconnect(&self, identity: &str) {
        let state = self.lock();
        for client in state.clients.values().filter(|c| c.owner == identity) {
            if let Some((_, holder)) = &client.live {
                let _ = holder.send(Outbound::TakenOver);
            }
        }
    }

    /// Completes when some connection lets go of its session, from now on
    /// (before it is first polled too).
    pub fn released(&self) -> tokio::sync::futures::Notified<'_> {
        self.released.notified()
    }

    /// Gives the session back when `connection` ends, with the messages
    /// still on their way to it in `rx`. A clean session is forgotten.
    pub fn detach(&self, client_id: &str, connection: u64, mut session: Session, rx: &mut UnboundedReceiver<Outbound>) {
        let mut state = self.lock();
        let Some(client) = state.clients.get_mut(client_id) else { return };
        if client.live.as_ref().is_none_or(|(holder, _)| *holder != connection) {
            return;
        }
        client.live = None;
        while let Ok(outbound) = rx.try_recv() {
            if let Outbound::Deliver(message) = outbound {
                session.push(message, QUEUE_LIMIT);
            }
        }
        if client.clean {
            let filters: Vec<String> = client.filters.drain().collect();
            state.clients.remove(client_id);
            for filter in filters {
                state.remove_filter(client_id, &filter);
            }
        } else {
            client.stored = session;
        }
        drop(state);
        self.released.notify_waiters();
    }

    /// Adds `client_id`'s subscriptions: the QoS granted to each (None for
    /// an invalid filter), and the retained messages they match.
    pub fn subscribe(&self, client_id: &str, filters: &[(String, QoS)]) -> (Vec<Option<QoS>>, Vec<Message>) {
        let mut state = self.lock();
        let mut granted = Vec::with_capacity(filters.len());
        let mut retained = Vec::new();
        for (filter, qos) in filters {
            if !valid_filter(filter) || filter.starts_with("$share/") {
                granted.push(None);
                continue;
            }
            let qos = lower(*qos, QoS::AtLeastOnce);
            state.add_filter(client_id, filter, qos);
            granted.push(Some(qos));
            for (topic, (payload, stored_qos)) in &state.retained {
                if matches(topic, filter) {
                    let qos = lower(*stored_qos, qos);
                    let payload = payload.clone();
                    retained.push(Message { topic: topic.clone(), payload, qos, retain: true, ack: None });
                }
            }
        }
        (granted, retained)
    }

    pub fn unsubscribe(&self, client_id: &str, filters: &[String]) {
        let mut state = self.lock();
        for filter in filters {
            state.remove_filter(client_id, filter);
        }
    }

    /// Keeps or clears the retained message, and sends `publish` to every
    /// matching session. Copies for durable sessions hold `ack`.
    pub fn publish(&self, publish: &Publish, ack: Option<Arc<Acker>>) {
        let mut state = self.lock();
        if publish.retain {
            if publish.payload.is_empty() {
                state.retained.remove(&publish.topic);
            } else {
                state.retained.insert(publish.topic.clone(), (publish.payload.clone(), publish.qos));
            }
        }
        let mut targets: HashMap<String, QoS> = HashMap::new();
        let mut add = |subscribers: &HashMap<String, QoS>| {
            for (client, qos) in subscribers {
                let entry = targets.entry(client.clone()).or_insert(*qos);
                if *qos > *entry {
                    *entry = *qos;
                }
            }
        };
        if let Some(subscribers) = state.exact.get(&publish.topic) {
            add(subscribers);
        }
        for (filter, subscribers) in &state.wild {
            if matches(&publish.topic, filter) {
                add(subscribers);
            }
        }
        for (client_id, qos) in targets {
            let Some(client) = state.clients.get_mut(&client_id) else { continue };
            let message = Message {
                topic: publish.topic.clone(),
                payload: publish.payload.clone(),
                qos: lower(publish.qos, qos),
                retain: false,
                ack: if client.durable { ack.clone() } else { None },
            };
            match &client.live {
                Some((_, tx)) => {
                    let _ = tx.send(Outbound::Deliver(message));
                }
                None => {
                    if !client.stored.push(message, QUEUE_LIMIT) {
                        tracing::debug!(client = client_id, "MQTT session full, message dropped");
                    }
                }
            }
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic while holding the lock cannot leave the maps half-changed
        // in a way routing cannot read, so a poisoned lock is still used.
        self.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl State {
    fn add_filter(&mut self, client_id: &str, filter: &str, qos: QoS) {
        let index = if has_wildcards(filter) { &mut self.wild } else { &mut self.exact };
        index.entry(filter.to_owned()).or_default().insert(client_id.to_owned(), qos);
        if let Some(client) = self.clients.get_mut(client_id) {
            client.filters.insert(filter.to_owned());
        }
    }

    fn remove_filter(&mut self, client_id: &str, filter: &str) {
        let index = if has_wildcards(filter) { &mut self.wild } else { &mut self.exact };
        if let Some(subscribers) = index.get_mut(filter) {
            subscribers.remove(client_id);
            if subscribers.is_empty() {
                index.remove(filter);
            }
        }
        if let Some(client) = self.clients.get_mut(client_id) {
            client.filters.remove(filter);
        }
    }
}

fn has_wildcards(filter: &str) -> bool {
    filter.contains(['+', '#'])
}

/// The lower of two QoS levels.
pub fn lower(a: QoS, b: QoS) -> QoS {
    if a < b { a } else { b }
}
