//! `inarow play`: a person against a machine in the terminal.

use std::io::{self, BufRead, Write};

use anyhow::bail;
use clap::ValueEnum;
use inarow_agents::{Agent, Mcts, Perfect, RandomAgent};
use inarow_core::swap2::Strategy;
use inarow_core::{Game, Mnk, Player, Point, TicTacToe, notation};
use inarow_engine::player::Engine;
use inarow_engine::search::Options;

/// The games that can be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum GameName {
    /// 3 x 3, three in a row.
    Tictactoe,
    /// 15 x 15, five or more in a row.
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
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Playouts per move for the MCTS opponent.
    #[arg(long, default_value_t = 20_000)]
    pub iterations: u32,
    /// Seconds the engine opponent thinks per move.
    #[arg(long, default_value_t = 1.0)]
    pub move_time: f64,
    /// Positions the engine opponent searches per move instead of thinking
    /// on the clock (the same seed then gives the same game anywhere).
    #[arg(long, conflicts_with = "move_time")]
    pub move_nodes: Option<u64>,
}

/// The engine as a [`Agent`] for a person to play against.
struct EngineOpponent(Engine);

impl Agent<Mnk> for EngineOpponent {
    fn name(&self) -> String {
        "engine".into()
    }

    fn choose(&mut self, game: &Mnk) -> Option<Point> {
        self.0.play(game).ok()
    }
}

/// Runs `inarow play`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let stdin = io::stdin();
    let stdout = io::stdout();
    match args.game {
        GameName::Tictactoe => {
            let machine: Box<dyn Agent<TicTacToe>> =
                match args.opponent.unwrap_or(Opponent::Perfect) {
                    Opponent::Perfect => Box::new(Perfect::new(args.seed)),
                    Opponent::Random => Box::new(RandomAgent::new(args.seed)),
                    Opponent::Mcts => Box::new(Mcts::new(args.iterations, args.seed)),
                    Opponent::Engine => bail!(
                        "the engine plays gomoku only: choose --opponent perfect, random or mcts"
                    ),
                };
            session(
                TicTacToe::new(),
                machine,
                args.first,
                stdin.lock(),
                stdout.lock(),
            )
        }
        GameName::Gomoku => {
            let machine: Box<dyn Agent<Mnk>> = match args.opponent.unwrap_or(Opponent::Engine) {
                Opponent::Perfect => {
                    bail!(
                        "no perfect gomoku player exists: choose --opponent engine, random or mcts"
                    )
                }
                Opponent::Random => Box::new(RandomAgent::new(args.seed)),
                Opponent::Mcts => Box::new(Mcts::new(args.iterations, args.seed)),
                Opponent::Engine => Box::new(EngineOpponent(Engine::with_limits(
                    args.seed,
                    crate::args::move_limits(args.move_time, args.move_nodes)?,
                    Options::default(),
                ))),
            };
            session(
                Mnk::gomoku(),
                machine,
                args.first,
                stdin.lock(),
                stdout.lock(),
            )
        }
    }
}

/// Plays one game between the person on `input`/`output` and `machine`.
pub fn session<G: Game>(
    mut game: G,
    mut machine: Box<dyn Agent<G>>,
    first: First,
    mut input: impl BufRead,
    mut out: impl Write,
) -> anyhow::Result<()> {
    let me = if first == First::Me {
        Player::X
    } else {
        Player::O
    };
    writeln!(
        out,
        "You play {me} against {}. Enter moves as ROW COL, counting from 0; q quits.",
        machine.name()
    )?;
    while !game.is_over() {
        if game.to_move() == me {
            write_board(&game, &mut out)?;
            let Some(m) = ask_move(&game, &mut input, &mut out)? else {
                writeln!(out, "bye")?;
                return Ok(());
            };
            game.play(m)?;
        } else {
            let m = machine
                .choose(&game)
                .expect("a move while the game goes on");
            game.play(m)?;
            writeln!(
                out,
                "{} plays {}",
                machine.name(),
                notation::format_point(m, game.cols())
            )?;
        }
    }
    write_board(&game, &mut out)?;
    let verdict = match game.outcome().and_then(|o| o.winner()) {
        Some(w) if w == me => "You win!".to_string(),
        Some(_) => format!("{} wins.", machine.name()),
        None => "A draw.".to_string(),
    };
    writeln!(out, "{verdict}")?;
    Ok(())
}

fn ask_move<G: Game>(
    game: &G,
    input: &mut impl BufRead,
    out: &mut impl Write,
) -> anyhow::Result<Option<Point>> {
    loop {
        write!(out, "your move ({}): ", game.to_move())?;
        out.flush()?;
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            writeln!(out)?;
            return Ok(None);
        }
        let line = line.trim();
        if line.eq_ignore_ascii_case("q") || line.eq_ignore_ascii_case("quit") {
            return Ok(None);
        }
        match notation::parse_point(line, game.rows(), game.cols()) {
            Err(e) => writeln!(out, "error: {e}")?,
            Ok(p) if game.stone(p).is_some() => writeln!(
                out,
                "error: {} is already taken",
                notation::format_point(p, game.cols())
            )?,
            Ok(p) => return Ok(Some(p)),
        }
    }
}

fn write_board<G: Game>(game: &G, out: &mut impl Write) -> io::Result<()> {
    write!(out, "   ")?;
    for c in 0..game.cols() {
        write!(out, "{c:>2} ")?;
    }
    writeln!(out)?;
    for r in 0..game.rows() {
        write!(out, "{r:>2} ")?;
        for c in 0..game.cols() {
            let stone = game.stone(Point::at(r, c, game.cols()));
            write!(out, " {} ", stone.map_or('.', Player::symbol))?;
        }
        writeln!(out)?;
    }
    Ok(())
}
