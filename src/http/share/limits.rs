//! What one client may do ([`ClientLimits`]), and the `RateLimit-Policy` and `RateLimit` fields
//! that tell it, as the IETF's draft-ietf-httpapi-ratelimit-headers writes them.

use std::fmt::Write;

use axum::http::HeaderValue;
use serde::Serialize;

use super::bucket::Quota;

/// What one client may do.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ClientLimits {
    /// Requests a second, on any route; `None` lifts the limit.
    pub requests_per_second: Option<u32>,
    /// Seconds of heavy slots a minute (each slot is a core, so CPU-seconds); `None` lifts
    /// the limit.
    pub cpu_seconds_per_minute: Option<u32>,
    /// Heavy requests of this client that may wait for a slot at once; more are refused (429).
    pub queue: usize,
}

/// Default of [`ClientLimits::requests_per_second`]: far above what a person at a front end
/// sends, low enough that one client's flood of light requests leaves the others theirs.
pub const DEFAULT_REQUESTS_PER_SECOND: u32 = 100;

/// Default of [`ClientLimits::cpu_seconds_per_minute`], for each core: half the machine. A
/// client with its whole quota may still use the whole machine for a minute (the quota, and
/// as much again refilled meanwhile); one that keeps at it gets half, and the other half is
/// left for everyone else.
pub const DEFAULT_CPU_SECONDS_PER_MINUTE_PER_CORE: u32 = 30;

/// Default of [`ClientLimits::queue`].
pub const DEFAULT_CLIENT_QUEUE: usize = 4;

impl Default for ClientLimits {
    /// The defaults on a machine of this many cores.
    fn default() -> Self {
        ClientLimits::for_cores(crate::http::available_cores())
    }
}

impl ClientLimits {
    /// The defaults on a machine of `cores` cores.
    pub fn for_cores(cores: usize) -> ClientLimits {
        ClientLimits {
            requests_per_second: Some(DEFAULT_REQUESTS_PER_SECOND),
            cpu_seconds_per_minute: Some(
                DEFAULT_CPU_SECONDS_PER_MINUTE_PER_CORE.saturating_mul(cores.max(1) as u32),
            ),
            queue: DEFAULT_CLIENT_QUEUE,
        }
    }

    /// No limit at all but `queue`'s.
    pub fn unlimited(queue: usize) -> ClientLimits {
        ClientLimits {
            requests_per_second: None,
            cpu_seconds_per_minute: None,
            queue,
        }
    }

    /// Sets one limit from `NAME=VALUE` (`none` lifts a rate).
    pub fn set(&mut self, setting: &str) -> Result<(), String> {
        let (name, value) = setting
            .split_once('=')
            .ok_or_else(|| format!("{setting:?} is not LIMIT=VALUE"))?;
        let rate = || -> Result<Option<u32>, String> {
            if value == "none" {
                return Ok(None);
            }
            value
                .parse::<u32>()
                .ok()
                .filter(|&value| value > 0)
                .map(Some)
                .ok_or_else(|| format!("{name} is a whole number above 0, or none; got {value:?}"))
        };
        match name {
            "requests_per_second" => self.requests_per_second = rate()?,
            "cpu_seconds_per_minute" => self.cpu_seconds_per_minute = rate()?,
            "queue" => {
                self.queue = value
                    .parse()
                    .map_err(|_| format!("queue is a whole number; got {value:?}"))?;
            }
            _ => {
                return Err(format!(
                    "no limit is called {name:?}; there are requests_per_second, cpu_seconds_per_minute and queue"
                ));
            }
        }
        Ok(())
    }

    pub fn requests(&self) -> Option<Quota> {
        self.requests_per_second.map(Quota::per_second)
    }

    pub fn cpu(&self) -> Option<Quota> {
        self.cpu_seconds_per_minute.map(Quota::per_minute)
    }

    /// The `RateLimit-Policy` field of these limits, if they have any: `"requests";q=100;w=1`
    /// and `"cpu";q=60;w=60;qu="cpu-seconds"`.
    pub fn policy_field(&self) -> Option<HeaderValue> {
        let mut field = String::new();
        if let Some(requests) = self.requests_per_second {
            write!(field, "\"{REQUESTS}\";q={requests};w=1").expect("a String");
        }
        if let Some(cpu) = self.cpu_seconds_per_minute {
            if !field.is_empty() {
                field.push_str(", ");
            }
            write!(field, "\"{CPU}\";q={cpu};w=60;qu=\"cpu-seconds\"").expect("a String");
        }
        (!field.is_empty()).then(|| HeaderValue::from_str(&field).expect("ASCII"))
    }
}

/// The policies' names in the fields.
pub const REQUESTS: &str = "requests";
pub const CPU: &str = "cpu";

/// Where a client stands against its limits: the `RateLimit` field's items, each the units
/// left (`r`) and the seconds until the quota is whole again (`t`).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Standing {
    pub requests: Option<(u64, u64)>,
    pub cpu: Option<(u64, u64)>,
}

impl Standing {
    /// `"requests";r=99;t=1, "cpu";r=60;t=0`, if there is anything to say. Written digit by
    /// digit rather than through `format!`, whose machinery cost more than the rest of the
    /// field: every answer carries one.
    pub fn field(&self) -> Option<HeaderValue> {
        let mut field = Vec::with_capacity(48);
        for (name, standing) in [(REQUESTS, self.requests), (CPU, self.cpu)] {
            let Some((remaining, reset)) = standing else {
                continue;
            };
            if !field.is_empty() {
                field.extend_from_slice(b", ");
            }
            field.push(b'"');
            field.extend_from_slice(name.as_bytes());
            field.extend_from_slice(b"\";r=");
            push_decimal(&mut field, remaining);
            field.extend_from_slice(b";t=");
            push_decimal(&mut field, reset);
        }
        (!field.is_empty()).then(|| HeaderValue::from_bytes(&field).expect("ASCII"))
    }
}

/// Appends `value` in decimal.
fn push_decimal(out: &mut Vec<u8>, value: u64) {
    let mut digits = [0u8; 20];
    let mut start = digits.len();
    let mut rest = value;
    loop {
        start -= 1;
        digits[start] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[start..]);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fields_are_written_as_the_draft_writes_them() {
        let limits = ClientLimits {
            requests_per_second: Some(100),
            cpu_seconds_per_minute: Some(60),
            queue: 4,
        };
        assert_eq!(
            limits.policy_field().unwrap(),
            "\"requests\";q=100;w=1, \"cpu\";q=60;w=60;qu=\"cpu-seconds\""
        );
        assert_eq!(ClientLimits::unlimited(4).policy_field(), None);
        let standing = Standing {
            requests: Some((99, 1)),
            cpu: Some((60, 0)),
        };
        assert_eq!(
            standing.field().unwrap(),
            "\"requests\";r=99;t=1, \"cpu\";r=60;t=0"
        );
        assert_eq!(Standing::default().field(), None);
        let wide = Standing {
            requests: None,
            cpu: Some((u64::MAX, 0)),
        };
        assert_eq!(wide.field().unwrap(), "\"cpu\";r=18446744073709551615;t=0");
    }

    #[test]
    fn limits_are_set_by_name() {
        let mut limits = ClientLimits::for_cores(2);
        assert_eq!(limits.cpu_seconds_per_minute, Some(60));
        limits.set("requests_per_second=none").unwrap();
        limits.set("queue=0").unwrap();
        assert_eq!((limits.requests_per_second, limits.queue), (None, 0));
        assert!(limits.set("cpu_seconds_per_minute=0").is_err());
        assert!(limits.set("queue").is_err());
    }
}
