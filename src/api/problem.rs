//! Errors as RFC 9457 problem details, the one error type of the API.

use serde::Serialize;

/// A problem detail: what went wrong, where, and the HTTP status it maps to.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Problem {
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub title: &'static str,
    pub status: u16,
    pub detail: String,
    /// The request field at fault, as a JSON path (`players[1].depth`), when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// Headers the answer carries besides the problem itself, by their lowercase names: a 503
    /// says when to try again (`retry-after`), a 415 about a compressed body which codings are
    /// accepted (`accept-encoding`, as RFC 9110 section 15.5.16 asks). Names and values as text,
    /// so that this layer knows nothing of the HTTP types.
    #[serde(skip)]
    pub headers: Vec<(&'static str, String)>,
}

impl Problem {
    /// 400: the body is not JSON, or not of the request's shape (a wrong type, an unknown
    /// field). The decoder sets `field` when it knows where.
    pub fn malformed(detail: impl Into<String>) -> Self {
        Problem {
            kind: "/problems/malformed-request",
            title: "Malformed request",
            status: 400,
            detail: detail.into(),
            field: None,
            headers: Vec::new(),
        }
    }

    /// 422: well-formed, but it makes no sense (a bad board, a knob out of range, ...).
    pub fn invalid(field: impl Into<String>, detail: impl Into<String>) -> Self {
        Problem {
            kind: "/problems/invalid-request",
            title: "Invalid request",
            status: 422,
            detail: detail.into(),
            field: Some(field.into()),
            headers: Vec::new(),
        }
    }

    /// A plain HTTP error (404, 405, 413, ...), titled by its status.
    pub fn http(status: u16, title: &'static str, detail: impl Into<String>) -> Self {
        Problem {
            kind: "about:blank",
            title,
            status,
            detail: detail.into(),
            field: None,
            headers: Vec::new(),
        }
    }

    /// The problem, answered with one more header (see [`Problem::headers`]).
    pub fn with_header(mut self, name: &'static str, value: impl Into<String>) -> Self {
        self.headers.push((name, value.into()));
        self
    }

    /// Puts the problem under a parent field: `depth` becomes `players[1].depth`.
    pub fn within(mut self, parent: &str) -> Self {
        self.field = Some(match self.field {
            Some(field) if field.starts_with('[') => format!("{parent}{field}"),
            Some(field) => format!("{parent}.{field}"),
            None => parent.to_owned(),
        });
        self
    }
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.field {
            Some(field) => write!(f, "{} ({}): {}", self.title, field, self.detail),
            None => write!(f, "{}: {}", self.title, self.detail),
        }
    }
}

impl std::error::Error for Problem {}
