//! Consumer-group membership of the embedded log, in memory (the embedded
//! mode is one process).
//!
//! Every join or leave starts a new generation. A member's partitions are a
//! pure function of the group's members: per topic, its subscribers sorted
//! by member id take the partitions round-robin (`partition % n`).

use std::{
    collections::{BTreeMap, HashMap},
    sync::{
        Mutex, MutexGuard,
        atomic::{AtomicU64, Ordering},
    },
};

use crate::TopicPartition;

pub(super) type MemberId = u64;

/// A subscribed topic and its partition count.
pub(super) type Subscription = (String, i32);

#[derive(Debug, Default)]
pub(super) struct Groups {
    groups: Mutex<HashMap<String, Group>>,
    next_member: AtomicU64,
}

#[derive(Debug, Default)]
struct Group {
    generation: u64,
    members: BTreeMap<MemberId, Vec<Subscription>>,
}

impl Groups {
    /// Adds a member and returns its id.
    pub(super) fn join(&self, group: &str, topics: Vec<Subscription>) -> MemberId {
        let member = self.next_member.fetch_add(1, Ordering::Relaxed);
        let mut groups = self.lock();
        let state = groups.entry(group.to_owned()).or_default();
        state.generation += 1;
        state.members.insert(member, topics);
        member
    }

    pub(super) fn leave(&self, group: &str, member: MemberId) {
        let mut groups = self.lock();
        if let Some(state) = groups.get_mut(group) {
            state.members.remove(&member);
            state.generation += 1;
            if state.members.is_empty() {
                groups.remove(group);
            }
        }
    }

    /// The group's generation and the member's partitions in it, sorted.
    pub(super) fn assignment(&self, group: &str, member: MemberId) -> (u64, Vec<TopicPartition>) {
        let groups = self.lock();
        match groups.get(group) {
            Some(state) => (state.generation, assign(&state.members, member)),
            None => (0, Vec::new()),
        }
    }

    /// Whether the member reads `tp` in the group's current generation.
    pub(super) fn owns(&self, group: &str, member: MemberId, tp: &TopicPartition) -> bool {
        let groups = self.lock();
        groups.get(group).is_some_and(|state| owner(&state.members, tp) == Some(member))
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<String, Group>> {
        // The map stays consistent even if a holder panicked: every update
        // is a single insert or remove.
        self.groups.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

fn assign(members: &BTreeMap<MemberId, Vec<Subscription>>, member: MemberId) -> Vec<TopicPartition> {
    let Some(topics) = members.get(&member) else {
        return Vec::new();
    };
    let mut out: Vec<TopicPartition> = topics
        .iter()
        .flat_map(|(topic, partitions)| {
            let subscribers = subscribers(members, topic);
            let index = subscribers.iter().position(|m| *m == member).unwrap_or(0);
            let n = subscribers.len().max(1);
            (0..*partitions)
                .filter(move |p| usize::try_from(*p).is_ok_and(|p| p % n == index))
                .map(move |p| TopicPartition::new(topic, p))
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

fn owner(members: &BTreeMap<MemberId, Vec<Subscription>>, tp: &TopicPartition) -> Option<MemberId> {
    let subscribers = subscribers(members, &tp.topic);
    let index = usize::try_from(tp.partition).ok()? % subscribers.len().max(1);
    subscribers.get(index).copied()
}

/// The members subscribed to `topic`, in id order.
fn subscribers(members: &BTreeMap<MemberId, Vec<Subscription>>, topic: &str) -> Vec<MemberId> {
    members.iter().filter(|(_, topics)| topics.iter().any(|(t, _)| t == topic)).map(|(id, _)| *id).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn subs(topics: &[&str], partitions: i32) -> Vec<Subscription> {
        topics.iter().map(|t| ((*t).to_owned(), partitions)).collect()
    }

    fn partitions(assignment: &[TopicPartition]) -> Vec<i32> {
        assignment.iter().map(|tp| tp.partition).collect()
    }

    #[test]
    fn lone_member_gets_every_partition() {
        let groups = Groups::default();
        let a = groups.join("g", subs(&["t"], 4));
        assert_eq!(partitions(&groups.assignment("g", a).1), vec![0, 1, 2, 3]);
    }

    #[test]
    fn members_split_partitions_and_rebalance_on_leave() {
        let groups = Groups::default();
        let a = groups.join("g", subs(&["t"], 8));
        let b = groups.join("g", subs(&["t"], 8));
        let (generation, pa) = groups.assignment("g", a);
        let (_, pb) = groups.assignment("g", b);
        assert_eq!(partitions(&pa), vec![0, 2, 4, 6]);
        assert_eq!(partitions(&pb), vec![1, 3, 5, 7]);
        assert!(groups.owns("g", b, &TopicPartition::new("t", 3)));
        assert!(!groups.owns("g", a, &TopicPartition::new("t", 3)));

        groups.leave("g", b);
        let (after, pa) = groups.assignment("g", a);
        assert!(after > generation);
        assert_eq!(pa.len(), 8);
        assert!(groups.owns("g", a, &TopicPartition::new("t", 3)));
    }

    #[test]
    fn topics_are_split_among_their_own_subscribers() {
        let groups = Groups::default();
        let a = groups.join("g", subs(&["t", "u"], 2));
        let b = groups.join("g", subs(&["u"], 2));
        let (_, pa) = groups.assignment("g", a);
        assert_eq!(pa, vec![TopicPartition::new("t", 0), TopicPartition::new("t", 1), TopicPartition::new("u", 0)]);
        assert_eq!(groups.assignment("g", b).1, vec![TopicPartition::new("u", 1)]);
    }

    #[test]
    fn groups_are_independent() {
        let groups = Groups::default();
        let a = groups.join("g1", subs(&["t"], 2));
        let b = groups.join("g2", subs(&["t"], 2));
        assert_eq!(groups.assignment("g1", a).1.len(), 2);
        assert_eq!(groups.assignment("g2", b).1.len(), 2);
        assert!(!groups.owns("g1", b, &TopicPartition::new("t", 0)));
    }
}
