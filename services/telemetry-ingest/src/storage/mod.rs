//! Telemetry ingest's tables, every function written once for both
//! databases.

pub mod directory;
pub mod reads;
pub mod retention;
pub mod shutdowns;
pub mod telemetry;
pub mod valve_commands;
