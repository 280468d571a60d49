//! What the handlers' own descriptions leave out, added to the whole
//! document in one place: the answers every route of a kind can give, and
//! the shape of the ids in paths. A client (or schemathesis) reading the
//! document then meets no status it was not told of.

use serde_json::{Map, Value, json};
use wm_http::auth::api_keys::ADMIN_ONLY_FOR_KEYS;

use super::docs::API_KEY_SCHEME;

/// A 24-hexadecimal-digit device or user id, in either case.
const ID_PATTERN: &str = "^[0-9a-fA-F]{24}$";
/// A gateway's serial number: 10 letters or digits, after an optional `GTW-`.
const GATEWAY_SERIAL_PATTERN: &str = "^(?:[Gg][Tt][Ww]-)?[0-9A-Za-z]{10}$";
/// A meter's serial number: 10 letters or digits, after an optional `W-`.
const METER_SERIAL_PATTERN: &str = "^(?:[Ww]-)?[0-9A-Za-z]{10}$";

/// Adds, to every operation that lacks them:
/// - an API key as the other way in, and 401, where a bearer token is
///   needed; 403 where a key needs the admin role;
/// - 400 where parameters or a body are checked, 404 where a path names
///   something that may not exist;
/// - 413 and 415 where a JSON body is read;
/// - 503, which any route answers while its database is unreachable;
///
/// and the pattern of each id and serial path parameter.
pub fn complete(api: utoipa::openapi::OpenApi) -> utoipa::openapi::OpenApi {
    let Ok(mut document) = serde_json::to_value(&api) else { return api };
    if let Some(paths) = document.get_mut("paths").and_then(Value::as_object_mut) {
        for (path, item) in paths.iter_mut() {
            for operation in item.as_object_mut().into_iter().flat_map(|item| item.values_mut()) {
                if let Some(operation) = operation.as_object_mut() {
                    complete_operation(path, operation);
                }
            }
        }
    }
    serde_json::from_value(document).unwrap_or(api)
}

fn complete_operation(path: &str, operation: &mut Map<String, Value>) {
    let secured = operation.get("security").and_then(Value::as_array).is_some_and(|s| !s.is_empty());
    let parameters = operation.get("parameters").and_then(Value::as_array).cloned().unwrap_or_default();
    let in_path = parameters.iter().any(|p| p["in"] == "path");
    let body = operation.contains_key("requestBody");
    let mut answers = vec![("503", "The database cannot be reached; try again")];
    if secured {
        answers.push(("401", "No, an invalid, an expired or a revoked access token or API key"));
        if let Some(security) = operation.get_mut("security").and_then(Value::as_array_mut) {
            security.push(json!({ API_KEY_SCHEME: [] }));
        }
        if ADMIN_ONLY_FOR_KEYS.iter().any(|prefix| path.starts_with(prefix)) {
            answers.push(("403", "An API key reaches this route only with the admin role"));
        }
    }
    if body || !parameters.is_empty() {
        answers.push(("400", "A parameter or a field breaks the rules"));
    }
    if in_path {
        answers.push(("404", "Nothing has this id, or the path is not a route"));
    }
    if body {
        answers.push(("413", "The body is larger than the limit"));
        answers.push(("415", "The body is not application/json"));
    }
    if let Some(responses) = operation.get_mut("responses").and_then(Value::as_object_mut) {
        for (status, description) in answers {
            responses.entry(status).or_insert_with(|| {
                json!({"description": description,
                       "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ApiError"}}}})
            });
        }
    }
    for parameter in operation.get_mut("parameters").and_then(Value::as_array_mut).into_iter().flatten() {
        let pattern = match (parameter["in"].as_str(), parameter["name"].as_str()) {
            (Some("path"), Some("id" | "userId")) => ID_PATTERN,
            (Some("path"), Some("serial")) if path.starts_with("/api/proxy/gateways/") => GATEWAY_SERIAL_PATTERN,
            (Some("path"), Some("serial")) => METER_SERIAL_PATTERN,
            _ => continue,
        };
        if let Some(schema) = parameter.get_mut("schema").and_then(Value::as_object_mut) {
            schema.entry("pattern").or_insert_with(|| json!(pattern));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_secured_operation_with_an_id_and_a_body_gets_every_common_answer() {
        let mut operation = json!({
            "security": [{"bearer": []}],
            "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string"}}],
            "requestBody": {"content": {"application/json": {}}},
            "responses": {"200": {"description": "ok"}, "400": {"description": "its own words"}},
        });
        complete_operation("/api/things/{id}", operation.as_object_mut().unwrap());
        let statuses: Vec<&str> = operation["responses"].as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(statuses, ["200", "400", "401", "404", "413", "415", "503"]);
        assert_eq!(operation["responses"]["400"]["description"], "its own words", "a handler's own words stay");
        assert_eq!(operation["parameters"][0]["schema"]["pattern"], ID_PATTERN);
    }

    #[test]
    fn a_public_operation_without_input_gets_only_503() {
        let mut operation = json!({"responses": {"200": {"description": "ok"}}});
        complete_operation("/api/things", operation.as_object_mut().unwrap());
        let statuses: Vec<&str> = operation["responses"].as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(statuses, ["200", "503"]);
    }
}
