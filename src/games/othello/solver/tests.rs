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

/// On several threads the solver finds the margins one thread finds, and a move that gets
/// them, in positions large enough to split (from 18 to 20 empties).
#[test]
fn threads_solve_what_one_thread_solves() {
    let mut splits = 0;
    for empties in [18, 20] {
        for position in samples::endgames(11, empties, 6) {
            let alone = Solver::new(&Budget::unlimited(), None).solve(&position);
            for threads in [2, 4] {
                let mut solver = Solver::new(&Budget::unlimited(), None).with_threads(threads);
                let together = solver.solve(&position);
                assert_eq!(together.margin, alone.margin, "{position} on {threads}");
                let after = position.play(together.best);
                let margin = -Solver::new(&Budget::unlimited(), None).solve(&after).margin;
                assert_eq!(margin, alone.margin, "{position} on {threads}");
                splits += solver.splits();
            }
        }
    }
    // The threads did share nodes: the test above saw them work together.
    assert!(splits > 24, "{splits} splits");
}

/// Many threads writing and reading one small table at once: every entry read is whole (its
/// bounds and move the ones written with its position), never the halves of two.
#[test]
fn the_table_shared_by_threads_never_gives_a_torn_entry() {
    let mut table = table::Table::new();
    table.fit(0);
    let positions: Vec<(u64, u64)> = (10..=30)
        .flat_map(|empties| endgames(empties, 20))
        .map(|position| position.sides())
        .collect();
    // What is written for a position: determined by it, different for nearly every one.
    let written = |mover: u64, other: u64| {
        let mixed = (mover ^ other.rotate_left(17)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let lower = (mixed >> 58) as i32 - 32;
        (
            lower,
            lower + (mixed >> 61) as i32,
            (mixed >> 40) as u8 % 64,
        )
    };
    let (reads, hits) = (AtomicU64::new(0), AtomicU64::new(0));
    std::thread::scope(|scope| {
        for thread in 0..8 {
            let (table, positions, reads, hits) = (&table, &positions, &reads, &hits);
            scope.spawn(move || {
                for round in 0..200 {
                    for (index, &(mover, other)) in positions.iter().enumerate() {
                        if (index + round + thread) % 3 == 0 {
                            let (lower, upper, best) = written(mover, other);
                            table.put(table::Entry::new(mover, other, (lower, upper), best));
                        }
                        reads.fetch_add(1, Relaxed);
                        if let Some(entry) = table.get(mover, other) {
                            hits.fetch_add(1, Relaxed);
                            let (lower, upper, best) = written(mover, other);
                            assert_eq!(
                                (i32::from(entry.lower), i32::from(entry.upper), entry.best),
                                (lower, upper, best)
                            );
                        }
                    }
                }
            });
        }
    });
    // The table is small and the positions many: reads both hit and miss.
    let (reads, hits) = (reads.into_inner(), hits.into_inner());
    assert!(hits > reads / 10 && hits < reads, "{hits} of {reads}");
}
