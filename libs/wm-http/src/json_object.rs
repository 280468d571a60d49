//! A JSON request body that must be an object.

use actix_web::{FromRequest, HttpRequest, dev::Payload, error::JsonPayloadError, web};
use futures::future::LocalBoxFuture;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::error::json_error;

/// The body read into `T`, which it must be a JSON object for. serde reads
/// a struct from an array too (`[a, b]`, by field order), which no client
/// means: that is a 400 `invalid_json` like any other malformed body.
#[derive(Debug)]
pub struct JsonObject<T>(pub T);

impl<T> JsonObject<T> {
    pub fn into_inner(self) -> T {
        self.0
    }
}

impl<T> std::ops::Deref for JsonObject<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T: DeserializeOwned + 'static> FromRequest for JsonObject<T> {
    type Error = actix_web::Error;
    type Future = LocalBoxFuture<'static, Result<Self, Self::Error>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let object = web::Json::<Map<String, Value>>::from_request(req, payload);
        let req = req.clone();
        Box::pin(async move {
            let object = object.await?.into_inner();
            // The same answer as any other body that does not deserialize.
            serde_json::from_value(Value::Object(object))
                .map(JsonObject)
                .map_err(|e| json_error(JsonPayloadError::Deserialize(e), &req))
        })
    }
}
