//! JSON response bodies.
//!
//! axum's `Json` serialises into a `BytesMut` that starts at 128 bytes and is written a few
//! bytes at a time, which shows in the throughput of the cheapest routes
//! (`scripts/bench-http.sh`). Serialising into one `Vec` sized for a typical answer is a
//! single allocation and plain copies.

use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use crate::api::Problem;

/// A `200 OK` with `value` as its `application/json` body.
pub struct Json<T>(pub T);

impl<T: Serialize> IntoResponse for Json<T> {
    fn into_response(self) -> Response {
        let mut body = Vec::with_capacity(512);
        match serde_json::to_writer(&mut body, &self.0) {
            Ok(()) => encoded(body),
            // Only a `Serialize` impl that fails gets here (serde_json writes a float that is
            // not finite as null); still an error like every other, a problem.
            Err(error) => {
                tracing::error!(%error, "an answer could not be encoded");
                Problem::http(
                    500,
                    "the answer could not be encoded; the failure is logged",
                )
                .into_response()
            }
        }
    }
}

/// A `200 OK` with `body`, JSON already encoded, as its `application/json` body.
pub(super) fn encoded(body: Vec<u8>) -> Response {
    (
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        )],
        body,
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A value serde_json cannot write: a map whose keys are not strings.
    fn unencodable() -> std::collections::BTreeMap<(u8, u8), u8> {
        [((1, 2), 3)].into()
    }

    #[tokio::test]
    async fn an_answer_that_cannot_be_encoded_is_a_500_problem() {
        let response = Json(unencodable()).into_response();
        assert_eq!(response.status(), 500);
        assert_eq!(
            response.headers()[header::CONTENT_TYPE],
            "application/problem+json"
        );
        let body = axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .unwrap();
        let problem: serde_json::Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(problem["status"], 500);
    }
}
