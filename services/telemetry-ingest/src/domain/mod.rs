//! Telemetry ingest's aggregates: a meter's shutdown request and the valve
//! command that carries out a confirmed one. A command is decided against
//! the current state into events; events are folded into state by a pure
//! `apply`. Storage writes what `apply` describes, and a rebuild from the
//! log folds the same events.

/// A stored or sent status that is none of the aggregate's.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a status")]
pub struct UnknownStatus(pub String);

/// An aggregate's statuses and the words that name them, declared once:
/// the enum, `as_str`, `Display` and `FromStr`.
macro_rules! statuses {
    ($(#[$meta:meta])* pub enum $name:ident { $($(#[$doc:meta])* $variant:ident => $word:literal,)+ }) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $name {
            $($(#[$doc])* $variant,)+
        }

        impl $name {
            /// Every status, in the order of the lifecycle.
            pub const ALL: &[$name] = &[$($name::$variant),+];

            /// The word the API, the audit trail and the table use.
            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $word,)+
                }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl std::str::FromStr for $name {
            type Err = $crate::domain::UnknownStatus;

            fn from_str(s: &str) -> Result<Self, Self::Err> {
                Self::ALL.iter().copied().find(|status| status.as_str() == s).ok_or_else(|| $crate::domain::UnknownStatus(s.to_owned()))
            }
        }
    };
}

pub mod shutdown;
pub mod valve;
