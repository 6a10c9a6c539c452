//! Answering a [`Command`] with a [`Brain`]: the brain's method for it and
//! the lines its result is written as.

use inarow_core::Point;
use inarow_core::swap2::{Phase, Swap};

use super::{Brain, BrainError, Command, CommandError, Decision, Swap2Move, format_xy};

/// What one command produced.
pub(super) enum Output {
    /// The lines to send, in order (none for some commands).
    Lines(Vec<String>),
    /// `END`: the session is over.
    Quit,
}

fn ok(line: impl Into<String>) -> Output {
    Output::Lines(vec![line.into()])
}

fn error(reason: impl std::fmt::Display) -> Output {
    Output::Lines(vec![format!("ERROR {reason}")])
}

fn lines(result: Result<Vec<String>, BrainError>) -> Output {
    match result {
        Ok(lines) => Output::Lines(lines),
        Err(e) => error(e),
    }
}

/// The answer to a line that is not a command to answer.
pub(super) fn refused(e: &CommandError) -> Output {
    ok(e.reply())
}

/// The lines for a decision on a board `size` wide: its message, then the
/// move.
fn decided(decision: Result<Decision, BrainError>, size: usize) -> Output {
    lines(decision.map(|d| {
        let mut out = Vec::new();
        if let Some(m) = d.message {
            out.push(format!("MESSAGE {m}"));
        }
        out.push(format_xy(d.point, size));
        out
    }))
}

/// Answers `command`, read for a board `size` wide (the side its points
/// are written back on).
pub(super) fn answer<B: Brain + ?Sized>(
    brain: &mut B,
    command: Command,
    size: Option<usize>,
) -> Output {
    // Commands that write points back come only with a board: the parser
    // refuses them before `START`.
    let on_board = |answer: &mut dyn FnMut(usize) -> Output| match size {
        Some(side) => answer(side),
        None => refused(&CommandError::NoBoard),
    };
    let done = |result: Result<(), BrainError>| match result {
        Ok(()) => ok("OK"),
        Err(e) => error(e),
    };
    match command {
        Command::Start(n) | Command::Restart(n) => done(brain.start(n)),
        Command::Begin => on_board(&mut |side| decided(brain.begin(), side)),
        Command::Turn(p) => on_board(&mut |side| decided(brain.turn(p), side)),
        Command::Board(stones) => on_board(&mut |side| decided(brain.board(&stones), side)),
        Command::TakeBack(p) => done(brain.take_back(p)),
        Command::YxBoard(stones) => match brain.set_position(&stones) {
            Ok(()) => Output::Lines(Vec::new()),
            Err(e) => error(format!("YXBOARD: {e}")),
        },
        Command::YxShowForbid => on_board(&mut |side| show_forbidden(brain, side)),
        Command::YxNbest(n) => on_board(&mut |side| decided(brain.nbest(n), side)),
        Command::Swap2Board { stones, phase } => {
            on_board(&mut |side| swap2(brain, &stones, phase, side))
        }
        Command::Info(info) => lines(brain.info(info).map(|()| Vec::new())),
        Command::YxHashClear => lines(
            brain
                .clear_hash()
                .map(|()| vec!["MESSAGE transposition table cleared".to_string()]),
        ),
        Command::YxShowInfo => lines(
            brain
                .show_info()
                .map(|info| info.into_iter().map(|l| format!("MESSAGE {l}")).collect()),
        ),
        Command::About => ok(brain.about()),
        Command::End => Output::Quit,
        // The reader already stopped what came before `YXSTOP`; idle,
        // nothing is left to stop.
        Command::YxStop | Command::OtherInfo(_) | Command::Blank => Output::Lines(Vec::new()),
    }
}

/// `YXSHOWFORBID`: `FORBID ` and each point as `xxyy`, then `.`.
fn show_forbidden<B: Brain + ?Sized>(brain: &mut B, size: usize) -> Output {
    lines(brain.forbidden_points().map(|points| {
        let listed: String = points
            .iter()
            .map(|p| {
                let (x, y) = p.xy(size);
                format!("{x:02}{y:02}")
            })
            .collect();
        vec![format!("FORBID {listed}.")]
    }))
}

/// `SWAP2BOARD`: the brain answers by the phase of the opening, its
/// stones written in move order.
fn swap2<B: Brain + ?Sized>(brain: &mut B, stones: &[Point], phase: Phase, size: usize) -> Output {
    let fmt = |p: Point| format_xy(p, size);
    match (phase, brain.swap2(stones, phase)) {
        (_, Err(e)) => error(e),
        // Move order: black, white, black.
        (Phase::Open, Ok(Swap2Move::Open([b1, b2, w]))) => {
            ok(format!("{} {} {}", fmt(b1), fmt(w), fmt(b2)))
        }
        (Phase::Answer, Ok(Swap2Move::Answer(swap))) => match swap {
            Swap::Black => ok("SWAP"),
            Swap::White(w) => ok(fmt(w)),
            // Move order: the fourth stone (white), then the fifth (black).
            Swap::Place { black, white } => ok(format!("{} {}", fmt(white), fmt(black))),
        },
        (Phase::Colour, Ok(Swap2Move::TakeBlack)) => ok("SWAP"),
        (Phase::Colour, Ok(Swap2Move::PlayWhite(p))) => ok(fmt(p)),
        (phase, Ok(answer)) => error(format!(
            "the brain answered {answer:?} in the {phase:?} phase of the opening"
        )),
    }
}
