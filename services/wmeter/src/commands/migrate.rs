use anyhow::Context;
use wm_storage::Db;

use crate::{app::Role, config::Settings, wiring};

/// `wmeter migrate`: applies every pending migration of every component to
/// the configured database, then exits.
pub async fn run(settings: Settings) -> anyhow::Result<()> {
    let db = Db::connect(&settings.database).await.context("database")?;
    for migrations in wiring::migrations(Role::Embedded, &settings) {
        db.migrate(migrations).await.with_context(|| format!("migrating {}", migrations.component))?;
        println!("{}: up to date", migrations.component);
    }
    db.close().await;
    Ok(())
}
