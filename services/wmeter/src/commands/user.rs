use anyhow::{Context, bail};
use wm_auth::{
    accounts,
    audit::{Audit, CLI_ACTOR},
    storage::users,
};
use wm_storage::Db;

use crate::{
    app::Role,
    cli::{Service, UserCommand},
    config::Settings,
    wiring,
};

/// `wmeter user add|list|disable`, straight on the auth service's database;
/// changes are recorded on the event log with the actor `cli`.
pub async fn run(settings: Settings, command: UserCommand) -> anyhow::Result<()> {
    let wiring =
        wiring::connect(&settings, Role::Service(Service::Auth), std::sync::Arc::new(wm_domain::SystemClock)).await?;
    let (Some(db), Some(log)) = (wiring.db(), wiring.event_log()) else { bail!("the auth service has no database") };
    let audit = Audit::open(log.clone()).await.context("event_log: the auth topic")?;
    let result = match command {
        UserCommand::Add { username, role } => add(db, &audit, &username, &role).await,
        UserCommand::List => list(db).await,
        UserCommand::Disable { username } => accounts::disable(db, &audit, CLI_ACTOR, &username)
            .await
            .map_err(anyhow::Error::from)
            .map(|(user, sessions)| println!("disabled {}; {sessions} sessions revoked", user.username)),
    };
    wiring.shutdown().await;
    result
}

async fn add(db: &Db, audit: &Audit, username: &str, role: &str) -> anyhow::Result<()> {
    let role = role.parse().map_err(anyhow::Error::msg)?;
    let password = super::password::read(username)?;
    let user = accounts::create(db, audit, CLI_ACTOR, username, &password, role).await?;
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
