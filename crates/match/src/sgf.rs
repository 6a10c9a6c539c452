//! A match as c-gomoku-cli keeps it: its SGF file read back for one
//! engine, game by game and pair by pair, so that a gate match played by
//! that tournament manager (`scripts/gate.sh`) is scored by pairs as
//! `inarow selfplay` scores its own.
//!
//! c-gomoku-cli writes its games in the order it scheduled them whatever
//! order they finished in, numbers them `GN[1]`, `GN[2]`, ..., and with
//! `-repeat` plays each opening twice in a row, colours swapped: games
//! `2k + 1` and `2k + 2` are pair `k`. A game that ended before any move
//! after the opening by a time forfeit or a crash is void (a brain that
//! dropped its `START`, see `scripts/sgf-score.sh`): it counts for no one,
//! and its pair is left out of the pairs.

use inarow_core::{GameResult, Point, Tally};

use crate::stats::Pairs;

/// Why an SGF file cannot be scored.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum SgfError {
    /// The text ended inside a game or a property's value.
    #[error("the SGF ends inside game {0} (an unclosed '(' or '[')")]
    Unclosed(usize),
    /// Text outside any game that is not white space.
    #[error("unexpected {0:?} outside a game (at byte {1})")]
    Stray(char, usize),
    /// A game without a property c-gomoku-cli always writes.
    #[error("game {game} has no {property}[...] (not a c-gomoku-cli SGF?)")]
    Missing {
        /// The game, counted from 1 in the file.
        game: usize,
        /// The property's name.
        property: &'static str,
    },
    /// A game number that is not a whole number from 1.
    #[error("game {game}: GN[{value}] is not a game number (1, 2, ...)")]
    Number {
        /// The game, counted from 1 in the file.
        game: usize,
        /// What stood there.
        value: String,
    },
    /// Two games with one number.
    #[error("two games are numbered GN[{0}]")]
    Twice(u32),
    /// A result that is neither a colour's win nor a draw.
    #[error("game GN[{game}]: RE[{value}] is not a result (B+..., W+... or 0)")]
    Result {
        /// The game's number.
        game: u32,
        /// What stood there.
        value: String,
    },
    /// The engine scored does not play this game.
    #[error("game GN[{game}] is {black} against {white}: {name:?} plays neither side")]
    NotPlaying {
        /// The game's number.
        game: u32,
        /// Black's name.
        black: String,
        /// White's name.
        white: String,
        /// The name asked for.
        name: String,
    },
    /// No game at all.
    #[error("the SGF holds no game")]
    Empty,
    /// A board side that is no whole number from 5 to 26.
    #[error("game {game}: SZ[{value}] is not a board side (5 to 26)")]
    Size {
        /// The game, counted from 1 in the file.
        game: usize,
        /// What stood there.
        value: String,
    },
    /// A move that is not two letters on the board.
    #[error("game {game}: move {at} [{value}] is not a point of a {size}x{size} board")]
    Move {
        /// The game, counted from 1 in the file.
        game: usize,
        /// The move, counted from 1.
        at: usize,
        /// What stood there.
        value: String,
        /// The board's side.
        size: usize,
    },
}

/// The moves of one game of the file, in the order played (black first).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SgfMoves {
    /// The board's side, `SZ`.
    pub size: usize,
    /// Every stone, opening stones first.
    pub moves: Vec<Point>,
    /// How many of them are the opening's (`C[opening move]`).
    pub opening: usize,
}

/// Reads the moves of every game of an SGF file, in the file's order: the
/// positions a game went through (`inarow selfplay oracle`).
pub fn moves(text: &str) -> Result<Vec<SgfMoves>, SgfError> {
    let mut out = Vec::new();
    for (i, game) in split_games(text)?.into_iter().enumerate() {
        let index = i + 1;
        let sz = game.root("SZ").ok_or(SgfError::Missing {
            game: index,
            property: "SZ",
        })?;
        let size = match sz.trim().parse::<usize>() {
            Ok(n) if (5..=26).contains(&n) => n,
            _ => {
                return Err(SgfError::Size {
                    game: index,
                    value: sz.to_string(),
                });
            }
        };
        let mut moves = Vec::with_capacity(game.stones.len());
        for (k, value) in game.stones.iter().enumerate() {
            let letter = |b: u8| b.checked_sub(b'a').map(usize::from);
            let point = match value.as_bytes() {
                &[x, y] => letter(x)
                    .zip(letter(y))
                    .and_then(|(x, y)| Point::from_xy(x, y, size)),
                _ => None,
            };
            moves.push(point.ok_or_else(|| SgfError::Move {
                game: index,
                at: k + 1,
                value: value.to_string(),
                size,
            })?);
        }
        out.push(SgfMoves {
            size,
            moves,
            opening: game.opening_moves,
        });
    }
    if out.is_empty() {
        return Err(SgfError::Empty);
    }
    Ok(out)
}

/// One game of the file, for the engine scored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SgfGame {
    /// Its number, `GN`, from 1.
    pub number: u32,
    /// Whether the engine scored played black.
    pub black: bool,
    /// Its result for the engine scored; `None` for a void game.
    pub result: Option<GameResult>,
}

impl SgfGame {
    /// The pair the game belongs to, from 0 (`-repeat`'s two games).
    pub fn pair(&self) -> usize {
        (self.number as usize - 1) / 2
    }
}

/// Games and pairs of a match, or of one set of its openings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SgfScore {
    /// The games that were played out.
    pub tally: Tally,
    /// The pairs whose two games were both played out.
    pub pairs: Pairs,
    /// Void games.
    pub void: u32,
    /// Pairs left out: a game of theirs void or missing from the file.
    pub broken: u32,
}

/// Reads the games of an SGF file as `name` played them, in the file's
/// order.
pub fn read(text: &str, name: &str) -> Result<Vec<SgfGame>, SgfError> {
    let mut games = Vec::new();
    let mut numbers = std::collections::BTreeSet::new();
    for (i, game) in split_games(text)?.into_iter().enumerate() {
        let index = i + 1;
        let prop = |property: &'static str| {
            game.root(property).ok_or(SgfError::Missing {
                game: index,
                property,
            })
        };
        let gn = prop("GN")?;
        let number = match gn.trim().parse::<u32>() {
            Ok(n) if n >= 1 => n,
            _ => {
                return Err(SgfError::Number {
                    game: index,
                    value: gn.to_string(),
                });
            }
        };
        if !numbers.insert(number) {
            return Err(SgfError::Twice(number));
        }
        let (black_name, white_name) = (prop("PB")?, prop("PW")?);
        let black = if black_name == name {
            true
        } else if white_name == name {
            false
        } else {
            return Err(SgfError::NotPlaying {
                game: number,
                black: black_name.to_string(),
                white: white_name.to_string(),
                name: name.to_string(),
            });
        };
        let re = prop("RE")?;
        let black_won = match re.as_bytes().first() {
            Some(b'B') => Some(true),
            Some(b'W') => Some(false),
            _ if re == "0" || re.eq_ignore_ascii_case("draw") => None,
            _ => {
                return Err(SgfError::Result {
                    game: number,
                    value: re.to_string(),
                });
            }
        };
        let ended = game.root("TE").unwrap_or("").to_ascii_lowercase();
        let void = (ended.contains("forfeit") || ended.contains("crash"))
            && game.moves == game.opening_moves;
        let result = (!void).then_some(match black_won {
            None => GameResult::Draw,
            Some(b) if b == black => GameResult::Win,
            Some(_) => GameResult::Loss,
        });
        games.push(SgfGame {
            number,
            black,
            result,
        });
    }
    if games.is_empty() {
        return Err(SgfError::Empty);
    }
    Ok(games)
}

/// Scores the games by their opening set: with `sets` sets played in turn
/// (the openings file interleaving them), pair `k` belongs to set
/// `k mod sets`. Returns one score a set.
pub fn score(games: &[SgfGame], sets: usize) -> Vec<SgfScore> {
    let sets = sets.max(1);
    let mut scores = vec![SgfScore::default(); sets];
    let mut by_pair = std::collections::BTreeMap::<usize, [Option<SgfGame>; 2]>::new();
    for g in games {
        let s = &mut scores[g.pair() % sets];
        match g.result {
            Some(r) => s.tally.add(r),
            None => s.void += 1,
        }
        by_pair.entry(g.pair()).or_default()[(g.number as usize - 1) % 2] = Some(*g);
    }
    for (pair, two) in by_pair {
        let s = &mut scores[pair % sets];
        match two.map(|g| g.and_then(|g| g.result)) {
            [Some(first), Some(second)] => s.pairs.add([first, second]),
            _ => s.broken += 1,
        }
    }
    scores
}

/// The scores of several sets together.
pub fn total(scores: &[SgfScore]) -> SgfScore {
    let mut all = SgfScore::default();
    for s in scores {
        all.tally.merge(&s.tally);
        all.pairs.merge(&s.pairs);
        all.void += s.void;
        all.broken += s.broken;
    }
    all
}

/// One game of the file as written: its root node's properties and its
/// moves.
struct Game<'a> {
    root: Vec<(&'a str, &'a str)>,
    moves: usize,
    opening_moves: usize,
    /// Each move's point as written (`hh`).
    stones: Vec<&'a str>,
}

impl<'a> Game<'a> {
    fn root(&self, property: &str) -> Option<&'a str> {
        self.root
            .iter()
            .find(|(name, _)| *name == property)
            .map(|&(_, value)| value)
    }
}

/// Splits the file into games: `(`, nodes of properties `NAME[value]`,
/// `)`. Values may hold escaped `\]`; games do not nest (c-gomoku-cli
/// writes no variations).
fn split_games(text: &str) -> Result<Vec<Game<'_>>, SgfError> {
    let bytes = text.as_bytes();
    let mut games = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if c != b'(' {
            let ch = text[i..].chars().next().unwrap_or('?');
            return Err(SgfError::Stray(ch, i));
        }
        let number = games.len() + 1;
        let mut game = Game {
            root: Vec::new(),
            moves: 0,
            opening_moves: 0,
            stones: Vec::new(),
        };
        let mut nodes = 0;
        let mut name_start = None::<usize>;
        let mut last_name = "";
        i += 1;
        loop {
            let Some(&c) = bytes.get(i) else {
                return Err(SgfError::Unclosed(number));
            };
            match c {
                b')' => {
                    i += 1;
                    break;
                }
                b';' => {
                    nodes += 1;
                    name_start = None;
                    i += 1;
                }
                b'[' => {
                    if let Some(start) = name_start.take() {
                        last_name = &text[start..i];
                    }
                    let start = i + 1;
                    let mut j = start;
                    loop {
                        match bytes.get(j) {
                            None => return Err(SgfError::Unclosed(number)),
                            Some(b'\\') => j += 2,
                            Some(b']') => break,
                            Some(_) => j += 1,
                        }
                    }
                    let value = &text[start..j];
                    if nodes == 1 {
                        game.root.push((last_name, value));
                    }
                    match last_name {
                        "B" | "W" => {
                            game.moves += 1;
                            game.stones.push(value);
                        }
                        "C" if value == "opening move" => game.opening_moves += 1,
                        _ => {}
                    }
                    i = j + 1;
                }
                b'A'..=b'Z' | b'a'..=b'z' => {
                    if name_start.is_none() {
                        name_start = Some(i);
                    }
                    i += 1;
                }
                _ => {
                    name_start = None;
                    i += 1;
                }
            }
        }
        games.push(game);
    }
    Ok(games)
}

#[cfg(test)]
mod tests {
    use super::*;
    use GameResult::{Draw, Loss, Win};

    /// Two pairs as c-gomoku-cli writes them: pair 0 split by colour,
    /// pair 1 a void game (a dropped START) and a real loss on time.
    const MATCH: &str = "\
(;FF[4]GM[4]GN[1]EV[rapfi x inarow]RO[1.1]RU[0]SZ[15]PB[rapfi]PW[inarow]RE[B+1]TE[Black win by five connection]
;B[hh]C[opening move];W[hf]C[opening move];B[gk]C[opening move]
;W[gg]C[205ms];B[hk]C[172ms])
(;FF[4]GM[4]GN[2]EV[inarow x rapfi]RO[1.2]RU[0]SZ[15]PB[inarow]PW[rapfi]RE[B+1]TE[Black win by five connection]
;B[hh]C[opening move];W[hf]C[opening move];B[gk]C[opening move]
;W[gg]C[170ms])
(;FF[4]GM[4]GN[3]EV[rapfi x inarow]RO[1.3]RU[0]SZ[15]PB[rapfi]PW[inarow]RE[B+1]TE[Black win by time forfeit]
;B[hh]C[opening move];W[hi]C[opening move];B[gf]C[opening move])
(;FF[4]GM[4]GN[4]EV[inarow x rapfi]RO[1.4]RU[0]SZ[15]PB[inarow]PW[rapfi]RE[W+1]TE[White win by time forfeit]
;B[hh]C[opening move];W[hi]C[opening move];B[gf]C[opening move]
;W[gg]C[170ms];B[ii]C[3400ms])
(;FF[4]GM[4]GN[6]EV[inarow x rapfi]RO[1.6]RU[0]SZ[15]PB[inarow]PW[rapfi]RE[0]TE[Draw by adjudication]
;B[hh]C[opening move];W[hi]C[opening move];B[gf]C[opening move]
;W[gg]C[a \\] in a comment];B[ii]C[172ms])
(;FF[4]GM[4]GN[5]EV[rapfi x inarow]RO[1.5]RU[0]SZ[15]PB[rapfi]PW[inarow]RE[W+1]TE[White win by five connection]
;B[hh]C[opening move];W[hi]C[opening move];B[gf]C[opening move]
;W[gg]C[170ms];B[ii]C[172ms])
";

    #[test]
    fn moves_are_read_as_points_with_the_opening_counted() {
        let games = moves(MATCH).unwrap();
        assert_eq!(games.len(), 6);
        let first = &games[0];
        assert_eq!((first.size, first.opening), (15, 3));
        let xy: Vec<(usize, usize)> = first.moves.iter().map(|p| p.xy(15)).collect();
        assert_eq!(xy, [(7, 7), (7, 5), (6, 10), (6, 6), (7, 10)]);
        assert_eq!(games[2].moves.len(), 3);
        assert_eq!(
            moves("(;GN[1]SZ[15];B[hh];W[zz])").unwrap_err().to_string(),
            "game 1: move 2 [zz] is not a point of a 15x15 board"
        );
        assert_eq!(
            moves("(;GN[1]SZ[x];B[hh])").unwrap_err().to_string(),
            "game 1: SZ[x] is not a board side (5 to 26)"
        );
        assert_eq!(
            moves("(;GN[1];B[hh])").unwrap_err(),
            SgfError::Missing {
                game: 1,
                property: "SZ"
            }
        );
    }

    #[test]
    fn games_are_read_for_the_engine_named() {
        let games = read(MATCH, "inarow").unwrap();
        let seen: Vec<_> = games
            .iter()
            .map(|g| (g.number, g.black, g.result))
            .collect();
        assert_eq!(
            seen,
            [
                (1, false, Some(Loss)),
                (2, true, Some(Win)),
                (3, false, None),
                (4, true, Some(Loss)),
                (6, true, Some(Draw)),
                (5, false, Some(Win)),
            ]
        );
        let theirs = read(MATCH, "rapfi").unwrap();
        assert_eq!(theirs[0].result, Some(Win));
        assert_eq!(theirs[4].result, Some(Draw));
    }

    #[test]
    fn pairs_leave_out_void_games_and_sets_take_pairs_in_turn() {
        let games = read(MATCH, "inarow").unwrap();
        let [all] = score(&games, 1)[..] else {
            panic!("one set")
        };
        assert_eq!(
            (all.tally.wins, all.tally.draws, all.tally.losses),
            (2, 1, 2)
        );
        assert_eq!(all.void, 1);
        assert_eq!(all.broken, 1, "pair 1 has a void game");
        // Pair 0: a loss and a win (1 point); pair 2: a win and a draw (1½).
        assert_eq!(all.pairs.counts, [0, 0, 1, 1, 0]);
        let sets = score(&games, 2);
        assert_eq!(sets[0].pairs.counts, [0, 0, 1, 1, 0], "pairs 0 and 2");
        assert_eq!(sets[1].broken, 1, "pair 1");
        assert_eq!(sets[1].pairs.count(), 0);
        assert_eq!(total(&sets), all);
    }

    #[test]
    fn a_pair_with_a_game_missing_is_left_out() {
        let games = read(MATCH, "inarow").unwrap();
        let [all] = score(&games[..5], 1)[..] else {
            panic!("one set")
        };
        assert_eq!(all.pairs.counts, [0, 0, 1, 0, 0]);
        assert_eq!(all.broken, 2);
    }

    #[test]
    fn bad_files_are_refused_by_what_is_wrong() {
        let game = |props: &str| format!("(;FF[4]{props};B[hh])");
        let ok = "GN[1]PB[a]PW[b]RE[B+1]";
        assert!(read(&game(ok), "a").is_ok());
        assert_eq!(read("", "a"), Err(SgfError::Empty));
        assert_eq!(read("  \n", "a"), Err(SgfError::Empty));
        assert_eq!(read("x", "a"), Err(SgfError::Stray('x', 0)));
        assert_eq!(read("(;GN[1", "a"), Err(SgfError::Unclosed(1)));
        assert_eq!(read("(;GN[1]", "a"), Err(SgfError::Unclosed(1)));
        assert!(matches!(
            read(&game("PB[a]PW[b]RE[0]"), "a"),
            Err(SgfError::Missing {
                game: 1,
                property: "GN"
            })
        ));
        assert!(matches!(
            read(&game("GN[0]PB[a]PW[b]RE[0]"), "a"),
            Err(SgfError::Number { .. })
        ));
        assert_eq!(
            read(&format!("{}{}", game(ok), game(ok)), "a"),
            Err(SgfError::Twice(1))
        );
        assert!(matches!(
            read(&game("GN[1]PB[a]PW[b]RE[?]"), "a"),
            Err(SgfError::Result { game: 1, .. })
        ));
        let not = read(&game(ok), "c").unwrap_err();
        assert_eq!(
            not.to_string(),
            "game GN[1] is a against b: \"c\" plays neither side"
        );
    }
}
