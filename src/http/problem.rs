//! Problems as HTTP responses, and the problems for what no handler answers: a panic, a
//! failed blocking task, a method a route does not take.

use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};

use crate::api::Problem;

const PROBLEM_JSON: &str = "application/problem+json";

impl IntoResponse for Problem {
    fn into_response(self) -> Response {
        let status = StatusCode::from_u16(self.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        let body = serde_json::to_vec(&self).expect("a problem serialises");
        let mut response = (
            status,
            [(header::CONTENT_TYPE, HeaderValue::from_static(PROBLEM_JSON))],
            body,
        )
            .into_response();
        if let Some(seconds) = self.retry_after {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        }
        response
    }
}

/// The answer to a handler that panicked: a 500 problem, the panic logged in the request's
/// span (the trace layer's), so the log says which request it was. The server lives on.
pub(super) fn panicked(panic: Box<dyn std::any::Any + Send + 'static>) -> Response {
    let message = panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".to_owned());
    tracing::error!(panic = %message, "a handler panicked");
    Problem::http(
        500,
        "Internal Server Error",
        "the server failed while answering; the failure is logged",
    )
    .into_response()
}

/// The problem for a blocking task that panicked or was cancelled, logged the same way.
pub(super) fn task_failed(error: tokio::task::JoinError) -> Problem {
    tracing::error!(%error, "a blocking task failed");
    Problem::http(
        500,
        "Internal Server Error",
        "the server failed while answering; the failure is logged",
    )
}

/// The answer to a method the route at `path` does not take: each route's method fallback
/// (see [`super::app`], which knows the method it does take), so that this error is a problem
/// like every other. axum adds the `Allow` header to it.
pub(super) fn method_not_allowed(path: &str, allowed: &Method) -> Problem {
    Problem::http(
        405,
        "Method Not Allowed",
        format!("{path} answers only {allowed}"),
    )
}
