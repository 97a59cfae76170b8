//! Routes for the crate's own tests and measurements, compiled only with the `test-hooks`
//! feature: two that panic on purpose, proving that a panic in a handler or in a blocking task
//! becomes a 500 problem and the server lives on, and one that measures what `POST /move` costs
//! the server before any of its own work. They are not part of the API, nor of openapi.yaml.

use axum::response::Response;
use axum::routing::{MethodRouter, get, post};

use super::AppState;
use super::body::JsonBody;
use crate::api::Problem;

pub(super) fn routes() -> [(&'static str, MethodRouter<AppState>); 3] {
    [
        ("/test/panic", get(panic_in_handler)),
        ("/test/panic-blocking", get(panic_in_blocking_task)),
        ("/test/move-floor", post(move_floor)),
    ]
}

async fn panic_in_handler() -> &'static str {
    panic!("a deliberate panic in a handler (test hook)")
}

async fn panic_in_blocking_task(
    axum::extract::State(state): axum::extract::State<AppState>,
) -> Result<&'static str, Problem> {
    super::heavy::spawn_blocking(&state.metrics, || -> &'static str {
        panic!("a deliberate panic in a blocking task (test hook)")
    })
    .await
    .map_err(super::problem::task_failed)
}

/// The request body `scripts/bench-http.sh` posts to `/move`.
pub const BENCH_MOVE_BODY: &str = r#"{"board":"X.O/.X./O..","algorithm":"alphabeta"}"#;

/// The answer `/move` gives to [`BENCH_MOVE_BODY`] (a test checks it, but for `elapsed_us`).
pub const BENCH_MOVE_ANSWER: &str = r#"{"move":8,"row":2,"col":2,"score":1.0,"exact":true,"plies_to_end":1,"pv":[8],"score_for":"X","score_for_name":"X","nodes":59,"nps":29500000,"algorithm":"alphabeta","game":"tictactoe","elapsed_us":2,"board":"X.O/.X./O.X","cells":[[{"side":"X","piece":"X"},null,{"side":"O","piece":"O"}],[null,{"side":"X","piece":"X"},null],[{"side":"O","piece":"O"},null,{"side":"X","piece":"X"}]],"status":"x_won","winner":"X","side_to_move":null,"side_to_move_name":null,"ply":5,"legal_moves":[],"winning_line":[{"row":0,"col":0},{"row":1,"col":1},{"row":2,"col":2}]}"#;

/// `POST /move` less its own work: the body is read as `/move` reads it and the answer is
/// `/move`'s to the benchmark's request, copied into a fresh buffer and answered as `/move`'s
/// encoder answers one, but nothing is decoded, checked, searched or encoded. Beside `/healthz` and
/// `/move` (`scripts/bench-http.sh --floor`), it tells what carrying a body in and a longer
/// answer out costs on this stack, apart from what the route's own work costs.
async fn move_floor(JsonBody(body): JsonBody) -> Response {
    std::hint::black_box(body);
    super::json::encoded(BENCH_MOVE_ANSWER.as_bytes().to_vec())
}
