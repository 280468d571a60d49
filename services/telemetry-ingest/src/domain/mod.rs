//! Telemetry ingest's aggregates: a meter's shutdown request and the valve
//! command that carries out a confirmed one. A command is decided against
//! the current state into events; events are folded into state by a pure
//! `apply`. Storage writes what `apply` describes, and a rebuild from the
//! log folds the same events.

pub mod shutdown;
pub mod valve;

/// A stored or sent status that is none of the aggregate's.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a status")]
pub struct UnknownStatus(pub String);
