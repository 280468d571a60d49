//! Whether this process's consumers have joined their groups. A Kafka
//! member gets its partitions a moment after it subscribes (the group
//! rebalances); until each live projection has its share, the process
//! reports not ready, so a rolling update does not count a replica that
//! reads nothing yet. Later rebalances do not make it unready again.

use std::{
    collections::BTreeMap,
    sync::{Arc, Mutex, PoisonError},
};

/// The groups a process expects to join, and which have.
#[derive(Clone, Debug, Default)]
pub struct Membership(Arc<Mutex<BTreeMap<&'static str, bool>>>);

impl Membership {
    /// Expects `group` to join; it counts as waiting until [`joined`](Self::joined).
    pub fn expect(&self, group: &'static str) {
        self.groups().entry(group).or_insert(false);
    }

    /// `group` has its first assignment.
    pub fn joined(&self, group: &'static str) {
        self.groups().insert(group, true);
    }

    /// The groups expected that have not joined yet, in name order.
    pub fn waiting(&self) -> Vec<&'static str> {
        self.groups().iter().filter(|(_, joined)| !**joined).map(|(group, _)| *group).collect()
    }

    fn groups(&self) -> std::sync::MutexGuard<'_, BTreeMap<&'static str, bool>> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_group_waits_from_when_it_is_expected_until_it_joins_and_stays_joined() {
        let membership = Membership::default();
        assert!(membership.waiting().is_empty());
        membership.expect("b.state");
        membership.expect("a.devices");
        assert_eq!(membership.waiting(), ["a.devices", "b.state"]);
        membership.joined("a.devices");
        membership.expect("a.devices");
        assert_eq!(membership.waiting(), ["b.state"], "expecting it again does not undo the join");
        membership.joined("b.state");
        assert!(membership.waiting().is_empty());
    }
}
