//! Sente's integration tests: the library through its public API, the binary, the HTTP service
//! and the documents. One crate, each file a module, so that `cargo test --release` links them
//! once under the release profile's LTO instead of once a file. The reference suite
//! (`tests/reference.rs`, outside data) is a crate apart, run by name.

mod alphazero;
mod budget;
mod cli;
mod connect_four;
mod docs;
mod fast_search;
mod http;
mod nim;
mod properties;
mod support {
    pub mod module_graph;
}
mod tictactoe_search;
