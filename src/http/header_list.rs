//! The elements of a header whose value is a comma-separated list (RFC 9110, section 5.6.1),
//! such as `Content-Encoding` and `If-None-Match`.
//!
//! Read as bytes, not text: a value may hold bytes that are not UTF-8 (obs-text), and the
//! elements that matter here are ASCII tokens or quoted tags, so nothing is gained by decoding.

use axum::http::HeaderValue;

/// The elements of one header line, without their surrounding whitespace. Empty elements are
/// skipped, since the list syntax lets a sender write them and they count for nothing
/// (`gzip, , br` is the two codings `gzip` and `br`).
pub fn elements(value: &HeaderValue) -> impl Iterator<Item = &[u8]> {
    value
        .as_bytes()
        .split(|&byte| byte == b',')
        .map(<[u8]>::trim_ascii)
        .filter(|element| !element.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(value: &[u8]) -> Vec<Vec<u8>> {
        let value = HeaderValue::from_bytes(value).unwrap();
        elements(&value).map(<[u8]>::to_vec).collect()
    }

    #[test]
    fn elements_are_trimmed_and_empty_ones_skipped() {
        assert_eq!(list(b"gzip"), [b"gzip"]);
        assert_eq!(list(b" gzip ,\tbr"), [b"gzip".as_slice(), b"br"]);
        assert_eq!(list(b"gzip, , br,"), [b"gzip".as_slice(), b"br"]);
        assert!(list(b"").is_empty());
        assert!(list(b" , ,").is_empty());
    }

    #[test]
    fn bytes_that_are_not_utf8_stay_in_their_element() {
        assert_eq!(list(b"\"a\xff\", *"), [b"\"a\xff\"".as_slice(), b"*"]);
    }
}
