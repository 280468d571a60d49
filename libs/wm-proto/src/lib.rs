//! Protobuf event schemas (`proto/wmeter/v1`) compiled with prost, and topic names.
//!
//! - [`v1`]: the generated `wmeter.v1` types; [`v1::Envelope`] carries every event,
//!   its payload is the enum [`v1::envelope::Payload`].
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
    include!(concat!(env!("OUT_DIR"), "/wmeter.v1.rs"));
}

pub use envelope::{DecodeError, SCHEMA_VERSION, gateway_actor};
pub use v1::Envelope;
pub use v1::envelope::Payload;
pub use {prost, prost_types};

/// The encoded `FileDescriptorSet` of every `wmeter.v1` file (with its
/// imports), for tools that need the schemas at run time.
pub const FILE_DESCRIPTOR_SET: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/wmeter_v1_descriptor.bin"));
