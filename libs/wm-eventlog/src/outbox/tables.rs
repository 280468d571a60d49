//! The two tables staged events wait in, what a round reads of each, and
//! the records their rows become ([`super::staged`] for the batches).

use wm_proto::Envelope;
use wm_storage::{Db, StorageError, with_pool};

use super::staged::{self, Split};
use crate::{OutgoingRecord, envelopes};

/// A table staged events wait in ([`staged`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Table {
    /// `event_outbox`, one row per event: what older builds stage.
    Events,
    /// `event_outbox_batch`, one row per staging: what this build stages.
    Batches,
}

impl Table {
    /// Both, the older first: a round drains it before the batches.
    pub(super) const ALL: &[Self] = &[Self::Events, Self::Batches];

    /// PostgreSQL's round: takes a round's rows out, returning them: at
    /// most `$2` rows, in staging order, while the events before each are
    /// fewer than `$3` ([`Table::rows_a_round`], [`EVENTS_A_ROUND`]).
    pub(super) fn take_out(self) -> &'static str {
        match self {
            Self::Events => {
                "DELETE FROM event_outbox WHERE seq IN \
                 (SELECT seq FROM event_outbox WHERE source = $1 ORDER BY seq LIMIT LEAST($2, $3)) \
                 RETURNING seq, topic, record_key, envelope, traceparent, staged_at_ms"
            }
            Self::Batches => {
                "DELETE FROM event_outbox_batch WHERE seq IN \
                 (SELECT seq FROM (SELECT seq, events, SUM(events) OVER (ORDER BY seq) AS upto \
                 FROM event_outbox_batch WHERE source = $1 ORDER BY seq LIMIT $2) AS round \
                 WHERE upto - events < $3) \
                 RETURNING seq, records, events, staged_at_ms"
            }
        }
    }

    /// SQLite's round: reads a round's rows, as [`Table::take_out`] takes
    /// them.
    pub(super) fn select(self) -> &'static str {
        match self {
            Self::Events => {
                "SELECT seq, topic, record_key, envelope, traceparent, staged_at_ms FROM event_outbox \
                 WHERE source = $1 ORDER BY seq LIMIT min($2, $3)"
            }
            Self::Batches => {
                "SELECT seq, records, events, staged_at_ms FROM \
                 (SELECT seq, records, events, staged_at_ms, SUM(events) OVER (ORDER BY seq) AS upto \
                 FROM event_outbox_batch WHERE source = $1 ORDER BY seq LIMIT $2) \
                 WHERE upto - events < $3 ORDER BY seq"
            }
        }
    }

    /// SQLite's round: deletes the rows it published, listed after it.
    pub(super) fn delete_listed(self) -> &'static str {
        match self {
            Self::Events => "DELETE FROM event_outbox WHERE seq IN (SELECT column1 FROM (",
            Self::Batches => "DELETE FROM event_outbox_batch WHERE seq IN (SELECT column1 FROM (",
        }
    }

    /// When its oldest row was staged, through its index.
    pub(super) fn oldest(self) -> &'static str {
        match self {
            Self::Events => "SELECT staged_at_ms FROM event_outbox WHERE source = $1 ORDER BY seq LIMIT 1",
            Self::Batches => "SELECT staged_at_ms FROM event_outbox_batch WHERE source = $1 ORDER BY seq LIMIT 1",
        }
    }

    /// The most rows a round takes: 500 events, or 64 stagings of up to
    /// 500 each, up to [`EVENTS_A_ROUND`].
    pub(super) fn rows_a_round(self) -> i64 {
        match self {
            Self::Events => 500,
            Self::Batches => 64,
        }
    }
}

/// Events a round takes, give or take its last row: a round is one append
/// to the log and one wait for its acknowledgement, so each should carry
/// many events however small the stagings. With eight rows a round and
/// not this, stagings of a few dozen events (four ingest replicas at half
/// rate) made rounds of a few hundred, fewer a second than were staged:
/// the oldest row waited 9 s (docs/performance.md §2).
pub(super) const EVENTS_A_ROUND: i64 = 4_000;

/// Takes out, in PostgreSQL's round `tx`, up to a round's rows of `table`.
pub(super) async fn taken_out<R: wm_storage::query::Row>(
    tx: &mut sqlx::Transaction<'_, sqlx::Postgres>,
    source: &str,
    table: Table,
) -> Result<Vec<R>, StorageError> {
    let query = sqlx::query_as(table.take_out()).persistent(false).bind(source);
    let query = query.bind(table.rows_a_round()).bind(EVENTS_A_ROUND);
    Ok(query.fetch_all(&mut **tx).await?)
}

/// Reads, in SQLite's round, up to a round's rows of `table`.
pub(super) async fn read<R: wm_storage::query::Row>(
    db: &Db,
    source: &str,
    table: Table,
) -> Result<Vec<R>, StorageError> {
    let (sql, rows) = (table.select(), table.rows_a_round());
    Ok(with_pool!(db, pool => sqlx::query_as(sql).bind(source).bind(rows).bind(EVENTS_A_ROUND).fetch_all(pool).await)?)
}

/// A round's rows, of one table.
pub(super) enum Rows {
    Events(Vec<EventRow>),
    Batches(Vec<BatchRow>),
}

impl Rows {
    pub(super) fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether it holds a whole round of its table: more may wait.
    pub(super) fn is_full(&self) -> bool {
        let events = match self {
            Self::Events(rows) => rows.len(),
            Self::Batches(rows) => rows.iter().map(|row| usize::try_from(row.events).unwrap_or_default()).sum(),
        };
        i64::try_from(self.len()).is_ok_and(|len| len >= self.table().rows_a_round())
            || i64::try_from(events).is_ok_and(|events| events >= EVENTS_A_ROUND)
    }

    fn len(&self) -> usize {
        match self {
            Self::Events(rows) => rows.len(),
            Self::Batches(rows) => rows.len(),
        }
    }

    fn table(&self) -> Table {
        match self {
            Self::Events(_) => Table::Events,
            Self::Batches(_) => Table::Batches,
        }
    }

    /// Adds what each row was, and the records they become, in staging
    /// order (a `DELETE … RETURNING` returns rows in no order).
    pub(super) fn split_into(self, taken: &mut Vec<Taken>, records: &mut Vec<OutgoingRecord>) {
        let mut split: Vec<(Taken, Split)> = match self {
            Self::Events(rows) => rows
                .into_iter()
                .map(|row| (Taken::of(Table::Events, row.seq, row.staged_at_ms, 1), row.into_split()))
                .collect(),
            Self::Batches(rows) => rows
                .into_iter()
                .map(|row| {
                    let events = usize::try_from(row.events).unwrap_or_default();
                    let taken = Taken::of(Table::Batches, row.seq, row.staged_at_ms, events);
                    (taken, staged::decode(row.records, row.seq, row.events))
                })
                .collect(),
        };
        split.sort_unstable_by_key(|(taken, _)| taken.seq);
        for (mut row, split) in split {
            row.dead = matches!(split, Split::DeadLetters(_));
            records.extend(split.into_records());
            taken.push(row);
        }
    }
}

/// A row of `event_outbox`, staged by an older build: one event, and when
/// it was staged (ms since the epoch).
pub(super) struct EventRow {
    seq: i64,
    /// `None` on the rows staged before the table held records whole
    /// (migration 2): their envelope is read to find it.
    topic: Option<String>,
    record_key: String,
    envelope: Vec<u8>,
    traceparent: Option<String>,
    staged_at_ms: i64,
}

wm_storage::from_row!(EventRow { seq, topic, record_key, envelope, traceparent, staged_at_ms });

impl EventRow {
    /// Its record. A row from before topics were kept is read to find its
    /// topic; one that cannot be becomes a dead letter of its envelope's
    /// bytes, rather than stopping the relay.
    fn into_split(self) -> Split {
        let Some(topic) = self.topic else {
            let record = Envelope::from_bytes(&self.envelope)
                .map_err(|e| e.to_string())
                .and_then(|envelope| envelopes::record_keyed(&envelope, self.record_key).map_err(|e| e.to_string()));
            return match record {
                Ok(record) => Split::Records(vec![record]),
                Err(problem) => {
                    let row = format!("outbox row {}", self.seq);
                    Split::DeadLetters(staged::dead_letters("event_outbox", &row, &problem, &self.envelope))
                }
            };
        };
        let record = OutgoingRecord::new(topic, self.record_key, self.envelope);
        Split::Records(vec![match self.traceparent {
            Some(traceparent) => record.with_header(envelopes::TRACEPARENT, traceparent),
            None => record,
        }])
    }
}

/// A row of `event_outbox_batch`: a staging's records.
pub(super) struct BatchRow {
    seq: i64,
    records: Vec<u8>,
    events: i32,
    staged_at_ms: i64,
}

wm_storage::from_row!(BatchRow { seq, records, events, staged_at_ms });

/// What a round took out of a table: a row, the events it held, and
/// whether it went to the dead letters instead.
pub(super) struct Taken {
    pub(super) table: Table,
    pub(super) seq: i64,
    pub(super) staged_at_ms: i64,
    pub(super) events: usize,
    pub(super) dead: bool,
}

impl Taken {
    fn of(table: Table, seq: i64, staged_at_ms: i64, events: usize) -> Self {
        Self { table, seq, staged_at_ms, events, dead: false }
    }
}
