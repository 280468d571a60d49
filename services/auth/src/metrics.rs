//! Sign-ins by outcome, so that a password-guessing run shows on a graph
//! and can page someone.

use prometheus_client::{
    encoding::EncodeLabelSet,
    metrics::{counter::Counter, family::Family},
    registry::Registry,
};

pub const LOGINS: &str = "wmeter_auth_logins";

/// How a sign-in ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Login {
    Succeeded,
    /// Wrong username or password, or a disabled user: the 401.
    Failed,
    /// Refused by the throttle before the password was checked: the 429.
    Throttled,
    /// Refused because the password-hashing queue was full: the 429.
    Shed,
}

impl Login {
    const ALL: [Login; 4] = [Login::Succeeded, Login::Failed, Login::Throttled, Login::Shed];

    fn label(self) -> &'static str {
        match self {
            Login::Succeeded => "succeeded",
            Login::Failed => "failed",
            Login::Throttled => "throttled",
            Login::Shed => "shed",
        }
    }
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct Outcome {
    outcome: &'static str,
}

/// `wmeter_auth_logins_total{outcome}`; unregistered until
/// [`register`](Self::register)ed, for tests that build the state alone.
#[derive(Clone, Debug, Default)]
pub struct LoginMetrics(Family<Outcome, Counter>);

impl LoginMetrics {
    /// Registers the counter, every outcome at zero so that rates start at
    /// the first scrape.
    pub fn register(registry: &mut Registry) -> Self {
        let metrics = Self::default();
        registry.register(LOGINS, "Sign-ins by outcome: succeeded, failed, throttled, shed", metrics.0.clone());
        for login in Login::ALL {
            metrics.0.get_or_create(&Outcome { outcome: login.label() }).inc_by(0);
        }
        metrics
    }

    pub fn count(&self, login: Login) {
        self.0.get_or_create(&Outcome { outcome: login.label() }).inc();
    }
}
