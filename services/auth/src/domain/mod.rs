//! The auth service's domain: who a user is, the rules a username
//! follows, and what may change about an account. Pure: nothing here touches storage.

pub mod account;
pub mod user;
