//! The JSON request body: at most [`MAX_BODY_BYTES`], of a JSON content type.
//!
//! axum's own `Json` extractor answers its rejections in plain text; this one answers with a
//! [`Problem`], and leaves the decoding to [`crate::api::request`], which knows which errors are
//! 400 and which 422.

use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use axum::http::header;

use crate::api::Problem;

/// Largest accepted body; larger ones are refused with 413.
pub const MAX_BODY_BYTES: usize = 64 * 1024;

pub struct JsonBody(pub Bytes);

impl<S: Send + Sync> FromRequest<S> for JsonBody {
    type Rejection = Problem;

    async fn from_request(request: Request, state: &S) -> Result<Self, Problem> {
        let content_type = request
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|value| value.to_str().ok())
            .unwrap_or("");
        let essence = content_type.split(';').next().unwrap_or("").trim();
        if !(essence.eq_ignore_ascii_case("application/json") || essence.ends_with("+json")) {
            return Err(Problem::http(
                415,
                "Unsupported Media Type",
                format!(
                    "the body must be JSON with content-type application/json, got {:?}",
                    content_type
                ),
            ));
        }
        let bytes = Bytes::from_request(request, state)
            .await
            .map_err(|rejection| {
                if rejection.status().as_u16() == 413 {
                    Problem::http(
                        413,
                        "Content Too Large",
                        format!("the body is larger than {MAX_BODY_BYTES} bytes"),
                    )
                } else {
                    Problem::malformed(format!("the body could not be read: {rejection}"))
                }
            })?;
        Ok(JsonBody(bytes))
    }
}
