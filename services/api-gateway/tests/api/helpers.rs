//! The API gateway on a port of its own: its own routes, the dashboard
//! from a stand-in folder, and the forwarding of the distributed mode.

use std::path::Path;

use utoipa::openapi::{
    HttpMethod, OpenApi, PathsBuilder,
    path::{OperationBuilder, PathItemBuilder},
};
use wm_api_gateway::{
    Uptime,
    forward::{Forwarder, GatewaySettings, Owner, RouteTable},
};
use wm_test_support::service::{self, Harness, Mount, ServiceApp};

pub type TestApp = ServiceApp;

/// The gateway with a stand-in dashboard (an `index.html`, a hashed asset
/// with its compressed copies and one without), forwarding the registry's `gateways/count` to `upstream`.
pub async fn spawn_app() -> TestApp {
    spawn_gateway("http://127.0.0.1:9").await
}

/// [`spawn_app`], forwarding to `upstream`.
pub async fn spawn_gateway(upstream: &str) -> TestApp {
    let upstream = upstream.to_owned();
    service::spawn_sqlite(async move |h: &mut Harness| {
        let static_dir = tempfile::tempdir().unwrap();
        write(static_dir.path(), "index.html", "<!doctype html><title>w-meter</title><div id=\"root\"></div>");
        write(static_dir.path(), "assets/app-1234.js", "console.log('w-meter')");
        // Stand-ins for the build's compressed copies: the server picks a
        // file and never reads into it.
        write(static_dir.path(), "assets/app-1234.js.br", "brotli of app-1234.js");
        write(static_dir.path(), "assets/app-1234.js.gz", "gzip of app-1234.js");
        write(static_dir.path(), "assets/tiny-5678.js", "0");
        let mut settings = GatewaySettings::default();
        settings.upstreams.device_registry = Some(upstream.clone());
        settings.connect_timeout_ms = 500;
        let table = RouteTable::new([(Owner::DeviceRegistry, registry_paths())]);
        let forwarder = Forwarder::new(table, settings, 1 << 20).unwrap();
        let (uptime, dir) = (Uptime::since_now(), static_dir.path().to_path_buf());
        h.keep(static_dir);
        Mount::new(wm_api_gateway::openapi([]), move |cfg| {
            cfg.configure(wm_api_gateway::configure(uptime, dashboard()))
                .configure(wm_api_gateway::forward::configure(forwarder.clone()))
                .configure(wm_api_gateway::spa(dir.clone()));
        })
    })
    .await
}

/// The dashboard's settings the gateway under test serves.
pub fn dashboard() -> wm_api_gateway::DashboardSettings {
    wm_api_gateway::DashboardSettings {
        map_tiles_url: "https://tiles.example/{z}/{x}/{y}.png".to_owned(),
        map_attribution: "© Example".to_owned(),
    }
}

/// A registry that describes one path, as its OpenAPI document would.
fn registry_paths() -> OpenApi {
    let get = PathItemBuilder::new().operation(HttpMethod::Get, OperationBuilder::new().build()).build();
    let paths = PathsBuilder::new().path("/api/proxy/gateways/count", get).build();
    OpenApi::new(utoipa::openapi::Info::new("registry", "1"), paths)
}

fn write(dir: &Path, name: &str, content: &str) {
    let path = dir.join(name);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, content).unwrap();
}
