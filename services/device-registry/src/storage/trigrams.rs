//! How the substring search reads a trigram index (docs/performance.md §3).
//! Asked for the whole term, an index reads the whole posting list of every
//! trigram of it, and at a million meters the common ones (`000`, `SM0`)
//! hold every row: ~10 ms of CPU a search on SQLite, 100 ms and more on
//! PostgreSQL. So the search asks the index for the term's rarest trigrams
//! only, whose rows together are a few hundred at most, and checks the whole
//! term on what they find: the rarest two always, and a third when it is in
//! at most [`SELECTIVE_ENOUGH`] rows (two rare ones left some 350 rows to
//! check at a million meters and took ten times longer than three; but with
//! `001`'s 150,000 rows in the intersection a partial serial took 0.9 ms on
//! SQLite, and 0.4 ms without it).
//!
//! Which are rarest: on SQLite, the index's own counts (`fts5vocab`); on
//! PostgreSQL, where `pg_trgm` keeps none, a 1 % sample of the table. Both
//! cost a read of their own, so they are remembered for a while. They only
//! choose the plan; the rows found are always checked against the whole
//! term, so a stale count can make a search slower, never wrong.

use std::{
    collections::HashMap,
    sync::{Mutex, OnceLock},
    time::{Duration, Instant},
};

use wm_storage::{Backend, Db, StorageError};

/// How long a count is trusted.
const KEPT_FOR: Duration = Duration::from_secs(600);
/// Counts remembered at most (all trigrams of a busy search box fit).
const KEPT_AT_MOST: usize = 100_000;
/// Above this many rows, a trigram narrows too little to be worth its
/// posting list; when even the rarest does, the phrase query, which reads
/// every trigram's positions, is cheaper than checking each row.
pub const SELECTIVE_ENOUGH: i64 = 20_000;
/// Trigrams counted for a term at most, on PostgreSQL.
const PG_CANDIDATES: usize = 16;

/// What to ask the index for a term.
#[derive(Debug, PartialEq, Eq)]
pub enum Plan {
    /// The rows holding these trigrams (substrings of the term), then the
    /// whole term checked on each.
    Rarest(Vec<String>),
    /// The whole term, as the index takes it (a phrase on SQLite, `LIKE` on
    /// PostgreSQL).
    Whole,
}

type Counts = HashMap<(&'static str, String), (i64, Instant)>;

fn counts() -> &'static Mutex<Counts> {
    static COUNTS: OnceLock<Mutex<Counts>> = OnceLock::new();
    COUNTS.get_or_init(Mutex::default)
}

/// The plan for `needle` (normalized, three characters or more) in the
/// trigram index of `table`.
pub async fn plan(db: &Db, table: &'static str, needle: &str) -> Result<Plan, StorageError> {
    let grams = match db.backend() {
        Backend::Sqlite => trigrams(needle),
        Backend::Postgres => indexed_by_pg_trgm(needle),
    };
    Ok(choose(rows_holding(db, table, grams).await?))
}

/// The plan, given how many rows hold each trigram.
fn choose(mut rarity: Vec<(i64, String)>) -> Plan {
    rarity.sort();
    match rarity.first() {
        Some((rows, _)) if *rows <= SELECTIVE_ENOUGH => {
            // The rarest two always: one alone can leave 20,000 rows to check.
            let third = rarity.get(2).filter(|(rows, _)| *rows <= SELECTIVE_ENOUGH);
            Plan::Rarest(rarity.iter().take(2).chain(third).map(|(_, gram)| gram.clone()).collect())
        }
        _ => Plan::Whole,
    }
}

/// The distinct trigrams of `needle`, as SQLite's index keeps them (lower
/// case).
fn trigrams(needle: &str) -> Vec<String> {
    distinct_windows(&needle.to_lowercase(), |_| true)
}

/// The distinct three-character substrings of `needle` that `pg_trgm`
/// indexes as they are (letters and digits only: it splits words on
/// anything else), in the term's case, since `LIKE` compares it; the first
/// [`PG_CANDIDATES`] of them, each one checked on every row of a sample of
/// the table.
fn indexed_by_pg_trgm(needle: &str) -> Vec<String> {
    let mut grams = distinct_windows(needle, |w| w.iter().all(char::is_ascii_alphanumeric));
    grams.truncate(PG_CANDIDATES);
    grams
}

/// The distinct three-character windows of `text` that `keep` accepts, sorted.
fn distinct_windows(text: &str, keep: impl Fn(&[char]) -> bool) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut grams: Vec<String> = chars.windows(3).filter(|w| keep(w)).map(|w| w.iter().collect()).collect();
    grams.sort();
    grams.dedup();
    grams
}

/// How many rows of `table` hold each of `grams`, remembered or counted,
/// beside it.
async fn rows_holding(db: &Db, table: &'static str, grams: Vec<String>) -> Result<Vec<(i64, String)>, StorageError> {
    let mut known = Vec::with_capacity(grams.len());
    let mut unknown = Vec::new();
    {
        let kept = lock();
        for gram in grams {
            match kept.get(&(table, gram.clone())) {
                Some((rows, at)) if at.elapsed() < KEPT_FOR => known.push((*rows, gram)),
                _ => unknown.push(gram),
            }
        }
    }
    if unknown.is_empty() {
        return Ok(known);
    }
    let counted: HashMap<String, i64> = counted_now(db, table, &unknown).await?.into_iter().collect();
    let mut kept = lock();
    if kept.len() + unknown.len() > KEPT_AT_MOST {
        kept.clear();
    }
    let now = Instant::now();
    for gram in unknown {
        let rows = counted.get(&gram).copied().unwrap_or(0);
        kept.insert((table, gram.clone()), (rows, now));
        known.push((rows, gram));
    }
    Ok(known)
}

/// How many rows of `table` hold each of `grams`, read now (a trigram no row
/// holds may be missing from the answer).
async fn counted_now(db: &Db, table: &str, grams: &[String]) -> Result<Vec<(String, i64)>, StorageError> {
    Ok(match db {
        Db::Sqlite(pool) => {
            // The index's own counts: a lookup each in its vocabulary.
            let sql = format!("SELECT term, doc FROM {table}_search_vocab WHERE term = $1");
            let mut counted = Vec::with_capacity(grams.len());
            for gram in grams {
                let row: Option<(String, i64)> =
                    sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str())).bind(gram).fetch_optional(pool).await?;
                counted.extend(row);
            }
            counted
        }
        Db::Postgres(pool) => {
            // pg_trgm keeps no count per trigram: one 1 % sample of the
            // table's pages estimates them all, each trigram checked on
            // every sampled row in one pass (17 ms for seven at a million
            // rows, against 42 ms for a sample each; a small table's
            // estimate is rough, and any plan is fast there).
            let each: Vec<String> =
                (1..=grams.len()).map(|i| format!("count(*) FILTER (WHERE strpos(search_text, ${i}) > 0)")).collect();
            let sql = format!("SELECT ARRAY[{}] FROM {table} TABLESAMPLE SYSTEM (1)", each.join(", "));
            let query = grams.iter().fold(sqlx::query_as(sqlx::AssertSqlSafe(sql)), |q, gram| q.bind(gram));
            let (sampled,): (Vec<i64>,) = query.fetch_one(pool).await?;
            grams.iter().cloned().zip(sampled.into_iter().map(|rows| rows * 100)).collect()
        }
    })
}

fn lock() -> std::sync::MutexGuard<'static, Counts> {
    // The map holds plain numbers: a panic elsewhere cannot leave it half
    // updated.
    counts().lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grams(list: &[&str]) -> Plan {
        Plan::Rarest(list.iter().map(|g| (*g).to_owned()).collect())
    }

    #[test]
    fn the_two_rarest_trigrams_are_asked_for_and_a_third_that_narrows_enough() {
        assert_eq!(trigrams("SM0001234"), ["000", "001", "012", "123", "234", "m00", "sm0"]);
        let counts = |pairs: &[(i64, &str)]| pairs.iter().map(|(n, g)| (*n, (*g).to_owned())).collect::<Vec<_>>();
        let common = counts(&[(1_000_000, "000"), (4_753, "234"), (152_838, "001"), (4_753, "123"), (18_816, "012")]);
        assert_eq!(choose(common), grams(&["123", "234", "012"]));
        let third_common = counts(&[(1_000_000, "m00"), (4_755, "176"), (152_838, "001"), (4_736, "763")]);
        assert_eq!(choose(third_common), grams(&["763", "176"]), "a third only if it narrows enough");
        let one_rare = counts(&[(1_000_000, "m00"), (4_755, "176"), (152_838, "001"), (SELECTIVE_ENOUGH + 1, "017")]);
        assert_eq!(choose(one_rare), grams(&["176", "017"]), "the rarest two always");
        let unselective = counts(&[(1_000_000, "000"), (SELECTIVE_ENOUGH + 1, "001")]);
        assert_eq!(choose(unselective), Plan::Whole);
        assert_eq!(choose(Vec::new()), Plan::Whole, "no trigram the index takes");
    }

    #[test]
    fn pg_trgm_is_asked_only_for_the_letters_and_digits_it_indexes_as_they_are() {
        assert_eq!(indexed_by_pg_trgm("GTW-AB12"), ["AB1", "B12", "GTW"]);
        assert!(indexed_by_pg_trgm("A-B-C").is_empty());
        assert!(indexed_by_pg_trgm("ÉTÉ").is_empty(), "pg_trgm's words depend on the locale");
        assert_eq!(indexed_by_pg_trgm(&"ABCDEFGHIJKLMNOPQRSTUVWXYZ".repeat(2)).len(), PG_CANDIDATES);
    }
}
