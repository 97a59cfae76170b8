//! Every example in the README and `docs/` is run here, against the service and the command
//! line, and must answer what the page shows, so that an example cannot drift from the code.
//!
//! An example is a command after `$ ` in a `console` block: `curl` against `localhost:8080`
//! (sent to a service started for the test) or `sente` (the binary built with the tests, run in
//! the repository's root). The lines under it, up to the next `$ `, are its answer. They are
//! compared with the real answer with whitespace between JSON tokens left out; `...` stands for
//! anything the page leaves out; the fields the README names as varying from run to run (times)
//! match any number. A command shown without an answer must succeed. Commands to copy that the
//! suite cannot run (Docker, an installed Stockfish, minutes of play) are in `sh` blocks, with no
//! prompt.
//!
//! A program the page shows in a block opened with its file name (```` ```js file=play.mjs ````)
//! is run by a command that names it (`$ node play.mjs`), with `SENTE` set to the service's
//! address: with Node where it is installed, and skipped (saying so) where it is not, unless
//! `SENTE_REQUIRE_NODE` is set, as `.ci/run` sets it.

use std::path::{Path, PathBuf};
use std::process::Command;

use sente::http::{AppState, serve};
use tokio::net::TcpListener;

/// A command shown in a `console` block, with the answer shown under it.
struct Example {
    /// `file:line` of the command.
    place: String,
    command: String,
    /// The answer as the page shows it; empty when it shows none.
    shown: String,
    /// The programs its page shows, by file name, that a command may run.
    programs: Vec<(String, String)>,
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// README.md and every page in docs/.
fn pages() -> Vec<PathBuf> {
    let mut pages: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .collect();
    pages.sort();
    pages.insert(0, root().join("README.md"));
    pages
}

/// The examples of one page, in order.
fn examples(page: &Path) -> Vec<Example> {
    let text = std::fs::read_to_string(page).unwrap();
    let name = page.strip_prefix(root()).unwrap().display().to_string();
    let mut examples = Vec::new();
    let mut programs = Vec::new();
    let mut lines = text.lines().enumerate().peekable();
    let mut in_console = false;
    while let Some((index, line)) = lines.next() {
        if let Some(file) = line
            .strip_prefix("```")
            .and_then(|info| info.split_once(" file="))
            .map(|(_, file)| file.to_owned())
        {
            let mut program = String::new();
            while let Some((_, next)) = lines.next_if(|(_, l)| *l != "```") {
                program.push_str(next);
                program.push('\n');
            }
            lines.next();
            programs.push((file, program));
            continue;
        }
        if line.starts_with("```") {
            in_console = !in_console && line == "```console";
            continue;
        }
        let Some(first) = line.strip_prefix("$ ").filter(|_| in_console) else {
            continue;
        };
        // A command goes on while a line ends with `\` or a quote is open.
        let mut command = first.to_owned();
        while command.ends_with('\\') || shlex::split(&command).is_none() {
            let Some((_, next)) = lines.next() else { break };
            command.push('\n');
            command.push_str(next);
        }
        let mut shown = String::new();
        while let Some((_, next)) = lines.next_if(|(_, l)| !l.starts_with("$ ") && *l != "```") {
            shown.push_str(next);
            shown.push('\n');
        }
        examples.push(Example {
            place: format!("{name}:{}", index + 1),
            command: command.replace("\\\n", " "),
            shown,
            programs: Vec::new(),
        });
    }
    for example in &mut examples {
        example.programs.clone_from(&programs);
    }
    examples
}

/// The fields the README says vary from run to run: the words in backticks of the paragraph
/// that says so, but `...`.
fn varying_fields() -> Vec<String> {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let paragraph = readme
        .split("\n\n")
        .find(|paragraph| paragraph.contains("vary from run to run"))
        .expect("README.md says which figures vary from run to run");
    paragraph
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|word| word.chars().all(|c| c.is_ascii_lowercase() || c == '_'))
        .map(str::to_owned)
        .collect()
}

/// `text` without whitespace outside JSON strings, so that a page may wrap and indent an
/// answer as it likes.
fn compact(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let (mut in_string, mut escaped) = (false, false);
    for c in text.chars() {
        if in_string {
            in_string = escaped || c != '"';
            escaped = !escaped && c == '\\';
        } else if c == '"' {
            in_string = true;
        } else if c.is_whitespace() {
            continue;
        }
        out.push(c);
    }
    out
}

/// `text` with the number after each varying field (`"elapsed_us":25`) written `~`.
fn masked(text: &str, varying: &[String]) -> String {
    let mut text = text.to_owned();
    for field in varying {
        let key = format!("\"{field}\":");
        let mut from = 0;
        while let Some(at) = text[from..].find(&key) {
            let start = from + at + key.len();
            let end = text[start..]
                .find(|c: char| !(c.is_ascii_digit() || "-+.eE".contains(c)))
                .map_or(text.len(), |n| start + n);
            if end > start {
                text.replace_range(start..end, "~");
            }
            from = start;
        }
    }
    text
}

/// Whether `actual` is `shown` with each `...` standing for any text.
fn agrees(shown: &str, actual: &str) -> bool {
    let parts: Vec<&str> = shown.split("...").collect();
    let (first, rest) = parts.split_first().unwrap();
    let Some(mut left) = actual.strip_prefix(first) else {
        return false;
    };
    let Some((last, middle)) = rest.split_last() else {
        return left.is_empty();
    };
    for part in middle {
        match left.find(part) {
            Some(at) => left = &left[at + part.len()..],
            None => return false,
        }
    }
    left.ends_with(last)
}

/// The answer to a `curl` command sent to the service at `url`: whether it succeeded, and the
/// body.
async fn curl(words: &[String], url: &str) -> Result<(bool, String), String> {
    let client = reqwest::Client::new();
    let mut headers = Vec::new();
    let (mut body, mut target) = (None, None);
    let mut words = words.iter();
    while let Some(word) = words.next() {
        match word.as_str() {
            "-s" | "-sN" => {}
            "-H" => headers.push(words.next().ok_or("-H without a header")?),
            "-d" => body = Some(words.next().ok_or("-d without a body")?.clone()),
            other if !other.starts_with('-') => target = Some(other),
            other => return Err(format!("the test does not know curl's {other}")),
        }
    }
    let target = target.ok_or("no URL")?;
    let path = target
        .strip_prefix("localhost:8080")
        .ok_or_else(|| format!("{target} is not the service at localhost:8080"))?;
    let mut request = match body {
        Some(body) => client.post(format!("{url}{path}")).body(body),
        None => client.get(format!("{url}{path}")),
    };
    for header in headers {
        let (name, value) = header.split_once(": ").ok_or("a header is NAME: VALUE")?;
        request = request.header(name, value);
    }
    let response = request.send().await.map_err(|error| error.to_string())?;
    let succeeded = response.status().is_success();
    let text = response.text().await.map_err(|error| error.to_string())?;
    Ok((succeeded, text))
}

/// A `sente` command run in the repository's root: whether it succeeded, and its output (its
/// errors when it failed).
fn sente(words: &[String]) -> (bool, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_sente"))
        .args(words)
        .current_dir(root())
        .output()
        .unwrap();
    let text = if output.status.success() {
        &output.stdout
    } else {
        &output.stderr
    };
    (
        output.status.success(),
        String::from_utf8_lossy(text).into_owned(),
    )
}

/// A program of the page run by Node against the service at `url`: whether it succeeded, and
/// its output (its errors when it failed); `None` where Node is not installed and not required.
fn node(
    words: &[String],
    programs: &[(String, String)],
    url: &str,
) -> Result<Option<(bool, String)>, String> {
    let [file] = words else {
        return Err("node runs one of the page's programs".into());
    };
    let (_, program) = programs
        .iter()
        .find(|(name, _)| name == file)
        .ok_or_else(|| format!("the page shows no program {file}"))?;
    let folder = std::env::temp_dir().join(format!("sente-docs-{}", std::process::id()));
    std::fs::create_dir_all(&folder).map_err(|error| error.to_string())?;
    std::fs::write(folder.join(file), program).map_err(|error| error.to_string())?;
    let output = match Command::new("node")
        .arg(file)
        .current_dir(&folder)
        .env("SENTE", url)
        .output()
    {
        Ok(output) => output,
        Err(_) if std::env::var_os("SENTE_REQUIRE_NODE").is_none() => {
            eprintln!("skipped: node is not installed to run {file}");
            return Ok(None);
        }
        Err(error) => return Err(format!("node: {error}")),
    };
    let text = if output.status.success() {
        &output.stdout
    } else {
        &output.stderr
    };
    Ok(Some((
        output.status.success(),
        String::from_utf8_lossy(text).into_owned(),
    )))
}

/// What is wrong with `example`'s answer, if anything.
async fn check(example: &Example, url: &str, varying: &[String]) -> Result<(), String> {
    let words = shlex::split(&example.command).ok_or("the command's quotes do not close")?;
    let (succeeded, answer) = match words[0].as_str() {
        "curl" => curl(&words[1..], url).await?,
        "sente" => sente(&words[1..]),
        "node" => match node(&words[1..], &example.programs, url)? {
            Some(ran) => ran,
            None => return Ok(()),
        },
        other => return Err(format!("the test runs curl, sente and node, not {other}")),
    };
    // A page that shows no answer promises that the command works; one that shows an answer,
    // a problem included, promises that answer.
    if example.shown.is_empty() {
        return if succeeded {
            Ok(())
        } else {
            Err(format!("failed: {answer}"))
        };
    }
    let shown = masked(&compact(&example.shown), varying);
    let actual = masked(&compact(&answer), varying);
    if agrees(&shown, &actual) {
        Ok(())
    } else {
        Err(format!("shows\n{shown}\nbut the answer is\n{actual}"))
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_example_in_the_readme_and_docs_answers_as_shown() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(serve(listener, AppState::default(), std::future::pending()));
    let varying = varying_fields();
    let mut failures = Vec::new();
    let mut count = 0;
    for page in pages() {
        for example in examples(&page) {
            count += 1;
            let started = std::time::Instant::now();
            if let Err(failure) = check(&example, &url, &varying).await {
                failures.push(format!(
                    "{}: $ {}\n{failure}",
                    example.place, example.command
                ));
            }
            eprintln!("{} in {:?}", example.place, started.elapsed());
        }
    }
    assert!(count >= 20, "only {count} examples found");
    assert!(
        failures.is_empty(),
        "{} of {count} examples do not answer as shown:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

#[test]
fn an_answer_agrees_with_what_a_page_shows_only_where_it_leaves_out() {
    let varying = ["elapsed_us".to_owned()];
    let shown = masked(
        &compact("{\"move\": 3, ...,\n  \"elapsed_us\": 5, \"note\": \"a b\"}"),
        &varying,
    );
    assert_eq!(shown, "{\"move\":3,...,\"elapsed_us\":~,\"note\":\"a b\"}");
    let answer = |text: &str| masked(text, &varying);
    assert!(agrees(
        &shown,
        &answer("{\"move\":3,\"row\":1,\"elapsed_us\":1234,\"note\":\"a b\"}")
    ));
    assert!(!agrees(
        &shown,
        &answer("{\"move\":4,\"row\":1,\"elapsed_us\":1234,\"note\":\"a b\"}")
    ));
    assert!(!agrees(
        &shown,
        &answer("{\"move\":3,\"elapsed_us\":1,\"note\":\"ab\"}")
    ));
    assert!(!agrees("{\"a\":1}", "{\"a\":1,\"b\":2}"));
    assert!(agrees("{\"a\":1,...}", "{\"a\":1,\"b\":2}"));
}
