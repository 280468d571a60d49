//! The registry's projections: its own events (run only to rebuild, since
//! its actions write the tables), and device state from telemetry.

pub mod devices;
pub mod state;
