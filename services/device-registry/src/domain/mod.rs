//! The registry's aggregates: a command is decided against the current
//! state into events, and events are folded into state by a pure `apply`.
//! Storage persists the folded state; a rebuild folds the same events.

pub mod credential;
pub mod gateway;
pub mod meter;
mod wire;

pub use wire::InvalidEvent;
pub(crate) use wire::parse as wire_parse;

/// Why a command was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum DomainError {
    #[error("no such device")]
    NotFound,
    /// Only a device that was never seen may be deleted.
    #[error("the device has been seen, so it cannot be deleted")]
    Seen,
}
