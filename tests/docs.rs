//! The documents say what the service does: their lists of games, algorithms and knobs are
//! checked against the registry and the table of knobs, so that a game or a knob added to the
//! code and not to the docs (or the other way round) fails here.

use sente::api::knobs::{KNOBS, Kind, SEED, taken_by};
use sente::games::NAMES;
use sente::search::Algorithm;

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

#[path = "docs/examples.rs"]
mod examples;
