//! MQTT plumbing that knows nothing of w-meter's topics or payloads:
//!
//! - [`broker`]: the embedded MQTT 3.1.1 broker of `wmeter serve`, which
//!   acknowledges a publish only once the durable session (ingest's) has
//!   acknowledged it;
//! - [`link`]: ingest's side of a broker, a client connection kept up with
//!   backoff or the embedded broker's durable session taken in-process,
//!   whose deliveries are acknowledged by hand once they are stored.
//!
//! The MQTT contract itself (topics, payloads) is `wm-uplink`'s.

pub mod broker;
pub mod link;
pub mod password;

pub use broker::{
    Access, Attempt, Authenticator, BrokerError, Durable, EmbeddedBroker, LocalDelivery, LocalSession,
    MAX_PACKET_BYTES, Refusal, TlsError, TlsListener, fingerprint, server_config,
};
pub use link::{Deliveries, Delivery, Link, Login};
