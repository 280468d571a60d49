//! The process's allocator: mimalloc, for Rust's allocations and for
//! SQLite's.
//!
//! With glibc's allocator, the server's API spent a quarter of its CPU in
//! `malloc` and `free` (docs/performance.md §3): sqlx's connection threads
//! allocate every value of a result (SQLite's `sqlite3_value_dup`) and the
//! HTTP workers free it, so each thread's cache of free blocks is always
//! empty on one side and full on the other, and every block crosses an
//! arena's lock. mimalloc frees a block from another thread onto its own
//! page's list, without a lock.
//!
//! A binary opts in with both halves, first thing in `main`, before it
//! starts a thread or opens a database:
//!
//! ```no_run
//! #[global_allocator]
//! static ALLOCATOR: wm_alloc::MiMalloc = wm_alloc::MiMalloc;
//!
//! fn main() {
//!     wm_alloc::start().expect("no database is open yet");
//! }
//! ```
//!
//! mimalloc's defaults kept the ingest benchmark's server at 233–238 MiB
//! resident, against 104–105 with glibc tuned; [`start`] brings it to
//! 118–122 MiB at the same rate (docs/performance.md §5) with two settings,
//! each left alone when the operator set mimalloc's own variable for it:
//! - no transparent huge pages for the process (`MIMALLOC_ALLOW_THP`): a
//!   2 MiB page stays resident while any of its 4 KiB is in use;
//! - freed memory goes back to the system after 10 ms, not mimalloc 3's
//!   1 s (`MIMALLOC_PURGE_DELAY`).
//!
//! This is the one crate that may use `unsafe`: SQLite's allocator is set
//! through its C interface, and takes C functions.

use std::ffi::{c_int, c_long, c_void};

pub use mimalloc::MiMalloc;

/// mimalloc 3's number for its purge delay option (`mi_option_purge_delay`
/// in `mimalloc.h`; the Rust bindings do not name it).
const PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;
/// How long freed memory waits before it goes back to the system.
const PURGE_DELAY_MS: c_long = 10;

/// What [`start`] could not do. The process runs on regardless; only its
/// memory or its speed differ from what was measured.
#[derive(Debug, thiserror::Error)]
pub enum NotStarted {
    #[error("SQLite had already started, so it keeps its allocator (sqlite3_config returned {0})")]
    SqliteStarted(c_int),
    #[error("cannot turn transparent huge pages off for the process: {0}")]
    HugePages(std::io::Error),
}

/// Sets mimalloc up for the process, as the module says, and gives it
/// SQLite. Call it first in `main`, before any other thread starts. Every
/// step is tried; the first that failed is returned.
pub fn start() -> Result<(), NotStarted> {
    let huge_pages = match std::env::var_os("MIMALLOC_ALLOW_THP") {
        Some(_) => Ok(()),
        None => rustix::thread::disable_transparent_huge_pages(true)
            .map_err(|e| NotStarted::HugePages(std::io::Error::from(e))),
    };
    if std::env::var_os("MIMALLOC_PURGE_DELAY").is_none() {
        // SAFETY: sets one of mimalloc's options; no other thread runs yet
        // to read it meanwhile (see above).
        #[allow(unsafe_code)]
        unsafe {
            libmimalloc_sys::mi_option_set(PURGE_DELAY, PURGE_DELAY_MS)
        };
    }
    let sqlite = give_sqlite_mimalloc();
    huge_pages.and(sqlite)
}

/// Makes SQLite allocate with mimalloc: its page caches, its statements,
/// and the values sqlx copies out of every row. Only before SQLite starts
/// (its first connection); after, SQLite keeps the allocator it started
/// with.
fn give_sqlite_mimalloc() -> Result<(), NotStarted> {
    let methods = libsqlite3_sys::sqlite3_mem_methods {
        xMalloc: Some(malloc),
        xFree: Some(free),
        xRealloc: Some(realloc),
        xSize: Some(size),
        xRoundup: Some(roundup),
        xInit: Some(init),
        xShutdown: Some(shutdown),
        pAppData: std::ptr::null_mut(),
    };
    // SAFETY: SQLITE_CONFIG_MALLOC takes one pointer to a
    // `sqlite3_mem_methods`, which SQLite copies before it returns. It
    // fails with SQLITE_MISUSE, changing nothing, once SQLite has started.
    #[allow(unsafe_code)]
    let rc = unsafe { libsqlite3_sys::sqlite3_config(libsqlite3_sys::SQLITE_CONFIG_MALLOC, &raw const methods) };
    if rc == libsqlite3_sys::SQLITE_OK { Ok(()) } else { Err(NotStarted::SqliteStarted(rc)) }
}

// SQLite asks for at most `c_int::MAX` bytes, and never for 0 or less
// (sqlite3Malloc returns NULL for those before it calls `xMalloc`).

#[allow(unsafe_code)]
unsafe extern "C" fn malloc(bytes: c_int) -> *mut c_void {
    // SAFETY: mi_malloc takes any size and returns NULL when it cannot.
    unsafe { libmimalloc_sys::mi_malloc(usize::try_from(bytes).unwrap_or(0)) }
}

#[allow(unsafe_code)]
unsafe extern "C" fn free(block: *mut c_void) {
    // SAFETY: SQLite frees only what `malloc` or `realloc` above returned.
    unsafe { libmimalloc_sys::mi_free(block) }
}

#[allow(unsafe_code)]
unsafe extern "C" fn realloc(block: *mut c_void, bytes: c_int) -> *mut c_void {
    // SAFETY: as `free`; SQLite frees instead of reallocating to 0 bytes.
    unsafe { libmimalloc_sys::mi_realloc(block, usize::try_from(bytes).unwrap_or(0)) }
}

/// The block's usable size, which SQLite may use whole.
#[allow(unsafe_code)]
unsafe extern "C" fn size(block: *mut c_void) -> c_int {
    // SAFETY: as `free`.
    let usable = unsafe { libmimalloc_sys::mi_usable_size(block) };
    c_int::try_from(usable).unwrap_or(c_int::MAX)
}

/// What SQLite's own allocator rounds a request to: a multiple of 8.
extern "C" fn roundup(bytes: c_int) -> c_int {
    bytes.checked_add(7).map_or(bytes, |b| b & !7)
}

extern "C" fn init(_: *mut c_void) -> c_int {
    libsqlite3_sys::SQLITE_OK
}

extern "C" fn shutdown(_: *mut c_void) {}

#[cfg(test)]
mod tests {
    use std::ffi::c_int;

    use super::{PURGE_DELAY, roundup};

    #[test]
    fn the_purge_delay_s_number_is_mimalloc_s() {
        // Read before anything sets it: mimalloc 3's default for the purge
        // delay, which no other option of its has.
        #[allow(unsafe_code)]
        // SAFETY: reads one of mimalloc's options.
        let delay = unsafe { libmimalloc_sys::mi_option_get(PURGE_DELAY) };
        assert_eq!(delay, 1_000);
    }

    #[test]
    fn sizes_round_up_to_eight_bytes_as_sqlite_s_own_allocator_does() {
        assert_eq!([1, 8, 9, 100].map(|bytes| roundup(bytes)), [8, 8, 16, 104]);
        assert_eq!(roundup(c_int::MAX), c_int::MAX, "no overflow at the largest request");
    }
}
