//! Conditional GET for the documents built into the binary (the playground page and
//! `openapi.yaml`): each answer carries an `ETag`, and a request whose `If-None-Match` holds it
//! is answered 304 with no body.
//!
//! The playground is sent with `cache-control: no-cache`, so that a browser asks again on every
//! visit and a new build's page is seen at once; with a tag to ask with, that costs a 304 instead
//! of the page's 23 KB. A document can change only with the binary, so its tag is a hash of its
//! bytes, taken at compile time.

use axum::http::{HeaderMap, HeaderName, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use super::header_list;

/// A document built into the binary, with its entity tag. Kept in a `static`, so that its
/// answers can borrow the tag.
pub struct Document {
    body: &'static str,
    /// The headers of a full answer besides the tag (content type, caching), by their
    /// lowercase names.
    headers: &'static [(&'static str, &'static str)],
    etag: [u8; 18],
}

impl Document {
    pub const fn new(body: &'static str, headers: &'static [(&'static str, &'static str)]) -> Self {
        Document {
            body,
            headers,
            etag: tag(body),
        }
    }

    /// The document, or 304 when the client holds it already.
    pub fn answer(&'static self, request: &HeaderMap) -> Response {
        let etag = std::str::from_utf8(&self.etag).expect("a tag is hex digits in quotes");
        let held = holds(request, etag);
        let mut response = if held {
            StatusCode::NOT_MODIFIED.into_response()
        } else {
            self.body.into_response()
        };
        let headers = response.headers_mut();
        headers.insert(header::ETAG, HeaderValue::from_static(etag));
        for (name, value) in self.headers {
            // A 304 repeats only the headers that say how to cache (RFC 9110, section 15.4.5).
            if !held || *name == header::CACHE_CONTROL {
                headers.insert(
                    HeaderName::from_static(name),
                    HeaderValue::from_static(value),
                );
            }
        }
        response
    }
}

/// The strong entity tag of `body`: its 64-bit FNV-1a hash in hex, quoted. A hash is enough, as
/// a tag need only change when the document does; FNV-1a is short enough to run in a `const`.
const fn tag(body: &str) -> [u8; 18] {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let bytes = body.as_bytes();
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut i = 0;
    while i < bytes.len() {
        hash ^= bytes[i] as u64;
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        i += 1;
    }
    let mut tag = [b'"'; 18];
    let mut digit = 0;
    while digit < 16 {
        tag[16 - digit] = HEX[(hash >> (4 * digit) & 0xf) as usize];
        digit += 1;
    }
    tag
}

/// Whether the request's `If-None-Match` names `etag` (or is `*`). The comparison is the weak
/// one RFC 9110 (section 13.1.2) asks for here: `W/"x"` matches `"x"`.
fn holds(request: &HeaderMap, etag: &str) -> bool {
    request
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .flat_map(header_list::elements)
        .any(|tag| tag == b"*" || tag.strip_prefix(b"W/").unwrap_or(tag) == etag.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    static PAGE: Document = Document::new("<p>hello</p>", &[("cache-control", "no-cache")]);

    fn request(if_none_match: &[&str]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for value in if_none_match {
            headers.append(header::IF_NONE_MATCH, HeaderValue::from_str(value).unwrap());
        }
        headers
    }

    #[test]
    fn the_tag_is_the_quoted_fnv1a_hash() {
        // FNV-1a's published 64-bit values: the empty string is the offset basis; "a" is
        // af63dc4c8601ec8c.
        assert_eq!(&tag(""), b"\"cbf29ce484222325\"");
        assert_eq!(&tag("a"), b"\"af63dc4c8601ec8c\"");
        assert_ne!(tag("<p>hello</p>"), tag("<p>hello!</p>"));
    }

    #[test]
    fn a_request_holding_the_tag_gets_304_and_others_the_document() {
        let etag = std::str::from_utf8(&PAGE.etag).unwrap();
        let weak = format!("W/{etag}");
        let listed = format!("\"other\", {etag}");
        for held in [
            vec![etag],
            vec![weak.as_str()],
            vec![listed.as_str()],
            vec!["\"other\"", etag],
            vec!["*"],
        ] {
            let response = PAGE.answer(&request(&held));
            assert_eq!(response.status(), StatusCode::NOT_MODIFIED, "{held:?}");
            assert_eq!(response.headers()[header::ETAG], etag);
            assert_eq!(response.headers()[header::CACHE_CONTROL], "no-cache");
            assert_eq!(response.headers().get(header::CONTENT_TYPE), None);
        }
        for held in [vec![], vec!["\"other\""], vec![&etag[1..17]]] {
            let response = PAGE.answer(&request(&held));
            assert_eq!(response.status(), StatusCode::OK, "{held:?}");
            assert_eq!(response.headers()[header::ETAG], etag);
            assert_eq!(response.headers()[header::CACHE_CONTROL], "no-cache");
        }
    }
}
