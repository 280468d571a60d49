//! Telemetry ingest's tables, every function written once for both
//! databases.

pub mod alarm_filter;
pub mod alarm_views;
pub mod alarms;
pub mod credentials;
pub mod detectors;
pub mod directory;
pub mod exports;
pub mod partitions;
pub mod reads;
pub mod retention;
pub mod rollups;
pub mod shutdowns;
pub mod telemetry;
pub mod thresholds;
pub mod valve_commands;
