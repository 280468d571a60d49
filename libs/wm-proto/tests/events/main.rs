//! Contract tests for the wmeter.v1 event schemas: one binary.

mod coverage;
mod garbage;
mod round_trip;
mod samples;
