//! Protobuf event schemas (`proto/wmeter/v1`): the types prost generates from
//! them, and topic names.
//!
//! - [`v1`]: the generated `wmeter.v1` types; [`v1::Envelope`] carries every
//!   event, its payload is the enum [`v1::envelope::Payload`]. They are kept in
//!   `src/generated`, so no build compiles a protobuf compiler; `make proto`
//!   writes them anew, and a test fails when they differ from what the
//!   `.proto` files generate.
//! - [`topics`]: every event-log topic name, and [`topics::for_payload`].
//! - [`envelope`]: [`v1::Envelope::new`], encoding and decoding, [`SCHEMA_VERSION`].
//! - [`time`]: conversions between `chrono` and protobuf timestamps.

pub mod envelope;
mod payload;
pub mod time;
pub mod topics;

/// The generated `wmeter.v1` package.
#[allow(missing_docs)]
pub mod v1 {
    include!("generated/wmeter.v1.rs");
}

pub use envelope::{DecodeError, SCHEMA_VERSION, gateway_actor};
pub use v1::Envelope;
pub use v1::envelope::Payload;
pub use {prost, prost_types};
