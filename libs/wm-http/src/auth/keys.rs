use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation, errors::ErrorKind};
use serde::{Deserialize, Serialize};

use std::sync::Arc;

use super::{Claims, Principals, Subject, TokenType};

/// HS256 keys shorter than this are refused: the key must be at least as
/// long as the hash.
pub const MIN_KEY_BYTES: usize = 32;
/// The one algorithm tokens may use. Anything else, `none` included, fails.
const ALGORITHM: Algorithm = Algorithm::HS256;

/// The `auth.jwt` settings that are not secret.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct JwtSettings {
    pub issuer: String,
    pub audience: String,
    /// Lifetime of an access token, in seconds.
    pub access_ttl_secs: u64,
    /// Clock skew tolerated on `exp` and `nbf`, in seconds.
    pub leeway_secs: u64,
}

impl Default for JwtSettings {
    fn default() -> Self {
        Self { issuer: "wmeter".to_owned(), audience: "wmeter-api".to_owned(), access_ttl_secs: 900, leeway_secs: 30 }
    }
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum KeyError {
    #[error("auth.jwt_key: {0} bytes is too short; expected at least {MIN_KEY_BYTES} random bytes")]
    TooShort(usize),
}

/// Why a token was refused. Every variant is a 401; the split is for logs.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum TokenError {
    #[error("the access token has expired")]
    Expired,
    #[error("the token is not an access token")]
    WrongType,
    #[error("the access token is invalid: {0}")]
    Invalid(String),
}

/// Signs and verifies access tokens with one HMAC key.
#[derive(Clone)]
pub struct AccessTokens {
    encoding: EncodingKey,
    decoding: DecodingKey,
    validation: Validation,
    settings: JwtSettings,
    /// The token versions tokens are checked against, shared by clones.
    principals: Arc<Principals>,
}

impl std::fmt::Debug for AccessTokens {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AccessTokens").field("settings", &self.settings).finish_non_exhaustive()
    }
}

impl AccessTokens {
    pub fn new(key: &[u8], settings: JwtSettings) -> Result<Self, KeyError> {
        if key.len() < MIN_KEY_BYTES {
            return Err(KeyError::TooShort(key.len()));
        }
        let mut validation = Validation::new(ALGORITHM);
        validation.algorithms = vec![ALGORITHM];
        validation.set_required_spec_claims(&["exp", "nbf", "iss", "aud", "sub"]);
        validation.set_issuer(&[&settings.issuer]);
        validation.set_audience(&[&settings.audience]);
        validation.validate_exp = true;
        validation.validate_nbf = true;
        validation.leeway = settings.leeway_secs;
        Ok(Self {
            encoding: EncodingKey::from_secret(key),
            decoding: DecodingKey::from_secret(key),
            validation,
            settings,
            principals: Arc::default(),
        })
    }

    /// The token versions [`Caller`](super::Caller) checks tokens against.
    pub fn principals(&self) -> &Arc<Principals> {
        &self.principals
    }

    /// A new access token for `subject`, valid from now for the configured
    /// lifetime.
    pub fn issue(&self, subject: &Subject<'_>) -> Result<String, TokenError> {
        let now = jsonwebtoken::get_current_timestamp();
        let claims = Claims {
            sub: subject.user_id.to_owned(),
            role: subject.role,
            typ: TokenType::Access,
            iss: self.settings.issuer.clone(),
            aud: self.settings.audience.clone(),
            iat: now,
            nbf: now,
            exp: now + self.settings.access_ttl_secs,
            ver: subject.version,
            chg: subject.must_change_password,
        };
        self.sign(&claims)
    }

    /// Signs arbitrary claims with this key (the auth service and tests).
    pub fn sign(&self, claims: &Claims) -> Result<String, TokenError> {
        jsonwebtoken::encode(&Header::new(ALGORITHM), claims, &self.encoding)
            .map_err(|e| TokenError::Invalid(e.to_string()))
    }

    /// The claims of a valid access token.
    pub fn verify(&self, token: &str) -> Result<Claims, TokenError> {
        let claims = jsonwebtoken::decode::<Claims>(token.as_bytes(), &self.decoding, &self.validation)
            .map_err(|e| match e.kind() {
                ErrorKind::ExpiredSignature => TokenError::Expired,
                other => TokenError::Invalid(format!("{other:?}")),
            })?
            .claims;
        if claims.typ != TokenType::Access {
            return Err(TokenError::WrongType);
        }
        Ok(claims)
    }
}
