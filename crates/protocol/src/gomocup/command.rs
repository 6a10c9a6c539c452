//! The commands a manager sends, read in one place: [`Command::parse`]
//! reads a command's numbers, points and blocks and checks them against the
//! board's side, and knows nothing of the brain that will answer.

use inarow_core::Point;
use inarow_core::stones::{self, StoneError};
use inarow_core::swap2::Phase;

use super::{Field, Info, RuleBits, XyError, parse_xy};

/// A command as the brain is to answer it: its points on the board, its
/// blocks read whole and checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `START n`, Yixin-board's `START n n`, or `RECTSTART n,n`: a new
    /// board `n` wide; answered `OK`.
    Start(usize),
    /// `RESTART`: a new game on the board in play, this wide; answered
    /// `OK`.
    Restart(usize),
    /// `BEGIN`: the brain plays first.
    Begin,
    /// `TURN x,y`: the opponent played here; the brain answers a move.
    Turn(Point),
    /// `BOARD` ... `DONE`: the stones in the order played; the brain
    /// answers a move.
    Board(Vec<(Point, Field)>),
    /// `TAKEBACK x,y`: the stone here goes; answered `OK`.
    TakeBack(Point),
    /// `INFO key value` with a key a brain may use.
    Info(Info),
    /// `INFO` with a key nobody here uses (`folder`, `evaluate`, ...),
    /// lower case: nothing to do.
    OtherInfo(String),
    /// `ABOUT`: the brain's `name="..."` line.
    About,
    /// `END`: the session ends.
    End,
    /// `SWAP2BOARD` ... `DONE`: the opening's stones in move order, and the
    /// phase they leave ([`Phase::Open`], [`Phase::Answer`] or
    /// [`Phase::Colour`]).
    Swap2Board {
        /// Black, white, black, ...
        stones: Vec<Point>,
        /// What the opening asks of the brain now.
        phase: Phase,
    },
    /// `YXBOARD` ... `DONE`: a `BOARD` block set without thinking.
    YxBoard(Vec<(Point, Field)>),
    /// `YXSHOWFORBID`: the points the side to move may not play.
    YxShowForbid,
    /// `YXNBEST n` (`n` from 1): the best `n` moves, then the best played.
    YxNbest(usize),
    /// `YXSTOP`: stops a think (the session's reader acts on it as it
    /// arrives; when its turn comes, nothing is left to do).
    YxStop,
    /// `YXHASHCLEAR`: the brain forgets what it learnt.
    YxHashClear,
    /// `YXSHOWINFO`: the brain's lines about itself.
    YxShowInfo,
    /// An empty line: nothing to do.
    Blank,
}

/// Why a point named in a command is not one to play.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PointError {
    /// The text is not `x,y`.
    #[error(transparent)]
    Syntax(#[from] XyError),
    /// The point is off the board, or a block names it twice (taken):
    /// core's one check and wording.
    #[error(transparent)]
    Stone(#[from] StoneError),
}

/// Why a line (with its block) is not a command to answer. Each is sent
/// back as one `ERROR <reason>` line, except [`CommandError::Unknown`],
/// answered `UNKNOWN command <WORD>`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    /// A word the protocol does not have, in upper case.
    #[error("unknown command {0}")]
    Unknown(String),
    /// A command that needs a board came before `START`.
    #[error("no board yet: send START first")]
    NoBoard,
    /// `START` without one size or two equal ones; its arguments as read.
    #[error("START needs a board size, got {0:?}")]
    StartSize(String),
    /// `START w h` or `RECTSTART w,h` with `w` and `h` apart.
    #[error("only square boards are supported, not {width}x{height}")]
    NotSquare {
        /// The columns asked for.
        width: usize,
        /// The rows asked for.
        height: usize,
    },
    /// The point of `TURN` or `TAKEBACK` is off the board.
    #[error(transparent)]
    Point(PointError),
    /// A point `command` names is not one to play: not `x,y` (`RECTSTART`,
    /// `TURN`, `TAKEBACK`, a `SWAP2BOARD` line), or in a block, off the
    /// board or named twice.
    #[error("{command}: {error}")]
    PointIn {
        /// The command's word.
        command: &'static str,
        /// What is wrong with the point.
        error: PointError,
    },
    /// The input ended inside the block of `block`.
    #[error("{block} ended without DONE")]
    Unfinished {
        /// The block's command word.
        block: &'static str,
    },
    /// A `BOARD` (or `YXBOARD`) line whose field is not 1, 2 or 3.
    #[error("{block} line {line:?}: field must be 1, 2 or 3")]
    Field {
        /// The block's command word.
        block: &'static str,
        /// The line, trimmed.
        line: String,
    },
    /// A `BOARD` (or `YXBOARD`) line that is not `x,y,field`.
    #[error("{block} line {line:?}: expected x,y,field")]
    Stone {
        /// The block's command word.
        block: &'static str,
        /// The line, trimmed.
        line: String,
    },
    /// A `SWAP2BOARD` with a count of stones no phase has.
    #[error("SWAP2BOARD needs 0, 3 or 5 stones, got {0}")]
    Swap2Stones(usize),
    /// `YXNBEST` without a whole number from 1; its argument as read.
    #[error("YXNBEST needs how many moves to show, a whole number from 1, got {0:?}")]
    NbestCount(String),
    /// `INFO max_node` without a whole number (or -1); the value as read.
    #[error("INFO max_node needs a whole number of nodes (-1 or 0 for no limit), got {0:?}")]
    MaxNode(String),
    /// Another `INFO` a brain may use, without a whole number.
    #[error("INFO {key} needs a whole number, got {value:?}")]
    InfoNumber {
        /// The key, lower case.
        key: String,
        /// The value as read.
        value: String,
    },
}

impl CommandError {
    /// The line the brain answers this error with.
    pub fn reply(&self) -> String {
        match self {
            CommandError::Unknown(word) => format!("UNKNOWN command {word}"),
            other => format!("ERROR {other}"),
        }
    }
}

impl Command {
    /// Reads the command on `line`, for a session whose board is `size`
    /// wide (`None` before `START`). `more` gives the lines after it, for
    /// the blocks of `BOARD`, `YXBOARD` and `SWAP2BOARD`: a block is read
    /// up to its `DONE` even when it is refused, so that its lines are not
    /// taken for commands. Words are read in any case.
    pub fn parse(
        line: &str,
        size: Option<usize>,
        more: &mut dyn FnMut() -> Option<String>,
    ) -> Result<Command, CommandError> {
        let line = line.trim();
        let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        let board = || size.ok_or(CommandError::NoBoard);
        // `TURN` and `TAKEBACK`: the board first, then the point on it.
        let stone = |command: &'static str| -> Result<Point, CommandError> {
            let size = board()?;
            let (x, y) = parse_xy(rest).map_err(|e| CommandError::PointIn {
                command,
                error: e.into(),
            })?;
            point(x, y, size).map_err(CommandError::Point)
        };
        Ok(match word.to_ascii_uppercase().as_str() {
            "START" => Command::Start(start_size(rest)?),
            "RECTSTART" => match parse_xy(rest) {
                Ok((w, h)) if w == h => Command::Start(w),
                Ok((width, height)) => return Err(CommandError::NotSquare { width, height }),
                Err(e) => {
                    return Err(CommandError::PointIn {
                        command: "RECTSTART",
                        error: e.into(),
                    });
                }
            },
            "RESTART" => Command::Restart(board()?),
            "BEGIN" => board().map(|_| Command::Begin)?,
            "TURN" => Command::Turn(stone("TURN")?),
            "BOARD" => Command::Board(position_block("BOARD", size, more)?),
            "YXBOARD" => Command::YxBoard(position_block("YXBOARD", size, more)?),
            "YXSHOWFORBID" => board().map(|_| Command::YxShowForbid)?,
            "YXNBEST" => {
                board()?;
                match rest.parse::<usize>() {
                    Ok(n) if n >= 1 => Command::YxNbest(n),
                    _ => return Err(CommandError::NbestCount(rest.to_string())),
                }
            }
            "YXSTOP" => Command::YxStop,
            "YXHASHCLEAR" => Command::YxHashClear,
            "YXSHOWINFO" => Command::YxShowInfo,
            "SWAP2BOARD" => swap2_block(size, more)?,
            "TAKEBACK" => Command::TakeBack(stone("TAKEBACK")?),
            "INFO" => info(rest)?,
            "ABOUT" => Command::About,
            "END" => Command::End,
            "" => Command::Blank,
            other => return Err(CommandError::Unknown(other.to_string())),
        })
    }
}

/// Whether `line` is a command that stops thinking (`YXSTOP`, `END`): the
/// session's reader looks at each line as it arrives, before its turn.
pub(super) fn stops_thinking(line: &str) -> bool {
    let word = line.split_whitespace().next().unwrap_or("");
    word.eq_ignore_ascii_case("YXSTOP") || word.eq_ignore_ascii_case("END")
}

/// The point at column `x`, row `y` of a board `size` wide.
fn point(x: usize, y: usize, size: usize) -> Result<Point, PointError> {
    Ok(stones::on_board(x, y, size)?)
}

/// `START n`, or Yixin-board's `START w h` (square only): the side.
fn start_size(rest: &str) -> Result<usize, CommandError> {
    let numbers: Vec<&str> = rest.split_whitespace().collect();
    let parse = |s: &str| s.parse::<usize>().ok();
    let no_size = || CommandError::StartSize(rest.to_string());
    match numbers[..] {
        [n] => parse(n).ok_or_else(no_size),
        [w, h] => match (parse(w), parse(h)) {
            (Some(w), Some(h)) if w == h => Ok(w),
            (Some(width), Some(height)) => Err(CommandError::NotSquare { width, height }),
            _ => Err(no_size()),
        },
        _ => Err(no_size()),
    }
}

/// `INFO key value`: the keys a brain may use, with whole numbers.
fn info(rest: &str) -> Result<Command, CommandError> {
    let (key, value) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    let value = value.trim();
    let key = key.to_ascii_lowercase();
    let info: fn(u64) -> Info = match key.as_str() {
        "timeout_turn" => Info::TimeoutTurn,
        "timeout_match" => Info::TimeoutMatch,
        "time_left" => Info::TimeLeft,
        "max_memory" => Info::MaxMemory,
        "game_type" => Info::GameType,
        "rule" => |n| Info::Rule(RuleBits(n)),
        // Yixin-board sends -1 for no limit; Rapfi reads 0 so too.
        "max_node" => |n| Info::MaxNode((n > 0).then_some(n)),
        "max_depth" => |n| Info::MaxDepth((n > 0).then_some(n)),
        "show_detail" => Info::ShowDetail,
        "hash_size" => Info::HashSize,
        "thread_num" => Info::ThreadNum,
        // Other keys (folder, evaluate, ...) are information
        // we do not use.
        _ => return Ok(Command::OtherInfo(key)),
    };
    let n = match value.parse::<u64>() {
        Ok(n) => n,
        Err(_) if key == "max_node" && value == "-1" => 0,
        Err(_) if key == "max_node" => return Err(CommandError::MaxNode(value.to_string())),
        Err(_) => {
            return Err(CommandError::InfoNumber {
                key,
                value: value.to_string(),
            });
        }
    };
    Ok(Command::Info(info(n)))
}

/// Reads the lines of the block of `name` up to `DONE`; the first line
/// `read` refuses is the block's error, once the block is over.
fn block<T>(
    name: &'static str,
    more: &mut dyn FnMut() -> Option<String>,
    read: impl Fn(&str) -> Result<T, CommandError>,
) -> Result<Vec<T>, CommandError> {
    let mut items = Vec::new();
    let mut problem = None;
    loop {
        let Some(line) = more() else {
            return Err(CommandError::Unfinished { block: name });
        };
        let line = line.trim();
        if line.eq_ignore_ascii_case("DONE") {
            break;
        }
        if line.is_empty() || problem.is_some() {
            continue;
        }
        match read(line) {
            Ok(item) => items.push(item),
            Err(e) => problem = Some(e),
        }
    }
    problem.map_or(Ok(items), Err)
}

/// Checks that `points` are on a board `size` wide, each named once;
/// errors are named after the block `name`.
fn distinct(
    name: &'static str,
    points: &[(usize, usize)],
    size: usize,
) -> Result<Vec<Point>, CommandError> {
    let in_block = |error| CommandError::PointIn {
        command: name,
        error,
    };
    let mut out: Vec<Point> = Vec::with_capacity(points.len());
    for &(x, y) in points {
        let p = point(x, y, size).map_err(in_block)?;
        if out.contains(&p) {
            return Err(in_block(StoneError::Taken { x, y }.into()));
        }
        out.push(p);
    }
    Ok(out)
}

/// `BOARD` (or `YXBOARD`, named `name`): `x,y,field` lines up to `DONE`,
/// each point on the board and named once.
fn position_block(
    name: &'static str,
    size: Option<usize>,
    more: &mut dyn FnMut() -> Option<String>,
) -> Result<Vec<(Point, Field)>, CommandError> {
    let read = |line: &str| match line
        .rsplit_once(',')
        .map(|(xy, f)| (parse_xy(xy), f.trim()))
    {
        Some((Ok(xy), f)) => match f {
            "1" => Ok((xy, Field::Own)),
            "2" => Ok((xy, Field::Opponent)),
            "3" => Ok((xy, Field::Wall)),
            _ => Err(CommandError::Field {
                block: name,
                line: line.to_string(),
            }),
        },
        _ => Err(CommandError::Stone {
            block: name,
            line: line.to_string(),
        }),
    };
    let stones = block(name, more, read)?;
    let size = size.ok_or(CommandError::NoBoard)?;
    let xys: Vec<(usize, usize)> = stones.iter().map(|&(xy, _)| xy).collect();
    let points = distinct(name, &xys, size)?;
    Ok(points
        .into_iter()
        .zip(stones.iter().map(|&(_, f)| f))
        .collect())
}

/// `SWAP2BOARD`: stones in move order (black, white, black, white, black)
/// up to `DONE`, and the phase of the opening they leave.
fn swap2_block(
    size: Option<usize>,
    more: &mut dyn FnMut() -> Option<String>,
) -> Result<Command, CommandError> {
    let name = "SWAP2BOARD";
    let read = |line: &str| {
        parse_xy(line).map_err(|e| CommandError::PointIn {
            command: name,
            error: e.into(),
        })
    };
    let xys = block(name, more, read)?;
    let size = size.ok_or(CommandError::NoBoard)?;
    let stones = distinct(name, &xys, size)?;
    // The stones so far say what the opening asks of the brain (the core's
    // board holds 16 x 16 at most, so the count decides, not a replay).
    let phase = match stones.len() {
        0 => Phase::Open,
        3 => Phase::Answer,
        5 => Phase::Colour,
        n => return Err(CommandError::Swap2Stones(n)),
    };
    Ok(Command::Swap2Board { stones, phase })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gomocup::Info;

    /// Reads `text`'s first line as a command on a board `size` wide, its
    /// other lines as what follows it; also the lines left unread.
    fn read_on(size: Option<usize>, text: &str) -> (Result<Command, CommandError>, usize) {
        let mut lines = text.lines().map(str::to_string);
        let first = lines.next().unwrap_or_default();
        let mut more = || lines.next();
        let command = Command::parse(&first, size, &mut more);
        (command, lines.count())
    }

    /// Reads `text` on a 15 x 15 board.
    fn read(text: &str) -> Result<Command, CommandError> {
        read_on(Some(15), text).0
    }

    fn at(x: usize, y: usize) -> Point {
        Point::from_xy(x, y, 15).unwrap()
    }

    fn off(x: usize, y: usize) -> PointError {
        PointError::Stone(StoneError::OffBoard { x, y })
    }

    fn point_in(command: &'static str, error: impl Into<PointError>) -> CommandError {
        CommandError::PointIn {
            command,
            error: error.into(),
        }
    }

    #[test]
    fn start_takes_one_size_or_two_equal_ones_and_rectstart_a_square() {
        assert_eq!(read_on(None, "START 15").0, Ok(Command::Start(15)));
        assert_eq!(read_on(None, " start\t20 20 ").0, Ok(Command::Start(20)));
        assert_eq!(read("RECTSTART 12, 12"), Ok(Command::Start(12)));
        let no_size = |s: &str| Err(CommandError::StartSize(s.into()));
        assert_eq!(read("START"), no_size(""));
        assert_eq!(read("START x"), no_size("x"));
        assert_eq!(read("START 15 x"), no_size("15 x"));
        assert_eq!(read("START 1 2 3"), no_size("1 2 3"));
        let not_square = Err(CommandError::NotSquare {
            width: 15,
            height: 16,
        });
        assert_eq!(read("START 15 16"), not_square);
        assert_eq!(read("RECTSTART 15,16"), not_square);
        assert_eq!(
            read("RECTSTART 15"),
            Err(point_in("RECTSTART", XyError::Fields("15".into())))
        );
    }

    #[test]
    fn restart_begin_and_the_yixin_queries_need_a_board() {
        assert_eq!(read("RESTART"), Ok(Command::Restart(15)));
        assert_eq!(read("BEGIN"), Ok(Command::Begin));
        assert_eq!(read("YXSHOWFORBID"), Ok(Command::YxShowForbid));
        assert_eq!(read("yxnbest 3"), Ok(Command::YxNbest(3)));
        for text in ["RESTART", "BEGIN", "YXSHOWFORBID", "YXNBEST 3", "YXNBEST x"] {
            assert_eq!(read_on(None, text).0, Err(CommandError::NoBoard), "{text}");
        }
        for n in ["0", "two", "-1", ""] {
            let text = format!("YXNBEST {n}");
            assert_eq!(read(&text), Err(CommandError::NbestCount(n.into())));
        }
    }

    #[test]
    fn commands_without_arguments_need_nothing() {
        for (text, want) in [
            ("YXSTOP", Command::YxStop),
            ("YXHASHCLEAR", Command::YxHashClear),
            ("YXSHOWINFO", Command::YxShowInfo),
            ("ABOUT", Command::About),
            ("end", Command::End),
            ("   ", Command::Blank),
        ] {
            assert_eq!(read_on(None, text).0, Ok(want), "{text}");
        }
        assert_eq!(read("FOO 1,2"), Err(CommandError::Unknown("FOO".into())));
        assert_eq!(read("foo").unwrap_err().reply(), "UNKNOWN command FOO");
    }

    #[test]
    fn turn_and_takeback_need_a_board_then_a_point_on_it() {
        assert_eq!(read("TURN 3,4"), Ok(Command::Turn(at(3, 4))));
        assert_eq!(read("TAKEBACK 14, 0"), Ok(Command::TakeBack(at(14, 0))));
        for word in ["TURN", "TAKEBACK"] {
            let text = |rest: &str| format!("{word} {rest}");
            // The board is missing before the point is looked at.
            assert_eq!(read_on(None, &text("x")).0, Err(CommandError::NoBoard));
            assert_eq!(
                read(&text("x")),
                Err(point_in(word, XyError::Fields("x".into())))
            );
            assert_eq!(
                read(&text("1,b")),
                Err(point_in(word, XyError::Numbers("1,b".into())))
            );
            assert_eq!(read(&text("15,0")), Err(CommandError::Point(off(15, 0))));
        }
        assert_eq!(
            read("TURN 15,0").unwrap_err().reply(),
            "ERROR point 15,0 is off the board"
        );
    }

    #[test]
    fn board_blocks_are_read_whole_then_checked() {
        let stones = vec![
            (at(1, 1), Field::Own),
            (at(2, 2), Field::Opponent),
            (at(3, 3), Field::Wall),
        ];
        assert_eq!(
            read("BOARD\n1,1,1\n\n2,2,2\n 3 , 3 , 3 \ndone"),
            Ok(Command::Board(stones.clone()))
        );
        assert_eq!(
            read("YXBOARD\n1,1,1\n2,2,2\n3,3,3\nDONE"),
            Ok(Command::YxBoard(stones))
        );
        assert_eq!(read("BOARD\nDONE"), Ok(Command::Board(Vec::new())));
        // A refused block is read to its DONE all the same.
        let (got, left) = read_on(Some(15), "BOARD\n1,1,4\n1,1\nDONE\nBEGIN");
        assert_eq!(
            got,
            Err(CommandError::Field {
                block: "BOARD",
                line: "1,1,4".into()
            })
        );
        assert_eq!(left, 1);
        let (got, left) = read_on(None, "YXBOARD\n1,1,1\nDONE\nBEGIN");
        assert_eq!((got, left), (Err(CommandError::NoBoard), 1));
        // Without a board, the block's own error comes first.
        assert_eq!(
            read_on(None, "YXBOARD\n1,1\nDONE").0,
            Err(CommandError::Stone {
                block: "YXBOARD",
                line: "1,1".into()
            })
        );
        assert_eq!(
            read("BOARD\n1,1,1"),
            Err(CommandError::Unfinished { block: "BOARD" })
        );
        assert_eq!(
            read("BOARD\n1,1,1\n15,1,2\nDONE"),
            Err(point_in("BOARD", off(15, 1)))
        );
        assert_eq!(
            read("YXBOARD\n1,1,1\n1,1,2\nDONE"),
            Err(point_in("YXBOARD", StoneError::Taken { x: 1, y: 1 }))
        );
        assert_eq!(
            read("BOARD\nx,1,1\nDONE").unwrap_err().reply(),
            "ERROR BOARD line \"x,1,1\": expected x,y,field"
        );
    }

    #[test]
    fn swap2board_blocks_name_the_phase_by_their_stones() {
        assert_eq!(
            read("SWAP2BOARD\nDONE"),
            Ok(Command::Swap2Board {
                stones: Vec::new(),
                phase: Phase::Open
            })
        );
        assert_eq!(
            read("SWAP2BOARD\n7,7\n8,8\n6,7\nDONE"),
            Ok(Command::Swap2Board {
                stones: vec![at(7, 7), at(8, 8), at(6, 7)],
                phase: Phase::Answer
            })
        );
        let five = read("SWAP2BOARD\n1,1\n2,2\n3,3\n4,4\n5,5\nDONE");
        assert!(matches!(
            five,
            Ok(Command::Swap2Board { ref stones, phase: Phase::Colour }) if stones.len() == 5
        ));
        assert_eq!(
            read("SWAP2BOARD\n1,1\nDONE"),
            Err(CommandError::Swap2Stones(1))
        );
        assert_eq!(
            read("SWAP2BOARD\n1,1\n1,1\n1,1\nDONE"),
            Err(point_in("SWAP2BOARD", StoneError::Taken { x: 1, y: 1 }))
        );
        assert_eq!(
            read("SWAP2BOARD\n1;1\nDONE"),
            Err(point_in("SWAP2BOARD", XyError::Fields("1;1".into())))
        );
        assert_eq!(
            read("SWAP2BOARD\n0,20\nDONE"),
            Err(point_in("SWAP2BOARD", off(0, 20)))
        );
        assert_eq!(
            read("SWAP2BOARD"),
            Err(CommandError::Unfinished {
                block: "SWAP2BOARD"
            })
        );
        assert_eq!(
            read_on(None, "SWAP2BOARD\nDONE").0,
            Err(CommandError::NoBoard)
        );
    }

    #[test]
    fn infos_a_brain_uses_carry_whole_numbers() {
        let info = |text: &str| read_on(None, text).0;
        for (text, want) in [
            ("INFO timeout_turn 500", Info::TimeoutTurn(500)),
            ("INFO TIMEOUT_MATCH 0", Info::TimeoutMatch(0)),
            ("INFO time_left 9000", Info::TimeLeft(9000)),
            ("INFO max_memory 83886080", Info::MaxMemory(83_886_080)),
            ("INFO game_type 1", Info::GameType(1)),
            ("INFO rule 4", Info::Rule(RuleBits(4))),
            ("INFO max_node -1", Info::MaxNode(None)),
            ("INFO max_node 0", Info::MaxNode(None)),
            ("INFO max_node 30000", Info::MaxNode(Some(30_000))),
            ("INFO max_depth 0", Info::MaxDepth(None)),
            ("INFO max_depth 12", Info::MaxDepth(Some(12))),
            ("INFO show_detail 1", Info::ShowDetail(1)),
            ("INFO hash_size 524288", Info::HashSize(524_288)),
            ("INFO thread_num 4", Info::ThreadNum(4)),
        ] {
            assert_eq!(info(text), Ok(Command::Info(want)), "{text}");
        }
        assert_eq!(
            info("INFO Folder /x y"),
            Ok(Command::OtherInfo("folder".into()))
        );
        assert_eq!(info("INFO"), Ok(Command::OtherInfo(String::new())));
        assert_eq!(
            info("INFO max_node -5"),
            Err(CommandError::MaxNode("-5".into()))
        );
        assert_eq!(info("INFO max_node"), Err(CommandError::MaxNode("".into())));
        assert_eq!(
            info("INFO MAX_DEPTH -1"),
            Err(CommandError::InfoNumber {
                key: "max_depth".into(),
                value: "-1".into()
            })
        );
        assert_eq!(
            info("INFO rule x").unwrap_err().reply(),
            "ERROR INFO rule needs a whole number, got \"x\""
        );
    }

    #[test]
    fn only_yxstop_and_end_stop_thinking() {
        assert!(stops_thinking("YXSTOP") && stops_thinking(" end now"));
        assert!(!stops_thinking("TURN 1,1") && !stops_thinking("") && !stops_thinking("ENDS"));
    }
}
