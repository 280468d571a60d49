//! Files other programs read while w-meter rewrites them (Mosquitto's
//! password, ACL and TLS files, the key files a restore brings back): each
//! is replaced whole, never seen half written.

use std::{
    fs::{self, File, OpenOptions},
    io::{self, Write},
    os::unix::fs::{OpenOptionsExt, PermissionsExt},
    path::Path,
};

/// Writes `content` to `dir/name` with `mode`: into a temporary file of
/// that mode first (a key is never readable by others, even for a
/// moment), then renamed over the old one.
pub fn replace(dir: &Path, name: &str, content: impl AsRef<[u8]>, mode: u32) -> io::Result<()> {
    let temporary = dir.join(format!(".{name}.tmp"));
    let mut file = OpenOptions::new().write(true).create(true).truncate(true).mode(mode).open(&temporary)?;
    // The umask may have taken bits off; the mode is the one asked for.
    fs::set_permissions(&temporary, fs::Permissions::from_mode(mode))?;
    file.write_all(content.as_ref())?;
    drop(file);
    put_in_place(&temporary, &dir.join(name))
}

/// Renames `temporary` to `target` once it is on disk, then syncs the
/// folder so that the rename survives a crash: a reader, or a restart,
/// finds the old file or the whole new one, never part of one.
pub fn put_in_place(temporary: &Path, target: &Path) -> io::Result<()> {
    File::open(temporary)?.sync_all()?;
    fs::rename(temporary, target)?;
    let dir = target.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    File::open(dir)?.sync_all()
}
