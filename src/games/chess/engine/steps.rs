//! The engine's steps that a request can turn off, to measure what each gains.

/// The parts of the engine's search that can be turned off one at a time, each kept because a
/// self-play SPRT said it gains (`docs/chess.md` has the table). The `without` knob names them,
/// as chess's engine declaration lists them.
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
    /// The evaluation's terms beyond PeSTO's tables: mobility, king safety, pawn structure,
    /// passed pawns, the bishop pair.
    Terms,
    /// The whole of a time per move: iterations go on until the time is up, and one stopped
    /// part way answers with a better move it has already found.
    WholeTime,
    /// Correction history: the static evaluation is corrected by what searches found it got
    /// wrong in positions of the same pawn structure.
    CorrectionHistory,
}

impl Step {
    pub const ALL: [Step; 10] = [
        Step::Aspiration,
        Step::NullMove,
        Step::Verification,
        Step::Reductions,
        Step::ReverseFutility,
        Step::LateMovePruning,
        Step::Exchange,
        Step::Terms,
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
            Step::Terms => "terms",
            Step::WholeTime => "whole_time",
            Step::CorrectionHistory => "correction_history",
        }
    }
}

impl Step {
    /// Every step's name, in the order of [`Step::ALL`]: the values of the `without` knob.
    pub const NAMES: [&'static str; Step::ALL.len()] = {
        let mut names = [""; Step::ALL.len()];
        let mut index = 0;
        while index < names.len() {
            names[index] = Step::ALL[index].name();
            index += 1;
        }
        names
    };

    /// The step `name` names, if any.
    pub fn named(name: &str) -> Option<Step> {
        Step::ALL.into_iter().find(|step| step.name() == name)
    }
}
