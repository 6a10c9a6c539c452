//! `inarow play`: a person against a machine in the terminal.

use std::io::{self, BufRead, Write};

use anyhow::bail;
use clap::ValueEnum;
use inarow_agents::{Agent, Mcts, Perfect, RandomAgent};
use inarow_core::{Game, Mnk, Player, Point, Rule, TicTacToe, notation};
use inarow_engine::player::Engine;
use inarow_engine::search::Options;

use crate::said::Evaluation;

/// The games that can be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum GameName {
    /// 3 x 3, three in a row.
    Tictactoe,
    /// Five in a row on 15 x 15 (or --size), freestyle, exact or renju (--rule).
    Gomoku,
}

/// The machine to play against.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Opponent {
    /// Never loses (tic-tac-toe only: it searches to the end).
    Perfect,
    /// Plays any legal move.
    Random,
    /// Monte Carlo tree search.
    Mcts,
    /// The project's gomoku engine, as `inarow bot` plays (gomoku only).
    Engine,
}

/// Who plays X and moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum First {
    /// You play X.
    Me,
    /// The machine plays X.
    Machine,
}

/// Options of `inarow play`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game.
    #[arg(value_enum)]
    pub game: GameName,
    /// The machine you play against [default: perfect for tic-tac-toe,
    /// engine for gomoku].
    #[arg(long, value_enum)]
    pub opponent: Option<Opponent>,
    /// Who plays X and moves first.
    #[arg(long, value_enum, default_value_t = First::Me)]
    pub first: First,
    /// Seed for the machine's random choices.
    #[arg(long, default_value_t = 1, value_parser = crate::numbers::seed)]
    pub seed: u64,
    /// Playouts per move for the MCTS opponent.
    #[arg(long, default_value_t = 20_000, value_parser = crate::numbers::whole_in::<u32>(1, u32::MAX.into()))]
    pub iterations: u32,
    /// Seconds the engine opponent thinks per move.
    #[arg(long, default_value_t = 1.0, value_parser = crate::args::parse_move_time)]
    pub move_time: f64,
    /// Positions the engine opponent searches per move instead of thinking
    /// on the clock (the same seed then gives the same game anywhere).
    #[arg(long, conflicts_with = "move_time", value_parser = crate::numbers::whole::<u64>(1))]
    pub move_nodes: Option<u64>,
    /// The gomoku board's side, 5 to 20 [default: 15] (gomoku only).
    #[arg(long, value_parser = crate::args::board_size)]
    pub size: Option<usize>,
    /// The gomoku rule: freestyle (five or more wins), exact (exactly five)
    /// or renju (black may not play a double three, a double four or an
    /// overline) [default: freestyle] (gomoku only).
    #[arg(long, value_name = "RULE", value_parser = crate::args::parse_rule)]
    pub rule: Option<Rule>,
}

/// A machine the person plays: its move, and what it makes of the game
/// when it can say (the engine's evaluation).
pub trait Machine<G> {
    /// Its name, as the greeting and its moves say it.
    fn name(&self) -> String;
    /// Its move in `game` (never finished), with its evaluation.
    fn reply(&mut self, game: &G) -> Reply;
}

/// A machine's move.
pub struct Reply {
    /// The point it plays.
    pub point: Point,
    /// What it makes of the game, from its side, when it can say.
    pub evaluation: Option<Evaluation>,
}

/// Any agent as a machine that says nothing of its moves.
struct Silent<G>(Box<dyn Agent<G>>);

impl<G: Game> Machine<G> for Silent<G> {
    fn name(&self) -> String {
        self.0.name()
    }

    fn reply(&mut self, game: &G) -> Reply {
        Reply {
            point: self.0.choose(game).expect("a move while the game goes on"),
            evaluation: None,
        }
    }
}

/// The engine, which says its evaluation with each move.
struct EngineOpponent {
    engine: Engine,
    /// The logistic scale of its evaluation under the game's rule, for
    /// its scores' win rates.
    scale: f64,
}

impl Machine<Mnk> for EngineOpponent {
    fn name(&self) -> String {
        "engine".into()
    }

    fn reply(&mut self, game: &Mnk) -> Reply {
        let found = self
            .engine
            .think(game)
            .expect("the terminal's boards are the engine's: square, 5 to 20");
        Reply {
            point: found.best.point(game.cols()),
            evaluation: Some(Evaluation::of(found.score, self.scale)),
        }
    }
}

/// How the points of a game are read. Both are named as gomoku players
/// write them (`h8`; `a1` to `c3` on tic-tac-toe's 3x3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notation {
    /// Tic-tac-toe: `b2`, or the MENACE challenge's letters (`MM`).
    TicTacToe,
    /// Gomoku as players write it (`h8`: the column's letter, `i` included,
    /// the row counted from 1 at the bottom), also read as the brain
    /// protocol's `x,y` from the top left.
    Gomoku,
}

impl Notation {
    /// How a move is entered, for the greeting.
    fn how(self) -> &'static str {
        match self {
            Notation::TicTacToe => {
                "Enter moves as b2 (the column's letter a to c, then the row counted from 1 at the bottom)"
            }
            Notation::Gomoku => {
                "Enter moves as h8 (the column's letter, then the row counted from 1 at the bottom) or x,y from the top left"
            }
        }
    }

    /// What `help` says of moves, the board and the machine's words.
    fn help(self) -> &'static str {
        match self {
            Notation::TicTacToe => {
                "Type a square: b2 (the column's letter a to c, then the row counted from 1 at \
the bottom), or the MENACE challenge's two letters, row then column (MM is b2).
The last stone played is drawn between brackets, (X)."
            }
            Notation::Gomoku => {
                "Type a point: h8 (the column's letter, i included, then the row counted from 1 \
at the bottom), or x,y from the top left (7,7 is h8 on 15x15).
The last stone played is drawn between brackets, (X).
The engine says its evaluation with each move: its win rate, or \"win in N\" (\"loss in N\") \
once it has proven the five N stones away, its move and both sides' stones after it counted."
            }
        }
    }

    /// Reads a move the person typed.
    fn read<G: Game>(self, text: &str, game: &G) -> Result<Point, notation::ParseError> {
        match self {
            Notation::TicTacToe => notation::parse_square(text),
            Notation::Gomoku => notation::parse_move(text, game.cols()),
        }
    }

    /// A side's name: tic-tac-toe's letters, gomoku's colours.
    fn side(self, player: Player) -> &'static str {
        match (self, player) {
            (Notation::TicTacToe, Player::X) => "X",
            (Notation::TicTacToe, Player::O) => "O",
            (Notation::Gomoku, Player::X) => "black",
            (Notation::Gomoku, Player::O) => "white",
        }
    }
}

/// What the rules say of a stone before it is played: `Some(reason)` when
/// the side to move may not play it (renju's forbidden points for black).
type Refusal<G> = fn(&G, Point) -> Option<String>;

/// No stone on an empty point is refused (tic-tac-toe, freestyle, exact).
fn none_refused<G>(_: &G, _: Point) -> Option<String> {
    None
}

/// Renju: black's stone on a forbidden point, and why.
fn forbidden_to_black(game: &Mnk, point: Point) -> Option<String> {
    if game.to_move() != Player::X {
        return None;
    }
    game.forbidden(point).map(|why| {
        format!(
            "{} is forbidden to black under renju ({why})",
            notation::point_name(point, game.cols())
        )
    })
}

/// Runs `inarow play`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let stdin = io::stdin();
    let stdout = io::stdout();
    match args.game {
        GameName::Tictactoe => {
            if let Some(size) = args.size {
                bail!("--size {size} is for gomoku: tic-tac-toe is played on 3x3");
            }
            if let Some(rule) = args.rule {
                bail!("--rule {rule} is for gomoku: tic-tac-toe has one rule, three in a row");
            }
            let agent: Box<dyn Agent<TicTacToe>> = match args.opponent.unwrap_or(Opponent::Perfect)
            {
                Opponent::Perfect => Box::new(Perfect::new(args.seed)),
                Opponent::Random => Box::new(RandomAgent::new(args.seed)),
                Opponent::Mcts => Box::new(Mcts::new(args.iterations, args.seed)),
                Opponent::Engine => {
                    bail!("the engine plays gomoku only: choose --opponent perfect, random or mcts")
                }
            };
            let machine = Box::new(Silent(agent));
            let table = Table {
                game: TicTacToe::new(),
                notation: Notation::TicTacToe,
                refusal: none_refused,
                about: String::new(),
            };
            session(table, machine, args.first, stdin.lock(), stdout.lock())
        }
        GameName::Gomoku => {
            let size = args.size.unwrap_or(15);
            let rule = args.rule.unwrap_or(Rule::Freestyle);
            let game =
                Mnk::new(size, size, 5, rule).map_err(|e| anyhow::anyhow!("--size {size}: {e}"))?;
            let machine: Box<dyn Machine<Mnk>> = match args.opponent.unwrap_or(Opponent::Engine) {
                Opponent::Perfect => {
                    bail!(
                        "no perfect gomoku player exists: choose --opponent engine, random or mcts"
                    )
                }
                Opponent::Random => Box::new(Silent(Box::new(RandomAgent::new(args.seed)))),
                Opponent::Mcts => Box::new(Silent(Box::new(Mcts::new(args.iterations, args.seed)))),
                Opponent::Engine => {
                    let options = Options::default();
                    Box::new(EngineOpponent {
                        scale: options.eval.logistic_scale(rule),
                        engine: Engine::with_limits(
                            args.seed,
                            crate::args::move_limits(args.move_time, args.move_nodes),
                            options,
                        ),
                    })
                }
            };
            let table = Table {
                game,
                notation: Notation::Gomoku,
                refusal: if rule == Rule::Renju {
                    forbidden_to_black
                } else {
                    none_refused
                },
                about: format!(" on {size}x{size}, {rule}"),
            };
            session(table, machine, args.first, stdin.lock(), stdout.lock())
        }
    }
}

/// A game to play in the terminal, with how its points are written and
/// what its rules refuse.
pub struct Table<G> {
    /// The game as it starts.
    pub game: G,
    /// How points are read and written.
    pub notation: Notation,
    /// The stones the rules refuse before they are played.
    pub refusal: Refusal<G>,
    /// The board and rule for the greeting (" on 15x15, renju"), or nothing.
    pub about: String,
}

/// What the person may type besides a move.
const WORDS: &str = concat!(
    "  undo    take back your last move and the machine's answer\n",
    "  help    this list\n",
    "  q       quit (also quit)",
);

/// Plays one game between the person on `input`/`output` and `machine`.
pub fn session<G: Game>(
    table: Table<G>,
    mut machine: Box<dyn Machine<G>>,
    first: First,
    mut input: impl BufRead,
    mut out: impl Write,
) -> anyhow::Result<()> {
    let Table {
        mut game,
        notation,
        refusal,
        about,
    } = table;
    let me = if first == First::Me {
        Player::X
    } else {
        Player::O
    };
    // Gomoku's board shows its stones as X and O: say which is yours.
    let mine = match notation {
        Notation::TicTacToe => me.to_string(),
        Notation::Gomoku => format!("{} ({me} on the board)", notation.side(me)),
    };
    writeln!(
        out,
        "You play {mine} against {}{about}. {}; undo takes your last move back, help lists what you can type, q quits.",
        machine.name(),
        notation.how()
    )?;
    // Every stone played, in order: what undo takes back and the board marks.
    let mut played: Vec<Point> = Vec::new();
    while !game.is_over() {
        if game.to_move() == me {
            write_board(&game, played.last().copied(), &mut out)?;
            let m = loop {
                match ask(&game, notation, refusal, &mut input, &mut out)? {
                    Typed::Quit => {
                        writeln!(out, "bye")?;
                        return Ok(());
                    }
                    Typed::Help => {
                        writeln!(out, "{}", notation.help())?;
                        writeln!(out, "{WORDS}")?;
                    }
                    // Your last move and the answer to it, when you have one.
                    Typed::Undo if played.len() < 2 => {
                        writeln!(out, "error: no move of yours to take back yet")?;
                    }
                    Typed::Undo => {
                        let answer = played.pop().expect("two stones played");
                        let mine = played.pop().expect("two stones played");
                        game.undo(answer);
                        game.undo(mine);
                        let name = |p| notation::point_name(p, game.cols());
                        writeln!(
                            out,
                            "took back your {} and {}'s {}",
                            name(mine),
                            machine.name(),
                            name(answer)
                        )?;
                        write_board(&game, played.last().copied(), &mut out)?;
                    }
                    Typed::Move(m) => break m,
                }
            };
            game.play(m)?;
            played.push(m);
        } else {
            let Reply { point, evaluation } = machine.reply(&game);
            // The machine's stone on a point the rules refuse loses it the
            // game: say so, since the board alone does not show why.
            let refused = refusal(&game, point);
            game.play(point)?;
            played.push(point);
            write!(
                out,
                "{} plays {}",
                machine.name(),
                notation::point_name(point, game.cols())
            )?;
            if let Some(evaluation) = evaluation {
                write!(out, " ({}'s evaluation: {evaluation})", machine.name())?;
            }
            match refused {
                Some(why) => writeln!(out, ": {why}, and loses")?,
                None => writeln!(out)?,
            }
        }
    }
    write_board(&game, played.last().copied(), &mut out)?;
    let verdict = match game.outcome().and_then(|o| o.winner()) {
        Some(w) if w == me => "You win!".to_string(),
        Some(_) => format!("{} wins.", machine.name()),
        None => "A draw.".to_string(),
    };
    writeln!(out, "{verdict}")?;
    Ok(())
}

/// What the person typed at the prompt.
enum Typed {
    /// A move the rules allow.
    Move(Point),
    /// `undo`.
    Undo,
    /// `help`.
    Help,
    /// `q`, `quit` or the end of input.
    Quit,
}

/// Asks until the person types a legal move or a word (`undo`, `help`,
/// `q`); a line that is neither gets an error and the question again.
fn ask<G: Game>(
    game: &G,
    notation: Notation,
    refusal: Refusal<G>,
    input: &mut impl BufRead,
    out: &mut impl Write,
) -> anyhow::Result<Typed> {
    loop {
        write!(out, "your move ({}): ", notation.side(game.to_move()))?;
        out.flush()?;
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            writeln!(out)?;
            return Ok(Typed::Quit);
        }
        let line = line.trim();
        let word = line.to_ascii_lowercase();
        match word.as_str() {
            "q" | "quit" => return Ok(Typed::Quit),
            "undo" => return Ok(Typed::Undo),
            "help" | "?" => return Ok(Typed::Help),
            _ => {}
        }
        match notation.read(line, game) {
            Err(e) => writeln!(out, "error: {e} (help lists what you can type)")?,
            Ok(p) if game.stone(p).is_some() => writeln!(
                out,
                "error: {} is already taken",
                notation::point_name(p, game.cols())
            )?,
            Ok(p) => match refusal(game, p) {
                Some(why) => writeln!(out, "error: {why}")?,
                None => return Ok(Typed::Move(p)),
            },
        }
    }
}

/// Draws the board with the column letters and row numbers players write
/// (`a` to `o` left to right, 15 at the top down to 1 on 15x15; `a` to `c`
/// and 3 to 1 on tic-tac-toe), on both sides; the `last` stone played
/// between brackets, `(X)`, as GNU Go marks it, every stone keeping its
/// column.
pub(crate) fn write_board<G: Game>(
    game: &G,
    last: Option<Point>,
    out: &mut impl Write,
) -> io::Result<()> {
    let (rows, cols) = (game.rows(), game.cols());
    let stone = |r: usize, c: usize| {
        game.stone(Point::at(c, r, cols))
            .map_or('.', Player::symbol)
    };
    let last = last.map(|p| (p.row(cols), p.col(cols)));
    let letters: String = (0..cols)
        .map(|c| format!(" {}", char::from(b'a' + c as u8)))
        .collect();
    writeln!(out, "  {letters}")?;
    for r in 0..rows {
        let number = rows - r;
        let mut line = format!("{number:>2}");
        // The space before a point, and the one after the last.
        let space = |c: usize| match last {
            Some((lr, lc)) if lr == r && lc == c => '(',
            Some((lr, lc)) if lr == r && lc + 1 == c => ')',
            _ => ' ',
        };
        for c in 0..cols {
            line.push(space(c));
            line.push(stone(r, c));
        }
        line.push(space(cols));
        writeln!(out, "{line} {number}")?;
    }
    writeln!(out, "  {letters}")
}
