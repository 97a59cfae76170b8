//! `GET /`: the playground, one page embedded in the binary.
//!
//! Everything it needs is in the page itself (styles and script inline) or comes from this
//! service's API, so it works offline and from a container with no other server; the content
//! security policy says so to the browser, which refuses anything from elsewhere.

use axum::http::HeaderMap;
use axum::response::Response;

use super::etag::Document;

/// Only this origin, and the page's own inline style and script.
const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'unsafe-inline'; \
     style-src 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; \
     form-action 'none'; frame-ancestors 'none'";

/// Asked for again on every visit (`no-cache`), so that a new build's page is seen at once;
/// its tag makes that a 304 while the page is the same.
static PAGE: Document = Document::new(
    include_str!("playground.html"),
    &[
        ("content-type", "text/html; charset=utf-8"),
        ("content-security-policy", CONTENT_SECURITY_POLICY),
        ("cache-control", "no-cache"),
    ],
);

pub async fn get_page(request: HeaderMap) -> Response {
    PAGE.answer(&request)
}
