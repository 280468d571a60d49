//! One device, by id or by serial number.

use actix_web::{HttpResponse, web};
use wm_domain::{DeviceKind, SerialNumber};
use wm_http::auth::Caller;

use super::{Handled, params::device_id};
use crate::{
    error::RegistryError,
    json::Show,
    state::RegistryState,
    storage::lists::{self, Table},
};

/// `GET /api/proxy/{gateways|wmeters}/{id}`.
pub fn by_id<T: Table + Show>() -> impl Fn(Caller, web::Data<RegistryState>, web::Path<String>) -> Handled + Clone {
    move |_caller, state, id| {
        Box::pin(async move {
            let id = device_id(&id)?;
            let row = lists::by_id::<T>(state.db(), &id.to_string()).await?;
            shown(&state, row)
        })
    }
}

/// `GET /api/proxy/{gateways|wmeters}/serial/{serial}`: the serial with or
/// without the kind's prefix, in any case.
pub fn by_serial<T: Table + Show>(
    kind: DeviceKind,
) -> impl Fn(Caller, web::Data<RegistryState>, web::Path<String>) -> Handled + Clone {
    move |_caller, state, serial| {
        Box::pin(async move {
            let serial = SerialNumber::parse_with_prefix(&serial, kind).map_err(|_| {
                RegistryError::BadRequest(format!("{serial:?} is not a serial number of 10 letters or digits"))
            })?;
            let row = lists::by_serial::<T>(state.db(), serial.as_str()).await?;
            shown(&state, row)
        })
    }
}

fn shown<T: Show>(state: &RegistryState, row: Option<T>) -> Result<HttpResponse, wm_http::ApiError> {
    let row = row.ok_or(RegistryError::NotFound("device"))?;
    Ok(HttpResponse::Ok().json(row.show(state.now(), &state.settings)))
}
