//! `GET /api/proxy/fieldcheck/{value}?fieldName=…` → `{"exists": bool}`:
//! whether a device of either kind already holds the value, as the
//! registration forms check on blur.

use actix_web::{HttpResponse, web};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use wm_domain::{Imei, PhoneNumber, SerialNumber, normalize_loose};
use wm_http::{ApiError, auth::Caller};

use crate::{error::RegistryError, state::RegistryState, storage::identifiers};

#[derive(Debug, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct FieldQuery {
    #[param(value_type = FieldName, inline, required = true)]
    field_name: Option<String>,
}

/// The field a value is checked against. Only described: the handler reads
/// the name as sent, to answer a wrong one with its own words.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
#[allow(dead_code)]
enum FieldName {
    SerialNumber,
    Imei,
    PhoneNumber,
    BleAddress,
    MacAddress,
}

/// Whether a device already holds the value.
#[derive(Serialize, ToSchema)]
pub struct Exists {
    exists: bool,
}

/// Whether a value is already in use, for the registration forms.
#[utoipa::path(get, path = "/api/proxy/fieldcheck/{value}", tag = "registration",
    params(("value" = String, Path, example = "AB12CD34EF"), FieldQuery),
    responses(
        (status = 200, description = "Whether a device holds it", body = Exists),
        (status = 400, description = "An unknown fieldName, or a malformed value", body = ApiError),
    ), security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user = caller.user_id))]
pub async fn get(
    caller: Caller,
    state: web::Data<RegistryState>,
    value: web::Path<String>,
    query: web::Query<FieldQuery>,
) -> Result<HttpResponse, ApiError> {
    let field = query.field_name.as_deref().unwrap_or_default();
    let canonical = canonical(field, &value)?;
    let exists = identifiers::exists(state.db(), field, &canonical).await?;
    Ok(HttpResponse::Ok().json(Exists { exists }))
}

/// The stored form of `value` for `field`; serials and addresses are
/// compared upper case, addresses with or without colons.
fn canonical(field: &str, value: &str) -> Result<String, RegistryError> {
    let canonical = match field {
        "serialNumber" => SerialNumber::parse(value).ok().map(SerialNumber::into_string),
        "imei" => Imei::parse(value).ok().map(Imei::into_string),
        "phoneNumber" => PhoneNumber::parse(value).ok().map(PhoneNumber::into_string),
        "bleAddress" | "macAddress" => normalize_loose(value),
        other => {
            return Err(RegistryError::BadRequest(format!(
                "fieldName must be serialNumber, imei, phoneNumber, bleAddress or macAddress, not {other:?}"
            )));
        }
    };
    canonical.ok_or_else(|| RegistryError::BadRequest(format!("{value:?} is not a valid {field}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_compared_in_their_stored_form() {
        assert_eq!(canonical("serialNumber", "ab12cd34ef").unwrap(), "AB12CD34EF");
        assert_eq!(canonical("bleAddress", "aabbccddee01").unwrap(), "AA:BB:CC:DD:EE:01");
        assert_eq!(canonical("macAddress", "aa:bb:cc:dd:ee:02").unwrap(), "AA:BB:CC:DD:EE:02");
    }

    #[test]
    fn unknown_fields_and_malformed_values_are_refused() {
        assert!(canonical("deviceName", "x").is_err());
        assert!(canonical("", "x").is_err());
        assert!(canonical("imei", "123").is_err());
    }
}
