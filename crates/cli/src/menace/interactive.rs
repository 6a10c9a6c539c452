//! The challenge's interactive program: a person (or a script) plays O
//! against MENACE for a number of games, typing moves as two letters.
//!
//! Prompts and error lines go to standard error, everything else to
//! standard output: on a terminal both show as a dialogue, and a script
//! reading standard output gets the game's whole lines (`new game`, boards,
//! results, boxes) with no prompt glued in front and no error among them.

use std::io::{self, BufRead, IsTerminal, Write};

use inarow_core::{PlayError, Point, TicTacToe};
use inarow_menace::{Memory, Refused, Session};

use super::{MachineArgs, store};

/// Letters for rows (top to bottom) and columns (left to right).
const LETTERS: [char; 3] = ['L', 'M', 'R'];

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
        match dialogue.play_one(&mut memory)? {
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

/// The name of a square: row letter then column letter.
pub fn square_name(point: Point) -> String {
    let (r, c) = (point.row(3), point.col(3));
    format!("{}{}", LETTERS[r], LETTERS[c])
}

/// Reads a move typed as two letters, row then column, each L, M or R.
pub fn parse_square(text: &str) -> Result<Point, String> {
    let text = text.trim();
    let letters: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
    let index = |c: char| LETTERS.iter().position(|&l| l == c.to_ascii_uppercase());
    match letters.as_slice() {
        [r, c] => match (index(*r), index(*c)) {
            (Some(r), Some(c)) => Ok(Point::at(r, c, 3)),
            _ => Err(format!(
                "{text:?} is not a move: use two letters, row then column, each L, M or R (MM is the centre)"
            )),
        },
        [] => Err(
            "no move given: type two letters, row then column, each L, M or R (MM is the centre)"
                .into(),
        ),
        _ => Err(format!(
            "{text:?} is not a move: use two letters, row then column, each L, M or R (MM is the centre)"
        )),
    }
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

    /// Plays one game and teaches MENACE its result; `None` if the input
    /// ended first.
    fn play_one(&mut self, memory: &mut Memory) -> anyhow::Result<Option<()>> {
        let menace = &mut memory.x;
        let mut session = Session::new(menace);
        writeln!(self.out, "new game")?;
        loop {
            if let Some(line) = session.result_line("you win") {
                writeln!(self.out, "{line}")?;
                break;
            }
            if session.menace_to_move() {
                // Resigning ends the game; the next round tells it.
                if let Some(m) = session.menace_move(menace) {
                    writeln!(self.out, "MENACE plays {}", square_name(m.square))?;
                    self.show_board(session.board())?;
                }
            } else {
                let Some(line) = self.ask("your move (row then column, L/M/R): ")? else {
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
                    Err(message) => self.error(&message)?,
                }
            }
        }
        for i in 0..menace.boxes().len() {
            writeln!(self.out, "{}", menace.box_line(i))?;
        }
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
    fn squares_by_letters() {
        assert_eq!(parse_square("LL"), Ok(Point(0)));
        assert_eq!(parse_square("mm\n"), Ok(Point(4)));
        assert_eq!(parse_square("Rl"), Ok(Point(6)));
        assert_eq!(parse_square("l r"), Ok(Point(2)));
        for p in 0..9 {
            assert_eq!(parse_square(&square_name(Point(p))), Ok(Point(p)));
        }
        assert!(
            parse_square("LX")
                .unwrap_err()
                .contains("\"LX\" is not a move")
        );
        assert!(parse_square("LLL").is_err());
        assert!(parse_square("").unwrap_err().starts_with("no move given"));
    }
}
