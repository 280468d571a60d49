//! The exact shapes the request bodies accept, for the API document, where
//! a field's `pattern` attribute cannot say it: whatever the schema allows
//! the server accepts, and the reverse (schemathesis checks both ways).

use serde_json::json;
use utoipa::openapi::{RefOr, schema::Schema};

/// A JSON Schema written as JSON.
fn schema(value: serde_json::Value) -> RefOr<Schema> {
    serde_json::from_value(value).unwrap_or_else(|e| unreachable!("a schema written in this file is valid: {e}"))
}

/// Optional coordinates, as `GpsCoordinates` reads them: null, an empty or
/// blank string, `[longitude, latitude]`, or `"longitude,latitude"` with
/// plain decimals (no exponent, `+` or bare `.5`), each in range.
pub fn gps() -> RefOr<Schema> {
    // ASCII whitespace as Rust trims it (no vertical tab).
    const WS: &str = "[ \\t\\n\\f\\r]*";
    // Leading zeros are fine; the value must be within range.
    let longitude = "-?0*(?:180(?:\\.0+)?|(?:1[0-7][0-9]|[0-9]{1,2})(?:\\.[0-9]+)?)";
    let latitude = "-?0*(?:90(?:\\.0+)?|[0-8]?[0-9](?:\\.[0-9]+)?)";
    schema(json!({
        "description": "Optional: `[longitude, latitude]`, or `\"longitude,latitude\"`",
        "example": [2.294481, 48.85837],
        "oneOf": [
            {"type": "null"},
            {"type": "string", "pattern": format!("^{WS}$")},
            {"type": "array", "minItems": 2, "maxItems": 2, "items": false, "prefixItems": [
                {"type": "number", "minimum": -180, "maximum": 180},
                {"type": "number", "minimum": -90, "maximum": 90},
            ]},
            {"type": "string", "pattern": format!("^{WS}{longitude}{WS},{WS}{latitude}{WS}$")},
        ],
    }))
}
