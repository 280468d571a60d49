//! Request bodies read whole, up to a limit: JSON bodies up to
//! `http.max_body_bytes`, and the CSV files of device imports up to
//! [`MAX_CSV_BYTES`] (the API gateway forwards those with the same limit).

use actix_web::web;
use futures::StreamExt;

/// Where device imports are posted.
pub const CSV_IMPORT_PREFIX: &str = "/api/devices/import/";
/// The largest CSV file an import reads.
pub const MAX_CSV_BYTES: usize = 10 * 1024 * 1024;

/// Why a body could not be read.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ReadError {
    #[error("the body is larger than {0} bytes")]
    TooLarge(usize),
    #[error("the body could not be read: {0}")]
    Broken(String),
}

/// The body of `payload`, refused once it passes `limit` bytes.
pub async fn read(mut payload: web::Payload, limit: usize) -> Result<web::Bytes, ReadError> {
    let mut body = web::BytesMut::new();
    while let Some(chunk) = payload.next().await {
        let chunk = chunk.map_err(|e| ReadError::Broken(e.to_string()))?;
        if body.len() + chunk.len() > limit {
            return Err(ReadError::TooLarge(limit));
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body.freeze())
}

/// The body limit of a request to `path`.
pub fn limit_of(path: &str, max_body_bytes: usize) -> usize {
    if path.starts_with(CSV_IMPORT_PREFIX) { MAX_CSV_BYTES.max(max_body_bytes) } else { max_body_bytes }
}
