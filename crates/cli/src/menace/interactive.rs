//! The challenge's interactive program: a person (or a script) plays O
//! against MENACE for a number of games, typing moves as two letters, row
//! then column (`MM`), or by the square's name (`b2`).
//!
//! Prompts and error lines go to standard error, everything else to
//! standard output: on a terminal both show as a dialogue, and a script
//! reading standard output gets the game's whole lines (`new game`, boards,
//! results, boxes) with no prompt glued in front and no error among them.

use std::io::{self, BufRead, IsTerminal, Write};

use inarow_core::{PlayError, Point, TicTacToe, notation};
use inarow_menace::{Memory, Refused, Session};

use super::{MachineArgs, store};

/// Runs the dialogue on standard input and output, prompts on standard error.
pub fn run(args: &MachineArgs) -> anyhow::Result<()> {
    // Held till the program ends: the state file is saved after every game.
    let (mut memory, _lock) = store::open(args, true)?;
    let stdin = io::stdin();
    let stdout = io::stdout();
    let mut dialogue = Dialogue {
        input: stdin.lock(),
        out: stdout.lock(),
        prompts: io::stderr(),
        echoed: stdin.is_terminal(),
    };
    let Some(games) = dialogue.read_game_count()? else {
        eprintln!("input ended before the number of games: nothing played");
        return Ok(());
    };
    for number in 1..=games {
        match dialogue.play_one(&mut memory, (number, games))? {
            Some(()) => store::save(args, &memory)?,
            None => {
                memory.x.abandon();
                let kept = if args.state.is_some() {
                    format!("the boxes are saved as of game {}", number - 1)
                } else {
                    "nothing is saved (no --state file)".to_string()
                };
                eprintln!(
                    "input ended during game {number}: that game is not learned from; {kept}"
                );
                return Ok(());
            }
        }
    }
    Ok(())
}

/// A square as the game names it, `a3 (LL)`: as every tic-tac-toe point
/// is named (`a1` to `c3`, as gomoku's), then in the challenge's letters,
/// which it types.
pub fn square_name(point: Point) -> String {
    format!(
        "{} ({})",
        notation::square_name(point),
        notation::challenge_name(point)
    )
}

/// Reads a move: the challenge's two letters, row then column (`LL`,
/// `mm`), or the square's name (`a3`, `b2`).
pub fn parse_square(text: &str) -> Result<Point, notation::ParseError> {
    notation::parse_square(text)
}

/// The terminal: answers in, the game out, questions to their own stream.
struct Dialogue<R, W, P> {
    input: R,
    out: W,
    prompts: P,
    /// Whether a terminal echoes the answers, ending each prompt's line.
    echoed: bool,
}

impl<R: BufRead, W: Write, P: Write> Dialogue<R, W, P> {
    /// Shows `prompt` and reads one line; `None` at the end of the input.
    fn ask(&mut self, prompt: &str) -> anyhow::Result<Option<String>> {
        // What the prompt follows is shown first.
        self.out.flush()?;
        write!(self.prompts, "{prompt}")?;
        self.prompts.flush()?;
        let mut line = String::new();
        if self.input.read_line(&mut line)? == 0 {
            // End the prompt's line.
            writeln!(self.prompts)?;
            return Ok(None);
        }
        Ok(Some(line))
    }

    /// Tells the person what was wrong with an answer, on the prompts' stream.
    fn error(&mut self, message: &str) -> io::Result<()> {
        self.out.flush()?;
        if !self.echoed {
            // No answer was echoed after the prompt: the error starts its own line.
            writeln!(self.prompts)?;
        }
        writeln!(self.prompts, "error: {message}")?;
        self.prompts.flush()
    }

    fn read_game_count(&mut self) -> anyhow::Result<Option<u64>> {
        loop {
            let Some(line) = self.ask("How many games? ")? else {
                return Ok(None);
            };
            match line.trim().parse::<u64>() {
                Ok(n) => return Ok(Some(n)),
                Err(_) => self.error(&format!(
                    "{:?} is not a number of games: type a whole number such as 3",
                    line.trim()
                ))?,
            }
        }
    }

    /// Plays game `number` of `games` and teaches MENACE its result;
    /// `None` if the input ended first.
    fn play_one(
        &mut self,
        memory: &mut Memory,
        (number, games): (u64, u64),
    ) -> anyhow::Result<Option<()>> {
        let menace = &mut memory.x;
        let mut session = Session::new(menace);
        writeln!(self.out, "new game")?;
        let result = loop {
            if let Some(line) = session.result_line("you win") {
                writeln!(self.out, "{line}")?;
                break line;
            }
            if session.menace_to_move() {
                // Resigning ends the game; the next round tells it.
                if let Some(m) = session.menace_move(menace) {
                    writeln!(self.out, "MENACE plays {}", square_name(m.square))?;
                    self.show_board(session.board())?;
                }
            } else {
                let Some(line) = self.ask("your move (row then column, L/M/R, or a1 to c3): ")?
                else {
                    return Ok(None);
                };
                match parse_square(&line) {
                    Ok(p) => match session.play(menace, p) {
                        Ok(_) => {
                            // Echoed so a transcript of a piped session reads like a game.
                            writeln!(self.out, "you play {}", square_name(p))?;
                            self.show_board(session.board())?;
                        }
                        Err(Refused::Illegal(PlayError::Occupied(_))) => self.error(&format!(
                            "{} is already taken: choose an empty square",
                            square_name(p)
                        ))?,
                        // Over and MENACE's turn were ruled out above.
                        Err(refused) => self.error(&refused.to_string())?,
                    },
                    Err(message) => self.error(&message.to_string())?,
                }
            }
        };
        for i in 0..menace.boxes().len() {
            writeln!(self.out, "{}", menace.box_line(i))?;
        }
        // The result again below the boxes, where a terminal still shows it.
        let result = if result == "draw" { "a draw" } else { &result };
        writeln!(self.out, "game {number} of {games}: {result}")?;
        self.out.flush()?;
        Ok(Some(()))
    }

    fn show_board(&mut self, game: &TicTacToe) -> io::Result<()> {
        writeln!(self.out, "{game}")?;
        writeln!(self.out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_by_letters_and_by_name() {
        assert_eq!(parse_square("LL"), Ok(Point(0)));
        assert_eq!(parse_square("mm\n"), Ok(Point(4)));
        assert_eq!(parse_square("Rl"), Ok(Point(6)));
        assert_eq!(parse_square("l r"), Ok(Point(2)));
        assert_eq!(parse_square("a3"), Ok(Point(0)));
        assert_eq!(parse_square("B2"), Ok(Point(4)));
        assert_eq!(square_name(Point(0)), "a3 (LL)");
        assert_eq!(square_name(Point(8)), "c1 (RR)");
        for p in 0..9 {
            let name = square_name(Point(p));
            let (gomoku, challenge) = name.split_once(' ').unwrap();
            assert_eq!(parse_square(gomoku), Ok(Point(p)));
            assert_eq!(
                parse_square(challenge.trim_matches(['(', ')'])),
                Ok(Point(p))
            );
        }
        assert!(
            parse_square("LX")
                .unwrap_err()
                .to_string()
                .contains("\"LX\" is not a square")
        );
        assert!(parse_square("LLL").is_err());
        assert!(
            parse_square("")
                .unwrap_err()
                .to_string()
                .starts_with("no square given")
        );
    }
}
