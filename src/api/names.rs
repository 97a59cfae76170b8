//! Names a request gives (a game, an algorithm, a tiebreak), matched against the names there
//! are, with a suggestion when one is refused: a name in another case or with punctuation
//! (`"AlphaBeta"`, `"alpha-beta"`) is a slip, and the answer should say what was meant.

use super::Problem;

/// The one of `names` that `given` was probably meant to be: the same but for case and
/// punctuation, or close by Jaro-Winkler similarity (which weighs a shared beginning, as in
/// a name written out and its abbreviation).
pub fn closest<'a>(given: &str, names: &[&'a str]) -> Option<&'a str> {
    let given = folded(given);
    names
        .iter()
        .map(|&name| (strsim::jaro_winkler(&given, &folded(name)), name))
        .filter(|&(similarity, _)| similarity > 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, name)| name)
}

/// Lowercase letters and digits only.
fn folded(name: &str) -> String {
    name.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// The 422 problem of a name that is none of `names`: what was given, what was probably
/// meant, and every name there is. `what` says what the name is of ("game", "algorithm").
pub fn unknown(field: &str, what: &str, given: &str, names: &[&str]) -> Problem {
    let suggestion = closest(given, names)
        .map(|name| format!(" Did you mean {name:?}?"))
        .unwrap_or_default();
    Problem::invalid(
        field,
        format!(
            "unknown {what} {given:?}.{suggestion} The {what}s are: {}.",
            names.join(", ")
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slips_are_matched_to_the_name_meant() {
        let names = ["fourline", "dots"];
        for (given, meant) in [
            ("FourLine", "fourline"),
            ("four-line", "fourline"),
            ("four_lines", "fourline"),
            ("DOTS", "dots"),
        ] {
            assert_eq!(closest(given, &names), Some(meant), "{given}");
        }
        let algorithms = crate::search::Algorithm::ALL.map(|algorithm| algorithm.name());
        for (given, meant) in [
            ("AlphaBeta", "alphabeta"),
            ("alpha-beta", "alphabeta"),
            ("MCTS", "mcts"),
            ("minmax", "minimax"),
        ] {
            assert_eq!(closest(given, &algorithms), Some(meant), "{given}");
        }
        assert_eq!(closest("shogi", &names), None);
        assert_eq!(closest("backgammon", &algorithms), None);
    }

    #[test]
    fn the_problem_says_what_was_meant_and_what_there_is() {
        let problem = unknown("game", "game", "Four-Line", &["fourline", "dots"]);
        assert_eq!(problem.status, 422);
        assert_eq!(
            problem.detail,
            "unknown game \"Four-Line\". Did you mean \"fourline\"? The games are: fourline, dots."
        );
    }
}
