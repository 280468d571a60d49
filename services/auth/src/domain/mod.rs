//! The auth service's domain: who a user is, and the rules a username
//! follows. Pure: nothing here touches storage.

pub mod user;
