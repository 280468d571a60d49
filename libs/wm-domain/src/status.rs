//! Statuses of the services' aggregates, each declared once with the words
//! that name it in the API, the audit trail and the tables.

/// A stored or sent status that is none of the aggregate's.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a status")]
pub struct UnknownStatus(pub String);

/// An aggregate's statuses and the words that name them, declared once:
/// the enum, `ALL`, `as_str`, `Display` and `FromStr`.
#[macro_export]
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
            type Err = $crate::UnknownStatus;

            fn from_str(s: &str) -> Result<Self, Self::Err> {
                Self::ALL.iter().copied().find(|status| status.as_str() == s).ok_or_else(|| $crate::UnknownStatus(s.to_owned()))
            }
        }
    };
}
