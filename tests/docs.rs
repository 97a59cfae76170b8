//! The documents say what the service does: their lists of games, algorithms and knobs are
//! checked against the registry and the table of knobs, so that a game or a knob added to the
//! code and not to the docs (or the other way round) fails here.

use sente::api::knobs::{KNOBS, Kind, SEED, taken_by};
use sente::games::NAMES;
use sente::search::Algorithm;

use crate::support::module_graph;

fn read(path: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("{}: {error}", path.display()))
}

/// The rows of the first Markdown table whose header row starts with `| first |`, as cells.
fn table(text: &str, first: &str) -> Vec<Vec<String>> {
    let header = format!("| {first} |");
    let mut lines = text.lines().skip_while(|line| !line.starts_with(&header));
    assert!(lines.next().is_some(), "no table headed {header:?}");
    lines
        .skip(1)
        .take_while(|line| line.starts_with('|'))
        .map(|line| {
            line.trim_matches('|')
                .split(" | ")
                .map(|cell| cell.trim().to_owned())
                .collect()
        })
        .collect()
}

/// The words in backticks in `text`, in order.
fn quoted(text: &str) -> Vec<&str> {
    text.split('`').skip(1).step_by(2).collect()
}

/// The service's words for the list of games (`unknown game ...`).
fn games_listed() -> String {
    format!("The games are: {}.", NAMES.join(", "))
}

#[test]
fn the_readme_lists_the_registrys_games_in_its_order() {
    let readme = read("README.md");
    let rows = table(&readme, "game");
    let games: Vec<&str> = rows.iter().map(|row| quoted(&row[1])[0]).collect();
    assert_eq!(games, NAMES, "README.md's table of games");
    for line in readme
        .lines()
        .filter(|line| line.contains("The games are: "))
    {
        assert!(line.contains(&games_listed()), "README.md: {line}");
    }
}

#[test]
fn the_api_doc_lists_the_registrys_games() {
    let api = read("docs/api.md");
    let line = api
        .lines()
        .find(|line| line.starts_with("- `game`: "))
        .expect("docs/api.md describes the game field");
    let named: Vec<&str> = quoted(line)
        .into_iter()
        .filter_map(|word| word.strip_prefix('"')?.strip_suffix('"'))
        .collect();
    assert_eq!(named, NAMES, "docs/api.md: {line}");
    for line in api.lines().filter(|line| line.contains("The games are: ")) {
        assert!(line.contains(&games_listed()), "docs/api.md: {line}");
    }
}

/// The README's table of algorithms lists every algorithm in the service's order, each with
/// knobs it takes.
#[test]
fn the_readme_lists_every_algorithm_with_knobs_it_takes() {
    let readme = read("README.md");
    let rows = table(&readme, "algorithm");
    let names: Vec<&str> = rows.iter().map(|row| quoted(&row[0])[0]).collect();
    assert_eq!(names, Algorithm::ALL.map(Algorithm::name));
    for (row, algorithm) in rows.iter().zip(Algorithm::ALL) {
        let takes: Vec<&str> = taken_by(algorithm).map(|knob| knob.name).collect();
        for knob in quoted(&row[2]) {
            assert!(
                takes.contains(&knob),
                "README.md: {algorithm} does not take {knob}"
            );
        }
    }
}

/// docs/algorithms.md names, for each algorithm, only knobs it takes, and every knob somewhere,
/// with the range the table gives it.
#[test]
fn the_algorithms_doc_describes_every_knob_as_the_table_declares_it() {
    let doc = read("docs/algorithms.md");
    let rows = table(&doc, "algorithm");
    let names: Vec<&str> = rows.iter().map(|row| quoted(&row[0])[0]).collect();
    assert_eq!(names, Algorithm::ALL.map(Algorithm::name));
    for (row, algorithm) in rows.iter().zip(Algorithm::ALL) {
        let takes: Vec<&str> = taken_by(algorithm).map(|knob| knob.name).collect();
        for knob in quoted(&row[2])
            .into_iter()
            .filter(|word| takes_a_name(word))
        {
            assert!(
                takes.contains(&knob),
                "docs/algorithms.md: {algorithm} does not take {knob}"
            );
        }
    }
    for knob in KNOBS.iter().chain([&SEED]) {
        assert!(
            doc.contains(&format!("`{}`", knob.name)),
            "docs/algorithms.md does not describe {}",
            knob.name
        );
        let range = match knob.kind {
            Kind::Integer { min, max, .. } if knob.name != SEED.name => {
                format!("({}-{})", thousands(min), thousands(max))
            }
            Kind::Number { min, max, .. } => format!("({min}-{max})"),
            _ => continue,
        };
        assert!(
            doc.contains(&range),
            "docs/algorithms.md does not give {}'s range {range}",
            knob.name
        );
    }
}

/// Whether `word` (in backticks) is a knob's name rather than a value or a name of something
/// else.
fn takes_a_name(word: &str) -> bool {
    KNOBS.iter().chain([&SEED]).any(|knob| knob.name == word)
}

/// `n` with commas between thousands, as the docs write numbers.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

mod examples;

/// Every file under `dir` (relative to the crate), as paths relative to the crate.
fn files_under(dir: &str) -> Vec<String> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut found = Vec::new();
    let mut folders = vec![root.join(dir)];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
            } else {
                let relative = path.strip_prefix(root).unwrap();
                found.push(relative.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    found.sort();
    found
}

/// docs/architecture.md's layout names every file under `src/`, a line each, and no file that
/// is not there.
#[test]
fn the_architectures_layout_is_the_source_tree() {
    let text = read("docs/architecture.md");
    let layout = text
        .split("## Layout")
        .nth(1)
        .and_then(|section| section.split("```").nth(1))
        .expect("docs/architecture.md has a Layout section with the tree");
    let mut folders: Vec<String> = Vec::new();
    let mut named = Vec::new();
    for line in layout.lines().filter(|line| !line.trim().is_empty()) {
        let depth = (line.len() - line.trim_start().len()) / 2;
        let name = line.split_whitespace().next().unwrap();
        folders.truncate(depth);
        match name.strip_suffix('/') {
            Some(folder) => folders.push(folder.to_owned()),
            None => named.push(format!("{}/{name}", folders.join("/"))),
        }
    }
    named.sort();
    let files = files_under("src");
    let missing: Vec<_> = files.iter().filter(|file| !named.contains(file)).collect();
    let absent: Vec<_> = named.iter().filter(|file| !files.contains(file)).collect();
    assert!(
        missing.is_empty() && absent.is_empty(),
        "not in the layout: {missing:?}; in the layout but not in src/: {absent:?}"
    );
}

/// The layers inside another's folder: learning's loop stands on the API, while the rest of
/// `learn` is the ground floor.
const INNER_LAYERS: &[&str] = &["learn::run"];

/// The modules of `crate::` that `text` (a source file's) names outside its comments and its
/// tests: `crate::search::...` and each name of `crate::{search, game}`.
fn crate_modules_named(text: &str) -> std::collections::BTreeSet<String> {
    let code: String = text
        .split("#[cfg(test)]")
        .next()
        .unwrap_or_default()
        .lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .map(|line| format!("{line}\n"))
        .collect();
    let mut named = std::collections::BTreeSet::new();
    // A module's name, or an inner layer's where the path goes on into one
    // (`crate::learn::run::...` is `learn::run`).
    let module = |rest: &str| -> String {
        let inner = INNER_LAYERS.iter().find(|inner| {
            rest.strip_prefix(**inner)
                .is_some_and(|after| !after.starts_with(|c: char| c.is_alphanumeric() || c == '_'))
        });
        match inner {
            Some(inner) => (*inner).to_owned(),
            None => rest
                .chars()
                .take_while(|c| c.is_ascii_lowercase() || *c == '_')
                .collect(),
        }
    };
    for (at, _) in code.match_indices("crate::") {
        let rest = &code[at + "crate::".len()..];
        if let Some(list) = rest.strip_prefix('{') {
            let list = &list[..list.find('}').unwrap_or(list.len())];
            named.extend(list.split(',').map(|item| module(item.trim())));
        } else {
            named.insert(module(rest));
        }
    }
    named.retain(|name| !name.is_empty());
    named
}

/// Dependencies point one way, as docs/architecture.md draws them: each layer of `src/` names
/// only the layers below it (its tests may name any).
#[test]
fn layers_use_only_the_layers_below_them() {
    const READERS: [&str; 3] = ["files", "lines", "rounded"];
    // A layer is a folder of `src/`, or one of the inner layers (`learn/run`): a layer's files
    // are those of its folder but those of a layer inside it.
    let below: [(&str, &[&str]); 9] = [
        ("learn", &[]),
        ("game", &["learn"]),
        ("search", &["game", "learn"]),
        ("protocols", &["search", "game", "learn"]),
        ("games", &["protocols", "search", "game", "learn"]),
        ("tournament", &["search", "game", "learn"]),
        ("api", &["tournament", "games", "search", "game", "learn"]),
        ("http", &["api"]),
        (
            "learn/run",
            &[
                "api",
                "tournament",
                "games",
                "protocols",
                "search",
                "game",
                "learn",
            ],
        ),
    ];
    let inner: Vec<String> = INNER_LAYERS
        .iter()
        .map(|inner| inner.replace("::", "/"))
        .collect();
    let mut wrong = Vec::new();
    for (layer, uses) in below {
        for file in files_under(&format!("src/{layer}")) {
            if !file.ends_with(".rs") || file.ends_with("/tests.rs") || file.contains("/tests/") {
                continue;
            }
            let in_inner = inner
                .iter()
                .any(|other| other != layer && file.starts_with(&format!("src/{other}/")));
            if in_inner {
                continue;
            }
            for module in crate_modules_named(&read(&file)) {
                let folder = module.replace("::", "/");
                if folder != layer
                    && !uses.contains(&folder.as_str())
                    && !READERS.contains(&folder.as_str())
                {
                    wrong.push(format!("{file} uses crate::{module}"));
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "against the layers' direction: {wrong:#?}"
    );
}

/// No two files of `src/` use one another, by any way round: each concept sits below what uses
/// it (a folder and its files are one room, see `tests/support/module_graph.rs`).
#[test]
fn files_use_one_another_in_one_direction_only() {
    let files = files_under("src")
        .into_iter()
        .filter(|file| {
            file.ends_with(".rs")
                && !file.starts_with("src/bin/")
                && !file.ends_with("/tests.rs")
                && !file.contains("/tests/")
        })
        .map(|file| {
            (
                module_graph::module_of(&file),
                module_graph::code(&read(&file)),
            )
        })
        .collect();
    let graph = module_graph::Graph::new(files);
    assert!(graph.modules.len() > 100, "{} modules", graph.modules.len());
    if let Some(circle) = graph.circle() {
        let names: Vec<String> = circle.iter().map(|module| module.join("::")).collect();
        panic!(
            "files that use one another in a circle: {}",
            names.join(" -> ")
        );
    }
}

/// The circles' test finds a circle through a re-export and a written path, and none where a
/// folder's files use its front door.
#[test]
fn the_circles_test_finds_a_circle_where_there_is_one() {
    let module = |path: &str| -> module_graph::Module {
        path.split("::")
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .collect()
    };
    let graph = |files: &[(&str, &str)]| {
        module_graph::Graph::new(
            files
                .iter()
                .map(|(path, text)| (module(path), module_graph::code(text)))
                .collect(),
        )
    };
    let circle = graph(&[
        (
            "search",
            "mod record;\nmod mcs;\npub use record::{Algorithm, Record};\n",
        ),
        ("search::record", "pub fn record() { super::mcs::RECORD }\n"),
        (
            "search::mcs",
            "use super::{Record, Algorithm};\n// use crate::x::y;\n",
        ),
    ]);
    let found = circle.circle().expect("record -> mcs -> record");
    assert_eq!(found.len(), 2, "{found:?}");
    let acyclic = graph(&[
        (
            "search",
            "mod record;\nmod mcs;\npub use record::Record;\nfn f() { mcs::run() }\n",
        ),
        (
            "search::record",
            "let s = \"use super::mcs::X;\"; let c = '{';\n",
        ),
        (
            "search::mcs",
            "use super::Record;\nuse crate::search::search;\n",
        ),
    ]);
    assert_eq!(acyclic.circle(), None);
}

/// The layers' test reads what a file names of the crate as a reader would.
#[test]
fn the_layers_test_reads_the_crates_modules_named() {
    let text = "use crate::search::Solve;\nuse crate::{files, game::Game};\n\
                // crate::api in a comment\nlet x = crate::learn::SeededRng::new();\n\
                use crate::learn::run::Learning;\nuse crate::learn::runs;\n\
                #[cfg(test)]\nmod tests { use crate::games::Chess; }\n";
    let named: Vec<String> = crate_modules_named(text).into_iter().collect();
    assert_eq!(named, ["files", "game", "learn", "learn::run", "search"]);
}

/// The registry's lines as a document shows them: its `registry! { ... }` block.
fn registry_block(text: &str) -> String {
    let start = text.find("registry! {").expect("a registry block");
    let end = start + text[start..].find("\n}").expect("its end");
    text[start..end].to_owned()
}

/// docs/adding-a-game.md shows the registry as it is, every game in its order.
#[test]
fn adding_a_game_shows_the_registry_as_it_is() {
    assert_eq!(
        registry_block(&read("docs/adding-a-game.md")),
        registry_block(&read("src/games/mod.rs"))
    );
}

/// Every file of `src/` that a document names (in backticks) exists.
#[test]
fn the_files_the_documents_name_exist() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut documents = vec!["README.md".to_owned()];
    documents.extend(
        files_under("docs")
            .into_iter()
            .filter(|f| f.ends_with(".md")),
    );
    for document in documents {
        let text = read(&document);
        for named in quoted(&text) {
            // A path, not a template (`src/games/NAME/mod.rs`) or a glob.
            let is_path = named.starts_with("src/")
                && !named.contains(char::is_uppercase)
                && !named.contains(['*', ' ', '{']);
            if is_path {
                assert!(root.join(named).exists(), "{document} names {named}");
            }
        }
    }
}
