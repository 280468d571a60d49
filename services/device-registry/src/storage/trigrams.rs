//! How SQLite's substring search reads the trigram index (docs/performance.md
//! §3). A phrase query reads the whole posting list of every trigram of the
//! term, and at a million meters the common ones (`000`, `SM0`) hold every
//! row: ~10 ms of CPU a search. So the search asks the index for the three
//! rarest trigrams only, whose rows together are a few hundred at most, and
//! checks the substring on what they find (two left some 350 rows to check
//! at a million meters, and took ten times longer). Which are rarest comes from the index's
//! own counts (`fts5vocab`), which cost a full read of a posting list each:
//! they are remembered for a while. The third is left out when it is in
//! more rows than [`SELECTIVE_ENOUGH`]: the index's intersection walks its
//! long posting list, and checking the few more rows the other two leave
//! costs less (at a million meters, a partial serial's search took 0.9 ms
//! with `001`'s 150,000 rows in the intersection and 0.4 ms without). They only choose the plan; the rows
//! found are always checked against the whole term, so a stale count can
//! make a search slower, never wrong.

use std::{
    collections::HashMap,
    sync::{Mutex, OnceLock},
    time::{Duration, Instant},
};

use wm_storage::{Db, StorageError, with_pool};

/// How long a count is trusted.
const KEPT_FOR: Duration = Duration::from_secs(600);
/// Counts remembered at most (all trigrams of a busy search box fit).
const KEPT_AT_MOST: usize = 100_000;
/// Above this many rows, a trigram narrows too little to be worth its
/// posting list; when even the rarest does, the phrase query, which reads
/// every trigram's positions, is cheaper than checking each row.
pub const SELECTIVE_ENOUGH: i64 = 20_000;

/// What to ask the index for a term.
#[derive(Debug, PartialEq, Eq)]
pub enum Plan {
    /// The rows holding these trigrams (an FTS5 query), then the substring
    /// checked on each.
    Rarest(String),
    /// The whole term as a phrase.
    Phrase(String),
}

type Counts = HashMap<(&'static str, String), (i64, Instant)>;

fn counts() -> &'static Mutex<Counts> {
    static COUNTS: OnceLock<Mutex<Counts>> = OnceLock::new();
    COUNTS.get_or_init(Mutex::default)
}

/// The plan for `needle` (normalized, three characters or more) in the
/// trigram index of `table`.
pub async fn plan(db: &Db, table: &'static str, needle: &str) -> Result<Plan, StorageError> {
    let grams = trigrams(needle);
    let mut rarity = Vec::with_capacity(grams.len());
    for gram in grams {
        rarity.push((rows_holding(db, table, &gram).await?, gram));
    }
    Ok(choose(needle, rarity))
}

/// The plan, given how many rows hold each trigram.
fn choose(needle: &str, mut rarity: Vec<(i64, String)>) -> Plan {
    rarity.sort();
    match rarity.first() {
        Some((rows, _)) if *rows <= SELECTIVE_ENOUGH => {
            // The rarest two always: one alone can leave 20,000 rows to check.
            let third = rarity.get(2).filter(|(rows, _)| *rows <= SELECTIVE_ENOUGH);
            let rarest: Vec<String> = rarity.iter().take(2).chain(third).map(|(_, gram)| quoted(gram)).collect();
            Plan::Rarest(rarest.join(" AND "))
        }
        _ => Plan::Phrase(quoted(needle)),
    }
}

/// The distinct trigrams of `needle`, as the index keeps them (lower case).
fn trigrams(needle: &str) -> Vec<String> {
    let chars: Vec<char> = needle.to_lowercase().chars().collect();
    let mut grams: Vec<String> = chars.windows(3).map(|w| w.iter().collect()).collect();
    grams.sort();
    grams.dedup();
    grams
}

/// An FTS5 string: in double quotes, a quote doubled.
fn quoted(s: &str) -> String {
    format!("\"{}\"", s.replace('"', "\"\""))
}

/// How many rows of `table` hold `gram`: remembered, or counted.
async fn rows_holding(db: &Db, table: &'static str, gram: &str) -> Result<i64, StorageError> {
    let key = (table, gram.to_owned());
    if let Some((rows, at)) = lock().get(&key)
        && at.elapsed() < KEPT_FOR
    {
        return Ok(*rows);
    }
    let sql = format!("SELECT doc FROM {table}_search_vocab WHERE term = $1");
    let rows: Option<(i64,)> = with_pool!(db, pool =>
        sqlx::query_as(sqlx::AssertSqlSafe(sql)).bind(gram).fetch_optional(pool).await)?;
    let rows = rows.map_or(0, |(n,)| n);
    let mut kept = lock();
    if kept.len() >= KEPT_AT_MOST {
        kept.clear();
    }
    kept.insert(key, (rows, Instant::now()));
    Ok(rows)
}

fn lock() -> std::sync::MutexGuard<'static, Counts> {
    // The map holds plain numbers: a panic elsewhere cannot leave it half
    // updated.
    counts().lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_two_rarest_trigrams_are_asked_for_and_a_third_that_narrows_enough() {
        assert_eq!(trigrams("SM0001234"), ["000", "001", "012", "123", "234", "m00", "sm0"]);
        let counts = |pairs: &[(i64, &str)]| pairs.iter().map(|(n, g)| (*n, (*g).to_owned())).collect::<Vec<_>>();
        let common = counts(&[(1_000_000, "000"), (4_753, "234"), (152_838, "001"), (4_753, "123"), (18_816, "012")]);
        assert_eq!(choose("SM0001234", common), Plan::Rarest("\"123\" AND \"234\" AND \"012\"".to_owned()));
        let third_common = counts(&[(1_000_000, "m00"), (4_755, "176"), (152_838, "001"), (4_736, "763")]);
        let rarest_two = Plan::Rarest("\"763\" AND \"176\"".to_owned());
        assert_eq!(choose("SM0017630", third_common), rarest_two, "a third only if it narrows enough");
        let one_rare = counts(&[(1_000_000, "m00"), (4_755, "176"), (152_838, "001"), (SELECTIVE_ENOUGH + 1, "017")]);
        let with_the_next = Plan::Rarest("\"176\" AND \"017\"".to_owned());
        assert_eq!(choose("SM001763", one_rare), with_the_next, "the rarest two always");
        let unselective = counts(&[(1_000_000, "000"), (SELECTIVE_ENOUGH + 1, "001")]);
        assert_eq!(choose("0001", unselective), Plan::Phrase("\"0001\"".to_owned()));
        assert_eq!(choose("A\"B", counts(&[(0, "a\"b")])), Plan::Rarest("\"a\"\"b\"".to_owned()));
    }
}
