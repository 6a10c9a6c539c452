//! The SGF writer: one record per game, named and bounded for any file
//! system ([`sgf_name`]), written beside the results by [`crate::output`].

use std::io;
use std::path::{Path, PathBuf};

use inarow_contest::{Ending, Fault};
use inarow_core::{Rule, Xy};

use crate::name::MAX_NAME_CHARS;
use crate::record::{GameRecord, Seat};
use inarow_files::write_atomic;

fn sgf_text(text: &str) -> String {
    text.replace('\\', "\\\\").replace(']', "\\]")
}

/// An SGF point: first letter the column (X), second the row (Y), `a` = 0.
fn sgf_point(p: Xy) -> String {
    // A record's points are on its board, 20 points a side at most.
    let letter = |i: usize| (b'a' + i as u8) as char;
    format!("{}{}", letter(p.x), letter(p.y))
}

/// The game of a freestyle tournament as SGF (`GM[4]`, gomoku), one node
/// per stone in the order placed, opening stones included, so viewers
/// replay it move by move; its rule named (`RU[Freestyle]`).
pub fn sgf(game: &GameRecord) -> String {
    sgf_under(game, Rule::Freestyle)
}

/// [`sgf`] of a game played under `rule`, which the SGF names (`RU`).
pub fn sgf_under(game: &GameRecord, rule: Rule) -> String {
    sgf_by_under(game, "inarow judge", true, rule)
}

/// The `RU` property of `rule`: `RU[Freestyle]`, `RU[Exact]` or
/// `RU[Renju]`, the names the web page writes and reads back (SGF leaves
/// the names of gomoku's rules free; renju records write `Renju`).
fn rule_property(rule: Rule) -> &'static str {
    match rule {
        Rule::Freestyle => "RU[Freestyle]",
        Rule::Exact => "RU[Exact]",
        Rule::Renju => "RU[Renju]",
    }
}

/// [`sgf_under`] written by application `app` (`AP`); a game not
/// `finished` has no result (`RE`) and its comment is left out.
pub fn sgf_by_under(game: &GameRecord, app: &str, finished: bool, rule: Rule) -> String {
    let black = game.named(game.black).unwrap_or(&game.a);
    let white = game.named(game.white()).unwrap_or(&game.b);
    let result = match (game.winner, &game.forfeit) {
        (None, _) => "0".to_string(),
        (Some(w), forfeit) => {
            // Before colours are settled, A is written as black.
            let colour = if game.black.unwrap_or(Seat::A) == w {
                'B'
            } else {
                'W'
            };
            match forfeit {
                Some(f) if matches!(f.fault, Fault::Timeout { .. }) => {
                    format!("{colour}+T")
                }
                Some(_) => format!("{colour}+F"),
                None => format!("{colour}+"),
            }
        }
    };
    let comment = match &game.forfeit {
        Some(f) => format!("{} forfeits: {}", game.name(f.by), f.reason()),
        None => match game.reason {
            Some(Ending::Forbidden) => game.foul_reason().unwrap_or_default(),
            // The page's games: "you resigned".
            Some(Ending::Resigned) => {
                format!("{} resigned", game.named(game.loser()).unwrap_or_default())
            }
            Some(ending) => ending.name().to_string(),
            None => String::new(),
        },
    };
    let mut out = format!(
        "(;FF[4]GM[4]CA[UTF-8]SZ[{}]{}AP[{}]GN[game {}: {} opens against {}]PB[{}]PW[{}]",
        game.size,
        rule_property(rule),
        sgf_text(app),
        game.index,
        sgf_text(&game.a),
        sgf_text(&game.b),
        sgf_text(black),
        sgf_text(white),
    );
    if finished {
        // A record read back from a file may hold what an older judge kept raw.
        let comment = crate::shown::escape(&comment);
        out.push_str(&format!("RE[{result}]C[{}]", sgf_text(&comment)));
    }
    for stone in &game.stones {
        out.push_str(&format!(";{}[{}]", stone.colour, sgf_point(stone.at)));
    }
    out.push_str(")\n");
    out
}

/// The longest file name [`sgf_name`] builds, in bytes: `game-`, the
/// index (at most 20 digits), `-`, two names of at most
/// [`MAX_NAME_CHARS`] bytes each around `-vs-`, and `.sgf`.
pub const MAX_SGF_NAME_BYTES: usize =
    "game-".len() + 20 + "-".len() + MAX_NAME_CHARS + "-vs-".len() + MAX_NAME_CHARS + ".sgf".len();

// Every file system the judge writes to takes names of 255 bytes.
const _: () = assert!(MAX_SGF_NAME_BYTES <= 255);

/// The file name of a game's SGF: index and both names, made safe for any
/// file system and at most [`MAX_SGF_NAME_BYTES`] long whatever the names
/// (each is cut to [`MAX_NAME_CHARS`], as the name rule already keeps it;
/// a record read from an older judge's file may not be).
pub fn sgf_name(game: &GameRecord) -> String {
    let safe = |s: &str| -> String {
        s.chars()
            .take(MAX_NAME_CHARS)
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                    c
                } else {
                    '_'
                }
            })
            .collect()
    };
    format!(
        "game-{:04}-{}-vs-{}.sgf",
        game.index,
        safe(&game.a),
        safe(&game.b)
    )
}

/// Writes one SGF per game of a freestyle tournament into `dir`, creating
/// it, and returns the paths.
pub fn write_sgf_dir(dir: &Path, games: &[GameRecord]) -> io::Result<Vec<PathBuf>> {
    write_sgf_dir_under(dir, games, Rule::Freestyle)
}

/// [`write_sgf_dir`] for the games of a tournament under `rule`.
pub fn write_sgf_dir_under(
    dir: &Path,
    games: &[GameRecord],
    rule: Rule,
) -> io::Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir)?;
    games
        .iter()
        .map(|game| {
            let path = dir.join(sgf_name(game));
            write_atomic(&path, sgf_under(game, rule).as_bytes())?;
            Ok(path)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{Answer, Colour, Stone};

    #[test]
    fn sgf_lists_every_stone_with_x_as_the_first_letter() {
        let game = GameRecord {
            index: 3,
            a: "ann".into(),
            b: "bob]".into(),
            a_seed: 1,
            b_seed: 2,
            swap: Some(Answer::Black),
            black: Some(Seat::B),
            stones: vec![
                Stone {
                    by: Seat::A,
                    colour: Colour::Black,
                    at: Xy::new(0, 14),
                },
                Stone {
                    by: Seat::A,
                    colour: Colour::White,
                    at: Xy::new(3, 1),
                },
            ],
            winner: Some(Seat::B),
            reason: Some(Ending::Five),
            forbidden: None,
            forfeit: None,
            size: 15,
        };
        let text = sgf(&game);
        assert!(text.starts_with("(;FF[4]GM[4]"));
        assert!(text.contains("PB[bob\\]]PW[ann]RE[B+]"));
        assert!(text.ends_with(";B[ao];W[db])\n"), "{text}");
        assert_eq!(sgf_name(&game), "game-0003-ann-vs-bob_.sgf");
    }

    #[test]
    fn an_sgf_names_its_rule_and_a_forbidden_point_in_its_comment() {
        use crate::replay::examples::{double_three, refereed};
        let game = refereed(Rule::Renju, "ann", "bob", &double_three(), Fault::Eof);
        let text = sgf_under(&game, Rule::Renju);
        assert!(
            text.starts_with("(;FF[4]GM[4]CA[UTF-8]SZ[15]RU[Renju]AP[inarow judge]"),
            "{text}"
        );
        assert!(
            text.contains("PB[ann]PW[bob]RE[W+]C[ann plays a forbidden point: double three]"),
            "{text}"
        );
        assert!(text.ends_with(";B[hh])\n"), "{text}");
        assert_eq!(sgf(&game), text.replace("RU[Renju]", "RU[Freestyle]"));
        assert!(sgf_under(&game, Rule::Exact).contains("SZ[15]RU[Exact]AP["));
        // The web page's unfinished game: its rule, no result.
        let page = sgf_by_under(&game, "inarow serve", false, Rule::Renju);
        assert!(
            page.contains("SZ[15]RU[Renju]AP[inarow serve]") && !page.contains("RE["),
            "{page}"
        );
        let dir = tempfile::tempdir().unwrap();
        let paths = write_sgf_dir_under(dir.path(), &[game], Rule::Renju).unwrap();
        let written = std::fs::read_to_string(&paths[0]).unwrap();
        assert_eq!(written, text);
    }

    #[test]
    fn an_sgf_comment_holds_no_control_character() {
        let mut game = GameRecord::new("ann", "bob");
        game.forfeit(
            Seat::B,
            Fault::Syntax {
                detail: "\x1b]0;pwned\x07".into(),
            },
        );
        // Even a record read back raw from an older judge's file.
        game.forfeit.as_mut().unwrap().fault = Fault::Crash {
            status: "\x1b[2J\u{202e}".into(),
        };
        let text = sgf(&game);
        assert!(!text.contains(['\x1b', '\x07', '\u{202e}']), "{text}");
        assert!(
            text.contains(r"C[bob forfeits: crash: \\x1b[2J\\u{202e}]"),
            "{text}"
        );
    }

    #[test]
    fn a_record_keeps_its_board_size() {
        use inarow_core::{Player, Point};
        let mut game = GameRecord::sized("you", "inarow engine", 9);
        game.lay(Seat::A, Point::at(0, 8, 9), Player::X);
        game.lay(Seat::B, Point::at(4, 4, 9), Player::O);
        assert_eq!((game.stones[0].at.x, game.stones[0].at.y), (0, 8));
        assert_eq!((game.stones[1].at.x, game.stones[1].at.y), (4, 4));
        let text = sgf_by_under(&game, "inarow serve", false, Rule::Freestyle);
        assert!(text.contains("SZ[9]"), "{text}");
        assert!(text.ends_with(";B[ai];W[ee])\n"), "{text}");
        let json = serde_json::to_value(&game).unwrap();
        assert_eq!(json["size"], 9);
        let back: GameRecord = serde_json::from_value(json).unwrap();
        assert_eq!(back, game);
        // 15 x 15 records are written as they always were: no size.
        let game = GameRecord::new("a", "b");
        assert!(sgf(&game).contains("SZ[15]"));
        let json = serde_json::to_value(&game).unwrap();
        assert!(json.get("size").is_none(), "{json}");
        let back: GameRecord = serde_json::from_value(json).unwrap();
        assert_eq!(back.size, 15);
    }

    #[test]
    fn an_sgf_name_is_bounded_whatever_the_names() {
        let dir = tempfile::tempdir().unwrap();
        let longest = "x".repeat(MAX_NAME_CHARS);
        let mut game = GameRecord::new(&longest, &longest);
        game.index = usize::MAX;
        let name = sgf_name(&game);
        assert_eq!(name.len(), MAX_SGF_NAME_BYTES, "{name}");
        std::fs::write(dir.path().join(&name), "(;)").unwrap();
        // Names no rule checked (a record of an older judge): cut, never
        // too long for the file system, never more than ASCII.
        let mut game = GameRecord::new(&"a".repeat(250), &"\u{43e}\u{202e}/..".repeat(100));
        game.index = 7;
        let name = sgf_name(&game);
        assert!(
            name.len() <= MAX_SGF_NAME_BYTES && name.is_ascii(),
            "{name}"
        );
        assert_eq!(
            name,
            format!("game-0007-{}-vs-{}.sgf", "a".repeat(32), "_".repeat(32))
        );
        let written = write_sgf_dir(dir.path(), &[game]).unwrap();
        assert!(written[0].exists());
    }
}
