//! What an admin (or the user) changes about an account, and the rules it
//! must follow: the last enabled admin stays one, and every change that
//! must end the user's sessions raises their token version. Pure.

use wm_http::auth::Role;

use super::user::User;

/// A change to a user's account.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    Role(Role),
    Disable,
    Enable,
    /// Ends every session: refresh tokens and access tokens alike.
    RevokeSessions,
    /// A new password; `must_change` when an admin set it.
    Password {
        must_change: bool,
    },
}

/// Why a change is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refused {
    #[error("the last enabled admin cannot be disabled or lose the admin role")]
    LastAdmin,
    #[error("you cannot disable your own account or change your own role")]
    OwnAccount,
}

/// What the change does to the stored user.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    /// The user after the change.
    pub after: User,
    /// Whether anything changed: a role set to the one held, a disabled
    /// user disabled again, change nothing and record nothing.
    pub changed: bool,
}

impl Refused {
    /// The stable `code` of the API's answer and of the audit record.
    pub fn code(self) -> &'static str {
        match self {
            Refused::LastAdmin => "last_admin",
            Refused::OwnAccount => "own_account",
        }
    }
}

impl Change {
    /// Whether the change refuses the user's access tokens (raises the
    /// version).
    pub fn revokes(self) -> bool {
        !matches!(self, Change::Enable)
    }

    /// Whether the change also ends the user's sessions (revokes their
    /// refresh tokens). A role change does not: the next refresh gives a
    /// token with the new role.
    pub fn ends_sessions(self) -> bool {
        !matches!(self, Change::Enable | Change::Role(_))
    }

    /// The audit trail's action.
    pub fn action(self) -> &'static str {
        match self {
            Change::Role(_) => "user.role",
            Change::Disable => "user.disable",
            Change::Enable => "user.enable",
            Change::RevokeSessions => "user.revoke_sessions",
            Change::Password { must_change: true } => "user.password_reset",
            Change::Password { must_change: false } => "user.password_change",
        }
    }
}

/// Decides `change` to `user`, asked by `actor` (a user id), when
/// `enabled_admins` enabled admins exist (the user included, if one).
pub fn decide(user: &User, change: Change, actor: &str, enabled_admins: usize) -> Result<Decision, Refused> {
    let is_enabled_admin = user.role == Role::Admin && !user.disabled;
    let mut after = user.clone();
    match change {
        Change::Role(role) => after.role = role,
        Change::Disable => after.disabled = true,
        Change::Enable => after.disabled = false,
        Change::RevokeSessions => {}
        Change::Password { must_change } => after.must_change_password = must_change,
    }
    let loses_admin = is_enabled_admin && (after.role != Role::Admin || after.disabled);
    if loses_admin && user.id == actor {
        return Err(Refused::OwnAccount);
    }
    if loses_admin && enabled_admins <= 1 {
        return Err(Refused::LastAdmin);
    }
    let changed = after != *user || matches!(change, Change::RevokeSessions | Change::Password { .. });
    if changed && change.revokes() {
        after.token_version = user.token_version + 1;
    }
    Ok(Decision { after, changed })
}

#[cfg(test)]
mod tests {
    use chrono::DateTime;

    use super::*;

    fn user(id: &str, role: Role, disabled: bool) -> User {
        User {
            id: id.to_owned(),
            username: id.to_owned(),
            role,
            disabled,
            created_at: DateTime::UNIX_EPOCH,
            token_version: 4,
            must_change_password: false,
        }
    }

    #[test]
    fn given_an_operator_when_made_viewer_then_the_role_changes_and_old_tokens_go() {
        let ann = user("ann", Role::Operator, false);
        let decision = decide(&ann, Change::Role(Role::Viewer), "root", 1).unwrap();
        assert!(decision.changed);
        assert_eq!(decision.after.role, Role::Viewer);
        assert_eq!(decision.after.token_version, 5);
        assert!(!Change::Role(Role::Viewer).ends_sessions(), "a refresh gives the new role");
        assert!(Change::Disable.ends_sessions() && Change::RevokeSessions.ends_sessions());
    }

    #[test]
    fn given_the_last_admin_when_disabled_or_demoted_then_it_is_refused() {
        let root = user("root", Role::Admin, false);
        for change in [Change::Disable, Change::Role(Role::Operator)] {
            assert_eq!(decide(&root, change, "cli", 1), Err(Refused::LastAdmin), "{change:?}");
            assert!(decide(&root, change, "cli", 2).is_ok(), "{change:?} with another admin");
        }
        assert!(decide(&root, Change::RevokeSessions, "cli", 1).is_ok(), "sessions may always end");
        assert!(decide(&root, Change::Password { must_change: true }, "cli", 1).is_ok());
    }

    #[test]
    fn given_an_admin_when_they_demote_or_disable_themselves_then_it_is_refused() {
        let root = user("root", Role::Admin, false);
        assert_eq!(decide(&root, Change::Disable, "root", 3), Err(Refused::OwnAccount));
        assert_eq!(decide(&root, Change::Role(Role::Viewer), "root", 3), Err(Refused::OwnAccount));
    }

    #[test]
    fn given_a_disabled_admin_when_demoted_then_the_count_of_enabled_admins_does_not_matter() {
        let old = user("old", Role::Admin, true);
        assert!(decide(&old, Change::Role(Role::Viewer), "root", 1).is_ok());
    }

    #[test]
    fn given_a_change_to_what_is_held_when_decided_then_nothing_changes() {
        let ann = user("ann", Role::Operator, true);
        for change in [Change::Role(Role::Operator), Change::Disable] {
            let decision = decide(&ann, change, "root", 1).unwrap();
            assert!(!decision.changed, "{change:?}");
            assert_eq!(decision.after, ann);
        }
    }

    #[test]
    fn given_a_disabled_user_when_enabled_then_their_version_stays() {
        let ann = user("ann", Role::Operator, true);
        let decision = decide(&ann, Change::Enable, "root", 1).unwrap();
        assert!(decision.changed && !decision.after.disabled);
        assert_eq!(decision.after.token_version, 4, "they hold no token to refuse");
    }

    #[test]
    fn given_a_reset_when_decided_then_the_user_must_change_it_and_sessions_end() {
        let ann = user("ann", Role::Viewer, false);
        let decision = decide(&ann, Change::Password { must_change: true }, "root", 1).unwrap();
        assert!(decision.after.must_change_password);
        assert_eq!(decision.after.token_version, 5);
        let own = decide(&decision.after, Change::Password { must_change: false }, "ann", 1).unwrap();
        assert!(!own.after.must_change_password);
        assert_eq!(own.after.token_version, 6);
    }
}
