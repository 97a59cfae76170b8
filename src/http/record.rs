//! `POST /record`: the game as a file to save, named for it (`Content-Disposition`), in its
//! format's encoding (`Content-Type`'s charset).

use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};

use super::body::JsonBody;
use crate::api::Problem;
use crate::api::record::RecordRequest;

/// Cheap: the rules replay the moves, nothing is searched, so it answers in place.
pub async fn post_record(JsonBody(body): JsonBody) -> Result<Response, Problem> {
    let file = RecordRequest::from_json(&body)?.write()?;
    // Both are ASCII of the service's own making (the game's name, digits, the charset).
    let value = |text: &str| {
        HeaderValue::from_str(text)
            .map_err(|_| Problem::http(500, "a record's headers could not be written"))
    };
    let content_type = value(&file.media_type)?;
    let disposition = value(&format!("attachment; filename=\"{}\"", file.name))?;
    let mut response = file.bytes.into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, content_type);
    headers.insert(header::CONTENT_DISPOSITION, disposition);
    Ok(response)
}
