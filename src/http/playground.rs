//! `GET /`: the playground, one page embedded in the binary.
//!
//! Everything it needs is in the page itself (styles and script inline) or comes from this
//! service's API, so it works offline and from a container with no other server; the content
//! security policy says so to the browser, which refuses anything from elsewhere.

use axum::http::header;
use axum::response::IntoResponse;

const PAGE: &str = include_str!("playground.html");

/// Only this origin, and the page's own inline style and script.
const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'unsafe-inline'; \
     style-src 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; \
     form-action 'none'; frame-ancestors 'none'";

pub async fn get_page() -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        PAGE,
    )
}
