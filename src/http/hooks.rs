//! Routes that panic on purpose, compiled only with the `test-hooks` feature (the crate's own
//! tests turn it on): they prove that a panic in a handler or in a blocking task becomes a 500
//! problem and the server lives on. They are not part of the API, nor of openapi.yaml.

use axum::routing::{MethodRouter, get};

use super::AppState;
use crate::api::Problem;

pub(super) fn routes() -> [(&'static str, MethodRouter<AppState>); 2] {
    [
        ("/test/panic", get(panic_in_handler)),
        ("/test/panic-blocking", get(panic_in_blocking_task)),
    ]
}

async fn panic_in_handler() -> &'static str {
    panic!("a deliberate panic in a handler (test hook)")
}

async fn panic_in_blocking_task(
    axum::extract::State(state): axum::extract::State<AppState>,
) -> Result<&'static str, Problem> {
    state
        .metrics
        .spawn_blocking(|| -> &'static str {
            panic!("a deliberate panic in a blocking task (test hook)")
        })
        .await
        .map_err(super::problem::task_failed)
}
