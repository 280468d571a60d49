//! Telemetry ingest's aggregates: a meter's shutdown request, the valve
//! command that carries out a confirmed one, and the alarms raised on a
//! device; the consumption rollups, pure sums over readings; and the
//! detectors that find leaks in them. A command is decided against the
//! current state into events; events are folded into state by a pure
//! `apply`. Storage writes what
//! `apply` describes, and a rebuild from the log folds the same events.
//! Statuses are declared with `wm_domain::statuses!`.

pub mod alarm;
pub mod detect;
pub mod rollup;
pub mod shutdown;
pub mod thresholds;
pub mod valve;
