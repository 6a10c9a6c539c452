//! The games file that `inarow eval games` writes and the fits read: every
//! position of a game is its moves so far, so a game of sixty moves is
//! sixty positions in 130 bytes. Pure: the fronts read and write the
//! files.

use inarow_core::{GameResult, Player, Rule, Xy};

use crate::board::Board;
use crate::eval::decided;
use crate::pattern::Threat;

/// The games file's first bytes.
const GAMES_MAGIC: &[u8; 8] = b"INAROWGM";
/// The layout of the games file this build reads and writes.
const GAMES_VERSION: u16 = 1;

/// One game of the games file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The rule it was played under.
    pub rule: Rule,
    /// The board's side.
    pub size: u8,
    /// How many of the moves were the opening's (not chosen by a player).
    pub opening: u8,
    /// The result for black.
    pub black: GameResult,
    /// Every stone in the order played, black first.
    pub moves: Vec<Xy>,
}

/// The games file's header, for a new file.
pub fn games_header() -> Vec<u8> {
    let mut out = GAMES_MAGIC.to_vec();
    out.extend_from_slice(&GAMES_VERSION.to_le_bytes());
    out
}

/// Appends `game` to a games file's bytes: rule, size, opening, result
/// for black, the number of moves (two bytes), and the moves (two bytes
/// each).
pub fn write_game(out: &mut Vec<u8>, game: &GameRecord) {
    out.push(match game.rule {
        Rule::Freestyle => 0,
        Rule::Exact => 1,
        Rule::Renju => 2,
    });
    out.push(game.size);
    out.push(game.opening);
    out.push(match game.black {
        GameResult::Loss => 0,
        GameResult::Draw => 1,
        GameResult::Win => 2,
    });
    out.extend_from_slice(&(game.moves.len() as u16).to_le_bytes());
    // A board's side fits a byte (the header's `size` is one), so do its
    // coordinates.
    for m in &game.moves {
        out.extend_from_slice(&[m.x as u8, m.y as u8]);
    }
}

/// Why a games file cannot be read, in one line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GamesError {
    /// The file does not start as a games file does.
    #[error("not a games file (written by `inarow eval games`)")]
    NotGames,
    /// A games file of another version.
    #[error("games file of version {0}, this build reads version {GAMES_VERSION}")]
    Version(u16),
    /// The file ends inside the header of game `n` (from 1).
    #[error("game {0}: the file ends inside its header")]
    Header(usize),
    /// Game `n` names a rule by a number that is none.
    #[error("game {0}: unknown rule {1}")]
    Rule(usize, u8),
    /// Game `n` names a result by a number that is none.
    #[error("game {0}: unknown result {1}")]
    Result(usize, u8),
    /// The file ends inside the moves of game `n`.
    #[error("game {0}: the file ends inside its moves")]
    Moves(usize),
    /// Game `n` cannot be replayed (a move off the board, on a stone,
    /// after a five; an opening longer than the game), as the board says.
    #[error("game {0}: {1}")]
    Replay(usize, String),
}

/// Reads a games file, or says in one line where and what is wrong. Every
/// game is replayed: a move off the board or on a stone, or a game that
/// goes on after a five, is refused.
pub fn read_games(bytes: &[u8]) -> Result<Vec<GameRecord>, GamesError> {
    if bytes.len() < 10 || &bytes[..8] != GAMES_MAGIC {
        return Err(GamesError::NotGames);
    }
    let version = u16::from_le_bytes([bytes[8], bytes[9]]);
    if version != GAMES_VERSION {
        return Err(GamesError::Version(version));
    }
    let mut games = Vec::new();
    let mut at = 10;
    while at < bytes.len() {
        let n = games.len() + 1;
        let head = bytes.get(at..at + 6).ok_or(GamesError::Header(n))?;
        let rule = match head[0] {
            0 => Rule::Freestyle,
            1 => Rule::Exact,
            2 => Rule::Renju,
            r => return Err(GamesError::Rule(n, r)),
        };
        let size = head[1];
        let black = match head[3] {
            0 => GameResult::Loss,
            1 => GameResult::Draw,
            2 => GameResult::Win,
            r => return Err(GamesError::Result(n, r)),
        };
        let count = usize::from(u16::from_le_bytes([head[4], head[5]]));
        at += 6;
        let moves: Vec<Xy> = bytes
            .get(at..at + 2 * count)
            .ok_or(GamesError::Moves(n))?
            .chunks_exact(2)
            .map(|c| Xy::new(usize::from(c[0]), usize::from(c[1])))
            .collect();
        at += 2 * count;
        let game = GameRecord {
            rule,
            size,
            opening: head[2],
            black,
            moves,
        };
        replay(&game, |_, _| {}).map_err(|e| GamesError::Replay(n, e))?;
        games.push(game);
    }
    Ok(games)
}

/// Replays `game`, calling `each` with every position before a move and
/// the number of moves played so far.
pub(crate) fn replay(game: &GameRecord, each: impl FnMut(&Board, usize)) -> Result<(), String> {
    let b = Board::with_rule(usize::from(game.size), game.rule).map_err(|e| e.to_string())?;
    replay_on(b, game, each)
}

/// [`replay`] on `b`, an empty board of the game's size and rule.
pub(crate) fn replay_on(
    mut b: Board,
    game: &GameRecord,
    mut each: impl FnMut(&Board, usize),
) -> Result<(), String> {
    if usize::from(game.opening) > game.moves.len() {
        return Err("an opening longer than the game".into());
    }
    for (k, &m) in game.moves.iter().enumerate() {
        if k > 0 && b.last_move_won() {
            return Err(format!("move {} comes after a five", k + 1));
        }
        each(&b, k);
        b.pos_at(m.x, m.y)
            .and_then(|p| b.play(p))
            .map_err(|e| format!("move {}: {e}", k + 1))?;
    }
    Ok(())
}

/// Whether the position before move `k` of `game` is one the evaluation
/// is asked about: past the opening, not decided by the threats, and no
/// five of the opponent's to block.
pub fn sampled(game: &GameRecord, b: &Board, k: usize) -> bool {
    k >= usize::from(game.opening)
        && decided(b, 0).is_none()
        && b.threat_count(b.to_move().opponent(), Threat::Five) == 0
}

/// The game's result for `me`: 1, ½ or 0.
pub fn result_for(game: &GameRecord, me: Player) -> f32 {
    match (game.black, me) {
        (GameResult::Draw, _) => 0.5,
        (GameResult::Win, Player::X) | (GameResult::Loss, Player::O) => 1.0,
        _ => 0.0,
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub(crate) fn game(moves: &[(usize, usize)], black: GameResult) -> GameRecord {
        GameRecord {
            rule: Rule::Freestyle,
            size: 15,
            opening: 1,
            black,
            moves: moves.iter().map(|&(x, y)| Xy::new(x, y)).collect(),
        }
    }

    #[test]
    fn games_files_round_trip_and_refuse_bad_games() {
        let a = game(&[(7, 7), (8, 8), (7, 8)], GameResult::Win);
        let b = GameRecord {
            rule: Rule::Exact,
            ..game(&[(1, 1)], GameResult::Draw)
        };
        let mut bytes = games_header();
        write_game(&mut bytes, &a);
        write_game(&mut bytes, &b);
        assert_eq!(read_games(&bytes).unwrap(), vec![a.clone(), b]);
        let cut = read_games(&bytes[..bytes.len() - 1]).unwrap_err();
        assert_eq!(cut, GamesError::Moves(2));
        assert_eq!(cut.to_string(), "game 2: the file ends inside its moves");
        let mut twice = games_header();
        write_game(&mut twice, &game(&[(7, 7), (7, 7)], GameResult::Win));
        let e = read_games(&twice).unwrap_err().to_string();
        assert!(e.contains("game 1: move 2") && e.contains("taken"), "{e}");
        let mut off = games_header();
        write_game(&mut off, &game(&[(15, 0)], GameResult::Win));
        assert!(
            read_games(&off)
                .unwrap_err()
                .to_string()
                .contains("off the board")
        );
        assert_eq!(
            read_games(b"INAROWEV\x01\x00").unwrap_err(),
            GamesError::NotGames
        );
    }
}
