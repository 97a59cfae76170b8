//! The kit's steps, which a game turns on and a request can turn off, to measure what each
//! gains.

/// The parts of the engine's search that a game takes ([`super::Board::STEPS`]) and a request
/// can turn off one at a time, each kept because a self-play SPRT said it gains
/// (`docs/chess.md` has chess's table). The `without` knob names them, as a game's engine
/// declaration lists them (beside any step of its own, such as chess's evaluation terms).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// Aspiration windows: each iteration first searches a narrow window around the last
    /// iteration's value.
    Aspiration,
    /// Null-move pruning: a position still above beta when the side to move passes is cut.
    NullMove,
    /// Null-move verification: deep in the tree, a null move's cut stands only once a search
    /// of the position itself, without passing, cuts too (zugzwang, where passing is best).
    Verification,
    /// Late move reductions: quiet moves late in the order are searched less deep first.
    Reductions,
    /// Reverse futility pruning: near the horizon, a static evaluation far above beta cuts.
    ReverseFutility,
    /// Late move pruning and futility pruning: near the horizon, quiet moves late in the order,
    /// or that cannot lift a hopeless evaluation to alpha, are not searched.
    LateMovePruning,
    /// Static exchange evaluation: captures that lose material are searched last, skipped
    /// near the horizon and in quiescence.
    Exchange,
    /// The whole of a time per move: iterations go on until the time is up, and one stopped
    /// part way answers with a better move it has already found.
    WholeTime,
    /// Correction history: the static evaluation is corrected by what searches found it got
    /// wrong in positions of the same pawn structure.
    CorrectionHistory,
}

impl Step {
    pub const ALL: [Step; 9] = [
        Step::Aspiration,
        Step::NullMove,
        Step::Verification,
        Step::Reductions,
        Step::ReverseFutility,
        Step::LateMovePruning,
        Step::Exchange,
        Step::WholeTime,
        Step::CorrectionHistory,
    ];

    pub const fn name(self) -> &'static str {
        match self {
            Step::Aspiration => "aspiration",
            Step::NullMove => "null_move",
            Step::Verification => "verification",
            Step::Reductions => "reductions",
            Step::ReverseFutility => "reverse_futility",
            Step::LateMovePruning => "late_move_pruning",
            Step::Exchange => "exchange",
            Step::WholeTime => "whole_time",
            Step::CorrectionHistory => "correction_history",
        }
    }
}

impl Step {
    /// The step `name` names, if any.
    pub fn named(name: &str) -> Option<Step> {
        Step::ALL.into_iter().find(|step| step.name() == name)
    }

    /// Every step but `left_out`, in the order of [`Step::ALL`].
    pub const fn all_but<const N: usize>(left_out: Step) -> [Step; N] {
        assert!(N + 1 == Step::ALL.len(), "one step left out");
        let mut steps = [Step::Aspiration; N];
        let (mut from, mut to) = (0, 0);
        while from < Step::ALL.len() {
            if Step::ALL[from] as usize != left_out as usize {
                steps[to] = Step::ALL[from];
                to += 1;
            }
            from += 1;
        }
        steps
    }

    /// The names of `steps` followed by `own`: a game's `without` values, as its declaration
    /// lists them.
    pub const fn names<const N: usize>(steps: &[Step], own: &[&'static str]) -> [&'static str; N] {
        assert!(steps.len() + own.len() == N, "every step named once");
        let mut names = [""; N];
        let mut index = 0;
        while index < steps.len() {
            names[index] = steps[index].name();
            index += 1;
        }
        while index < N {
            names[index] = own[index - steps.len()];
            index += 1;
        }
        names
    }
}
