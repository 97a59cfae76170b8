//! A tsume solver: proof-number search over checks and evasions, as shogi engines answer
//! `go mate` and look for a mate before they search.
//!
//! A mate in shogi is a race of checks: the attacker may only check (a quiet move lets the
//! defender breathe, and a tsume is a mate by checks), the defender only answers the check. The
//! tree is narrow where the defender has few answers and wide where the attacker has many
//! drops, so the search goes where a proof is cheapest, not deepest first: each position keeps
//! a *proof number*, how many positions at least must still be shown mated to prove it, and a
//! *disproof number*, how many to refute it (Allis, 1994). A checking position's proof number is
//! its cheapest check's; its disproof number the sum of its checks'; a checked position's are
//! the other way round. Depth-first proof-number search (df-pn; Nagai, 2002) walks to the most
//! proving position within thresholds, so that it needs a table of numbers, not the tree: the
//! `phi`/`delta` form below is the side to move's (phi its proof number where it attacks, its
//! disproof number where it defends).
//!
//! Shogi's own rules in it: a pawn dropped with mate is not a move (uchifuzume), so a pawn drop
//! that leaves no answer refutes nothing and mates nothing; a check repeated for ever is not a
//! mate (a position already on the line is taken as refuted, and not kept in the table, whose
//! numbers would otherwise depend on the line that reached them).
//!
//! A proof's length is kept with it: the attacker's shortest proven check, the defender's
//! longest proven answer. df-pn stops at the first proof, so that length is a mate's, not
//! always the shortest mate's.

use std::collections::HashMap;

use rsshogi::board::{Move32List, Position};
use rsshogi::movegen::{Legal, generate_checks_all_move32, generate_moves_move32};
use rsshogi::types::{Move32, PieceType};

use crate::search::Budget;

/// A number past any proof: proven or refuted.
const INFINITE: u32 = 1 << 30;
/// The longest mate the solver looks for.
pub const MAX_PLIES: usize = 63;
/// The table's largest size, some 40 MB: past it the search stops, unknown.
const MAX_ENTRIES: usize = 1 << 20;

/// What the solver found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tsume {
    /// A mate, its moves from the attacker's first check to the mating move.
    Mate(Vec<Move32>),
    /// No mate by checks.
    NoMate,
    /// The budget ran out first.
    Unknown,
}

/// A position's numbers, from the side to move's view (phi: to prove that it reaches its goal,
/// the attacker a mate and the defender an escape; delta: to refute that), and where it is
/// decided, the plies to the mate.
#[derive(Clone, Copy, Debug)]
struct Numbers {
    phi: u32,
    delta: u32,
    plies: u16,
}

impl Numbers {
    /// Not searched yet.
    const NEW: Numbers = Numbers {
        phi: 1,
        delta: 1,
        plies: 0,
    };
    /// The side to move reaches its goal.
    const WINS: Numbers = Numbers {
        phi: 0,
        delta: INFINITE,
        plies: 0,
    };
    /// The side to move fails: the attacker has no mate, or the defender is mated.
    const FAILS: Numbers = Numbers {
        phi: INFINITE,
        delta: 0,
        plies: 0,
    };
}

/// Looks for a mate by checks of the side to move's of at most `max_plies` plies, within
/// `budget` and `max_nodes`; and the nodes it searched.
///
/// Proof numbers alone chase the narrowest line however deep it goes, and with pieces in hand
/// a line of checks can go on for ever, each with a single answer: the solver searches for a
/// mate of 1 ply, then 3, then 5 and on, each to its length and no further, so that a short
/// mate is found first, and found as the shortest.
pub fn solve(
    position: &Position,
    budget: &Budget,
    max_nodes: u64,
    max_plies: usize,
) -> (Tsume, u64) {
    let mut nodes = 0;
    for limit in (1..=max_plies.clamp(1, MAX_PLIES)).step_by(2) {
        let mut solver = Solver {
            position: position.clone(),
            table: HashMap::new(),
            path: Vec::new(),
            nodes,
            max_nodes,
            limit,
            budget,
            stopped: false,
            cut: false,
        };
        let root = solver.search(INFINITE - 1, INFINITE - 1, true, 0);
        nodes = solver.nodes;
        if root.phi == 0 {
            return (Tsume::Mate(solver.line()), nodes);
        }
        if solver.stopped {
            return (Tsume::Unknown, nodes);
        }
        // Refuted without a line cut at the limit: no mate of any length.
        if !solver.cut {
            return (Tsume::NoMate, nodes);
        }
    }
    (Tsume::NoMate, nodes)
}

/// [`solve`] on a game's position: the mate's moves in USI, its length, and the nodes.
pub fn solve_game(
    game: &super::Shogi,
    budget: &Budget,
    max_nodes: u64,
    max_plies: usize,
) -> (Option<Vec<String>>, bool, u64) {
    let (tsume, nodes) = solve(&game.position, budget, max_nodes, max_plies);
    match tsume {
        Tsume::Mate(line) => (
            Some(line.iter().map(|mv| mv.to_usi()).collect()),
            true,
            nodes,
        ),
        Tsume::NoMate => (None, true, nodes),
        Tsume::Unknown => (None, false, nodes),
    }
}

struct Solver<'a> {
    position: Position,
    /// Numbers by position.
    table: HashMap<u64, Numbers>,
    /// The keys of the line searched, to know a repetition.
    path: Vec<u64>,
    nodes: u64,
    max_nodes: u64,
    /// The longest line this pass follows.
    limit: usize,
    budget: &'a Budget,
    stopped: bool,
    /// Whether a line was cut at the limit: a refutation is then only of mates that short.
    cut: bool,
}

impl Solver<'_> {
    fn key(&self) -> u64 {
        self.position.key().low_u64()
    }

    /// The moves of the side to move: checks where it attacks, answers where it defends.
    fn moves(&self, attacking: bool) -> Vec<Move32> {
        let mut list = Move32List::new();
        if attacking && self.position.is_in_check() {
            // The check generator assumes its side is not in check: an attacker in check
            // must answer it, with a check of its own.
            generate_moves_move32::<Legal>(&self.position, &mut list);
            list.iter()
                .copied()
                .filter(|&mv| self.position.gives_check_move32(mv))
                .collect()
        } else if attacking {
            generate_checks_all_move32(&self.position, &mut list);
            list.iter()
                .copied()
                .filter(|&mv| self.position.is_legal_after_pseudo_move32(mv))
                .collect()
        } else {
            generate_moves_move32::<Legal>(&self.position, &mut list);
            list.iter().copied().collect()
        }
    }

    /// The numbers of the position `mv` leads to, as the table has them; a position already
    /// on the line is an escape (a check repeated for ever mates nothing).
    fn child(&mut self, mv: Move32, attacking: bool) -> Numbers {
        self.position.apply_move32(mv);
        let key = self.key();
        let numbers = if self.path.contains(&key) {
            if attacking {
                Numbers::WINS
            } else {
                Numbers::FAILS
            }
        } else {
            self.table.get(&key).copied().unwrap_or(Numbers::NEW)
        };
        self.position.undo_move32(mv).expect("the move just made");
        numbers
    }

    /// Searches the position until its numbers reach the thresholds, and keeps them.
    fn search(&mut self, phi_limit: u32, delta_limit: u32, attacking: bool, ply: usize) -> Numbers {
        self.nodes += 1;
        if self.nodes.is_multiple_of(1024)
            && (self.nodes >= self.max_nodes
                || self.table.len() >= MAX_ENTRIES
                || self.budget.check(self.nodes).is_some())
        {
            self.stopped = true;
        }
        let key = self.key();
        let moves = self.moves(attacking);
        let decided = if moves.is_empty() {
            // No check is no mate. No answer is mate, but for a pawn's drop: uchifuzume, not
            // a move, so it mates nothing.
            Some(
                if attacking || self.position.last_move().dropped_piece() != Some(PieceType::PAWN) {
                    Numbers::FAILS
                } else {
                    Numbers::WINS
                },
            )
        } else if ply >= self.limit {
            // Longer than this pass's mates: no mate here.
            self.cut = true;
            Some(if attacking {
                Numbers::FAILS
            } else {
                Numbers::WINS
            })
        } else {
            None
        };
        if let Some(numbers) = decided {
            self.table.insert(key, numbers);
            return numbers;
        }
        self.path.push(key);
        let mut children = vec![Numbers::NEW; moves.len()];
        let numbers = loop {
            for (child, &mv) in children.iter_mut().zip(&moves) {
                *child = self.child(mv, attacking);
            }
            let numbers = combine(&children);
            if numbers.phi >= phi_limit || numbers.delta >= delta_limit || self.stopped {
                break numbers;
            }
            let (best, second) = best_child(&children);
            // The child may spend what this position's delta has left, and until its delta
            // passes the second best's.
            let child_phi = delta_limit - (numbers.delta - children[best].phi);
            let child_delta = phi_limit.min(second.saturating_add(1));
            self.position.apply_move32(moves[best]);
            self.search(child_phi, child_delta, !attacking, ply + 1);
            self.position
                .undo_move32(moves[best])
                .expect("the move just made");
        };
        self.path.pop();
        // A search cut short keeps only what it decided.
        if !self.stopped || numbers.phi == 0 || numbers.delta == 0 {
            self.table.insert(key, numbers);
        }
        numbers
    }

    /// The proven mate's moves from the root: at each check the quickest proven one, at each
    /// answer the longest.
    fn line(&mut self) -> Vec<Move32> {
        let mut line = Vec::new();
        let mut attacking = true;
        loop {
            let moves = self.moves(attacking);
            let chosen = moves
                .iter()
                .map(|&mv| (mv, self.child(mv, attacking)))
                // A check after which the defender fails; an answer after which the attacker
                // still mates.
                .filter(|(_, child)| {
                    if attacking {
                        child.delta == 0
                    } else {
                        child.phi == 0
                    }
                })
                .reduce(|best, next| {
                    let better = if attacking {
                        next.1.plies < best.1.plies
                    } else {
                        next.1.plies > best.1.plies
                    };
                    if better { next } else { best }
                });
            let Some((mv, _)) = chosen else {
                break;
            };
            line.push(mv);
            self.position.apply_move32(mv);
            attacking = !attacking;
            if line.len() > MAX_PLIES {
                break;
            }
        }
        line
    }
}

/// A position's numbers from its children's, each from its own side to move's view: its phi
/// is the least of their deltas (one child refuted is enough), its delta the sum of their
/// phis (every child must be proven). Decided, its plies: through its quickest winning child,
/// or, failing, its longest.
fn combine(children: &[Numbers]) -> Numbers {
    let phi = children
        .iter()
        .map(|child| child.delta)
        .min()
        .unwrap_or(INFINITE);
    let delta = children
        .iter()
        .fold(0u32, |sum, child| sum.saturating_add(child.phi))
        .min(INFINITE);
    let plies = if phi == 0 {
        children
            .iter()
            .filter(|child| child.delta == 0)
            .map(|child| child.plies)
            .min()
            .unwrap_or(0)
            + 1
    } else if delta == 0 {
        children.iter().map(|child| child.plies).max().unwrap_or(0) + 1
    } else {
        0
    };
    Numbers { phi, delta, plies }
}

/// The child to search, the one with the least delta, and the second least delta.
fn best_child(children: &[Numbers]) -> (usize, u32) {
    let mut best = 0;
    let mut first = INFINITE;
    let mut second = INFINITE;
    for (index, child) in children.iter().enumerate() {
        if child.delta < first {
            second = first;
            first = child.delta;
            best = index;
        } else if child.delta < second {
            second = child.delta;
        }
    }
    (best, second)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Notation, Rules};
    use crate::games::Shogi;

    /// The problems of a set (`data/shogi/tsume.txt`, `tsume-long.txt`): each position, its
    /// mate's length.
    fn problems(set: &str) -> Vec<(Shogi, usize)> {
        set.lines()
            .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
            .map(|line| {
                let (plies, moves) = line.split_once('\t').expect("plies, a tab, the moves");
                let mut game = Shogi::start();
                for mv in moves.split_whitespace() {
                    let mv = game.read_move(&Notation::Text(mv.into())).expect(mv);
                    game = game.play(mv);
                }
                (game, plies.parse().expect("plies"))
            })
            .collect()
    }

    /// A line the solver answers, checked by the rules: every attacker's move a check, the
    /// last position mated.
    fn is_a_mate(game: &Shogi, line: &[Move32]) -> bool {
        let mut position = game.position.clone();
        for (ply, &mv) in line.iter().enumerate() {
            if ply % 2 == 0 && !position.gives_check_move32(mv) {
                return false;
            }
            position.apply_move32(mv);
        }
        position.is_mated() && line.len() % 2 == 1
    }

    #[test]
    fn the_solver_mates_every_problem_of_the_set_checks_each_line_and_refutes_a_non_mate() {
        let set = problems(include_str!("../../../data/shogi/tsume.txt"));
        let mut shortest = 0;
        let mut missed = Vec::new();
        for (game, plies) in &set {
            let (tsume, nodes) = solve(&game.position, &Budget::unlimited(), 2_000_000, 31);
            let Tsume::Mate(line) = tsume else {
                // A side in check may have to answer it with a move that is no check: its
                // mate is then no tsume.
                if !game.position.is_in_check() {
                    missed.push(format!(
                        "{game}: mate in {plies} not found ({tsume:?}, {nodes} nodes)"
                    ));
                }
                continue;
            };
            assert!(is_a_mate(game, &line), "{game}: {line:?}");
            let usi: Vec<String> = line.iter().map(|mv| mv.to_usi()).collect();
            assert!(
                line.len() >= *plies,
                "{game}: shorter than the shortest: {plies} {usi:?}"
            );
            shortest += usize::from(line.len() == *plies);
        }
        assert!(missed.is_empty(), "{}", missed.join("\n"));
        // The longer set, from self-play: each a mate Fairy-Stockfish proves, most by checks.
        let long = problems(include_str!("../../../data/shogi/tsume-long.txt"));
        let mut mated = 0;
        for (game, plies) in &long {
            let (tsume, _) = solve(&game.position, &Budget::unlimited(), 2_000_000, 31);
            if let Tsume::Mate(line) = tsume {
                assert!(is_a_mate(game, &line), "{game}: {line:?}");
                assert!(line.len() >= *plies, "{game}: shorter than the shortest");
                mated += 1;
            }
        }
        assert!(
            long.len() >= 30 && mated * 10 >= long.len() * 8,
            "{mated} of {}",
            long.len()
        );
        assert!(
            set.len() >= 60 && shortest * 10 >= set.len() * 9,
            "{shortest} of {}",
            set.len()
        );
        // The start has no mate by checks; one rook and gold against a lone king that has room
        // to run has none either.
        for sfen in [crate::games::shogi::START, "9/9/4k4/9/9/9/9/9/4K4 b RG 1"] {
            let game: Shogi = sfen.parse().unwrap();
            let (tsume, _) = solve(&game.position, &Budget::unlimited(), 200_000, 31);
            assert_ne!(tsume, Tsume::Mate(Vec::new()), "{sfen}");
            assert!(!matches!(tsume, Tsume::Mate(_)), "{sfen}: {tsume:?}");
        }
    }

    /// A pawn dropped with mate is no move (uchifuzume): here P*1b would mate (the gold on 2c
    /// guards 1b and 2b, the knight on 2a blocks), so it is no mate in one; a lance dropped
    /// there is.
    #[test]
    fn a_pawn_drop_mate_is_no_mate() {
        for (hand, mates_in_one) in [("P", false), ("L", true)] {
            let game: Shogi = format!("7nk/9/7G1/9/9/9/9/9/K8 b {hand} 1")
                .parse()
                .unwrap();
            let (tsume, _) = solve(&game.position, &Budget::unlimited(), 100_000, 31);
            let in_one = matches!(tsume, Tsume::Mate(ref line) if line.len() == 1);
            assert_eq!(in_one, mates_in_one, "{hand}: {tsume:?}");
        }
    }
}
