//! A token bucket: a quota of `amount` a `window`, spent by what a client does and refilled
//! evenly (`amount / window` a second), never above `amount`. A client that has been away for
//! a window has all of it again; one that spends without pause gets the quota a window and no
//! more. The same as a sliding window without its burst at the window's edge (the generic cell
//! rate algorithm is this bucket written with one timestamp).
//!
//! Work whose cost is known only once done (a slot's CPU-seconds) is charged afterwards and
//! may leave the bucket below zero: a debt the client's next work waits out.

use std::time::{Duration, Instant};

use serde::Serialize;

/// So much a window: the policy a bucket keeps.
#[derive(Copy, Clone, Debug, PartialEq, Serialize)]
pub struct Quota {
    pub amount: f64,
    #[serde(skip)]
    pub window: Duration,
}

impl Quota {
    pub fn per_second(amount: u32) -> Quota {
        Quota {
            amount: f64::from(amount),
            window: Duration::from_secs(1),
        }
    }

    pub fn per_minute(amount: u32) -> Quota {
        Quota {
            amount: f64::from(amount),
            window: Duration::from_secs(60),
        }
    }

    /// Units refilled a second.
    fn rate(&self) -> f64 {
        self.amount / self.window.as_secs_f64()
    }

    /// The time the bucket takes to refill `amount`.
    fn refill_time(&self, amount: f64) -> Duration {
        Duration::from_secs_f64((amount / self.rate()).max(0.0))
    }
}

/// What is left of a quota, as of `at`.
#[derive(Clone, Debug)]
pub struct Bucket {
    level: f64,
    at: Instant,
}

impl Bucket {
    /// A bucket with all of `quota` in it.
    pub fn full(quota: Quota, now: Instant) -> Bucket {
        Bucket {
            level: quota.amount,
            at: now,
        }
    }

    fn refill(&mut self, quota: Quota, now: Instant) {
        let elapsed = now.saturating_duration_since(self.at).as_secs_f64();
        self.level = (self.level + elapsed * quota.rate()).min(quota.amount);
        self.at = now;
    }

    /// Takes `amount` if the bucket holds that much; else how long until it will.
    pub fn take(&mut self, quota: Quota, amount: f64, now: Instant) -> Result<(), Duration> {
        self.refill(quota, now);
        if self.level >= amount {
            self.level -= amount;
            Ok(())
        } else {
            Err(quota.refill_time(amount - self.level))
        }
    }

    /// Charges `amount` whatever is left, into debt if need be.
    pub fn charge(&mut self, quota: Quota, amount: f64, now: Instant) {
        self.refill(quota, now);
        self.level -= amount;
    }

    /// `None` while something is left; else how long until something is.
    pub fn spent(&mut self, quota: Quota, now: Instant) -> Option<Duration> {
        self.refill(quota, now);
        // A hundredth of a unit, so that the wait told ends with the bucket above zero.
        (self.level <= 0.0).then(|| quota.refill_time(0.01 - self.level))
    }

    /// Whole units left (none while in debt).
    pub fn remaining(&mut self, quota: Quota, now: Instant) -> u64 {
        self.refill(quota, now);
        self.level.max(0.0) as u64
    }

    /// How long until the bucket is full again.
    pub fn until_full(&mut self, quota: Quota, now: Instant) -> Duration {
        self.refill(quota, now);
        quota.refill_time(quota.amount - self.level)
    }

    /// Whether the bucket is full: a client whose buckets are all full is as a new one.
    pub fn is_full(&mut self, quota: Quota, now: Instant) -> bool {
        self.refill(quota, now);
        self.level >= quota.amount
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bucket_refills_evenly_up_to_its_quota() {
        let quota = Quota::per_second(10);
        let start = Instant::now();
        let mut bucket = Bucket::full(quota, start);
        for _ in 0..10 {
            bucket.take(quota, 1.0, start).unwrap();
        }
        let wait = bucket.take(quota, 1.0, start).unwrap_err();
        assert_eq!(
            wait,
            Duration::from_millis(100),
            "a tenth of a second a request"
        );
        assert_eq!(bucket.until_full(quota, start), Duration::from_secs(1));
        let later = start + Duration::from_millis(500);
        assert_eq!(bucket.remaining(quota, later), 5);
        assert!(bucket.is_full(quota, start + Duration::from_secs(5)));
        assert_eq!(bucket.remaining(quota, start + Duration::from_secs(5)), 10);
    }

    #[test]
    fn a_charge_may_leave_a_debt_that_is_waited_out() {
        let quota = Quota::per_minute(60);
        let start = Instant::now();
        let mut bucket = Bucket::full(quota, start);
        assert_eq!(bucket.spent(quota, start), None);
        bucket.charge(quota, 90.0, start);
        let wait = bucket.spent(quota, start).expect("in debt");
        assert!(
            wait > Duration::from_secs(30) && wait < Duration::from_millis(30_100),
            "{wait:?}"
        );
        assert_eq!(bucket.remaining(quota, start), 0);
        assert_eq!(bucket.spent(quota, start + wait), None);
    }
}
