//! glibc's allocator, tuned as the process starts. With its defaults
//! (an arena per thread, up to eight per core, and a threshold for mapping
//! large blocks on their own that rises as they are freed), `wmeter serve`
//! kept freed memory it could not give back: a soak at 1,000 uplinks/s
//! climbed from 166 to 309 MiB resident, of which `malloc_trim` returned
//! some 100 MiB at once. With two arenas and blocks of 128 KiB and more
//! always mapped on their own (the multi-row statements' buffers), the same
//! soak stays near 110 MiB (bench/RESULTS.md, docs/performance.md §5).

/// The settings `wmeter` runs with when `GLIBC_TUNABLES` is unset.
pub const GLIBC_TUNABLES: &str = "glibc.malloc.arena_max=2:glibc.malloc.mmap_threshold=131072";

/// Starts this same command again, in this process, with
/// [`GLIBC_TUNABLES`], unless the variable is already set (an operator's
/// choice is kept): glibc reads it only as a program starts. Returns only
/// when it did not restart; call it first in `main`.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub fn tune() {
    use std::os::unix::process::CommandExt;
    if std::env::var_os("GLIBC_TUNABLES").is_some() {
        return;
    }
    let Ok(exe) = std::env::current_exe() else { return };
    let error =
        std::process::Command::new(exe).args(std::env::args_os().skip(1)).env("GLIBC_TUNABLES", GLIBC_TUNABLES).exec();
    eprintln!("wmeter: cannot restart with GLIBC_TUNABLES={GLIBC_TUNABLES} ({error}); glibc's defaults stay");
}

/// Other C libraries have other allocators: nothing to tune.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn tune() {}
