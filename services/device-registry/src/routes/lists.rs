//! Lists and counts of gateways and meters.

use actix_web::{HttpResponse, web};
use serde::Serialize;
use wm_domain::DeviceKind;
use wm_http::auth::Caller;

use super::{Handled, params::ListQuery};
use crate::{
    json::Show,
    state::RegistryState,
    storage::lists::{self, Filter, Table},
};

/// Which devices a route lists or counts.
#[derive(Clone, Copy, Debug)]
pub enum Which {
    All,
    Lost(DeviceKind),
    Down,
    Critical,
    Unhealthy,
}

impl Which {
    fn filter(self, state: &RegistryState) -> Filter {
        match self {
            Which::All => Filter::All,
            Which::Lost(kind) => state.lost(kind),
            Which::Down => Filter::Down,
            Which::Critical => Filter::Critical,
            Which::Unhealthy => state.unhealthy(),
        }
    }
}

#[derive(Serialize)]
struct Count {
    count: i64,
}

/// `GET …?max&start&reverse` → an array of devices.
pub fn list<T: Table + Show>(
    which: Which,
) -> impl Fn(Caller, web::Data<RegistryState>, web::Query<ListQuery>) -> Handled + Clone {
    move |_caller, state, query| {
        Box::pin(async move {
            let page = query.page()?;
            let rows: Vec<T> = lists::list(state.db(), which.filter(&state), page).await?;
            let now = state.now();
            let body: Vec<T::Json> = rows.into_iter().map(|row| row.show(now, &state.settings)).collect();
            Ok(HttpResponse::Ok().json(body))
        })
    }
}

/// `GET …/count` → `{"count": n}`.
pub fn count<T: Table>(which: Which) -> impl Fn(Caller, web::Data<RegistryState>) -> Handled + Clone {
    move |_caller, state| {
        Box::pin(async move {
            let count = lists::count::<T>(state.db(), which.filter(&state)).await?;
            Ok(HttpResponse::Ok().json(Count { count }))
        })
    }
}
