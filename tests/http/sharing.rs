//! The machine shared between clients: the fair order of the heavy slots, each client's own
//! queue and limits, the `RateLimit` fields, the queue limit, and API keys. Clients are told
//! apart by their addresses (127.0.0.2 and 127.0.0.3, both loopback) or their keys.

use std::net::IpAddr;
use std::time::{Duration, Instant};

use super::*;
use sente::http::share::{ApiKeys, DEFAULT_QUEUE_LIMIT};

const A: &str = "127.0.0.2";
const B: &str = "127.0.0.3";
const RUNNER_KEY: &str = "0123456789abcdef0123456789abcdef";

/// Posts `body` from the address `from`, with `key` as a bearer token where there is one.
async fn post_as(url: &str, from: &str, key: Option<&str>, path: &str, body: Value) -> Response {
    let client = Client::builder()
        .local_address(from.parse::<IpAddr>().unwrap())
        .build()
        .unwrap();
    let mut request = client.post(format!("{url}{path}")).json(&body);
    if let Some(key) = key {
        request = request.bearer_auth(key);
    }
    request.send().await.unwrap()
}

/// A tournament that holds a slot several seconds (tic-tac-toe, heavy MCTS).
fn long_tournament(seed: u64) -> Value {
    json!({"players": [{"algorithm": "mcts", "simulations": 5000}, {"algorithm": "mcts", "simulations": 5000}], "games": 400, "seed": seed})
}

/// Heavy work that takes milliseconds.
fn quick_heavy() -> Value {
    json!({"moves": [], "algorithm": "solver"})
}

fn spawn_post(
    url: &str,
    from: &'static str,
    path: &'static str,
    body: Value,
) -> tokio::task::JoinHandle<(StatusCode, Instant)> {
    let url = url.to_owned();
    tokio::spawn(async move {
        let status = post_as(&url, from, None, path, body).await.status();
        (status, Instant::now())
    })
}

fn one_slot(client_queue: usize, queue_limit: Duration) -> AppState {
    with_share(
        ShareLimits {
            heavy_slots: 1,
            heavy_queue: 64,
            queue_limit,
        },
        Policy {
            anonymous: ClientLimits {
                queue: client_queue,
                ..ClientLimits::default()
            },
            ..Policy::default()
        },
    )
}

/// A holds the one slot with a long tournament and has a second request waiting; B, holding
/// nothing, asks after both: B is answered first, while A's tournament still runs (it gives
/// its slot up between two moves), and A's waiting request after B's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_holding_more_than_its_share_waits_behind_one_with_none() {
    let url = start_with(one_slot(4, Duration::from_secs(60))).await;
    let tournament = spawn_post(&url, A, "/tournament", long_tournament(1));
    tokio::time::sleep(Duration::from_millis(300)).await;
    let a_second = spawn_post(&url, A, "/analyze", quick_heavy());
    tokio::time::sleep(Duration::from_millis(100)).await;
    let asked = Instant::now();
    let (status, b_answered) = spawn_post(&url, B, "/analyze", quick_heavy())
        .await
        .unwrap();
    assert_eq!(status, StatusCode::OK);
    assert!(
        b_answered - asked < Duration::from_secs(2),
        "B waited {:?}",
        b_answered - asked
    );
    assert!(!tournament.is_finished(), "A's tournament still runs");
    let (status, a_answered) = a_second.await.unwrap();
    assert_eq!(status, StatusCode::OK);
    assert!(a_answered > b_answered, "A's second request came after B's");
    assert_eq!(tournament.await.unwrap().0, StatusCode::OK);
    let metrics = Client::new()
        .get(format!("{url}/metrics"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let yields = metrics
        .lines()
        .find(|line| line.starts_with("sente_heavy_yields_total{route=\"/tournament\"}"))
        .expect("the tournament's yields are counted");
    assert_ne!(yields.split(' ').next_back(), Some("0"), "{yields}");
}

/// A client's own queue full refuses that client (429, with when to try again and its
/// standing), and not another.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_client_queue_refuses_that_client_only() {
    let url = start_with(one_slot(1, Duration::from_secs(60))).await;
    let tournament = spawn_post(&url, A, "/tournament", long_tournament(2));
    tokio::time::sleep(Duration::from_millis(300)).await;
    let waiting = spawn_post(&url, A, "/analyze", quick_heavy());
    tokio::time::sleep(Duration::from_millis(100)).await;
    let refused = post_as(&url, A, None, "/analyze", quick_heavy()).await;
    let retry: u64 = header_text(&refused, "retry-after").parse().unwrap();
    assert!(retry >= 1, "{retry}");
    assert!(refused.headers().contains_key("ratelimit-policy"));
    assert!(refused.headers().contains_key("ratelimit"));
    let problem = assert_problem(refused, 429, "A's second waiting request").await;
    assert_eq!(problem["type"], "/problems/rate-limited");
    assert!(
        problem["detail"].as_str().unwrap().contains("its queue"),
        "{problem}"
    );
    let other = post_as(&url, B, None, "/analyze", quick_heavy()).await;
    assert_eq!(other.status(), StatusCode::OK, "B is not refused");
    assert_eq!(waiting.await.unwrap().0, StatusCode::OK);
    assert_eq!(tournament.await.unwrap().0, StatusCode::OK);
}

/// A request that would wait longer than the queue limit is refused at once, with a
/// Retry-After reckoned from the work ahead of it; one from a client with nothing of its own
/// ahead is the server's load (503), one behind its own work is its own (429).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_that_would_wait_past_the_queue_limit_is_refused_at_once() {
    let url = start_with(one_slot(4, Duration::from_millis(500))).await;
    // A level-8 chess move holds the slot a second.
    let holder = spawn_post(
        &url,
        A,
        "/move",
        json!({"game": "chess", "moves": [], "level": 8}),
    );
    tokio::time::sleep(Duration::from_millis(150)).await;
    let asked = Instant::now();
    let refused = post_as(
        &url,
        B,
        None,
        "/move",
        json!({"game": "chess", "moves": ["e4"], "level": 8}),
    )
    .await;
    assert!(asked.elapsed() < Duration::from_millis(400), "at once");
    let retry: u64 = header_text(&refused, "retry-after").parse().unwrap();
    assert!((1..=2).contains(&retry), "about the second left: {retry}");
    let problem = assert_problem(refused, 503, "B behind A's move").await;
    assert!(
        problem["detail"].as_str().unwrap().contains("queue limit"),
        "{problem}"
    );
    let own = post_as(
        &url,
        A,
        None,
        "/move",
        json!({"game": "chess", "moves": ["d4"], "level": 8}),
    )
    .await;
    assert_problem(own, 429, "A behind its own move").await;
    assert_eq!(holder.await.unwrap().0, StatusCode::OK);
}

/// Every answer under a policy says it (`RateLimit-Policy`) and where the client stands
/// (`RateLimit`), as the IETF draft writes them; past its requests a second a client is
/// refused with 429 and told when to come back; another client is not.
#[tokio::test]
async fn the_ratelimit_fields_count_down_and_refuse_past_the_limit() {
    let url = start_with(with_share(
        ShareLimits {
            heavy_slots: 1,
            heavy_queue: 64,
            queue_limit: DEFAULT_QUEUE_LIMIT,
        },
        Policy {
            anonymous: ClientLimits {
                requests_per_second: Some(3),
                cpu_seconds_per_minute: Some(45),
                queue: 4,
            },
            ..Policy::default()
        },
    ))
    .await;
    let body = json!({"board": "X...O....", "algorithm": "alphabeta"});
    for left in [2, 1, 0] {
        let response = post_as(&url, A, None, "/move", body.clone()).await;
        assert_eq!(response.status(), StatusCode::OK);
        assert_eq!(
            header_text(&response, "ratelimit-policy"),
            "\"requests\";q=3;w=1, \"cpu\";q=45;w=60;qu=\"cpu-seconds\""
        );
        assert_eq!(
            header_text(&response, "ratelimit"),
            format!("\"requests\";r={left};t=1, \"cpu\";r=45;t=0")
        );
    }
    let refused = post_as(&url, A, None, "/move", body.clone()).await;
    assert_eq!(header_text(&refused, "retry-after"), "1");
    assert_eq!(
        header_text(&refused, "ratelimit"),
        "\"requests\";r=0;t=1, \"cpu\";r=45;t=0"
    );
    let problem = assert_problem(refused, 429, "the fourth request of the second").await;
    assert!(
        problem["detail"]
            .as_str()
            .unwrap()
            .contains("requests_per_second"),
        "{problem}"
    );
    let other = post_as(&url, B, None, "/move", body).await;
    assert_eq!(other.status(), StatusCode::OK);
    let metrics = Client::new()
        .get(format!("{url}/metrics"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        metrics.contains("sente_refusals_total{route=\"/move\",reason=\"requests\"} 1"),
        "{metrics}"
    );
}

fn keyed(anonymous_routes: Option<Vec<&'static str>>) -> AppState {
    let keys = ApiKeys::parse(
        &format!("runner {RUNNER_KEY} requests_per_second=500 queue=8"),
        ClientLimits::default(),
    )
    .unwrap();
    with_share(
        ShareLimits {
            heavy_slots: 2,
            heavy_queue: 64,
            queue_limit: DEFAULT_QUEUE_LIMIT,
        },
        Policy {
            keys,
            anonymous_routes,
            ..Policy::default()
        },
    )
}

#[tokio::test]
async fn a_right_key_passes_with_its_own_limits() {
    let url = start_with(keyed(Some(vec!["/move"]))).await;
    let tournament = json!({"players": [{"algorithm": "random"}, {}], "games": 2});
    let response = post_as(&url, A, Some(RUNNER_KEY), "/tournament", tournament).await;
    assert_eq!(response.status(), StatusCode::OK);
    assert!(
        header_text(&response, "ratelimit-policy").starts_with("\"requests\";q=500;w=1"),
        "the key's own limits"
    );
    let limits: Value = Client::new()
        .get(format!("{url}/limits"))
        .bearer_auth(RUNNER_KEY)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(limits["client"]["key"], true);
    assert_eq!(limits["client"]["limits"]["queue"], 8);
    assert!(
        !limits.to_string().contains(RUNNER_KEY),
        "the key is never echoed"
    );
}

#[tokio::test]
async fn a_wrong_key_is_401_and_never_echoed() {
    let url = start_with(keyed(None)).await;
    let wrong = "fedcba9876543210fedcba9876543210";
    let response = post_as(&url, A, Some(wrong), "/move", quick_heavy()).await;
    assert_eq!(
        header_text(&response, "www-authenticate"),
        "Bearer realm=\"sente\""
    );
    assert!(!response.headers().contains_key("retry-after"));
    let problem = assert_problem(response, 401, "a wrong key").await;
    assert_eq!(problem["type"], "/problems/unauthorized");
    assert!(!problem.to_string().contains(wrong), "{problem}");
    // A key that is not a bearer token is as wrong.
    let basic = Client::new()
        .post(format!("{url}/move"))
        .header("authorization", format!("Basic {RUNNER_KEY}"))
        .json(&quick_heavy())
        .send()
        .await
        .unwrap();
    assert_problem(basic, 401, "not a bearer token").await;
}

#[tokio::test]
async fn a_missing_key_is_401_only_on_the_routes_kept_for_keys() {
    let url = start_with(keyed(Some(vec!["/move"]))).await;
    let tournament = json!({"players": [{"algorithm": "random"}, {}], "games": 2});
    let kept = post_as(&url, A, None, "/tournament", tournament).await;
    let problem = assert_problem(kept, 401, "a tournament without a key").await;
    assert!(
        problem["detail"]
            .as_str()
            .unwrap()
            .contains("needs an API key"),
        "{problem}"
    );
    let open = post_as(&url, A, None, "/move", quick_heavy()).await;
    assert_eq!(
        open.status(),
        StatusCode::OK,
        "/move is open to anonymous clients"
    );
    let limits = get_json(&url, "/limits").await;
    assert_eq!(limits["keys_required"], true);
    assert_eq!(limits["anonymous_routes"], json!(["/move"]));
    assert_eq!(limits["client"]["key"], false);
}

/// Without keys configured the service is open, and an `Authorization` header means nothing.
#[tokio::test]
async fn without_keys_configured_every_client_is_anonymous_and_served() {
    let url = start().await;
    let response = post_as(&url, A, Some("anything at all"), "/move", quick_heavy()).await;
    assert_eq!(response.status(), StatusCode::OK);
    let limits = get_json(&url, "/limits").await;
    assert_eq!(limits["keys_required"], false);
    assert_eq!(limits["client"]["id"], "ip:127.0.0.1");
}

/// A search on T threads holds T heavy slots: beyond the service's slots it is refused (422,
/// naming `threads` and the limit `GET /limits` says), and while one on both slots runs, no
/// other heavy request starts.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_search_on_threads_holds_a_slot_a_thread() {
    let one = start_with(one_slot(4, Duration::from_secs(60))).await;
    let limits: Value = Client::new()
        .get(format!("{one}/limits"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(limits["max_threads"], 1);
    let two_threads = json!({"game": "chess", "moves": [], "algorithm": "engine", "threads": 2, "time_limit_ms": 1500});
    let refused = post_as(&one, A, None, "/move", two_threads.clone()).await;
    assert_eq!(refused.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let problem: Value = refused.json().await.unwrap();
    assert_eq!(problem["field"], "threads", "{problem}");
    assert!(
        problem["detail"].as_str().unwrap().contains("max_threads"),
        "{problem}"
    );

    let two = start_with(with_share(
        ShareLimits {
            heavy_slots: 2,
            heavy_queue: 64,
            queue_limit: Duration::from_secs(60),
        },
        Policy::default(),
    ))
    .await;
    let started = Instant::now();
    let search = spawn_post(&two, A, "/move", two_threads);
    tokio::time::sleep(Duration::from_millis(300)).await;
    let other = spawn_post(&two, B, "/analyze", quick_heavy());
    let (searched, _) = search.await.unwrap();
    let (answered, other_ended) = other.await.unwrap();
    assert_eq!((searched, answered), (StatusCode::OK, StatusCode::OK));
    // Alone on a free slot it takes milliseconds; behind the search's 1.5 s, it waited.
    let waited = other_ended.duration_since(started);
    assert!(
        waited >= Duration::from_millis(1_200),
        "the other request ran after {waited:?}, while the two-thread search held both slots"
    );
}
