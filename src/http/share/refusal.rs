//! Why a request was refused, and when its client may try again.

use std::time::Duration;

use crate::api::Problem;

/// Why a request was refused, as the metrics count it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The client's requests a second.
    Requests,
    /// The client's CPU-seconds a minute.
    Cpu,
    /// The client's own queue of heavy requests.
    ClientQueue,
    /// Every client's queue together.
    QueueFull,
    /// The wait would be, or was, longer than the queue limit.
    QueueWait,
    /// More clients at once than the service remembers.
    Clients,
    /// A wrong key, or none where one is needed.
    Unauthorized,
}

impl Reason {
    pub const ALL: [Reason; 7] = [
        Reason::Requests,
        Reason::Cpu,
        Reason::ClientQueue,
        Reason::QueueFull,
        Reason::QueueWait,
        Reason::Clients,
        Reason::Unauthorized,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Reason::Requests => "requests",
            Reason::Cpu => "cpu",
            Reason::ClientQueue => "client_queue",
            Reason::QueueFull => "queue_full",
            Reason::QueueWait => "queue_wait",
            Reason::Clients => "clients",
            Reason::Unauthorized => "unauthorized",
        }
    }
}

/// A request refused, and when to try again.
#[derive(Clone, Debug)]
pub struct Refusal {
    pub status: u16,
    pub reason: Reason,
    pub retry_after: Duration,
    pub detail: String,
}

impl Refusal {
    pub(super) fn new(
        status: u16,
        reason: Reason,
        retry_after: Duration,
        detail: String,
    ) -> Refusal {
        Refusal {
            status,
            reason,
            retry_after,
            detail,
        }
    }

    /// `Retry-After`'s whole seconds: the wait rounded up, at least one.
    pub fn retry_after_seconds(&self) -> u64 {
        whole_seconds(self.retry_after).max(1)
    }

    /// The refusal as the problem the client reads, with its `Retry-After`.
    pub fn problem(&self) -> Problem {
        Problem::http(self.status, self.detail.clone())
            .with_header("retry-after", self.retry_after_seconds().to_string())
    }
}

/// Seconds, rounded up.
pub fn whole_seconds(duration: Duration) -> u64 {
    duration.as_secs() + u64::from(duration.subsec_nanos() > 0)
}
