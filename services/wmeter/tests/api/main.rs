//! The HTTP API of the whole application, through real HTTP on port 0.

mod helpers;
mod operability;
mod spa;
