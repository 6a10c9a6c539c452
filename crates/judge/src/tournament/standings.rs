//! The standings: two points a win, one a draw; equal points share a rank.

use serde::{Deserialize, Serialize};

use crate::record::GameRecord;

/// One line of the standings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standing {
    /// 1 for the best; bots level on points share a rank.
    pub rank: usize,
    /// The bot.
    pub name: String,
    /// 2 per win, 1 per tie.
    pub points: u32,
    /// Games won.
    pub wins: u32,
    /// Games tied.
    pub ties: u32,
    /// Games lost, forfeits included.
    pub losses: u32,
    /// Games lost by a fault.
    pub forfeits: u32,
}

/// The standings after `games`: by points, then wins, then name.
pub fn standings(names: &[String], games: &[GameRecord]) -> Vec<Standing> {
    let mut table: Vec<Standing> = names
        .iter()
        .map(|name| Standing {
            rank: 0,
            name: name.clone(),
            points: 0,
            wins: 0,
            ties: 0,
            losses: 0,
            forfeits: 0,
        })
        .collect();
    let row = |table: &mut Vec<Standing>, name: &str| table.iter().position(|s| s.name == name);
    for game in games {
        match (game.named(game.winner), game.named(game.loser())) {
            (Some(winner), Some(loser)) => {
                if let Some(i) = row(&mut table, winner) {
                    table[i].wins += 1;
                    table[i].points += 2;
                }
                if let Some(i) = row(&mut table, loser) {
                    table[i].losses += 1;
                    if game.forfeit.is_some() {
                        table[i].forfeits += 1;
                    }
                }
            }
            _ => {
                for name in [&game.a, &game.b] {
                    if let Some(i) = row(&mut table, name) {
                        table[i].ties += 1;
                        table[i].points += 1;
                    }
                }
            }
        }
    }
    table.sort_by(|x, y| {
        (y.points, y.wins)
            .cmp(&(x.points, x.wins))
            .then_with(|| x.name.cmp(&y.name))
    });
    for i in 0..table.len() {
        table[i].rank = if i > 0 && table[i].points == table[i - 1].points {
            table[i - 1].rank
        } else {
            i + 1
        };
    }
    table
}

/// The standings as a text table.
pub fn format_standings(table: &[Standing]) -> String {
    let width = table.iter().map(|s| s.name.len()).max().unwrap_or(4).max(4);
    let mut out = format!(
        "{:>4}  {:<width$}  {:>6}  {:>4}  {:>4}  {:>6}  {:>8}\n",
        "rank", "name", "points", "wins", "ties", "losses", "forfeits"
    );
    for s in table {
        out.push_str(&format!(
            "{:>4}  {:<width$}  {:>6}  {:>4}  {:>4}  {:>6}  {:>8}\n",
            s.rank, s.name, s.points, s.wins, s.ties, s.losses, s.forfeits
        ));
    }
    out
}

#[cfg(test)]
pub(crate) mod tests {
    use inarow_contest::Fault;

    use super::*;
    use crate::record::{Forfeit, Seat};

    pub(crate) fn game(a: &str, b: &str, winner: Option<&str>, forfeit: bool) -> GameRecord {
        GameRecord {
            index: 0,
            a: a.into(),
            b: b.into(),
            a_seed: 0,
            b_seed: 0,
            swap: None,
            black: None,
            stones: vec![],
            winner: winner.map(|w| if w == a { Seat::A } else { Seat::B }),
            reason: None,
            forbidden: None,
            forfeit: forfeit.then(|| Forfeit {
                by: if winner == Some(a) { Seat::B } else { Seat::A },
                fault: Fault::Eof,
            }),
            size: 15,
        }
    }

    #[test]
    fn points_are_two_one_zero_and_equal_points_share_a_rank() {
        let names: Vec<String> = ["p", "q", "r"].map(String::from).to_vec();
        let games = [
            game("p", "q", Some("p"), false),
            game("q", "p", None, false),
            game("p", "r", Some("r"), true),
            game("r", "q", Some("q"), false),
        ];
        let table = standings(&names, &games);
        let row = |n: &str| table.iter().find(|s| s.name == n).unwrap().clone();
        assert_eq!(
            (
                row("p").points,
                row("p").wins,
                row("p").ties,
                row("p").losses,
                row("p").forfeits
            ),
            (3, 1, 1, 1, 1)
        );
        assert_eq!(row("q").points, 3);
        assert_eq!(row("r").points, 2);
        assert_eq!((row("p").rank, row("q").rank, row("r").rank), (1, 1, 3));
        assert!(format_standings(&table).contains("forfeits"));
    }
}
