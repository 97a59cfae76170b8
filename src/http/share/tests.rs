use std::net::{IpAddr, Ipv4Addr};

use super::*;
use crate::api::Yield;

fn share(slots: usize, queue: usize, queue_limit: Duration) -> Arc<Share> {
    Arc::new(Share::new(
        ShareLimits {
            heavy_slots: slots,
            heavy_queue: queue,
            queue_limit,
        },
        Policy::default(),
    ))
}

fn client(last: u8, limits: ClientLimits) -> Client {
    Client {
        id: ClientId::Address(IpAddr::V4(Ipv4Addr::new(127, 0, 0, last))),
        limits,
        fingerprint: None,
    }
}

fn open(queue: usize) -> ClientLimits {
    ClientLimits::unlimited(queue)
}

/// Starts `client`'s request for a slot; answers whether it was refused at once, and else the
/// task that waits for it.
fn request(share: &Arc<Share>, client: &Client) -> tokio::task::JoinHandle<Result<Slot, Refusal>> {
    let (share, client) = (Arc::clone(share), client.clone());
    tokio::spawn(async move { share.admit(&client, Work::Move).await })
}

async fn settle() {
    tokio::time::sleep(Duration::from_millis(30)).await;
}

#[tokio::test]
async fn a_client_holding_more_than_its_share_waits_behind_one_holding_none() {
    let share = share(2, 64, Duration::from_secs(60));
    let (a, b) = (client(2, open(8)), client(3, open(8)));
    let a1 = share.admit(&a, Work::Move).await.unwrap();
    let _a2 = share.admit(&a, Work::Move).await.unwrap();
    // A asks for a third slot first, B for its first later.
    let a3 = request(&share, &a);
    settle().await;
    let b1 = request(&share, &b);
    settle().await;
    assert!(!a3.is_finished() && !b1.is_finished(), "both wait");
    drop(a1);
    settle().await;
    assert!(
        b1.is_finished(),
        "B, holding none, has the slot A gave back"
    );
    assert!(!a3.is_finished(), "A, holding one, still waits");
    drop(b1.await.unwrap().unwrap());
    settle().await;
    assert!(a3.is_finished(), "then A");
}

#[tokio::test]
async fn among_equals_the_client_waiting_longest_goes_first() {
    let share = share(1, 64, Duration::from_secs(60));
    let (a, b, c) = (client(2, open(8)), client(3, open(8)), client(4, open(8)));
    let held = share.admit(&a, Work::Move).await.unwrap();
    let c1 = request(&share, &c);
    settle().await;
    let b1 = request(&share, &b);
    settle().await;
    drop(held);
    settle().await;
    assert!(c1.is_finished() && !b1.is_finished());
}

#[tokio::test]
async fn a_full_client_queue_refuses_that_client_and_no_other() {
    let share = share(1, 64, Duration::from_secs(60));
    let (a, b) = (client(2, open(1)), client(3, open(1)));
    let _held = share.admit(&a, Work::Move).await.unwrap();
    let a2 = request(&share, &a);
    settle().await;
    let refusal = share.admit(&a, Work::Move).await.unwrap_err();
    assert_eq!((refusal.status, refusal.reason), (429, Reason::ClientQueue));
    assert!(
        refusal.detail.contains("its queue allows (1)"),
        "{}",
        refusal.detail
    );
    let b1 = request(&share, &b);
    settle().await;
    assert!(!b1.is_finished(), "B waits its turn, not refused");
    assert!(!a2.is_finished());
}

#[tokio::test]
async fn a_request_that_would_wait_past_the_queue_limit_is_refused_at_once() {
    let share = share(1, 64, Duration::from_millis(300));
    let (a, b) = (client(2, open(8)), client(3, open(8)));
    let _held = share.admit(&a, Work::Move).await.unwrap();
    // A move holds its slot about a second, as far as the service knows yet.
    let started = Instant::now();
    let refusal = share.admit(&b, Work::Move).await.unwrap_err();
    assert!(started.elapsed() < Duration::from_millis(100), "at once");
    assert_eq!((refusal.status, refusal.reason), (503, Reason::QueueWait));
    assert_eq!(refusal.retry_after_seconds(), 1, "{refusal:?}");
    // A's own request behind its own work is A's to wait for: 429.
    let own = share.admit(&a, Work::Move).await.unwrap_err();
    assert_eq!((own.status, own.reason), (429, Reason::QueueWait));
}

#[tokio::test]
async fn the_wait_told_grows_with_the_work_ahead() {
    let share = share(1, 64, Duration::from_secs(60));
    let (a, b) = (client(2, open(8)), client(3, open(8)));
    let _held = share.admit(&a, Work::Move).await.unwrap();
    let now = Instant::now();
    let alone = share.estimate(&share.lock(), b.id, now);
    let _waiting: Vec<_> = (0..3).map(|_| request(&share, &a)).collect();
    settle().await;
    let behind = share.estimate(&share.lock(), b.id, now);
    // B's turn comes after A's first waiting request, not after all three.
    assert!(
        alone <= Duration::from_secs(1) && behind > alone + Duration::from_millis(900),
        "{alone:?} then {behind:?}"
    );
    assert!(behind < alone + Duration::from_millis(1100), "{behind:?}");
}

#[tokio::test]
async fn a_request_that_waited_the_queue_limit_is_refused_then() {
    let share = share(1, 64, Duration::from_millis(200));
    share.lock().typical_run = [Duration::from_millis(10); 4];
    let (a, b) = (client(2, open(8)), client(3, open(8)));
    let _held = share.admit(&a, Work::Move).await.unwrap();
    let started = Instant::now();
    let refusal = share.admit(&b, Work::Move).await.unwrap_err();
    let waited = started.elapsed();
    assert!(
        waited >= Duration::from_millis(200) && waited < Duration::from_secs(2),
        "{waited:?}"
    );
    assert_eq!((refusal.status, refusal.reason), (503, Reason::QueueWait));
    assert_eq!(share.lock().waiting_requests, 0, "it left the queue");
}

#[tokio::test]
async fn a_client_that_goes_away_leaves_the_queue_and_frees_what_it_was_given() {
    let share = share(1, 64, Duration::from_secs(60));
    let (a, b) = (client(2, open(8)), client(3, open(8)));
    let held = share.admit(&a, Work::Move).await.unwrap();
    let gone = request(&share, &b);
    settle().await;
    assert_eq!(share.lock().waiting_requests, 1);
    gone.abort();
    settle().await;
    assert_eq!(share.lock().waiting_requests, 0);
    drop(held);
    assert_eq!(
        share.occupancy().0,
        0,
        "the slot is free, not given to the one gone"
    );
    share.admit(&b, Work::Move).await.unwrap();
}

#[tokio::test]
async fn long_work_gives_its_slot_to_a_waiting_client_between_steps() {
    let share = share(2, 64, Duration::from_secs(60));
    let (a, b) = (client(2, open(8)), client(3, open(8)));
    let yields = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let lease = |slot| {
        let yields = Arc::clone(&yields);
        Arc::new(Lease::new(&share, &a, Work::Tournament, slot, move || {
            yields.fetch_add(1, Ordering::Relaxed);
        }))
    };
    let first = lease(Some(share.admit(&a, Work::Tournament).await.unwrap()));
    let second = lease(None);
    assert!(second.start(&Budget::default(), &|| false));
    assert_eq!(share.occupancy().0, 2, "A has both slots");
    let budget = Budget::default();
    first.between_steps(&budget);
    assert_eq!(
        yields.load(Ordering::Relaxed),
        0,
        "no one waits: A keeps its slots"
    );
    let b1 = request(&share, &b);
    settle().await;
    // A's first part ends a step: B, holding none, has its slot; the part waits its turn on a
    // thread of its own, and goes on when B is done.
    let part = std::thread::spawn({
        let first = Arc::clone(&first);
        move || first.between_steps(&Budget::default())
    });
    let slot = b1.await.unwrap().unwrap();
    assert_eq!(yields.load(Ordering::Relaxed), 1);
    assert!(!part.is_finished(), "the part waits while B works");
    drop(slot);
    part.join().unwrap();
    assert!(first.into_slot().is_some(), "and has a slot again");
}

#[tokio::test]
async fn equals_take_turns_after_a_quantum() {
    let share = share(2, 64, Duration::from_secs(60));
    let (a, b, c) = (client(2, open(8)), client(3, open(8)), client(4, open(8)));
    let a_part = Arc::new(Lease::new(
        &share,
        &a,
        Work::Tournament,
        Some(share.admit(&a, Work::Tournament).await.unwrap()),
        || {},
    ));
    let _b = share.admit(&b, Work::Tournament).await.unwrap();
    let c1 = request(&share, &c);
    settle().await;
    // A holds one, as B does: it keeps its slot for a quantum, then gives it to C.
    a_part.between_steps(&Budget::default());
    assert!(!c1.is_finished(), "within the quantum");
    tokio::time::sleep(QUANTUM).await;
    let part = std::thread::spawn({
        let a_part = Arc::clone(&a_part);
        move || a_part.between_steps(&Budget::default())
    });
    let c_slot = c1.await.unwrap().unwrap();
    drop(c_slot);
    part.join().unwrap();
}

#[tokio::test]
async fn a_step_waiting_for_a_slot_stops_when_its_budget_is_due() {
    let share = share(1, 64, Duration::from_secs(60));
    let (a, b) = (client(2, open(8)), client(3, open(8)));
    let _held = share.admit(&b, Work::Move).await.unwrap();
    let part = Lease::new(&share, &a, Work::Review, None, || {});
    let budget = Budget {
        deadline: Some(Instant::now() + Duration::from_millis(100)),
        ..Budget::default()
    };
    assert!(!part.start(&budget, &|| false));
    assert!(
        !part.start(&Budget::default(), &|| true),
        "nor when not needed"
    );
    let state = share.lock();
    assert!(state.queued.is_empty(), "and leaves the queue");
}

#[tokio::test]
async fn a_client_out_of_cpu_seconds_is_refused_heavy_work_until_they_refill() {
    let limits = ClientLimits {
        requests_per_second: None,
        cpu_seconds_per_minute: Some(60),
        queue: 8,
    };
    let share = share(2, 64, Duration::from_secs(60));
    let a = client(2, limits);
    drop(share.admit(&a, Work::Move).await.unwrap());
    {
        let mut state = share.lock();
        let quota = limits.cpu().unwrap();
        state
            .clients
            .get_mut(&a.id)
            .unwrap()
            .cpu
            .charge(quota, 62.0, Instant::now());
    }
    let refusal = share.admit(&a, Work::Move).await.unwrap_err();
    assert_eq!((refusal.status, refusal.reason), (429, Reason::Cpu));
    assert_eq!(
        refusal.retry_after_seconds(),
        3,
        "two seconds of debt at one a second"
    );
    assert_eq!(share.standing(&a).cpu.map(|(left, _)| left), Some(0));
    let other = client(3, limits);
    share.admit(&other, Work::Move).await.unwrap();
}

#[test]
fn requests_a_second_are_counted_and_told() {
    let share = share(1, 64, Duration::from_secs(5));
    let limits = ClientLimits {
        requests_per_second: Some(3),
        cpu_seconds_per_minute: Some(60),
        queue: 4,
    };
    let a = client(2, limits);
    for left in [2, 1, 0] {
        let standing = share.count_request(&a).unwrap();
        assert_eq!(standing.requests, Some((left, 1)));
        assert_eq!(standing.cpu, Some((60, 0)));
    }
    let (refusal, standing) = share.count_request(&a).unwrap_err();
    assert_eq!((refusal.status, refusal.reason), (429, Reason::Requests));
    assert_eq!(refusal.retry_after_seconds(), 1);
    assert_eq!(standing.requests, Some((0, 1)));
    share.count_request(&client(3, limits)).unwrap();
}

#[test]
fn idle_clients_are_forgotten_and_the_number_remembered_is_bounded() {
    let share = share(1, 64, Duration::from_secs(5));
    let limits = ClientLimits::unlimited(4);
    for index in 0..5000u32 {
        let client = Client {
            id: ClientId::Address(IpAddr::V4(Ipv4Addr::from(0x0a00_0000 + index))),
            limits,
            fingerprint: None,
        };
        share.count_request(&client).unwrap();
    }
    let remembered = share.lock().clients.len();
    assert!(remembered <= 2048, "{remembered}");
}
