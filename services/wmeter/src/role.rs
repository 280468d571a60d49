//! What a process runs: every service (the embedded mode) or one of them
//! (the distributed mode).

use clap::ValueEnum;

/// A service, as `wmeter run` names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Service {
    Auth,
    DeviceRegistry,
    TelemetryIngest,
    Notification,
    /// The HTTP API gateway (`wm-api-gateway`), not a field gateway: `wmeter
    /// run gateway`.
    #[value(name = "gateway")]
    ApiGateway,
}

impl Service {
    pub fn name(self) -> &'static str {
        match self {
            Service::Auth => wm_auth::NAME,
            Service::DeviceRegistry => wm_device_registry::NAME,
            Service::TelemetryIngest => wm_telemetry_ingest::NAME,
            Service::Notification => wm_notification::NAME,
            Service::ApiGateway => wm_api_gateway::NAME,
        }
    }
}

/// What this process runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// Every service in one process (`wmeter serve`).
    Embedded,
    /// One service (`wmeter run <service>`).
    Service(Service),
}

impl Role {
    /// Whether this process serves `service`.
    pub(crate) fn mounts(self, service: Service) -> bool {
        self == Role::Embedded || self == Role::Service(service)
    }

    /// The `service` label of this process's metrics.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Role::Embedded => "embedded",
            Role::Service(service) => service.name(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn service_names_match_their_crates() {
        let names: Vec<_> = Service::value_variants().iter().map(|s| s.name()).collect();
        assert_eq!(names, ["auth", "device-registry", "telemetry-ingest", "notification", "gateway"]);
        for service in Service::value_variants() {
            let possible = service.to_possible_value().unwrap();
            assert_eq!(possible.get_name(), service.name(), "the CLI spelling is the service name");
        }
    }
}
