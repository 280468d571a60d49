//! The auth service's domain: who a user is, the rules a username
//! follows, what may change about an account, API keys and preferences. Pure: nothing here touches storage.

pub mod account;
pub mod api_key;
pub mod preferences;
pub mod user;
