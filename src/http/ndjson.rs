//! Answers streamed as newline-delimited JSON (`Accept: application/x-ndjson`): one object a
//! line, each with one key that says what it is (`{"iteration": ...}`, `{"progress": ...}`),
//! and last `{"result": ...}` or `{"problem": ...}`.
//!
//! The work runs in a task of its own that writes the lines; the answer's body reads them. A
//! client that goes away drops the body, and the task, seeing no one reads, drops the work's
//! future, whose cancellation guard then stops the search.

use std::convert::Infallible;

use axum::body::Body;
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use tokio::sync::mpsc::UnboundedSender;

use crate::api::Problem;
use crate::api::{Iteration, Watch};

pub const NDJSON: &str = "application/x-ndjson";

/// Whether the request's `Accept` names `kind`.
pub fn accepts(headers: &HeaderMap, kind: &str) -> bool {
    headers
        .get_all(header::ACCEPT)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .any(|value| value.split(',').any(|item| item.trim().starts_with(kind)))
}

/// One line: `{"KIND": value}` and a newline.
pub fn line(kind: &str, value: &impl Serialize) -> Vec<u8> {
    // Written by hand around the value, so that its fields keep their order.
    let mut bytes = format!("{{\"{kind}\":").into_bytes();
    serde_json::to_writer(&mut bytes, value).expect("answers serialise");
    bytes.extend_from_slice(b"}\n");
    bytes
}

/// Where the lines go.
pub type Lines = UnboundedSender<Vec<u8>>;

/// The answer whose body is the lines `write` sends, which it is given with the sender, ending
/// when `write` ends or when the client goes away, whichever is first.
pub fn stream<F>(write: impl FnOnce(Lines) -> F) -> Response
where
    F: Future<Output = ()> + Send + 'static,
{
    let (sender, receiver) = tokio::sync::mpsc::unbounded_channel::<Vec<u8>>();
    let closed = sender.clone();
    let work = write(sender);
    tokio::spawn(async move {
        tokio::select! {
            () = work => {}
            () = closed.closed() => {}
        }
    });
    let body = futures_util::stream::unfold(receiver, |mut receiver| async move {
        let line = receiver.recv().await?;
        Some((Ok::<_, Infallible>(line), receiver))
    });
    (
        [(header::CONTENT_TYPE, HeaderValue::from_static(NDJSON))],
        Body::from_stream(body),
    )
        .into_response()
}

/// A search streamed: a line per finished iteration (`{"iteration": ...}`, as a UCI engine's
/// `info` lines), then its answer or its problem. `search` is given the watch to search with.
pub fn watched<T, F>(search: impl FnOnce(Watch) -> F) -> Response
where
    T: Serialize,
    F: Future<Output = Result<T, Problem>> + Send + 'static,
{
    stream(move |lines| {
        let told = lines.clone();
        let watch = Watch::new(move |iteration: &Iteration| {
            let _ = told.send(line("iteration", iteration));
        });
        let search = search(watch);
        async move {
            let last = match search.await {
                Ok(answer) => line("result", &answer),
                Err(problem) => line("problem", &problem),
            };
            let _ = lines.send(last);
        }
    })
}
