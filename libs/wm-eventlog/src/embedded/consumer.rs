//! Group members and replays of the embedded log.
//!
//! A consumer keeps, for each partition it reads, the next offset to fetch.
//! A group member re-reads its assignment whenever the group's generation
//! changes: partitions it keeps keep their position, partitions it gains
//! start at the group's committed offset (so records another member polled
//! but did not commit are delivered again).

use std::{collections::BTreeMap, fmt, sync::Arc, time::Duration};

use async_trait::async_trait;
use futures::FutureExt;
use sqlx::SqliteConnection;
use tokio::time::Instant;

use super::{
    Shared,
    groups::{MemberId, Subscription},
    store,
};
use crate::{Consumer, ConsumerOptions, LagReading, Record, Result, StartFrom, TopicPartition, record::next_offsets};

pub(super) struct EmbeddedConsumer {
    shared: Arc<Shared>,
    kind: Kind,
    /// The next offset to fetch, for each partition read.
    positions: BTreeMap<TopicPartition, i64>,
    /// Which partition a fetch starts with, rotated so none starves.
    rotation: usize,
}

enum Kind {
    Member {
        group: String,
        member: MemberId,
        /// The group generation `positions` was built for (0: not yet).
        generation: u64,
        start: StartFrom,
    },
    Replay {
        /// Each partition's end offset when the replay started.
        end: BTreeMap<TopicPartition, i64>,
    },
}

impl EmbeddedConsumer {
    pub(super) fn member(
        shared: Arc<Shared>,
        group: &str,
        topics: Vec<Subscription>,
        options: ConsumerOptions,
    ) -> Self {
        let member = shared.groups.join(group, topics);
        tracing::debug!(group, member, "embedded consumer joined");
        // Wake the other members so they give up their share now.
        shared.changed.notify_waiters();
        let kind = Kind::Member { group: group.to_owned(), member, generation: 0, start: options.start };
        Self { shared, kind, positions: BTreeMap::new(), rotation: 0 }
    }

    pub(super) async fn replay(shared: Arc<Shared>, topics: Vec<Subscription>) -> Result<Self> {
        let partitions: Vec<TopicPartition> = topics
            .iter()
            .flat_map(|(topic, partitions)| (0..*partitions).map(move |p| TopicPartition::new(topic, p)))
            .collect();
        let end =
            store::end_offsets(&mut *shared.pool.acquire().await?, &partitions.iter().collect::<Vec<_>>()).await?;
        let positions = end.keys().map(|tp| (tp.clone(), 0)).collect();
        Ok(Self { shared, kind: Kind::Replay { end }, positions, rotation: 0 })
    }

    /// Brings `positions` in line with the group's current assignment.
    async fn sync_assignment(&mut self) -> Result<()> {
        let Kind::Member { group, member, generation, start } = &mut self.kind else {
            return Ok(());
        };
        let (current, assignment) = self.shared.groups.assignment(group, *member);
        if current == *generation {
            return Ok(());
        }
        let mut positions = BTreeMap::new();
        for tp in assignment {
            let position = match self.positions.get(&tp) {
                Some(kept) => *kept,
                None => start_position(&self.shared, group, &tp, *start).await?,
            };
            positions.insert(tp, position);
        }
        tracing::debug!(group, member, generation = current, partitions = positions.len(), "embedded rebalance");
        self.positions = positions;
        *generation = current;
        Ok(())
    }

    /// Up to `max` records from the partitions read, advancing positions:
    /// from `every` partition, or only from those not known to be read to
    /// their end. Each partition that may hold more gets a fair share of
    /// `max` first, and what is left goes to those that filled theirs,
    /// starting with a different one each time: a backlog on some
    /// partitions never holds back the records of the others (one partition
    /// filling a whole batch, in turns, made a probe wait some 12 s behind
    /// the other 55 at half of the ingest rate). Positions move only after
    /// the last await, so a cancelled poll skips nothing.
    async fn fetch(&mut self, max: usize, every: bool) -> Result<Vec<Record>> {
        let mut wanted: Vec<(TopicPartition, i64)> = self
            .positions
            .iter()
            .filter(|(tp, from)| every || !self.shared.read_to_end(tp, **from))
            .map(|(tp, from)| (tp.clone(), *from))
            .collect();
        if wanted.is_empty() {
            return Ok(Vec::new());
        }
        let first = self.rotation % wanted.len();
        wanted.rotate_left(first);
        self.rotation = self.rotation.wrapping_add(1);
        let share = max.div_ceil(wanted.len());
        let mut conn = self.shared.pool.acquire().await?;
        let mut out = Vec::new();
        let mut full = Vec::new();
        for (i, (tp, from)) in wanted.iter_mut().enumerate() {
            let read = self.read(&mut conn, tp, *from, share.min(max - out.len()), &mut out).await?;
            if read.filled {
                full.push(i);
            }
            *from = read.next;
        }
        for i in full {
            let (tp, from) = &mut wanted[i];
            *from = self.read(&mut conn, tp, *from, max - out.len(), &mut out).await?.next;
        }
        self.positions.extend(wanted);
        Ok(out)
    }

    /// Up to `limit` records of `tp` from `from`, onto `out`.
    async fn read(
        &self,
        conn: &mut SqliteConnection,
        tp: &TopicPartition,
        from: i64,
        limit: usize,
        out: &mut Vec<Record>,
    ) -> Result<Read> {
        if limit == 0 {
            return Ok(Read { next: from, filled: false });
        }
        let records = store::read(conn, tp, from, limit).await?;
        let next = records.last().map_or(from, |last| last.offset + 1);
        let filled = records.len() == limit;
        if !filled {
            self.shared.saw_end(tp, next);
        }
        out.extend(records);
        Ok(Read { next, filled })
    }
}

/// What one read of a partition did.
struct Read {
    /// The partition's next offset to fetch.
    next: i64,
    /// Whether it returned as many records as asked: it may hold more.
    filled: bool,
}

async fn start_position(shared: &Shared, group: &str, tp: &TopicPartition, start: StartFrom) -> Result<i64> {
    if let Some(committed) = store::committed(&shared.pool, group, tp).await? {
        return Ok(committed);
    }
    match start {
        StartFrom::Earliest => Ok(0),
        StartFrom::Latest => {
            let ends = store::end_offsets(&mut *shared.pool.acquire().await?, &[tp]).await?;
            Ok(ends.get(tp).copied().unwrap_or(0))
        }
    }
}

#[async_trait]
impl Consumer for EmbeddedConsumer {
    async fn poll(&mut self, max: usize, timeout: Duration) -> Result<Vec<Record>> {
        let deadline = Instant::now() + timeout;
        let max = max.max(1);
        let shared = self.shared.clone();
        // Woken by an append in this process, only the partitions that may
        // hold more are read; at the deadline, every one (an append by
        // another process wakes nobody).
        let mut every = false;
        loop {
            // Registered before looking, so an append in between still wakes us.
            let changed = shared.changed.notified();
            tokio::pin!(changed);
            changed.as_mut().enable();
            self.sync_assignment().await?;
            let records = self.fetch(max, every).await?;
            if !records.is_empty() || every {
                return Ok(records);
            }
            every = tokio::time::timeout_at(deadline, changed).await.is_err();
        }
    }

    async fn commit(&mut self, records: &[Record]) -> Result<()> {
        let Kind::Member { group, member, .. } = &self.kind else {
            return Ok(());
        };
        let mut next = next_offsets(records);
        next.retain(|tp, _| {
            let owned = self.shared.groups.owns(group, *member, tp);
            if !owned {
                tracing::debug!(group, topic = tp.topic, partition = tp.partition, "commit skipped: partition moved");
            }
            owned
        });
        if next.is_empty() {
            return Ok(());
        }
        let turn = self.shared.write.turn().await;
        store::commit(turn.pool(), group, &next).await
    }

    fn assignment(&self) -> Vec<TopicPartition> {
        match &self.kind {
            Kind::Member { group, member, .. } => self.shared.groups.assignment(group, *member).1,
            Kind::Replay { end } => end.keys().cloned().collect(),
        }
    }

    /// One process holds the whole group: it reads every partition from the start.
    fn assigned(&self) -> bool {
        true
    }

    fn caught_up(&self) -> bool {
        match &self.kind {
            Kind::Member { .. } => false,
            Kind::Replay { end } => end.iter().all(|(tp, end)| self.positions.get(tp).is_some_and(|p| p >= end)),
        }
    }

    fn lag(&mut self) -> LagReading {
        let (shared, positions) = (self.shared.clone(), self.positions.clone());
        async move {
            let partitions: Vec<&TopicPartition> = positions.keys().collect();
            let ends = store::end_offsets(&mut *shared.pool.acquire().await?, &partitions).await?;
            Ok(positions
                .iter()
                .map(|(tp, next)| (tp.clone(), (ends.get(tp).copied().unwrap_or(0) - next).max(0)))
                .collect())
        }
        .boxed()
    }
}

impl Drop for EmbeddedConsumer {
    fn drop(&mut self) {
        if let Kind::Member { group, member, .. } = &self.kind {
            self.shared.groups.leave(group, *member);
            tracing::debug!(group, member, "embedded consumer left");
            self.shared.changed.notify_waiters();
        }
    }
}

impl fmt::Debug for EmbeddedConsumer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut d = f.debug_struct("EmbeddedConsumer");
        match &self.kind {
            Kind::Member { group, member, generation, .. } => {
                d.field("group", group).field("member", member).field("generation", generation)
            }
            Kind::Replay { .. } => d.field("replay", &true),
        };
        d.field("positions", &self.positions).finish()
    }
}
