//! The `sente` binary: its output is the API's JSON, its errors say what is wrong. One file a
//! topic; here the helpers every topic uses.

use std::process::Command;

use serde_json::{Value, json};

mod learning;
mod searches;
mod serving;
mod tournaments;

/// The binary, with none of its settings in the environment but those the test gives it.
fn binary() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_sente"));
    for (name, _) in std::env::vars_os() {
        if name == "PORT" || name.to_string_lossy().starts_with("SENTE_") {
            command.env_remove(name);
        }
    }
    command
}

fn sente(args: &[&str]) -> (i32, Value, String) {
    run(binary().args(args))
}

/// Runs `command` to its end: its exit code, its output as JSON (null if it is not), and its
/// standard error.
fn run(command: &mut Command) -> (i32, Value, String) {
    let output = command.output().expect("the binary runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let json = serde_json::from_str(&stdout).unwrap_or(Value::Null);
    (
        output.status.code().unwrap_or(-1),
        json,
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}
