//! Problems as HTTP responses, and the problems for what no handler answers: a panic, a
//! failed blocking task, a path no route has, a method a route does not take.

use axum::http::{HeaderName, HeaderValue, Method, StatusCode, header};
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
        for (name, value) in self.headers {
            // The names and values are the server's own (see `Problem::headers`), so a bad one
            // is a bug to log, not a reason to lose the answer.
            match (HeaderName::try_from(name), HeaderValue::try_from(value)) {
                (Ok(name), Ok(value)) => {
                    response.headers_mut().insert(name, value);
                }
                _ => tracing::error!(header = name, "a problem's header is not valid HTTP"),
            }
        }
        response
    }
}

/// The answer to a handler that panicked: a 500 problem, the panic logged in the request's
/// span (the trace layer's), so the log says which request it was. The server lives on.
pub(super) fn panicked(panic: Box<dyn std::any::Any + Send + 'static>) -> Response {
    let message = crate::api::panic_message(panic.as_ref());
    tracing::error!(panic = %message, "a handler panicked");
    Problem::http(
        500,
        "the server failed while answering; the failure is logged",
    )
    .into_response()
}

/// The problem for a blocking task that panicked or was cancelled, logged the same way.
pub(super) fn task_failed(error: tokio::task::JoinError) -> Problem {
    tracing::error!(%error, "a blocking task failed");
    Problem::http(
        500,
        "the server failed while answering; the failure is logged",
    )
}

/// The answer to a method the route at `path` does not take: each route's method fallback
/// (see [`super::app`], which knows the method it does take), so that this error is a problem
/// like every other. axum adds the `Allow` header to it.
pub(super) fn method_not_allowed(path: &str, allowed: &Method) -> Problem {
    Problem::http(405, format!("{path} answers only {allowed}"))
}

/// The answer to a path no route has, naming the route that was probably meant: `/move/`,
/// `/Move`, `/health` and `/analyse` are the usual slips, and a bare 404 does not say which
/// part of the address is wrong.
pub(super) fn not_found(path: &str, routes: &[&str]) -> Problem {
    let detail = match closest_route(path, routes) {
        Some(route) => {
            format!("no such route; did you mean {route}? GET /openapi.yaml describes the API")
        }
        None => "no such route: GET /openapi.yaml describes the API".to_owned(),
    };
    Problem::http(404, detail)
}

/// The route most like `path`, if one is like enough: compared without case and trailing
/// slashes, by Jaro-Winkler similarity (which weighs a shared beginning, as in `/health` and
/// `/healthz`). The root is never suggested: every short path is a slip away from it.
fn closest_route<'a>(path: &str, routes: &[&'a str]) -> Option<&'a str> {
    let path = path.to_ascii_lowercase();
    let path = path.trim_end_matches('/');
    routes
        .iter()
        .filter(|&&route| route != "/")
        .map(|&route| (strsim::jaro_winkler(path, route), route))
        .filter(|&(similarity, _)| similarity > 0.85)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, route)| route)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The router's own paths, as `app` gives them to the 404.
    fn routes() -> Vec<&'static str> {
        crate::http::routes()
            .into_iter()
            .map(|(path, ..)| path)
            .collect()
    }

    #[test]
    fn a_slip_in_the_path_names_the_route_meant() {
        for (path, meant) in [
            ("/move/", "/move"),
            ("/MOVE", "/move"),
            ("/mvoe", "/move"),
            ("/health", "/healthz"),
            ("/analyse", "/analyze"),
            ("/tournaments", "/tournament"),
            ("/algorithm", "/algorithms"),
            ("/game", "/games"),
            ("/openapi.json", "/openapi.yaml"),
            ("/metric", "/metrics"),
        ] {
            assert_eq!(closest_route(path, &routes()), Some(meant), "{path}");
        }
    }

    #[test]
    fn a_path_like_no_route_names_none() {
        for path in [
            "/nowhere",
            "/x",
            "/api",
            "/index.html",
            "/docs",
            "/v1/move",
            "/status",
        ] {
            assert_eq!(closest_route(path, &routes()), None, "{path}");
        }
    }
}
