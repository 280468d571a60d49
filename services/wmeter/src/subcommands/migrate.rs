use anyhow::Context;
use wm_storage::Db;

use crate::{config::Settings, role::Role, wiring};

/// `wmeter migrate`: applies every pending migration of every component to
/// the configured database, then exits.
pub async fn run(settings: Settings) -> anyhow::Result<()> {
    let _in_use = crate::database_file::share(&settings.database)?;
    let db = Db::connect(&settings.database).await.context("database")?;
    for component in apply(&db, &settings).await? {
        println!("{component}: up to date");
    }
    db.close().await;
    Ok(())
}

/// Applies every pending migration of the embedded mode's components;
/// returns their names.
pub(super) async fn apply(db: &Db, settings: &Settings) -> anyhow::Result<Vec<&'static str>> {
    let mut done = Vec::new();
    for migrations in wiring::migrations(Role::Embedded, settings) {
        db.migrate(migrations).await.with_context(|| format!("migrating {}", migrations.component))?;
        done.push(migrations.component);
    }
    Ok(done)
}
