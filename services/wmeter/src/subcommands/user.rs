use anyhow::{Context, bail};
use wm_auth::{
    actions::{self, Actor},
    audit::{Audit, CLI_ACTOR},
    users,
};
use wm_storage::Db;

use crate::{
    cli::UserSubcommand,
    config::Settings,
    role::{Role, Service},
    wiring,
};

/// `wmeter user add|list|disable`, straight on the auth service's database;
/// changes are recorded on the event log with the actor `cli`.
pub async fn run(settings: Settings, subcommand: UserSubcommand) -> anyhow::Result<()> {
    let _in_use = crate::database_file::share(&settings.database)?;
    let wiring =
        wiring::connect(&settings, Role::Service(Service::Auth), std::sync::Arc::new(wm_domain::SystemClock)).await?;
    let (Some(db), Some(log)) = (wiring.db(), wiring.event_log()) else { bail!("the auth service has no database") };
    let audit = Audit::open(log.clone()).await.context("event_log: the auth topic")?;
    let result = match subcommand {
        UserSubcommand::Add { username, role } => add(db, &audit, &username, &role).await,
        UserSubcommand::List => list(db).await,
        UserSubcommand::Disable { username } => actions::disable_named(db, &audit, &Actor::local(CLI_ACTOR), &username)
            .await
            .map_err(anyhow::Error::from)
            .map(|user| println!("disabled {}; every session revoked", user.username)),
    };
    wiring.shutdown().await;
    result
}

async fn add(db: &Db, audit: &Audit, username: &str, role: &str) -> anyhow::Result<()> {
    let role = role.parse().map_err(anyhow::Error::msg)?;
    let password = super::password::read(username)?;
    let user = actions::create(db, audit, &Actor::local(CLI_ACTOR), (username, &password, role), false).await?;
    println!("created {} ({}) with id {}", user.username, user.role, user.id);
    Ok(())
}

async fn list(db: &Db) -> anyhow::Result<()> {
    println!("{:<24}  {:<24}  {:<8}  {:<8}  created", "id", "username", "role", "status");
    for user in users::list(db).await? {
        let status = if user.disabled { "disabled" } else { "active" };
        let created = user.created_at.format("%Y-%m-%d %H:%M:%S");
        println!("{:<24}  {:<24}  {:<8}  {:<8}  {created}", user.id, user.username, user.role.as_str(), status);
    }
    Ok(())
}
