//! The tactical suite: positions with a forced win by continuous fours,
//! generated from seeded play and each proven by an exhaustive threat search
//! written on the game core (independent of the engine's pattern tables),
//! plus a checker that replays a claimed winning line against every defence,
//! and typical middlegames. Not part of the engine: the engine's tests,
//! benchmarks and `measure` example include this file
//! (`#[path = ".../tests/support/suite.rs"] mod suite;`), each using some of it.
#![allow(dead_code)]

use inarow_core::{Game, Mnk, Player, Point, Rule};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use inarow_engine::board::Board;
use inarow_engine::movepick::{self, MoveList, class_bonus, generate, point_score};
use inarow_engine::pattern::Threat;
use inarow_engine::player::board_of;
use inarow_engine::pos::Pos;
use inarow_engine::search::{Found, Limits, Options, Params, Request, Searcher};

/// One suite position: the board (side to move has a VCF) and the proof depth.
#[derive(Clone, Debug)]
pub struct Puzzle {
    /// The position, side to move set.
    pub game: Mnk,
    /// Attacking moves in the shortest win found by the exhaustive search.
    pub attacks: usize,
}

const LINES: [(isize, isize); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];

fn points_within_four(game: &Mnk, p: Point) -> impl Iterator<Item = Point> + '_ {
    let n = game.cols() as isize;
    let (r, c) = (p.row(game.cols()) as isize, p.col(game.cols()) as isize);
    LINES.iter().flat_map(move |&(dr, dc)| {
        (-4..=4isize).filter(|&k| k != 0).filter_map(move |k| {
            let (rr, cc) = (r + k * dr, c + k * dc);
            ((0..n).contains(&rr) && (0..n).contains(&cc))
                .then(|| Point::at(cc as usize, rr as usize, n as usize))
        })
    })
}

/// Points where `player` would complete five (core rules).
pub fn five_points(game: &Mnk, player: Player) -> Vec<Point> {
    game.empty_points()
        .filter(|&p| game.wins_at(p, player))
        .collect()
}

/// Exhaustive VCF search on the core: does the side to move win within
/// `attacks` attacking moves, every one a four (or a five)? Tries every
/// empty point as the attack; the defence is forced (any reply other than
/// the block loses at once).
pub fn proves_vcf(game: &mut Mnk, attacks: usize) -> bool {
    let me = game.to_move();
    let opp = me.opponent();
    if game.empty_points().any(|p| game.wins_at(p, me)) {
        return true;
    }
    if attacks == 0 {
        return false;
    }
    let theirs = five_points(game, opp);
    if theirs.len() >= 2 {
        return false;
    }
    let candidates: Vec<Point> = match theirs.first() {
        Some(&f) => vec![f],
        None => game.empty_points().collect(),
    };
    for p in candidates {
        game.play_unchecked(p);
        let mut fives: Vec<Point> = points_within_four(game, p)
            .filter(|&q| game.stone(q).is_none() && game.wins_at(q, me))
            .collect();
        fives.sort();
        fives.dedup();
        let won = match fives.len() {
            0 => false,
            1 => {
                game.play_unchecked(fives[0]);
                let w = proves_vcf(game, attacks - 1);
                game.undo(fives[0]);
                w
            }
            _ => true,
        };
        game.undo(p);
        if won {
            return true;
        }
    }
    false
}

/// Checks a claimed winning line for the side to move of `game`
/// (attacker and defender moves alternating, as `inarow_engine::vcf_solver::Vcf::solve`
/// returns): at every defender turn each legal reply is tried, and each
/// must leave the attacker a five at once or be the line's block. The line
/// must end in a five, or in a move after which every reply loses at once.
pub fn verify_win(game: &Mnk, line: &[Point]) -> Result<(), String> {
    let mut g = game.clone();
    let me = g.to_move();
    let opp = me.opponent();
    let mut k = 0;
    loop {
        let Some(&attack) = line.get(k) else {
            return Err("the line ends before a win".into());
        };
        if g.stone(attack).is_some() {
            return Err(format!("attack {k} is on a taken point"));
        }
        if g.wins_at(attack, me) {
            return Ok(());
        }
        g.play_unchecked(attack);
        let block = line.get(k + 1).copied();
        for reply in g.empty_points().collect::<Vec<_>>() {
            if g.wins_at(reply, opp) {
                return Err(format!("after attack {k} the defender wins at {reply}"));
            }
            if Some(reply) == block {
                continue;
            }
            g.play_unchecked(reply);
            let punished = g.empty_points().any(|p| g.wins_at(p, me));
            g.undo(reply);
            if !punished {
                return Err(format!(
                    "after attack {k} the reply {reply} is not punished"
                ));
            }
        }
        let Some(block) = block else {
            return Ok(());
        };
        if g.stone(block).is_some() {
            return Err(format!("block {k} is on a taken point"));
        }
        g.play_unchecked(block);
        k += 2;
    }
}

/// The attacker of [`verify_threat_win`]: given the engine's board and the
/// plies left, its move and the plies to the five it claims.
pub type ThreatAttacker<'a> = dyn FnMut(&mut Board, usize) -> Option<(Pos, usize)> + 'a;

/// Checks a claimed win by threats (fours and threes) of the side to move
/// of `game` by brute force on the core, against every defence: at each
/// attacker turn `attack` names the move on the engine's board `b` (kept
/// in step with the game) and the plies to the five it claims, given the
/// plies left; at each
/// defender turn every empty point is tried (only the block when the
/// attacker has one five point, none when it has two). The win must come
/// within `plies` plies, the five counted, judged by the core's rule; a
/// defender's five point, a missing or too slow claim, refutes it.
pub fn verify_threat_win(
    game: &mut Mnk,
    b: &mut Board,
    plies: usize,
    attack: &mut ThreatAttacker<'_>,
) -> Result<(), String> {
    let me = game.to_move();
    if game.empty_points().any(|p| game.wins_at(p, me)) {
        return if plies >= 1 {
            Ok(())
        } else {
            Err("a five past the claimed distance".into())
        };
    }
    if plies < 3 {
        return Err(format!("no five within {plies} plies\n{game}"));
    }
    let (m, claimed) = attack(b, plies).ok_or_else(|| format!("no win claimed\n{game}"))?;
    if claimed > plies {
        return Err(format!(
            "a win in {claimed} claimed with {plies} plies left\n{game}"
        ));
    }
    let point = b.point(m);
    if game.stone(point).is_some() {
        return Err(format!("{point} is taken"));
    }
    game.play_unchecked(point);
    b.play_unchecked(m);
    let held = defences_lose(game, b, plies - 1, attack);
    b.undo();
    game.undo(point);
    held.map_err(|e| format!("after {point}: {e}"))
}

/// [`verify_threat_win`] at a defender turn: every reply loses in time.
fn defences_lose(
    game: &mut Mnk,
    b: &mut Board,
    plies: usize,
    attack: &mut ThreatAttacker<'_>,
) -> Result<(), String> {
    let opp = game.to_move();
    let me = opp.opponent();
    if let Some(p) = game.empty_points().find(|&p| game.wins_at(p, opp)) {
        return Err(format!("the defender makes five at {p}\n{game}"));
    }
    let fives = five_points(game, me);
    let replies: Vec<Point> = match fives.len() {
        // Whatever the reply, a five is left (plies >= 2 here).
        n if n >= 2 => return Ok(()),
        1 => fives,
        _ => game.empty_points().collect(),
    };
    for r in replies {
        game.play_unchecked(r);
        b.play_unchecked(b.pos_of(r).expect("a point of the board"));
        let won = verify_threat_win(game, b, plies - 1, attack);
        b.undo();
        game.undo(r);
        won.map_err(|e| format!("{r}: {e}"))?;
    }
    Ok(())
}

/// Plies to the five of a winning `line` that [`verify_win`] accepts,
/// counted by the rules alone: its length when it ends with the five, two
/// more when it ends with a move that every reply lets win at once (the
/// defence, then the five).
pub fn plies_of(game: &Mnk, line: &[Point]) -> usize {
    verify_win(game, line).unwrap_or_else(|e| panic!("{e}: {line:?}\n{game}"));
    let mut g = game.clone();
    for &p in &line[..line.len() - 1] {
        g.play_unchecked(p);
    }
    let last = line[line.len() - 1];
    line.len() + if g.wins_at(last, g.to_move()) { 0 } else { 2 }
}

/// Fills `list` with the moves the engine would try for the side to move
/// (what the position must answer), best first by the search's static
/// order (point values and classes): the plausible moves of seeded games.
pub fn candidates(b: &mut Board, list: &mut MoveList) {
    let me = b.to_move();
    let answer = movepick::answer(b, true);
    generate(b, answer, list);
    let p = Params::default();
    for k in 0..list.len() {
        let m = list.get(k);
        let s = point_score(b, m, me) + class_bonus(b, m, me, p.order_setup, p.order_block);
        list.set_score(k, s);
    }
    list.sort();
}

/// Generates `count` freestyle suite positions (see [`generate_suite_on`]).
pub fn generate_suite(seed: u64, count: usize, max_attacks: usize) -> Vec<Puzzle> {
    generate_suite_on(&Mnk::gomoku(), seed, count, max_attacks)
}

/// Generates `count` suite positions on `empty` (the 15x15 board under its
/// rule) from `seed`: seeded games where each side picks among its best
/// few candidate moves (the engine's moves for what the position must
/// answer, in the search's static order); a position joins the suite when the side to move
/// has no five or flex four on the spot but the exhaustive search proves a
/// VCF of at most `max_attacks` attacking moves.
pub fn generate_suite_on(empty: &Mnk, seed: u64, count: usize, max_attacks: usize) -> Vec<Puzzle> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::new();
    let mut list = MoveList::default();
    while out.len() < count {
        let mut game = empty.clone();
        let plies = rng.random_range(8..40);
        for _ in 0..plies {
            if game.outcome().is_some() {
                break;
            }
            let mut b = board_of(&game, None).expect("a live 15x15 board");
            candidates(&mut b, &mut list);
            if list.is_empty() {
                break;
            }
            let pick = list.get(rng.random_range(0..list.len().min(4)));
            game.play_unchecked(b.point(pick));
        }
        if game.outcome().is_some() {
            continue;
        }
        let me = game.to_move();
        let trivial = !five_points(&game, me).is_empty() || {
            let b = board_of(&game, None).expect("live board");
            b.threat_count(me, Threat::Flex4) > 0
        };
        if trivial || !five_points(&game, me.opponent()).is_empty() {
            continue;
        }
        if let Some(attacks) = (2..=max_attacks).find(|&a| proves_vcf(&mut game, a)) {
            out.push(Puzzle { game, attacks });
        }
    }
    out
}

/// Three seeded stones within three points of the centre, the centre
/// first: the shape of a match's random openings
/// (`inarow_match::openings::random_openings` with one opening).
pub fn three_near_the_centre(seed: u64) -> Vec<Point> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let centre = 7;
    let mut stones = vec![Point::at(centre, centre, 15)];
    while stones.len() < 3 {
        let x = centre + rng.random_range(0..7) - 3;
        let y = centre + rng.random_range(0..7) - 3;
        let p = Point::at(x, y, 15);
        if !stones.contains(&p) {
            stones.push(p);
        }
    }
    stones
}

/// A position as the stones of a Gomocup `BOARD` command on one line:
/// `x,y,1` for the side to move's stones, `x,y,2` for the other's, so
/// other engines can be measured on the same positions.
pub fn gomocup_board(game: &Mnk) -> String {
    let me = game.turn_by_count();
    let mut fields = Vec::new();
    for (player, code) in [(me, 1), (me.opponent(), 2)] {
        for p in game.stones_of(player).ones() {
            fields.push(format!("{},{},{code}", p.col(15), p.row(15)));
        }
    }
    fields.join(" ")
}

/// The recorded middlegames (`tests/data/middlegames.txt`): the positions
/// every measure of the search runs on, made once by the search of the
/// time and kept, so figures stay comparable across changes of the search.
const RECORDED: &str = include_str!("../data/middlegames.txt");

/// The first `count` recorded middlegames of `plies` stones made from
/// `seed` (see [`RECORDED`]); panics if fewer are recorded, since a
/// measure on other positions would not compare.
pub fn recorded_middlegames(seed: u64, count: usize, plies: usize) -> Vec<Mnk> {
    let games: Vec<Mnk> = RECORDED
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|line| {
            let mut parts = line.split('|');
            let head: Vec<u64> = parts
                .next()?
                .split_whitespace()
                .map(|w| w.parse().expect("a recorded seed and stone count"))
                .collect();
            (head == [seed, plies as u64]).then(|| {
                let stones = |part: Option<&str>| -> Vec<Point> {
                    part.expect("a recorded colour")
                        .split_whitespace()
                        .map(|xy| {
                            let (x, y) = xy.split_once(',').expect("x,y");
                            Point::at(x.parse().expect("x"), y.parse().expect("y"), 15)
                        })
                        .collect()
                };
                let (black, white) = (stones(parts.next()), stones(parts.next()));
                let mut game = Mnk::gomoku();
                for k in 0..black.len().max(white.len()) {
                    for p in [black.get(k), white.get(k)].into_iter().flatten() {
                        game.play_unchecked(*p);
                    }
                }
                game
            })
        })
        .take(count)
        .collect();
    assert_eq!(
        games.len(),
        count,
        "tests/data/middlegames.txt records fewer than {count} games of seed {seed} and {plies} stones"
    );
    games
}

/// `count` new middlegame positions of `plies` stones: seeded games between
/// node-limited searches of the engine from generated three-stone
/// openings, kept only while nobody has won. The engine's measures use
/// [`recorded_middlegames`] instead, which do not change with the search.
pub fn middlegames(seed: u64, count: usize, plies: usize) -> Vec<Mnk> {
    let limits = Limits {
        time: None,
        depth: 40,
        nodes: 3_000,
    };
    let mut searcher = Searcher::new(Options {
        tt_bytes: 1 << 20,
        ..Options::default()
    });
    let mut out = Vec::new();
    let mut k = 0;
    while out.len() < count {
        k += 1;
        let mut game = Mnk::gomoku();
        for p in three_near_the_centre(seed.wrapping_add(k)) {
            game.play_unchecked(p);
        }
        while game.stones() < plies && game.outcome().is_none() {
            let mut b = board_of(&game, None).expect("live board");
            let found = searcher.search(&mut b, &mut Request::new(limits));
            game.play_unchecked(b.point(found.best));
        }
        if game.outcome().is_none() {
            out.push(game);
        }
    }
    out
}

/// One side of a refereed game: its searcher and the rule it plays by
/// (which need not be the referee's).
pub struct Side {
    /// The side's search, kept across its moves.
    pub searcher: Searcher,
    /// The rule of the side's board.
    pub rule: Rule,
}

impl Side {
    /// A side searching with a 1 MB table under `rule`.
    pub fn new(rule: Rule) -> Side {
        Side {
            searcher: Searcher::new(Options {
                tt_bytes: 1 << 20,
                ..Options::default()
            }),
            rule,
        }
    }
}

/// The engine's board of `game`'s stones under `rule`, whatever rule the
/// game has: how a side that plays by another rule sees the position.
pub fn board_under(game: &Mnk, rule: Rule) -> Board {
    let n = game.cols();
    let mut b = Board::with_rule(n, rule).expect("a supported size");
    for p in (0..n * n).map(|i| Point(i as u16)) {
        if let Some(colour) = game.stone(p) {
            b.place(p.col(n), p.row(n), colour).expect("a free point");
        }
    }
    b.set_to_move(game.to_move());
    b
}

/// Plays `game` to its end, refereed by the core under the game's own
/// rule: the side to move searches within `limits` on its own board
/// ([`board_under`] its rule), and `check` sees the position, that board
/// and the search's result before the move is played. Returns the
/// finished game.
pub fn play_refereed(
    mut game: Mnk,
    sides: &mut [Side; 2],
    limits: Limits,
    mut check: impl FnMut(&Mnk, &Board, &Found),
) -> Mnk {
    while game.outcome().is_none() {
        let side = &mut sides[game.to_move().index()];
        let mut b = board_under(&game, side.rule);
        let found = side.searcher.search(&mut b, &mut Request::new(limits));
        check(&game, &b, &found);
        let p = b.point(found.best);
        assert!(game.stone(p).is_none(), "{p:?} is taken\n{game}");
        game.play_unchecked(p);
    }
    game
}

/// The median of `values` (the mean of the middle two for an even count;
/// NaN for none), as the measure examples report it.
pub fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(|a, b| a.total_cmp(b));
    match values.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => values[n / 2],
        n => (values[n / 2 - 1] + values[n / 2]) / 2.0,
    }
}

/// A 15x15 engine board under `rule` with these stones, `(x, y)`, and
/// `to_move` to move.
pub fn board(
    rule: Rule,
    black: &[(usize, usize)],
    white: &[(usize, usize)],
    to_move: Player,
) -> Board {
    let mut b = Board::with_rule(15, rule).unwrap();
    for &(x, y) in black {
        b.place(x, y, Player::X).unwrap();
    }
    for &(x, y) in white {
        b.place(x, y, Player::O).unwrap();
    }
    b.set_to_move(to_move);
    b
}

/// The same position as the core's game, for its referee.
pub fn game(
    rule: Rule,
    black: &[(usize, usize)],
    white: &[(usize, usize)],
    to_move: Player,
) -> Mnk {
    let mut g = Mnk::new(15, 15, 5, rule).unwrap();
    for &(x, y) in black {
        g.place(Point::at(x, y, 15), Player::X).unwrap();
    }
    for &(x, y) in white {
        g.place(Point::at(x, y, 15), Player::O).unwrap();
    }
    g.set_to_move(to_move);
    g
}

/// A searcher with a 1 MB table.
pub fn searcher() -> Searcher {
    Searcher::new(Options {
        tt_bytes: 1 << 20,
        ..Options::default()
    })
}
