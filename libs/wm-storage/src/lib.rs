//! Storage plumbing shared by every service.
//!
//! - [`Db`] is a connection pool chosen at runtime by URL: `sqlite://` for the
//!   embedded mode, `postgres://` for the distributed mode.
//! - [`Migrations`] are owned by the component that owns the tables (a service,
//!   or the embedded event log), one SQL list per backend, and applied by
//!   [`Db::migrate`]. Each component keeps its own version sequence, so
//!   services can migrate one database without knowing about each other.
//! - Dialect-specific SQL stays in the owning service, selected with
//!   [`Db::backend`] — this crate is the seam, not a query builder.

pub mod bulk;
mod checkpoint;
mod db;
mod error;
mod migrate;
pub mod prune;
pub mod query;
mod settings;
mod tx;
pub mod writer;

pub use db::{Backend, Db, PoolUse};
pub use error::{StorageError, is_unavailable};
pub use migrate::{Migration, Migrations};
pub use settings::{DatabaseSettings, redact};
pub use tx::Tx;
pub use writer::Writer;

/// For this crate's macros; callers use their own `sqlx`.
#[doc(hidden)]
pub use sqlx as __sqlx;
