use serde::{Deserialize, Serialize};

/// What a user may do (DESIGN §6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// Everything, users included.
    Admin,
    /// Devices and shutdown answers.
    Operator,
    /// Read only.
    Viewer,
}

impl Role {
    pub const ALL: [Role; 3] = [Role::Admin, Role::Operator, Role::Viewer];

    pub fn as_str(self) -> &'static str {
        match self {
            Role::Admin => "admin",
            Role::Operator => "operator",
            Role::Viewer => "viewer",
        }
    }

    /// Register, edit, delete devices, answer shutdown requests, act on
    /// alarms and valve commands.
    pub fn may_change_devices(self) -> bool {
        matches!(self, Role::Admin | Role::Operator)
    }

    /// Create, disable and change users.
    pub fn may_manage_users(self) -> bool {
        self == Role::Admin
    }
}

impl std::str::FromStr for Role {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Role::ALL
            .into_iter()
            .find(|r| r.as_str() == s)
            .ok_or_else(|| format!("unknown role '{s}'; expected admin, operator or viewer"))
    }
}

impl std::fmt::Display for Role {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Which of the two tokens a JWT is. Only access tokens are JWTs today, but
/// the claim is checked so that no other token kind signed with the same key
/// can ever pass for one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TokenType {
    Access,
    Refresh,
}

/// The claims of an access token.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Claims {
    /// The user's id.
    pub sub: String,
    pub role: Role,
    pub typ: TokenType,
    pub iss: String,
    pub aud: String,
    pub iat: u64,
    pub nbf: u64,
    pub exp: u64,
    /// The user's token version when it was issued ([`super::Principals`]);
    /// 0 in tokens from before versions existed.
    #[serde(default)]
    pub ver: u64,
    /// The user must change their password before anything else (a
    /// one-time password set by an admin).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub chg: bool,
}

/// Whom an access token is issued to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Subject<'a> {
    pub user_id: &'a str,
    pub role: Role,
    /// Their token version now.
    pub version: u64,
    pub must_change_password: bool,
}

impl<'a> Subject<'a> {
    /// A user at version 0 who may use their password.
    pub fn new(user_id: &'a str, role: Role) -> Self {
        Self { user_id, role, version: 0, must_change_password: false }
    }
}
