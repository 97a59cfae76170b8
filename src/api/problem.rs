//! Errors as RFC 9457 problem details, the one error type of the API.
//!
//! Every problem's `type` is one of [`PROBLEM_TYPES`]: a path under `/problems/` that the
//! service itself serves (`GET /problems/invalid-request`), saying in plain words what the
//! problem means and what to do about it. A relative reference, so it resolves against
//! whichever address the service is reached at.

use serde::Serialize;

/// One kind of problem: its `type`, HTTP status, title, and what it means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProblemType {
    /// The `type` member: `/problems/` and a name.
    pub uri: &'static str,
    pub status: u16,
    pub title: &'static str,
    /// What it means and what to do, served at [`ProblemType::uri`].
    pub description: &'static str,
}

impl ProblemType {
    /// The name after `/problems/`.
    pub fn name(&self) -> &'static str {
        self.uri.trim_start_matches("/problems/")
    }

    /// The kind of problem named `name` (the part after `/problems/`).
    pub fn named(name: &str) -> Option<&'static ProblemType> {
        PROBLEM_TYPES.iter().find(|kind| kind.name() == name)
    }

    /// The kind of problem answered with `status`; a status no kind has is an internal error.
    fn of_status(status: u16) -> &'static ProblemType {
        PROBLEM_TYPES
            .iter()
            .find(|kind| kind.status == status && kind.uri != MALFORMED.uri)
            .unwrap_or(&INTERNAL)
    }
}

const MALFORMED: ProblemType = ProblemType {
    uri: "/problems/malformed-request",
    status: 400,
    title: "Malformed request",
    description: "The body is not JSON, or not of the request's shape: a field has the wrong \
        type (a string where a number belongs, say), a field is unknown (often a misspelling: \
        the detail names the fields there are), or a field is given twice. `field` says where. \
        Fix the request's shape; GET /openapi.yaml describes every request.",
};

const INVALID: ProblemType = ProblemType {
    uri: "/problems/invalid-request",
    status: 422,
    title: "Invalid request",
    description: "The request is well-formed JSON of the right shape, but it makes no sense: a \
        board with a bad character or an impossible position, an illegal move, a game that is \
        already over, an unknown game or algorithm, a knob out of its range or not taken by the \
        algorithm. `detail` says what is wrong and `field` which field. GET /algorithms?game=... \
        gives every knob's limits for a game.",
};

const INTERNAL: ProblemType = ProblemType {
    uri: "/problems/internal-error",
    status: 500,
    title: "Internal error",
    description: "The service failed while answering. The failure is logged with the request; \
        the service itself goes on answering. Please report it, with the request.",
};

/// Every kind of problem the service answers with.
pub const PROBLEM_TYPES: &[ProblemType] = &[
    MALFORMED,
    INVALID,
    ProblemType {
        uri: "/problems/not-found",
        status: 404,
        title: "Not found",
        description: "No route has this path. A path that looks like a slip (/move/, /Move, \
            /analyse) is answered with the route probably meant; GET /openapi.yaml lists them.",
    },
    ProblemType {
        uri: "/problems/not-acceptable",
        status: 406,
        title: "Not acceptable",
        description: "The answer cannot take the form the Accept header asks for: a \
            tournament's games come as one file only in a record format of its game that holds \
            many games (GET /games lists each game's `records`; chess's PGN, \
            application/x-chess-pgn); otherwise tournaments answer JSON (application/json, or \
            application/x-ndjson for their progress).",
    },
    ProblemType {
        uri: "/problems/method-not-allowed",
        status: 405,
        title: "Method not allowed",
        description: "The route exists but takes another method; the `Allow` header says which \
            (POST for /move, /analyze and /tournament, GET for the others).",
    },
    ProblemType {
        uri: "/problems/body-timeout",
        status: 408,
        title: "Body timeout",
        description: "The request body stopped arriving: it was not whole within the read \
            timeout (`read_timeout_ms` in GET /limits) after the request head, often because \
            content-length promised more bytes than were sent. The connection is closed.",
    },
    ProblemType {
        uri: "/problems/body-too-large",
        status: 413,
        title: "Body too large",
        description: "The request body is larger than the service takes (`max_body_bytes` in \
            GET /limits); no request needs that much.",
    },
    ProblemType {
        uri: "/problems/unsupported-media-type",
        status: 415,
        title: "Unsupported media type",
        description: "The body must be JSON, declared `content-type: application/json` (curl -d \
            sends a form unless told `-H 'content-type: application/json'`), and not \
            compressed.",
    },
    INTERNAL,
    ProblemType {
        uri: "/problems/overloaded",
        status: 503,
        title: "Overloaded",
        description: "Every slot for CPU-heavy work (tournaments, analyses, large searches) is \
            taken, and the queue for them is full or would keep this request waiting longer than \
            the service's queue limit (`queue_limit_ms` in `GET /limits`). Try again after \
            `Retry-After` seconds, which the service reckons from its queue. Light requests are \
            never refused this way.",
    },
    ProblemType {
        uri: "/problems/rate-limited",
        status: 429,
        title: "Too many requests",
        description: "This client has gone past one of its own limits: its requests a second, \
            its CPU-seconds of heavy work a minute, or its heavy requests waiting at once (the \
            problem's detail names which). The `RateLimit-Policy` and `RateLimit` headers of \
            every answer say the limits and what is left of them, and `GET /limits` says the \
            policy in force. Try again after `Retry-After` seconds; other clients are not \
            affected.",
    },
    ProblemType {
        uri: "/problems/unauthorized",
        status: 401,
        title: "Unauthorized",
        description: "The request gave an API key the service does not know, or gave none for \
            a route its operator keeps for clients with a key. Send `Authorization: Bearer KEY` \
            with a key the operator gave you; `GET /limits` lists the routes open without one.",
    },
];

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
            kind: MALFORMED.uri,
            title: MALFORMED.title,
            status: MALFORMED.status,
            detail: detail.into(),
            field: None,
            headers: Vec::new(),
        }
    }

    /// 422: well-formed, but it makes no sense (a bad board, a knob out of range, ...).
    pub fn invalid(field: impl Into<String>, detail: impl Into<String>) -> Self {
        Problem {
            kind: INVALID.uri,
            title: INVALID.title,
            status: INVALID.status,
            detail: detail.into(),
            field: Some(field.into()),
            headers: Vec::new(),
        }
    }

    /// An HTTP error (404, 405, 413, ...): the kind of problem of its status in
    /// [`PROBLEM_TYPES`] (an internal error for a status none has).
    pub fn http(status: u16, detail: impl Into<String>) -> Self {
        let kind = ProblemType::of_status(status);
        Problem {
            kind: kind.uri,
            title: kind.title,
            status: kind.status,
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
