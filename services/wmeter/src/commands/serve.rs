use crate::{
    app::{Application, Role},
    cli::Service,
    config::Settings,
};

/// `wmeter serve`: every service in this process.
pub async fn embedded(settings: Settings, demo: bool) -> anyhow::Result<()> {
    let _telemetry = wm_http::telemetry::init(&settings.log, "wmeter")?;
    let app = Application::build(&settings, Role::Embedded).await?;
    println!("w-meter is running at {}", app.url());
    if demo {
        println!("demo mode: the demo network and the gateway simulator start once the registry and ingest exist");
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
