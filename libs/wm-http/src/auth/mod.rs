//! The access-token check every service runs (DESIGN §7): a short-lived JWT
//! in `Authorization: Bearer`, verified explicitly, and the caller's role.
//!
//! - [`AccessTokens`] signs (the auth service) and verifies (everyone) with
//!   one HMAC key from configuration. Verification allows HS256 only and
//!   requires `exp`, `nbf`, `iss`, `aud`, `sub` and `typ = "access"`.
//! - [`Caller`] is the actix extractor: a handler that takes a `Caller` answers
//!   401 with the JSON error body unless the request carries a valid token.
//! - [`require_token`] is the middleware that puts every `/api` route but
//!   login, refresh and logout behind a valid token.
//! - [`Role`] decides what a caller may do; a mutation by a viewer is 403.
//! - [`Principals`] holds each user's token version: a token issued before
//!   its user's version was raised (a role change, a disable, a revocation)
//!   is refused on the next request.
//! - [`api_keys`]: machines' credentials, checked wherever a token is.

pub mod api_keys;
mod caller;
mod claims;
mod guard;
mod keys;
mod principals;

pub use caller::Caller;
pub use claims::{Claims, Role, Subject, TokenType};
pub use guard::{DOCS, PUBLIC_ROUTES, require_token};
pub use keys::{AccessTokens, JwtSettings, KeyError, MIN_KEY_BYTES, TokenError};
pub use principals::{Principals, Refusal};

#[cfg(test)]
mod tests;
