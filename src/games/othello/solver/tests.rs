use super::*;
use crate::search::Budget;

/// The exact value by plain negamax over the contract: slow, obviously right.
fn negamax(game: &Othello) -> i32 {
    let moves: Vec<u8> = game.legal_moves().collect();
    if moves.is_empty() {
        return game.final_margin();
    }
    moves
        .iter()
        .map(|&mv| -negamax(&game.play(mv)))
        .max()
        .unwrap()
}

/// Positions from random games, with `empties` squares left.
fn endgames(empties: u32, count: usize) -> Vec<Othello> {
    let mut state = 7u64;
    let mut found = Vec::new();
    while found.len() < count {
        let mut game = Othello::start();
        while game.empties().count_ones() > empties {
            let moves: Vec<u8> = game.legal_moves().collect();
            if moves.is_empty() {
                break;
            }
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            game = game.play(moves[(state >> 33) as usize % moves.len()]);
        }
        if game.empties().count_ones() == empties && !game.outcome().is_over() {
            found.push(game);
        }
    }
    found
}

#[test]
fn the_solver_agrees_with_plain_negamax_and_its_move_gets_the_margin() {
    for (empties, count) in [
        (1, 12),
        (2, 12),
        (5, 12),
        (7, 12),
        (9, 12),
        (10, 12),
        (12, 3),
    ] {
        for position in endgames(empties, count) {
            let solved = Solver::new(&Budget::unlimited(), None).solve(&position);
            let exact = negamax(&position);
            assert_eq!(solved.margin, exact, "{position}");
            let after = position.play(solved.best);
            assert_eq!(-negamax(&after), exact, "{position}: {}", solved.best);
        }
    }
}

/// The `solver` algorithm on Othello: exact, with the margin, a line of legal moves; and a
/// time limit too short for the position stops it, inexact.
#[test]
fn the_solver_algorithm_answers_the_exact_margin_and_a_legal_line() {
    use crate::search::Solve;
    for position in endgames(9, 4) {
        let exact = negamax(&position);
        let result = position.solve(
            Some(std::time::Duration::from_secs(10)),
            &Budget::unlimited(),
        );
        assert!(result.exact && result.stopped_by.is_none(), "{position}");
        assert_eq!(result.margin, Some(exact), "{position}");
        assert_eq!(result.score, f64::from(exact.signum()));
        assert_eq!(result.pv[0], result.best_move);
        let mut game = position;
        for &mv in &result.pv {
            assert!(
                game.legal_moves().any(|legal| legal == mv),
                "{position}: {:?}",
                result.pv
            );
            game = game.play(mv);
        }
    }
    let position = endgames(18, 1)[0];
    let result = position.solve(
        Some(std::time::Duration::from_millis(1)),
        &Budget::unlimited(),
    );
    assert_eq!(result.stopped_by, Some(Cutoff::TimeLimit));
    assert!(!result.exact && result.margin.is_none());
    assert!(
        position
            .legal_moves()
            .any(|legal| legal == result.best_move)
    );
}

#[test]
fn the_last_square_goes_to_whoever_can_fill_it_or_to_the_leader() {
    // Black fills a1 and turns b1 over: all 64 discs are Black's.
    let mut cells = vec!["X"; 64];
    cells[0] = "-";
    cells[1] = "O";
    let game: Othello = format!("{} X", cells.concat()).parse().unwrap();
    let solved = Solver::new(&Budget::unlimited(), None).solve(&game);
    assert_eq!((solved.margin, solved.best), (64, 0));
    // Nobody can fill it: the leader gets it.
    let mut cells = vec!["X"; 64];
    cells[0] = "-";
    let game: Othello = format!("{} O", cells.concat()).parse().unwrap();
    assert_eq!(
        Solver::new(&Budget::unlimited(), None).solve(&game).margin,
        -64
    );
}

/// The endgames drawn for measurement are the same on every machine, of the empties asked for,
/// not over, with a move to play, and balanced enough to be worth solving (not all lost long
/// before).
#[test]
fn the_drawn_endgames_are_reproducible_and_playable() {
    let drawn = samples::endgames(3, 16, 20);
    assert_eq!(drawn, samples::endgames(3, 16, 20));
    assert_ne!(drawn, samples::endgames(4, 16, 20));
    for position in &drawn {
        assert_eq!(position.empties().count_ones(), 16);
        assert!(!position.outcome().is_over() && position.placements() != 0);
    }
    let margins: Vec<i32> = drawn
        .iter()
        .map(|position| {
            Solver::new(&Budget::unlimited(), None)
                .solve(position)
                .margin
        })
        .collect();
    let close = margins.iter().filter(|margin| margin.abs() <= 32).count();
    assert!(close >= 10, "{margins:?}");
}

/// The table keeps the position with the most empties in a bucket's first slot: many smaller
/// positions in the same bucket do not push it out, and a larger one moves it to the second.
#[test]
fn the_table_keeps_the_largest_subtree() {
    let mut table = table::Table::new();
    table.fit(0);
    let positions: Vec<Othello> = (8..=20)
        .flat_map(|empties| endgames(empties, 100))
        .collect();
    // The positions of the bucket that holds the most of them.
    let bucket = |position: &Othello| {
        let (mover, other) = position.sides();
        Othello::key_of(mover, other, crate::game::Player::X) >> (64 - 9)
    };
    let mut buckets = std::collections::BTreeMap::<u64, Vec<Othello>>::new();
    for position in positions {
        let held = buckets.entry(bucket(&position)).or_default();
        if !held.contains(&position) {
            held.push(position);
        }
    }
    let mut same = buckets
        .into_values()
        .max_by_key(|held| held.len())
        .expect("buckets");
    same.sort_by_key(|position| position.empties().count_ones());
    let (smaller, largest) = (same[0], *same.last().expect("positions"));
    assert!(
        smaller.empties().count_ones() < largest.empties().count_ones(),
        "{same:?}"
    );
    let put = |table: &mut table::Table, position: &Othello| {
        let (mover, other) = position.sides();
        table.put(table::Entry::new(mover, other, (-64, 64), PASS));
    };
    put(&mut table, &largest);
    for position in same.iter().rev().skip(1) {
        put(&mut table, position);
    }
    let held = |table: &table::Table, position: &Othello| {
        let (mover, other) = position.sides();
        table.get(mover, other).is_some()
    };
    assert!(held(&table, &largest));
    assert!(held(&table, &smaller));
}
