//! The JSON request body: at most [`MAX_BODY_BYTES`], of a JSON content type, not compressed,
//! arrived within [`AppState::read_timeout`], a leading byte-order mark dropped.
//!
//! axum's own `Json` extractor answers its rejections in plain text; this one answers with a
//! [`Problem`], and leaves the decoding to [`crate::api::request`], which knows which errors are
//! 400 and which 422.
//!
//! The body is read frame by frame rather than through axum's `Bytes` extractor, which wraps it
//! in a boxed size limit and collects it into a list of chunks. Nearly every request body
//! arrives as one frame, already whole when the handler runs: that frame is the answer, and
//! hyper's `is_end_stream` (the declared length is used up) says so without polling again,
//! which spares every request an allocation and a poll (`cargo bench --bench api` measures
//! /move's work besides HTTP).

use axum::body::{Body, Bytes};
use axum::extract::{FromRequest, Request};
use axum::http::{HeaderMap, header};
use http_body_util::BodyExt;
use hyper::body::Body as _;

use super::{AppState, header_list};
use crate::api::Problem;

/// Largest accepted body; larger ones are refused with 413.
pub const MAX_BODY_BYTES: usize = 64 * 1024;

pub struct JsonBody(pub Bytes);

impl FromRequest<AppState> for JsonBody {
    type Rejection = Problem;

    async fn from_request(request: Request, state: &AppState) -> Result<Self, Problem> {
        check_content_type(request.headers())?;
        check_not_compressed(request.headers())?;
        let body = request.into_body();
        // A declared length over the limit is refused before anything is read.
        if body
            .size_hint()
            .lower()
            .try_into()
            .map_or(true, |length: usize| length > MAX_BODY_BYTES)
        {
            return Err(too_large());
        }
        match tokio::time::timeout(state.read_timeout, read(body)).await {
            Ok(body) => body.map(|body| JsonBody(without_byte_order_mark(body))),
            Err(_) => Err(Problem::http(
                408,
                format!(
                    "the body did not arrive within {} s",
                    state.read_timeout.as_secs_f64()
                ),
            )),
        }
    }
}

fn check_content_type(headers: &HeaderMap) -> Result<(), Problem> {
    let Some(value) = headers.get(header::CONTENT_TYPE) else {
        return Err(unsupported_media_type("the request has no content-type"));
    };
    // The essence is what comes before any parameter (`; charset=utf-8`). It is compared as
    // bytes: header values may hold bytes that are not UTF-8, and every request pays this check,
    // which would otherwise decode the value into a `String` first.
    let essence = value
        .as_bytes()
        .split(|&byte| byte == b';')
        .next()
        .unwrap_or_default();
    let essence = essence.trim_ascii();
    if essence.eq_ignore_ascii_case(b"application/json") || essence.ends_with(b"+json") {
        return Ok(());
    }
    // The usual way to get here: `curl -d` declares its body a form unless told otherwise.
    let hint = if essence.eq_ignore_ascii_case(b"application/x-www-form-urlencoded") {
        " (curl -d sends that unless given -H 'content-type: application/json')"
    } else {
        ""
    };
    // The header's own escaping shows any byte that is not printable ASCII as `\xNN`.
    Err(unsupported_media_type(format_args!("got {value:?}{hint}")))
}

/// Refuses a body sent with a content coding (`content-encoding: gzip`, say) with 415, as RFC
/// 9110 (section 8.4) allows a server that does not decode it. Without this, the compressed
/// bytes went to the JSON decoder, and the client was told "expected value at line 1 column 1"
/// about a body it had sent correctly; or, if the header was wrong and the body plain, the
/// request was answered as if the header were not there. Request bodies here are at most
/// [`MAX_BODY_BYTES`] of JSON, too small for compression to be worth a decoder and a limit on
/// what it inflates.
fn check_not_compressed(headers: &HeaderMap) -> Result<(), Problem> {
    for value in headers.get_all(header::CONTENT_ENCODING) {
        // `identity` means no coding (RFC 9110 reserves it).
        let coded =
            header_list::elements(value).any(|coding| !coding.eq_ignore_ascii_case(b"identity"));
        if coded {
            return Err(Problem::http(
                415,
                format!(
                    "the body must not be compressed: got content-encoding {value:?}; send \
                     the JSON as it is, without a content-encoding"
                ),
            )
            .with_header("accept-encoding", "identity"));
        }
    }
    Ok(())
}

fn unsupported_media_type(what_came: impl std::fmt::Display) -> Problem {
    Problem::http(
        415,
        format!("the body must be JSON with content-type application/json; {what_came}"),
    )
}

/// The whole body, refused with 413 as soon as it grows past [`MAX_BODY_BYTES`].
async fn read(mut body: Body) -> Result<Bytes, Problem> {
    let mut whole = Bytes::new();
    // Only when a body comes in more than one frame are they copied together.
    let mut joined: Option<Vec<u8>> = None;
    while !body.is_end_stream() {
        let Some(frame) = body.frame().await else {
            break;
        };
        let frame = frame
            .map_err(|error| Problem::malformed(format!("the body could not be read: {error}")))?;
        // Trailers carry nothing a JSON body needs.
        let Ok(chunk) = frame.into_data() else {
            continue;
        };
        let length = joined.as_ref().map_or(whole.len(), Vec::len) + chunk.len();
        if length > MAX_BODY_BYTES {
            return Err(too_large());
        }
        match &mut joined {
            Some(buffer) => buffer.extend_from_slice(&chunk),
            None if whole.is_empty() => whole = chunk,
            None => {
                let mut buffer = Vec::with_capacity(length);
                buffer.extend_from_slice(&whole);
                buffer.extend_from_slice(&chunk);
                joined = Some(buffer);
            }
        }
    }
    Ok(joined.map_or(whole, Bytes::from))
}

/// `body` without a leading UTF-8 byte-order mark. JSON must not start with one, but parsers may
/// ignore it (RFC 8259, section 8.1), and some Windows tools write one into UTF-8 files
/// (Windows PowerShell's `Out-File -Encoding utf8`): `curl --data-binary @move.json` would
/// otherwise be told "expected value at line 1 column 1" about a file that looks right.
fn without_byte_order_mark(body: Bytes) -> Bytes {
    match body.strip_prefix(b"\xEF\xBB\xBF") {
        Some(rest) => body.slice_ref(rest),
        None => body,
    }
}

fn too_large() -> Problem {
    Problem::http(
        413,
        format!("the body is larger than {MAX_BODY_BYTES} bytes"),
    )
}
