use crate::{
    app::Application,
    config::Settings,
    output::say,
    role::{Role, Service},
};

/// `wmeter serve`: every service in this process. The demo serves plain
/// HTTP on 127.0.0.1, where browsers drop `Secure` cookies, so it uses the
/// `wmeter_rt` refresh cookie.
pub async fn embedded(mut settings: Settings, demo: bool) -> anyhow::Result<()> {
    if demo {
        settings.auth.sessions.secure_cookie = false;
    }
    let _in_use = crate::database_file::share(&settings.database)?;
    let _telemetry = wm_http::telemetry::init(&settings.log, "wmeter")?;
    let mut app = Application::build(&settings, Role::Embedded).await?;
    say(format_args!("w-meter is running at {}", app.url()));
    if let Some((addr, shared)) = app.embedded_broker() {
        say(format_args!("MQTT broker at mqtt://{addr}"));
        if let Some((username, _)) = shared {
            tracing::warn!(
                username,
                "mqtt.gateway_password is set: every gateway may sign in with this one shared login and act as \
                 any other. Give each gateway its own credentials, then unset it (docs/device-plane.md)"
            );
        }
    }
    if demo {
        print_demo_users(&app).await?;
        crate::demo::start(&mut app).await?;
    }
    app.run_until_stopped().await
}

/// `wmeter run <service>`: one service of the distributed mode.
pub async fn service(settings: Settings, service: Service) -> anyhow::Result<()> {
    let _telemetry = wm_http::telemetry::init(&settings.log, service.name())?;
    let app = Application::build(&settings, Role::Service(service)).await?;
    tracing::info!(service = service.name(), url = %app.url(), "listening");
    app.run_until_stopped().await
}

/// Creates the demo users on the first run and shows their passwords once.
async fn print_demo_users(app: &Application) -> anyhow::Result<()> {
    let (Some(db), Some(log)) = (app.db(), app.event_log()) else { return Ok(()) };
    let audit = wm_auth::audit::Audit::open(log.clone()).await?;
    let created = wm_auth::actions::ensure_demo_users(db, &audit).await?;
    if created.is_empty() {
        say(format_args!("sign in with the users created on the first run (wmeter user list)"));
    }
    for (username, password) in created {
        say(format_args!("demo login: {username} / {password}   (shown once; keep it)"));
    }
    Ok(())
}
