//! The key that signs access tokens: from configuration, or (embedded mode
//! only) generated once and kept in a file readable by its owner alone.

use std::{
    fs::{self, OpenOptions},
    io::{ErrorKind, Write},
    os::unix::fs::OpenOptionsExt,
    path::Path,
};

use anyhow::{Context, bail};
use wm_http::auth::{AccessTokens, MIN_KEY_BYTES};

use crate::config::AuthSettings;

/// The token signer and verifier for this process.
pub fn access_tokens(settings: &AuthSettings) -> anyhow::Result<AccessTokens> {
    let key = match &settings.jwt_key {
        Some(key) => key.clone().into_bytes(),
        None => load_or_create(&settings.key_file)?,
    };
    AccessTokens::new(&key, settings.jwt.clone()).context("auth.jwt_key")
}

fn load_or_create(path: &Path) -> anyhow::Result<Vec<u8>> {
    match fs::read(path) {
        Ok(key) if key.len() >= MIN_KEY_BYTES => Ok(key),
        Ok(key) => bail!(
            "auth.key_file: {} holds {} bytes; expected at least {MIN_KEY_BYTES} (delete it to generate a new key)",
            path.display(),
            key.len()
        ),
        Err(e) if e.kind() == ErrorKind::NotFound => create(path),
        Err(e) => Err(e).with_context(|| format!("auth.key_file: cannot read {}", path.display())),
    }
}

/// 32 random bytes as 64 hex characters, written with mode 0600. If another
/// process created the file first, its key wins.
fn create(path: &Path) -> anyhow::Result<Vec<u8>> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        fs::create_dir_all(dir).with_context(|| format!("auth.key_file: cannot create {}", dir.display()))?;
    }
    let bytes: [u8; 32] = rand::random();
    let key: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    match OpenOptions::new().write(true).create_new(true).mode(0o600).open(path) {
        Ok(mut file) => {
            file.write_all(key.as_bytes())
                .and_then(|()| file.sync_all())
                .with_context(|| format!("auth.key_file: cannot write {}", path.display()))?;
            tracing::info!(file = %path.display(), "generated the access-token key");
            Ok(key.into_bytes())
        }
        Err(e) if e.kind() == ErrorKind::AlreadyExists => load_or_create(path),
        Err(e) => Err(e).with_context(|| format!("auth.key_file: cannot create {}", path.display())),
    }
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::PermissionsExt;

    use super::*;

    fn settings(dir: &Path) -> AuthSettings {
        AuthSettings { key_file: dir.join("keys/jwt.key"), ..AuthSettings::default() }
    }

    #[test]
    fn a_generated_key_is_private_and_kept() {
        let dir = tempfile::tempdir().unwrap();
        let first = access_tokens(&settings(dir.path())).unwrap();
        let file = dir.path().join("keys/jwt.key");
        assert_eq!(fs::metadata(&file).unwrap().permissions().mode() & 0o777, 0o600);
        let token = first.issue(&wm_http::auth::Subject::new("u1", wm_http::auth::Role::Viewer)).unwrap();
        let again = access_tokens(&settings(dir.path())).unwrap();
        assert!(again.verify(&token).is_ok(), "a restart keeps the key, so tokens survive it");
    }

    #[test]
    fn a_short_key_file_is_refused_by_name() {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir_all(dir.path().join("keys")).unwrap();
        fs::write(dir.path().join("keys/jwt.key"), "short").unwrap();
        let err = format!("{:#}", access_tokens(&settings(dir.path())).unwrap_err());
        assert!(err.starts_with("auth.key_file: ") && err.contains("holds 5 bytes"), "{err}");
    }

    #[test]
    fn a_configured_key_is_used_as_given() {
        let key = "k".repeat(32);
        let configured = AuthSettings { jwt_key: Some(key.clone()), ..AuthSettings::default() };
        let token = access_tokens(&configured)
            .unwrap()
            .issue(&wm_http::auth::Subject::new("u", wm_http::auth::Role::Admin))
            .unwrap();
        let direct = AccessTokens::new(key.as_bytes(), configured.jwt.clone()).unwrap();
        assert!(direct.verify(&token).is_ok());
    }
}
