//! The work `POST /move` does besides HTTP, step by step, on the request that
//! `scripts/bench-http.sh` sends: decoding the body, checking it, searching, and encoding the
//! answer. Run with `cargo bench --bench api`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use sente::api::choose_move::MoveJob;
use sente::api::request::MoveRequest;
use sente::search::Budget;

/// The body the scripts post (`tests/http/operations.rs` checks that they do).
const BODY: &[u8] = sente::http::hooks::BENCH_MOVE_BODY.as_bytes();

fn move_request(c: &mut Criterion) {
    let mut group = c.benchmark_group("POST /move without HTTP");
    let budget = Budget::default();
    group.bench_function("decode", |b| {
        b.iter(|| MoveRequest::from_json(black_box(BODY)).unwrap())
    });
    group.bench_function("decode and check", |b| {
        b.iter(|| MoveJob::new(MoveRequest::from_json(black_box(BODY)).unwrap()).unwrap())
    });
    let job = MoveJob::new(MoveRequest::from_json(BODY).unwrap()).unwrap();
    group.bench_function("search", |b| {
        b.iter(|| black_box(&job).run(&budget).unwrap())
    });
    let response = job.run(&budget).unwrap();
    group.bench_function("encode", |b| {
        b.iter(|| {
            let mut body = Vec::with_capacity(512);
            serde_json::to_writer(&mut body, black_box(&response)).unwrap();
            body
        })
    });
    group.bench_function("all", |b| {
        b.iter(|| {
            let job = MoveJob::new(MoveRequest::from_json(black_box(BODY)).unwrap()).unwrap();
            let response = job.run(&budget).unwrap();
            let mut body = Vec::with_capacity(512);
            serde_json::to_writer(&mut body, &response).unwrap();
            body
        })
    });
    group.finish();
}

criterion_group!(benches, move_request);
criterion_main!(benches);
