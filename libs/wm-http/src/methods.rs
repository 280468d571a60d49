//! The app's fallback: 404 for a path no route has, 405 (with `Allow`) for
//! a documented path asked with a method it does not take. The paths and
//! their methods come from the OpenAPI document, so they cannot drift.

use std::{collections::HashSet, sync::Arc};

use actix_web::{
    HttpRequest, HttpResponse, ResponseError,
    guard::{Guard, GuardContext},
    http::{
        StatusCode,
        header::{ALLOW, HeaderValue},
    },
    web,
};

use crate::ApiError;

/// A documented path template, split into segments (`{…}` matches any one
/// segment), with the methods it takes.
type Template = (Vec<String>, Vec<String>);

/// Every documented path template, and the paths among them without
/// parameters (looked up on every request that reaches a `/{id}` route, see
/// [`not_a_fixed_path`]).
#[derive(Clone, Debug, Default)]
pub struct Methods {
    templates: Arc<Vec<Template>>,
    fixed: Arc<HashSet<String>>,
}

impl Methods {
    pub fn new(api: &utoipa::openapi::OpenApi) -> Self {
        let Ok(document) = serde_json::to_value(api) else { return Self::default() };
        let paths = document["paths"].as_object().cloned().unwrap_or_default();
        let table = paths
            .iter()
            .map(|(path, item)| {
                let segments = path.split('/').map(str::to_owned).collect();
                let methods = item.as_object().map(|ops| ops.keys().map(|m| m.to_ascii_uppercase()).collect());
                (segments, methods.unwrap_or_default())
            })
            .collect();
        Self::of(table)
    }

    fn of(templates: Vec<Template>) -> Self {
        let fixed = templates
            .iter()
            .filter(|(template, _)| !template.iter().any(|t| is_param(t)))
            .map(|(template, _)| template.join("/"))
            .collect();
        Self { templates: Arc::new(templates), fixed: Arc::new(fixed) }
    }

    /// The methods `path` takes, from the most specific templates that
    /// match it (the fewest `{…}` segments: `/things/count` before
    /// `/things/{id}`); empty when no documented path matches.
    pub fn allowed(&self, path: &str) -> Vec<String> {
        let asked: Vec<&str> = path.split('/').collect();
        let matching: Vec<(usize, &Vec<String>)> = self
            .templates
            .iter()
            .filter(|(template, _)| {
                template.len() == asked.len()
                    && template.iter().zip(&asked).all(|(t, a)| t == a || (is_param(t) && !a.is_empty()))
            })
            .map(|(template, methods)| (template.iter().filter(|t| is_param(t)).count(), methods))
            .collect();
        let Some(fewest) = matching.iter().map(|(params, _)| *params).min() else { return Vec::new() };
        let mut allowed: Vec<String> = Vec::new();
        for method in matching.into_iter().filter(|(params, _)| *params == fewest).flat_map(|(_, methods)| methods) {
            if !allowed.contains(method) {
                allowed.push(method.clone());
            }
        }
        allowed
    }

    /// Whether `path` is one of the document's paths without parameters.
    fn is_fixed(&self, path: &str) -> bool {
        self.fixed.contains(path)
    }

    /// The fallback service: 405 when the path is documented for other
    /// methods, 404 otherwise (a path whose parameter no route takes, say
    /// `critical/{id}` with an id that is not hexadecimal, is a 404).
    pub async fn fallback(req: HttpRequest) -> HttpResponse {
        let methods = req.app_data::<web::Data<Methods>>().map(|m| m.allowed(req.path())).unwrap_or_default();
        if methods.is_empty() || methods.iter().any(|m| m == req.method().as_str()) {
            return crate::not_found().await;
        }
        let allow = methods.join(", ");
        let error = ApiError::new(
            StatusCode::METHOD_NOT_ALLOWED,
            "method_not_allowed",
            format!("{} {} is not a route; this path takes {allow}", req.method(), req.path()),
        );
        let mut response = error.error_response();
        if let Ok(value) = HeaderValue::from_str(&allow) {
            response.headers_mut().insert(ALLOW, value);
        }
        response
    }
}

fn is_param(segment: &str) -> bool {
    segment.starts_with('{')
}

/// A guard for a route whose last segment is a parameter (`/things/{id}`):
/// it steps aside for the document's fixed paths (`/things/count`), so a
/// method those do not take gets 405 rather than the parameter's handler.
pub fn not_a_fixed_path() -> impl Guard {
    NotFixed
}

struct NotFixed;

impl Guard for NotFixed {
    fn check(&self, ctx: &GuardContext<'_>) -> bool {
        ctx.app_data::<web::Data<Methods>>().is_none_or(|methods| !methods.is_fixed(ctx.head().uri.path()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn methods() -> Methods {
        let table = vec![
            (vec!["".into(), "api".into(), "things".into()], vec!["GET".into()]),
            (vec!["".into(), "api".into(), "things".into(), "".into()], vec!["POST".into()]),
            (vec!["".into(), "api".into(), "things".into(), "{id}".into()], vec!["GET".into(), "PATCH".into()]),
            (vec!["".into(), "api".into(), "things".into(), "count".into()], vec!["GET".into()]),
        ];
        Methods::of(table)
    }

    #[test]
    fn a_documented_path_lists_its_methods_and_another_lists_none() {
        let m = methods();
        assert_eq!(m.allowed("/api/things"), ["GET"]);
        assert_eq!(m.allowed("/api/things/"), ["POST"]);
        assert_eq!(m.allowed("/api/things/abc"), ["GET", "PATCH"]);
        assert_eq!(m.allowed("/api/things/count"), ["GET"], "the fixed path, not the template");
        assert!(m.is_fixed("/api/things/count") && !m.is_fixed("/api/things/abc"));
        assert!(m.allowed("/api/things/abc/more").is_empty());
        assert!(m.allowed("/api/other").is_empty());
    }
}
