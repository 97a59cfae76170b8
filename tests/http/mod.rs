//! The HTTP service, over real HTTP: the server runs on an ephemeral port. One file a topic;
//! here the helpers every topic uses.

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use reqwest::{Client, Response, StatusCode};
use sente::http::share::{ClientLimits, Policy, Share, ShareLimits};
use sente::http::{AppState, MAX_HEAD_BYTES, OPENAPI_YAML, routes, serve};
use serde_json::{Value, json};
use tokio::net::TcpListener;

mod catalogue;
mod chess;
mod connections;
mod engines;
mod games;
mod levels;
mod moves;
mod operations;
mod problems;
mod review;
mod sharing;
mod tournaments;

/// Starts a server; returns its base URL. It stops when the test's runtime ends.
async fn start() -> String {
    start_with(AppState::default()).await
}

async fn start_with(state: AppState) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(serve(listener, state, std::future::pending()));
    url
}

/// Starts a server with one slot for heavy work and room for `queue` requests waiting for it.
async fn start_with_one_heavy_slot(queue: usize) -> String {
    start_with(one_heavy_slot(queue)).await
}

/// The default state but for one slot for heavy work and room for `queue` requests waiting
/// (one client's and every client's).
fn one_heavy_slot(queue: usize) -> AppState {
    with_share(
        ShareLimits {
            heavy_slots: 1,
            heavy_queue: queue,
            queue_limit: sente::http::share::DEFAULT_QUEUE_LIMIT,
        },
        Policy {
            anonymous: ClientLimits {
                queue,
                ..ClientLimits::default()
            },
            ..Policy::default()
        },
    )
}

/// The default state but for the heavy slots' limits and the clients' policy.
fn with_share(limits: ShareLimits, policy: Policy) -> AppState {
    AppState {
        share: std::sync::Arc::new(Share::new(limits, policy)),
        ..AppState::default()
    }
}

async fn post(url: &str, path: &str, body: Value) -> Response {
    Client::new()
        .post(format!("{url}{path}"))
        .json(&body)
        .send()
        .await
        .unwrap()
}

/// Posts `body` as it is, declared JSON: for bodies `json!` cannot build (not JSON, or with a
/// key repeated).
async fn post_text(url: &str, path: &str, body: &'static str) -> Response {
    Client::new()
        .post(format!("{url}{path}"))
        .header("content-type", "application/json")
        .body(body)
        .send()
        .await
        .unwrap()
}

/// The JSON answer to `GET path`.
async fn get_json(url: &str, path: &str) -> Value {
    let response = Client::new()
        .get(format!("{url}{path}"))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK, "{path}");
    response.json().await.unwrap()
}

/// Posts and expects a problem with `status`; returns the problem.
async fn problem(url: &str, path: &str, body: Value, status: u16) -> Value {
    let response = post(url, path, body.clone()).await;
    assert_problem(response, status, &body.to_string()).await
}

async fn assert_problem(response: Response, status: u16, context: &str) -> Value {
    assert_eq!(response.status().as_u16(), status, "{context}");
    assert_eq!(
        response.headers()["content-type"],
        "application/problem+json",
        "{context}"
    );
    let problem: Value = response.json().await.unwrap();
    assert_eq!(problem["status"], status, "{context}");
    for key in ["type", "title", "detail"] {
        assert!(problem[key].is_string(), "{context}: {problem}");
    }
    problem
}

/// A header of `response` that must be there, as text.
fn header_text(response: &Response, name: &str) -> String {
    response.headers()[name].to_str().unwrap().to_owned()
}
