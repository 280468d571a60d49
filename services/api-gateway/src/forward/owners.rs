//! Which service owns a path: matched against each service's OpenAPI path
//! templates, a literal segment beating a `{parameter}` (so
//! `wmeters/critical/count` is the registry's, `wmeters/critical/{id}`
//! telemetry's).

use utoipa::openapi::OpenApi;

/// A service the gateway forwards to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Owner {
    Auth,
    DeviceRegistry,
    TelemetryIngest,
    Notification,
}

impl Owner {
    pub fn name(self) -> &'static str {
        match self {
            Owner::Auth => "auth",
            Owner::DeviceRegistry => "device-registry",
            Owner::TelemetryIngest => "telemetry-ingest",
            Owner::Notification => "notification",
        }
    }
}

#[derive(Clone, Debug)]
struct Template {
    /// `None` is a `{parameter}` segment.
    segments: Vec<Option<String>>,
    owner: Owner,
}

impl Template {
    fn parse(path: &str, owner: Owner) -> Self {
        let segments = path
            .split('/')
            .map(|s| if s.starts_with('{') && s.ends_with('}') { None } else { Some(s.to_owned()) })
            .collect();
        Self { segments, owner }
    }

    /// The number of literal segments matched, when the path matches.
    fn score(&self, path: &[&str]) -> Option<usize> {
        if path.len() != self.segments.len() {
            return None;
        }
        let mut literals = 0;
        for (segment, wanted) in path.iter().zip(&self.segments) {
            match wanted {
                Some(literal) if literal == segment => literals += 1,
                Some(_) => return None,
                None if segment.is_empty() => return None,
                None => {}
            }
        }
        Some(literals)
    }
}

/// Every forwarded path template and its owner.
#[derive(Clone, Debug, Default)]
pub struct RouteTable {
    templates: Vec<Template>,
}

impl RouteTable {
    /// The table of the services' API descriptions.
    pub fn new(parts: impl IntoIterator<Item = (Owner, OpenApi)>) -> Self {
        let templates = parts
            .into_iter()
            .flat_map(|(owner, api)| {
                api.paths.paths.into_keys().map(move |path| Template::parse(&path, owner)).collect::<Vec<_>>()
            })
            .collect();
        Self { templates }
    }

    /// The owner of `path` (no query string), if any service serves it.
    pub fn owner(&self, path: &str) -> Option<Owner> {
        let segments: Vec<&str> = path.split('/').collect();
        self.templates
            .iter()
            .filter_map(|t| t.score(&segments).map(|score| (score, t.owner)))
            .max_by_key(|(score, _)| *score)
            .map(|(_, owner)| owner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn api(paths: &[&str]) -> OpenApi {
        let mut builder = utoipa::openapi::path::PathsBuilder::new();
        for path in paths {
            builder = builder.path(*path, utoipa::openapi::path::PathItem::default());
        }
        utoipa::openapi::OpenApiBuilder::new().paths(builder.build()).build()
    }

    fn table() -> RouteTable {
        RouteTable::new([
            (Owner::Auth, api(&["/api/auth/login"])),
            (
                Owner::DeviceRegistry,
                api(&["/api/proxy/gateways/{id}", "/api/proxy/wmeters/critical/count", "/api/proxy/gateways/"]),
            ),
            (
                Owner::TelemetryIngest,
                api(&["/api/proxy/gateways/gateway-activity", "/api/proxy/wmeters/critical/{id}"]),
            ),
            (Owner::Notification, api(&["/api/notifications", "/api/notifications/{userId}"])),
        ])
    }

    #[test]
    fn a_literal_segment_beats_a_parameter() {
        let t = table();
        assert_eq!(t.owner("/api/proxy/wmeters/critical/count"), Some(Owner::DeviceRegistry));
        assert_eq!(t.owner("/api/proxy/wmeters/critical/6b031854dbdeac91e41b6334"), Some(Owner::TelemetryIngest));
        assert_eq!(t.owner("/api/proxy/gateways/gateway-activity"), Some(Owner::TelemetryIngest));
        assert_eq!(t.owner("/api/proxy/gateways/6b031854dbdeac91e41b6334"), Some(Owner::DeviceRegistry));
    }

    #[test]
    fn trailing_slashes_and_unknown_paths_are_exact() {
        let t = table();
        assert_eq!(t.owner("/api/proxy/gateways/"), Some(Owner::DeviceRegistry));
        assert_eq!(t.owner("/api/notifications"), Some(Owner::Notification));
        assert_eq!(t.owner("/api/notifications/u1"), Some(Owner::Notification));
        assert_eq!(t.owner("/api/auth/login"), Some(Owner::Auth));
        assert_eq!(t.owner("/api/auth/nothing"), None);
        assert_eq!(t.owner("/api/proxy/gateways/a/b"), None);
    }
}
