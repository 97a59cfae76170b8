//! API keys: optional, given by the operator in a file or the environment, each with a name and
//! limits of its own. A request names its key as `Authorization: Bearer KEY`.
//!
//! A key is compared with every configured key in time that depends on neither (no early exit
//! on the first differing byte, nor on the first key that matches), so that answer times say
//! nothing of how much of a guess was right. Keys are never logged and never echoed: the log
//! names a key's client by its fingerprint, a hash of the key.

use std::hash::{Hash, Hasher};

use super::limits::ClientLimits;

/// The shortest key accepted: 128 bits of hexadecimal, as `openssl rand -hex 16` makes.
pub const MIN_KEY_LENGTH: usize = 32;

/// One key, its name and its limits.
#[derive(Clone)]
pub struct ApiKey {
    pub name: String,
    secret: Box<[u8]>,
    pub fingerprint: u64,
    pub limits: ClientLimits,
}

impl std::fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ApiKey")
            .field("name", &self.name)
            .field("fingerprint", &format_args!("{:016x}", self.fingerprint))
            .field("limits", &self.limits)
            .finish_non_exhaustive()
    }
}

/// The configured keys; none means the service is open as without keys.
#[derive(Clone, Debug, Default)]
pub struct ApiKeys {
    keys: Vec<ApiKey>,
}

impl ApiKeys {
    /// Reads keys from `text`: a key a line (or separated by `;`, as an environment variable
    /// holds them), as `NAME KEY [requests_per_second=N] [cpu_seconds_per_minute=N]
    /// [queue=N]`; blank lines and lines starting with `#` are skipped. A limit left out is
    /// `defaults`'; `none` for either rate lifts it.
    pub fn parse(text: &str, defaults: ClientLimits) -> Result<ApiKeys, String> {
        let mut keys: Vec<ApiKey> = Vec::new();
        for (number, line) in text.split(['\n', ';']).enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let at = || {
                format!(
                    "API key {} ({line_start}...)",
                    number + 1,
                    line_start = name_of(line)
                )
            };
            let mut words = line.split_whitespace();
            let (Some(name), Some(secret)) = (words.next(), words.next()) else {
                return Err(format!("{}: a key is NAME KEY [LIMIT=VALUE ...]", at()));
            };
            if secret.len() < MIN_KEY_LENGTH {
                return Err(format!(
                    "{}: a key has at least {MIN_KEY_LENGTH} characters (openssl rand -hex 16 makes one)",
                    at()
                ));
            }
            if !secret.bytes().all(|byte| byte.is_ascii_graphic()) {
                return Err(format!("{}: a key is printable ASCII", at()));
            }
            let mut limits = defaults;
            for setting in words {
                limits
                    .set(setting)
                    .map_err(|error| format!("{}: {error}", at()))?;
            }
            if keys.iter().any(|key| key.name == name) {
                return Err(format!("{}: the name {name:?} is given twice", at()));
            }
            if keys.iter().any(|key| *key.secret == *secret.as_bytes()) {
                return Err(format!("{}: its key is another's too", at()));
            }
            keys.push(ApiKey {
                name: name.to_owned(),
                fingerprint: fingerprint(secret.as_bytes()),
                secret: secret.as_bytes().into(),
                limits,
            });
        }
        Ok(ApiKeys { keys })
    }

    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    pub fn len(&self) -> usize {
        self.keys.len()
    }

    pub fn get(&self, index: u32) -> Option<&ApiKey> {
        self.keys.get(index as usize)
    }

    pub fn iter(&self) -> impl Iterator<Item = &ApiKey> {
        self.keys.iter()
    }

    /// The index of the key `presented` is, compared with every key in constant time.
    pub fn find(&self, presented: &[u8]) -> Option<u32> {
        let mut found = u32::MAX;
        for (index, key) in self.keys.iter().enumerate() {
            let equal = constant_time_eq(&key.secret, presented);
            // Keys are distinct, so at most one matches; a select without a branch on it.
            let mask = (equal as u32).wrapping_neg();
            found = (found & !mask) | (index as u32 & mask);
        }
        (found != u32::MAX).then_some(found)
    }
}

/// The first word of a line, the key's name, for a message that must not show the key.
fn name_of(line: &str) -> &str {
    line.split_whitespace().next().unwrap_or("")
}

/// Whether `a` and `b` are equal, in time that depends only on the longer's length.
fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    let length = a.len().max(b.len());
    let mut difference = (a.len() ^ b.len()) as u64;
    for index in 0..length {
        let x = a.get(index).copied().unwrap_or(0);
        let y = b.get(index).copied().unwrap_or(0);
        difference |= u64::from(x ^ y);
    }
    std::hint::black_box(difference) == 0
}

/// A key's fingerprint for the log: SipHash of the key, which names the client from one line
/// to the next and says nothing of the key.
fn fingerprint(secret: &[u8]) -> u64 {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    secret.hash(&mut hasher);
    hasher.finish()
}

/// The key of an `Authorization` header's value, if it is a bearer token (the scheme's name
/// in any case, as RFC 9110 has it).
pub fn bearer(value: &[u8]) -> Option<&[u8]> {
    let (scheme, token) = value.split_at_checked(7)?;
    scheme
        .eq_ignore_ascii_case(b"bearer ")
        .then(|| token.trim_ascii())
}

#[cfg(test)]
mod tests {
    use super::*;

    const RUNNER: &str = "0123456789abcdef0123456789abcdef";
    const PAGE: &str = "fedcba9876543210fedcba9876543210";

    #[test]
    fn keys_are_read_with_their_limits_and_found_by_their_value() {
        let defaults = ClientLimits::default();
        let keys = ApiKeys::parse(
            &format!(
                "# the keys\nrunner {RUNNER} cpu_seconds_per_minute=600 queue=16\n\npage {PAGE}\n"
            ),
            defaults,
        )
        .unwrap();
        assert_eq!(keys.len(), 2);
        assert_eq!(keys.find(RUNNER.as_bytes()), Some(0));
        assert_eq!(keys.find(PAGE.as_bytes()), Some(1));
        assert_eq!(keys.find(b"0123456789abcdef0123456789abcdeX"), None);
        assert_eq!(keys.find(b""), None);
        let runner = keys.get(0).unwrap();
        assert_eq!(runner.limits.cpu_seconds_per_minute, Some(600));
        assert_eq!(runner.limits.queue, 16);
        assert_eq!(
            runner.limits.requests_per_second,
            defaults.requests_per_second
        );
        assert_eq!(keys.get(1).unwrap().limits, defaults);
        let same = ApiKeys::parse(&format!("a {RUNNER}; b {PAGE}"), defaults).unwrap();
        assert_eq!(same.len(), 2, "separated by ;, as in the environment");
    }

    #[test]
    fn bad_keys_are_refused_without_showing_them() {
        let defaults = ClientLimits::default();
        for (text, says) in [
            ("short abc", "at least 32"),
            ("lonely", "NAME KEY"),
            (&format!("a {RUNNER}\na {PAGE}") as &str, "given twice"),
            (&format!("a {RUNNER}\nb {RUNNER}"), "another's"),
            (&format!("a {RUNNER} speed=3"), "speed"),
        ] {
            let error = ApiKeys::parse(text, defaults).unwrap_err();
            assert!(error.contains(says), "{text}: {error}");
            assert!(!error.contains(RUNNER) && !error.contains(PAGE), "{error}");
        }
    }

    #[test]
    fn bearer_tokens_are_read_in_any_case() {
        assert_eq!(bearer(b"Bearer abc"), Some(&b"abc"[..]));
        assert_eq!(bearer(b"bearer  abc "), Some(&b"abc"[..]));
        assert_eq!(bearer(b"Basic abc"), None);
        assert_eq!(bearer(b"Bear"), None);
    }

    #[test]
    fn constant_time_equality_is_equality() {
        assert!(constant_time_eq(b"abc", b"abc"));
        assert!(!constant_time_eq(b"abc", b"abd"));
        assert!(!constant_time_eq(b"abc", b"abcd"));
        assert!(!constant_time_eq(b"", b"a"));
        assert!(constant_time_eq(b"", b""));
    }
}
