//! Failed-login throttling: a sliding one-minute window per client address
//! and per username, kept in the database (`login_failures`) so that every
//! auth replica enforces one limit together.

use std::{
    net::IpAddr,
    sync::atomic::{AtomicI64, Ordering},
};

use chrono::{DateTime, Utc};
use wm_storage::{Db, StorageError, execute, with_pool};

/// The window, in microseconds.
const WINDOW_MICROS: i64 = 60_000_000;
/// How often, at most, old failures are deleted.
const PRUNE_EVERY_MICROS: i64 = 10_000_000;

#[derive(Debug)]
pub struct LoginLimiter {
    per_ip: u32,
    per_user: u32,
    /// When this process last deleted old failures.
    pruned_at: AtomicI64,
}

impl LoginLimiter {
    pub fn new(per_ip: u32, per_user: u32) -> Self {
        Self { per_ip, per_user, pruned_at: AtomicI64::new(0) }
    }

    /// `Ok(Err(seconds to wait))` when either window is full.
    pub async fn check(
        &self,
        db: &Db,
        ip: Option<IpAddr>,
        username: &str,
        now: DateTime<Utc>,
    ) -> Result<Result<(), u64>, StorageError> {
        let now = now.timestamp_micros();
        let mut wait = 0;
        for (key, limit) in keys(ip, username).into_iter().zip([self.per_ip, self.per_user]) {
            let Some(key) = key else { continue };
            let sql = "SELECT COUNT(*), MIN(at) FROM login_failures WHERE key = $1 AND at > $2";
            let (count, oldest): (i64, Option<i64>) = with_pool!(db, pool =>
                sqlx::query_as(sql).bind(&key).bind(now - WINDOW_MICROS).fetch_one(pool).await)?;
            if count >= i64::from(limit)
                && let Some(oldest) = oldest
            {
                let left = (oldest + WINDOW_MICROS - now).max(0) as u64;
                wait = wait.max(left.div_ceil(1_000_000).max(1));
            }
        }
        Ok(if wait > 0 { Err(wait) } else { Ok(()) })
    }

    /// Counts a failure against the address and the username; now and then
    /// deletes the failures past the window.
    pub async fn record_failure(
        &self,
        db: &Db,
        ip: Option<IpAddr>,
        username: &str,
        now: DateTime<Utc>,
    ) -> Result<(), StorageError> {
        let now = now.timestamp_micros();
        let mut tx = db.begin_write().await?;
        for key in keys(ip, username).into_iter().flatten() {
            execute!(&mut tx, "INSERT INTO login_failures (key, at) VALUES ($1, $2)", key, now)?;
        }
        let last = self.pruned_at.load(Ordering::Relaxed);
        if now - last >= PRUNE_EVERY_MICROS
            && self.pruned_at.compare_exchange(last, now, Ordering::Relaxed, Ordering::Relaxed).is_ok()
        {
            execute!(&mut tx, "DELETE FROM login_failures WHERE at <= $1", now - WINDOW_MICROS)?;
        }
        tx.commit().await?;
        Ok(())
    }
}

fn keys(ip: Option<IpAddr>, username: &str) -> [Option<String>; 2] {
    [ip.map(|ip| format!("ip:{ip}")), Some(format!("user:{}", username.to_lowercase()))]
}

#[cfg(test)]
mod tests {
    use chrono::TimeDelta;
    use wm_test_support::TestDb;

    use super::*;

    const A: Option<IpAddr> = Some(IpAddr::V4(std::net::Ipv4Addr::new(10, 0, 0, 1)));
    const B: Option<IpAddr> = Some(IpAddr::V4(std::net::Ipv4Addr::new(10, 0, 0, 2)));

    async fn db() -> TestDb {
        let db = TestDb::sqlite().await;
        db.db().migrate(&crate::MIGRATIONS).await.unwrap();
        db
    }

    #[tokio::test]
    async fn the_eleventh_failure_from_one_ip_waits_but_other_ips_do_not() {
        let (test_db, limiter, start) = (db().await, LoginLimiter::new(10, 50), Utc::now());
        let db = test_db.db();
        for i in 0..10 {
            assert_eq!(limiter.check(db, A, "ann", start).await.unwrap(), Ok(()), "attempt {i}");
            limiter.record_failure(db, A, "ann", start).await.unwrap();
        }
        let wait = limiter.check(db, A, "ann", start + TimeDelta::seconds(15)).await.unwrap().unwrap_err();
        assert_eq!(wait, 45);
        assert_eq!(limiter.check(db, B, "ann", start).await.unwrap(), Ok(()), "the real user from elsewhere");
        let later = start + TimeDelta::seconds(60);
        assert_eq!(limiter.check(db, A, "ann", later).await.unwrap(), Ok(()), "the window slides");
    }

    #[tokio::test]
    async fn old_failures_are_deleted_so_a_flood_costs_one_window_of_rows() {
        let (test_db, limiter, start) = (db().await, LoginLimiter::new(10, 1), Utc::now());
        let db = test_db.db();
        for minute in 0..5 {
            let at = start + TimeDelta::seconds(61 * minute);
            for i in 0..20 {
                limiter.record_failure(db, None, &format!("guess{minute}-{i}"), at).await.unwrap();
            }
        }
        let rows: i64 = with_pool!(db, pool =>
            sqlx::query_scalar("SELECT COUNT(*) FROM login_failures").fetch_one(pool).await)
        .unwrap();
        assert_eq!(rows, 20, "only the last minute's failures are kept");
        let end = start + TimeDelta::seconds(61 * 4);
        assert!(limiter.check(db, None, "guess4-19", end).await.unwrap().is_err(), "the newest are still throttled");
    }

    #[tokio::test]
    async fn many_ips_guessing_one_user_are_throttled_together() {
        let (test_db, limiter, now) = (db().await, LoginLimiter::new(10, 3), Utc::now());
        let db = test_db.db();
        for ip in [A, B, None] {
            limiter.record_failure(db, ip, "Ann", now).await.unwrap();
        }
        assert!(limiter.check(db, B, "ann", now).await.unwrap().is_err());
    }
}
