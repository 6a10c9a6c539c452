//! What the page draws: the boxes, the game on show and the curve as JSON.

use inarow_menace::{GameResult, Move, Preset, Rules, Tally};
use serde::Serialize;

use super::Room;

/// One move of the game on show.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Step {
    /// `X` (MENACE) or `O`.
    pub player: char,
    /// The square played, 0 to 8 row-major on the real board.
    pub square: u8,
    /// MENACE's box for this move (0-based), when a bead was drawn.
    pub matchbox: Option<usize>,
    /// The bead drawn: a square of the box's image.
    pub bead: Option<u8>,
}

impl From<&Move> for Step {
    fn from(m: &Move) -> Step {
        Step {
            player: m.player.symbol(),
            square: m.square.0 as u8,
            matchbox: m.bead.map(|b| b.matchbox),
            bead: m.bead.map(|b| b.square),
        }
    }
}

impl Room {
    /// Everything the page draws.
    pub fn view(&self) -> serde_json::Value {
        let x = &self.memory.x;
        let boxes = boxes_of(x);
        let game = self.shown.as_ref().map(|s| {
            let steps: Vec<Step> = s.session.moves().iter().map(Step::from).collect();
            serde_json::json!({
                "board": s.session.board().compact(),
                "steps": steps,
                "over": s.session.is_over(),
                "result": s.session.result_line(if s.person { "you win" } else { "opponent wins" }),
                "outcome": s.session.result().map(outcome_name),
                "person": s.person,
            })
        });
        let tally_json =
            |t: &Tally| serde_json::json!({"wins": t.wins, "draws": t.draws, "losses": t.losses});
        let curve = x.curve();
        let chart: Vec<_> = curve.tallies().iter().map(tally_json).collect();
        let recent: Vec<_> = self.recent.blocks.iter().map(tally_json).collect();
        let marks: Vec<_> = self
            .marks
            .iter()
            .map(|m| serde_json::json!({"game": m.game, "opponent": m.who}))
            .collect();
        let tally = curve.total();
        let rules = x.rules();
        serde_json::json!({
            "preset": self.memory.preset().name(),
            // A string: a browser's numbers hold integers only up to 2^53.
            "seed": self.seed.to_string(),
            "games": x.games(),
            "beads": x.total_beads(),
            "opponent": self.opponent,
            "speed": self.speed,
            "training": self.training,
            "game": game,
            "tally": {"wins": tally.wins, "draws": tally.draws, "losses": tally.losses},
            "chart": {
                "block": curve.block(),
                // Games learned before the curve began (a state file from
                // before curves were kept).
                "before": x.games() - curve.games(),
                "blocks": chart,
                "recent": {"block": self.recent.block, "first": self.recent.first, "blocks": recent},
                "marks": marks,
            },
            "settings": {
                "preset": self.memory.preset().name(),
                "rules": rules,
                "presets": Preset::ALL.map(|p| serde_json::json!({"name": p.name(), "rules": Rules::of(p)})),
                "opponent": self.opponent,
                "speed": self.speed,
                "training": self.training,
            },
            "boxes": boxes,
            // The second MENACE (O), when one has been trained against.
            "second": self.memory.o.as_ref().map(boxes_of),
        })
    }
}

/// A machine's boxes as the page draws them: number, its move (from 1),
/// the board it stands for and its beads.
fn boxes_of(machine: &inarow_menace::Menace) -> Vec<serde_json::Value> {
    let layout = machine.layout();
    machine
        .boxes()
        .iter()
        .enumerate()
        .map(|(i, b)| {
            serde_json::json!({
                "number": i + 1,
                "move": layout.move_number(i) + 1,
                "image": layout.images()[i].compact(),
                "beads": b.beads(),
            })
        })
        .collect()
}

/// The result from MENACE's side as one word.
fn outcome_name(result: GameResult) -> &'static str {
    match result {
        GameResult::Win => "win",
        GameResult::Draw => "draw",
        GameResult::Loss => "loss",
    }
}
