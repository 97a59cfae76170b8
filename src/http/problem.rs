//! Problems as HTTP responses, and problem bodies for the errors axum answers by itself.

use axum::body::Body;
use axum::extract::Request;
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
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

/// Gives a problem+json body to the error responses that axum and tower-http make themselves
/// (wrong method, a body they refuse, ...), so that every error has the same shape. Headers are
/// kept. The methods a 405 names come from the routes table: this layer runs inside axum's
/// method router, before it adds the `Allow` header.
pub(super) async fn bare_errors_as_problems(request: Request, next: Next) -> Response {
    let path = request.uri().path().to_owned();
    let response = next.run(request).await;
    let status = response.status();
    let is_problem = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|value| value.as_bytes() == PROBLEM_JSON.as_bytes());
    if !(status.is_client_error() || status.is_server_error()) || is_problem {
        return response;
    }
    let detail = match status {
        StatusCode::METHOD_NOT_ALLOWED => {
            let allowed: Vec<String> = super::routes()
                .into_iter()
                .filter(|(route, _, _)| *route == path)
                .map(|(_, method, _)| method.to_string())
                .collect();
            format!("{path} answers only {}", allowed.join(", "))
        }
        _ => status.canonical_reason().unwrap_or("error").to_owned(),
    };
    let title = status.canonical_reason().unwrap_or("Error");
    let (mut parts, _) = response.into_parts();
    let problem = Problem::http(status.as_u16(), title, detail);
    parts
        .headers
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(PROBLEM_JSON));
    parts.headers.remove(header::CONTENT_LENGTH);
    Response::from_parts(
        parts,
        Body::from(serde_json::to_vec(&problem).expect("a problem serialises")),
    )
}
