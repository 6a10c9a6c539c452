//! Every command the README and the command reference (`docs/cli.md`)
//! show, run as a reader would run it (with small numbers where the
//! documents' would run for minutes), each checked to exit 0 and to print
//! what the documents say of it. A command they show that this file
//! neither runs nor skips with its reason fails the first test, so that
//! none can be added untried. And every link of the documents leads
//! somewhere: a file that exists, a heading that is there.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use crate::common;

use common::{inarow, stderr, stdout};

/// The README, as the tests read it.
const README: &str = include_str!("../../../README.md");

/// The command reference.
const CLI_DOC: &str = include_str!("../../../docs/cli.md");

/// How a command the documents show is tried here.
enum Tried {
    /// By this test, which the harness runs on its own: named here so that
    /// the compiler checks it exists, never called from here.
    #[allow(dead_code)]
    By(fn()),
    /// Not here, and why.
    Skipped(&'static str),
}

const JUDGE: &str = "a tournament of the bots in bots/ (Python and Node.js among them) under the \
kernel's sandbox, as root with Landlock and control groups: tests/judge_*.rs run it with bots of \
their own";

const BUILD: &str = "a release build of the workspace (minutes): these tests run the binaries cargo \
built for them, which it names in CARGO_BIN_EXE_*";

/// Every command the documents show (in code spans and code blocks, `\|`
/// read as `|`), and how it is tried.
const TRIED: &[(&str, Tried)] = &[
    (
        "cargo run --release -p inarow -- menace train --opponent perfect --games 2000",
        Tried::By(menace_learns_to_hold_a_perfect_player_to_a_draw),
    ),
    (
        "cargo test --workspace",
        Tried::Skipped("the tests themselves, this file among them; CI runs them (.ci/run)"),
    ),
    (
        "bash .ci/run",
        Tried::Skipped(
            "the whole of CI: it installs Python, Node.js and Chromium, and runs these tests, the browser tests and a fuzzing",
        ),
    ),
    ("cargo install --path crates/cli", Tried::Skipped(BUILD)),
    ("cargo build --release", Tried::Skipped(BUILD)),
    ("cargo build --release -p inarow", Tried::Skipped(BUILD)),
    (
        "cargo run --release -p inarow -- ...",
        Tried::Skipped("the form of every command run from the tree, not a command"),
    ),
    (
        "cargo run --release -p inarow --",
        Tried::Skipped("the form of every command run from the tree, not a command"),
    ),
    ("inarow help COMMAND", Tried::By(every_command_has_its_help)),
    (
        "inarow COMMAND --help",
        Tried::By(every_command_has_its_help),
    ),
    (
        "inarow solve XOX.O.X..",
        Tried::By(solve_prints_the_documented_example),
    ),
    (
        "inarow solve",
        Tried::By(solve_prints_the_documented_example),
    ),
    (
        "inarow play",
        Tried::By(play_tictactoe_against_each_machine),
    ),
    (
        "inarow play tictactoe --opponent perfect|random|mcts",
        Tried::By(play_tictactoe_against_each_machine),
    ),
    ("inarow play gomoku", Tried::By(play_gomoku_a_few_moves)),
    (
        "inarow menace",
        Tried::By(menace_plays_the_challenges_dialogue),
    ),
    (
        "inarow menace train --opponent random|perfect|menace --games N",
        Tried::By(menace_trains_against_each_opponent),
    ),
    (
        "inarow menace train --opponent random --games 2000 --state menace.json",
        Tried::By(menace_trains_into_a_state_file),
    ),
    (
        "inarow menace train --games 2000 --block 250 --seed 0",
        Tried::By(menace_train_reproduces_the_documented_table),
    ),
    (
        "inarow menace show [BOARD]",
        Tried::By(menace_shows_its_boxes),
    ),
    ("inarow judge", Tried::Skipped(JUDGE)),
    ("inarow judge -d random-python", Tried::Skipped(JUDGE)),
    ("inarow judge --rule exact|renju", Tried::Skipped(JUDGE)),
    ("inarow judge --seed S --shard I/N", Tried::Skipped(JUDGE)),
    ("inarow judge merge PARTS...", Tried::Skipped(JUDGE)),
    ("target/release/inarow judge", Tried::Skipped(JUDGE)),
    (
        "systemd-run --user --scope -p Delegate=yes target/release/inarow judge",
        Tried::Skipped(JUDGE),
    ),
    ("inarow bot", Tried::By(bot_answers_the_judges_prompts)),
    (
        "inarow bot --move-nodes N",
        Tried::By(bot_answers_the_judges_prompts),
    ),
    ("inarow pbrain", Tried::By(pbrain_plays_and_shows_its_lines)),
    (
        "target/release/pbrain-inarow",
        Tried::By(pbrain_plays_and_shows_its_lines),
    ),
    (
        "pbrain-inarow --help",
        Tried::By(pbrain_help_lists_the_commands),
    ),
    (
        "pbrain-inarow --eval FILE",
        Tried::By(pbrain_plays_with_a_tables_file),
    ),
    ("inarow selfplay", Tried::By(selfplay_plays_a_small_match)),
    (
        "inarow selfplay --nodes N",
        Tried::By(selfplay_plays_a_small_match),
    ),
    (
        "inarow selfplay --nodes N --a lmr_base=40",
        Tried::By(selfplay_measures_a_change),
    ),
    (
        "inarow selfplay --a lmr_base=40 --nodes 5000 --pairs 100",
        Tried::By(selfplay_measures_a_change),
    ),
    (
        "inarow selfplay --b-brain",
        Tried::By(selfplay_plays_a_brain),
    ),
    (
        "inarow selfplay --b-brain target/release/pbrain-inarow",
        Tried::By(selfplay_plays_a_brain),
    ),
    (
        "inarow selfplay --shard I/N",
        Tried::By(selfplay_in_shares_and_merged),
    ),
    (
        "inarow selfplay merge",
        Tried::By(selfplay_in_shares_and_merged),
    ),
    (
        "inarow selfplay openings --out FILE",
        Tried::By(selfplay_finds_open_openings),
    ),
    (
        "scripts/open-openings.sh",
        Tried::Skipped(
            "the engine playing itself from 2,000 candidates at four node budgets (hours): inarow selfplay openings runs here on a few",
        ),
    ),
    (
        "inarow selfplay oracle GAMES.sgf --brain REF --nodes N --count K --out POS",
        Tried::By(
            crate::selfplay::oracle_then_agree_finds_a_brain_agrees_with_itself_at_fixed_nodes,
        ),
    ),
    (
        "inarow selfplay agree POS --brain B --nodes M",
        Tried::By(
            crate::selfplay::oracle_then_agree_finds_a_brain_agrees_with_itself_at_fixed_nodes,
        ),
    ),
    ("inarow eval", Tried::By(eval_games_fit_and_check)),
    ("inarow eval fit", Tried::By(eval_games_fit_and_check)),
    (
        "inarow eval games --out games.gm --games 1000 --nodes 5000",
        Tried::By(eval_games_fit_and_check),
    ),
    (
        "inarow eval fit games.gm --out eval.bin",
        Tried::By(eval_games_fit_and_check),
    ),
    (
        "inarow eval check eval.bin games.gm",
        Tried::By(eval_games_fit_and_check),
    ),
    (
        "scripts/gate.sh",
        Tried::Skipped(
            "400 games against Rapfi and c-gomoku-cli, built outside the repository: tests/scripts.rs tries its refusals and `inarow selfplay score`, its scoring",
        ),
    ),
    (
        "inarow serve",
        Tried::Skipped(
            "a web server that runs until stopped: tests/serve.rs and the browser tests (scripts/e2e.sh) run it",
        ),
    ),
];

/// Whether `text` runs a program: `inarow` or its brain, cargo, a script.
fn is_command(text: &str) -> bool {
    // The bare names (`inarow`, `pbrain-inarow`) name the programs.
    [
        "inarow ",
        "pbrain-inarow ",
        "cargo ",
        "bash ",
        "scripts/",
        "systemd-run ",
    ]
    .iter()
    .any(|start| text.starts_with(start))
        || text.contains("target/release/")
}

/// The commands a document shows: in its code spans (whitespace made one
/// space, as the page shows it), and on the lines of its code blocks (a
/// `$ ` prompt dropped).
fn commands_in(document: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut prose = String::new();
    let mut fenced = false;
    for line in document.lines() {
        if line.starts_with("```") {
            fenced = !fenced;
            continue;
        }
        // A fenced or indented block's lines are commands, or their output.
        if fenced || line.starts_with("    ") {
            let text = line.trim().trim_start_matches("$ ");
            if is_command(text) {
                found.push(text.to_string());
            }
            continue;
        }
        prose.push_str(line);
        prose.push('\n');
    }
    // Between backticks, odd pieces are code.
    for span in prose.split('`').skip(1).step_by(2) {
        let text = span
            .replace("\\|", "|")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        if is_command(&text) {
            found.push(text);
        }
    }
    found
}

/// The commands the README and the command reference show, each once.
fn documented_commands() -> Vec<String> {
    let all: BTreeSet<String> = [README, CLI_DOC]
        .iter()
        .flat_map(|d| commands_in(d))
        .collect();
    all.into_iter().collect()
}

#[test]
fn every_command_the_documents_show_is_tried_or_skipped_with_a_reason() {
    let shown = documented_commands();
    // The documents show these, at least: the search reads them.
    assert!(shown.len() >= 40, "{shown:#?}");
    for must in [
        "cargo run --release -p inarow -- menace train --opponent perfect --games 2000",
        "cargo test --workspace",
    ] {
        assert!(commands_in(README).iter().any(|c| c == must), "{must}");
    }
    let untried: Vec<&String> = shown
        .iter()
        .filter(|c| !TRIED.iter().any(|(t, _)| t == c))
        .collect();
    assert!(
        untried.is_empty(),
        "commands the documents show that this file does not try: {untried:#?}"
    );
    let gone: Vec<&str> = TRIED
        .iter()
        .map(|(t, _)| *t)
        .filter(|t| !shown.iter().any(|c| c == t))
        .collect();
    assert!(
        gone.is_empty(),
        "tried here, no longer in the documents: {gone:?}"
    );
    for (command, how) in TRIED {
        if let Tried::Skipped(why) = how {
            assert!(why.len() > 20, "{command}: say why it is skipped");
        }
    }
    let run = TRIED
        .iter()
        .filter(|(_, how)| matches!(how, Tried::By(_)))
        .count();
    assert!(run >= 30, "{run}");
}

/// The README is a newcomer's page: short, the two commands first.
#[test]
fn the_readme_is_short_and_starts_with_the_two_commands() {
    let lines = README.lines().count();
    assert!((100..=170).contains(&lines), "{lines} lines");
    let main_job = README
        .find("    cargo run --release -p inarow -- menace train --opponent perfect --games 2000\n")
        .expect("the main job, as CI runs it");
    let tests = README
        .find("    cargo test --workspace\n")
        .expect("the test command");
    assert!(main_job < tests, "the main job first");
    // No table cell of the README is an essay.
    for line in README.lines().filter(|l| l.starts_with('|')) {
        for cell in line.split('|') {
            let words = cell.split_whitespace().count();
            assert!(words <= 25, "{words} words: {cell}");
        }
    }
}

/// Files other helpers make that the documents show before they land:
/// each may be missing, and why.
const MADE_ELSEWHERE: &[(&str, &str)] = &[
    (
        "docs/analysis.png",
        "the screenshot of the analysis board that the browser tests (scripts/e2e.sh) take",
    ),
    (
        "docs/menace.png",
        "the screenshot of MENACE's page that the browser tests (scripts/e2e.sh) take",
    ),
];

/// The repository's top folder.
fn top() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The anchor GitHub gives a heading: lower case, letters, digits, `-`
/// and `_` kept, spaces made `-`, the rest dropped.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of a Markdown document's headings (outside code blocks).
fn anchors(document: &str) -> BTreeSet<String> {
    let mut fenced = false;
    let mut found = BTreeSet::new();
    for line in document.lines() {
        if line.starts_with("```") {
            fenced = !fenced;
        } else if !fenced && line.starts_with('#') {
            found.insert(anchor(line.trim_start_matches('#')));
        }
    }
    found
}

/// The link targets of a Markdown document, outside code: `[text](target)`.
fn links(document: &str) -> Vec<String> {
    let mut fenced = false;
    let mut found = Vec::new();
    for line in document.lines() {
        if line.starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced || line.starts_with("    ") {
            continue;
        }
        // Code spans are not links.
        let prose: String = line.split('`').step_by(2).collect::<Vec<_>>().join(" ");
        for (at, _) in prose.match_indices("](") {
            let rest = &prose[at + 2..];
            if let Some(end) = rest.find(')') {
                found.push(rest[..end].to_string());
            }
        }
    }
    found
}

/// `path` with its `.` and `..` resolved as written, not through links.
fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

#[test]
fn every_link_of_the_documents_leads_somewhere() {
    let top = lexical(&top());
    let mut documents = vec![
        top.join("README.md"),
        top.join("bots/README.md"),
        top.join("crates/agents/README.md"),
        top.join("crates/core/README.md"),
        top.join("crates/engine/README.md"),
    ];
    for entry in fs::read_dir(top.join("docs")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "md") {
            documents.push(path);
        }
    }
    // Headings become anchors as GitHub makes them.
    assert_eq!(
        anchor(" The README's table of measurements (until issue 56)"),
        "the-readmes-table-of-measurements-until-issue-56"
    );
    assert_eq!(
        anchor(" `inarow pbrain` and `pbrain-inarow`"),
        "inarow-pbrain-and-pbrain-inarow"
    );
    assert_eq!(
        anchor(" Learning curves (challenge preset, 2,000 games)"),
        "learning-curves-challenge-preset-2000-games"
    );
    let elsewhere: Vec<PathBuf> = MADE_ELSEWHERE.iter().map(|(p, _)| top.join(p)).collect();
    let mut broken = Vec::new();
    let mut checked = 0;
    for document in &documents {
        let text = fs::read_to_string(document).unwrap();
        let name = document.strip_prefix(&top).unwrap().display().to_string();
        for link in links(&text) {
            if link.starts_with("http://") || link.starts_with("https://") {
                continue;
            }
            checked += 1;
            let (file, heading) = link.split_once('#').unwrap_or((&link, ""));
            let target = if file.is_empty() {
                document.clone()
            } else {
                lexical(&document.parent().unwrap().join(file))
            };
            if !target.exists() {
                if !elsewhere.contains(&target) {
                    broken.push(format!("{name}: {link} (no such file)"));
                }
                continue;
            }
            let markdown = target.extension().is_some_and(|e| e == "md");
            if !heading.is_empty() && markdown {
                let there = anchors(&fs::read_to_string(&target).unwrap());
                if !there.contains(heading) {
                    broken.push(format!("{name}: {link} (no such heading)"));
                }
            }
        }
    }
    assert!(checked >= 50, "{checked} links");
    assert!(broken.is_empty(), "links that lead nowhere: {broken:#?}");
    for (path, why) in MADE_ELSEWHERE {
        assert!(why.len() > 20, "{path}: say who makes it");
        assert!(
            README.contains(&format!("]({path})")),
            "{path} is shown by the README"
        );
    }
}

#[test]
fn every_command_has_its_help() {
    for command in [
        "solve", "play", "menace", "judge", "bot", "pbrain", "selfplay", "eval", "serve",
    ] {
        // Both forms say what it is and how it is called (one in brief).
        let usage = format!("\nUsage: inarow {command} ");
        for help in [ok(&["help", command], ""), ok(&[command, "--help"], "")] {
            assert!(help.contains(&usage), "{command}: {help}");
        }
        // Each has its section in the command reference.
        let heading = format!("## `inarow {command}`");
        assert!(CLI_DOC.contains(&heading), "{heading}");
    }
}

/// Runs `inarow ARGS` on `input`: it must exit 0; its standard output.
fn ok(args: &[&str], input: &str) -> String {
    let out = inarow(args, input);
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    stdout(&out)
}

/// The `pbrain-inarow` binary.
fn brain() -> &'static str {
    env!("CARGO_BIN_EXE_pbrain-inarow")
}

/// Runs `pbrain-inarow ARGS` on `input`: it must exit 0; its lines.
fn brain_lines(args: &[&str], input: &str) -> Vec<String> {
    let out = common::run(brain(), args, input);
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    stdout(&out).lines().map(String::from).collect()
}

/// The file the engine embeds, which a tables file may be.
fn embedded_tables() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../engine/data/eval.bin")
}

#[test]
fn menace_learns_to_hold_a_perfect_player_to_a_draw() {
    let out = ok(
        &[
            "menace",
            "train",
            "--opponent",
            "perfect",
            "--games",
            "2000",
        ],
        "",
    );
    let rows = table_rows(&out);
    assert_eq!(rows.len(), 20, "a row a block of games / 20: {out}");
    // Learned: the last blocks are all draws, no loss.
    let (_, last) = rows.last().unwrap();
    assert_eq!(last, &[0.0, 100.0, 0.0], "{out}");
}

/// The rows of `menace train`'s table: each block's games (`1-250`) and
/// its win, draw and loss percentages.
fn table_rows(out: &str) -> Vec<(String, [f64; 3])> {
    out.lines()
        .filter_map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            let [games, _, _, _, w, d, l] = words.as_slice() else {
                return None;
            };
            if !games.contains('-') {
                return None;
            }
            let pct = |t: &str| t.parse::<f64>().ok();
            Some((games.to_string(), [pct(w)?, pct(d)?, pct(l)?]))
        })
        .collect()
}

#[test]
fn menace_train_reproduces_the_documented_table() {
    // The command reference's table: `| 1-250 | 62.0 / 10.4 / 27.6 | 0 / 66.8 / 33.2 |`.
    let section = CLI_DOC
        .split("### MENACE learning")
        .nth(1)
        .expect("the command reference's MENACE section");
    assert!(section.contains("`inarow menace train --games 2000 --block 250 --seed 0`"));
    let readme: Vec<(String, [f64; 3], [f64; 3])> = section
        .lines()
        .skip_while(|l| !l.starts_with("| games"))
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(|l| {
            let cells: Vec<&str> = l.trim_matches('|').split('|').map(str::trim).collect();
            let rates = |cell: &str| -> [f64; 3] {
                let v: Vec<f64> = cell
                    .split('/')
                    .map(|t| t.trim().trim_matches('*').parse().unwrap())
                    .collect();
                [v[0], v[1], v[2]]
            };
            (cells[0].to_string(), rates(cells[1]), rates(cells[2]))
        })
        .collect();
    assert_eq!(readme.len(), 8, "{section}");
    // As written: against random play, --opponent's default.
    let command = [
        "menace", "train", "--games", "2000", "--block", "250", "--seed", "0",
    ];
    let random = table_rows(&ok(&command, ""));
    let mut perfect_args = command.to_vec();
    perfect_args.extend(["--opponent", "perfect"]);
    let perfect = table_rows(&ok(&perfect_args, ""));
    assert_eq!(random.len(), 8);
    assert_eq!(perfect.len(), 8);
    for (k, (games, against_random, against_perfect)) in readme.iter().enumerate() {
        assert_eq!(&random[k].0, games);
        assert_eq!(
            &random[k].1, against_random,
            "against random, games {games}"
        );
        assert_eq!(&perfect[k].0, games);
        assert_eq!(
            &perfect[k].1, against_perfect,
            "against perfect, games {games}"
        );
    }
}

#[test]
fn solve_prints_the_documented_example() {
    let block = CLI_DOC
        .split("```\n$ inarow solve XOX.O.X..\n")
        .nth(1)
        .expect("the command reference's solve example");
    let shown = &block[..block.find("```").unwrap()];
    assert_eq!(ok(&["solve", "XOX.O.X.."], ""), shown);
    // The figures of the source document it reproduces, as the reference says.
    for (board, algo, figure) in [
        (".........", "document-minimax", "549,946"),
        (".........", "document-alphabeta", "18,297"),
        ("XOX.O.X..", "document-alphabeta", "16"),
    ] {
        assert!(CLI_DOC.contains(&format!("{figure} ")), "{figure}");
        let out = ok(&["solve", board, "--algo", algo], "");
        assert!(
            out.contains(&format!(
                "positions searched: {}\n",
                figure.replace(',', "")
            )),
            "{algo}: {out}"
        );
    }
}

#[test]
fn play_tictactoe_against_each_machine() {
    // Every square by its name, twice over: taken ones get an error.
    let script = ["a3", "b3", "c3", "a2", "b2", "c2", "a1", "b1", "c1"]
        .map(|s| format!("{s}\n"))
        .concat()
        .repeat(2);
    for machine in ["perfect", "random", "mcts"] {
        let out = ok(&["play", "tictactoe", "--opponent", machine], &script);
        assert!(
            out.starts_with(&format!("You play X against {machine}")),
            "{out}"
        );
        assert!(out.contains(". Enter moves as b2 "), "{out}");
        let verdict = out.lines().last().unwrap();
        assert!(
            verdict == "You win!"
                || verdict == "A draw."
                || (verdict.starts_with(machine) && verdict.ends_with(" wins.")),
            "{out}"
        );
        if machine == "perfect" {
            assert_ne!(verdict, "You win!", "perfect never loses");
        }
        // The board is drawn with the letters and numbers squares are named by.
        assert!(out.contains("   a b c\n 3 "), "{out}");
    }
}

#[test]
fn play_gomoku_a_few_moves() {
    // The engine by default, on a node budget so the test is quick; `7,7`
    // is h8 as the brain protocol writes it; help lists what can be typed,
    // undo takes a move and its answer back.
    let out = ok(
        &["play", "gomoku", "--move-nodes", "200"],
        "help\nh8\n7,7\nundo\nq\n",
    );
    assert!(out.contains("  undo    take back"), "{out}");
    assert!(out.contains("took back your h8 and engine's "), "{out}");
    assert!(out.contains("(engine's evaluation: "), "{out}");
    assert!(
        out.starts_with("You play black (X on the board) against engine on 15x15, freestyle."),
        "{out}"
    );
    assert!(out.contains("engine plays "), "{out}");
    assert!(out.contains("error: h8 is already taken"), "{out}");
    assert!(out.contains("   a b c d e f g h i j k l m n o"), "{out}");
    assert!(out.ends_with("bye\n"), "{out}");
    // Another size and rule, against another machine.
    let out = ok(
        &[
            "play",
            "gomoku",
            "--size",
            "9",
            "--rule",
            "renju",
            "--opponent",
            "random",
        ],
        "e5\nq\n",
    );
    assert!(
        out.starts_with("You play black (X on the board) against random on 9x9, renju."),
        "{out}"
    );
}

#[test]
fn menace_plays_the_challenges_dialogue() {
    // Two games, the moves as the challenge types them and by name.
    let game = "LL\nlm\nb3\nML\nmm\nc2\nRL\nb1\nrr\n";
    let out = inarow(&["menace", "--seed", "1"], &format!("2\n{game}{game}"));
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(stderr(&out).starts_with("How many games? "));
    assert_eq!(text.matches("new game").count(), 2, "{text}");
    assert!(text.contains("MENACE plays "), "{text}");
    // All 304 boxes after every game, then its result.
    let boxes = text
        .lines()
        .filter(|l| l.split_whitespace().nth(1).is_some_and(|i| i.len() == 9))
        .count();
    assert_eq!(boxes, 2 * 304, "{text}");
    let last = text.lines().last().unwrap();
    assert!(last.starts_with("game 2 of 2: "), "{last}");
}

#[test]
fn menace_trains_against_each_opponent() {
    let dir = tempfile::tempdir().unwrap();
    for opponent in ["random", "perfect", "menace"] {
        let out = ok(
            &["menace", "train", "--opponent", opponent, "--games", "200"],
            "",
        );
        assert_eq!(table_rows(&out).len(), 20, "{out}");
        let all = out
            .lines()
            .find(|l| l.trim_start().starts_with("all "))
            .unwrap();
        let counts: u64 = all
            .split_whitespace()
            .skip(1)
            .take(3)
            .map(|t| t.parse::<u64>().unwrap())
            .sum();
        assert_eq!(counts, 200, "{all}");
    }
    // The curve as CSV and as a chart, the boxes saved as it goes.
    let csv = dir.path().join("curve.csv");
    let chart = dir.path().join("curve.svg");
    let state = dir.path().join("menace.json");
    ok(
        &[
            "menace",
            "train",
            "--games",
            "300",
            "--csv",
            csv.to_str().unwrap(),
            "--chart",
            chart.to_str().unwrap(),
            "--state",
            state.to_str().unwrap(),
            "--save-every",
            "100",
        ],
        "",
    );
    let csv = fs::read_to_string(csv).unwrap();
    assert!(csv.starts_with("first_game,last_game,wins,"), "{csv}");
    assert_eq!(csv.lines().count(), 21, "{csv}");
    assert!(fs::read_to_string(chart).unwrap().contains("<svg"));
    assert!(
        fs::read_to_string(state)
            .unwrap()
            .contains("\"games\": 300")
    );
}

/// Training into a state file, then on from it: the games add up.
#[test]
fn menace_trains_into_a_state_file() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("menace.json");
    let args = [
        "menace",
        "train",
        "--opponent",
        "random",
        "--games",
        "200",
        "--state",
        state.to_str().unwrap(),
    ];
    for games in [200, 400] {
        let out = ok(&args, "");
        assert_eq!(table_rows(&out).len(), 20, "{out}");
        let saved = fs::read_to_string(&state).unwrap();
        assert!(saved.contains(&format!("\"games\": {games}")), "{saved}");
    }
}

#[test]
fn menace_shows_its_boxes() {
    let all = ok(&["menace", "show"], "");
    assert_eq!(all.lines().count(), 304, "{all}");
    let one = ok(&["menace", "show", "X...O...."], "");
    assert_eq!(one.lines().count(), 1, "{one}");
    assert!(all.lines().any(|l| l == one.trim_end()), "{one}");
}

#[test]
fn bot_answers_the_judges_prompts() {
    // One prompt of each kind the judge sends: the opening's three stones
    // (`A`), the swap (`B`, `C`), a move facing black's open four; then EXIT.
    let three = r#"[((7,7),"B"),((7,8),"W"),((8,8),"B")]"#;
    let five = r#"[((6,6),"W"),((7,7),"B"),((7,8),"W"),((8,8),"B"),((9,9),"B")]"#;
    let four = r#"[((0,0),"B"),((0,1),"B"),((0,2),"B"),((0,3),"B"),((5,5),"W"),((6,6),"W"),((12,12),"W")]"#;
    let prompts = format!("A []\nB {three}\nC {five}\n6 {four}\nEXIT someone\n");
    // Options first; the judge appends the opponent's name and the seed.
    let args = ["bot", "--move-nodes", "500", "someone", "12"];
    let answers = ok(&args, &prompts);
    let lines: Vec<&str> = answers.lines().collect();
    assert_eq!(lines.len(), 4, "{answers}");
    assert_eq!(lines[0].matches('(').count(), 3, "three stones: {answers}");
    assert_eq!(lines[3], "(0,4)", "white blocks the four: {answers}");
    // On a node budget its games replay exactly.
    assert_eq!(ok(&args, &prompts), answers);
}

#[test]
fn pbrain_plays_and_shows_its_lines() {
    let out = ok(&["pbrain", "--quiet"], "START 15\nBEGIN\nEND\n");
    assert_eq!(out, "OK\n7,7\n");
    // The brain's own binary, as a manager starts it, says the same.
    assert_eq!(
        brain_lines(&["--quiet"], "START 15\nBEGIN\nEND\n"),
        ["OK", "7,7"]
    );
    // YXNBEST: the best lines as MESSAGE lines, then the best move; the
    // input ends while it thinks, and it answers all the same.
    let out = ok(
        &["pbrain", "--quiet"],
        "START 15\nINFO max_node 3000\nYXBOARD\n7,7,1\n8,8,2\nDONE\nYXNBEST 2\n",
    );
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "OK", "{out}");
    for k in [1, 2] {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("MESSAGE line {k} depth ")) && l.contains(" pv ")),
            "{out}"
        );
    }
    let best = lines.last().unwrap();
    assert!(
        best.split(',').all(|n| n.parse::<usize>().is_ok()),
        "a move x,y last: {out}"
    );
}

#[test]
fn pbrain_help_lists_the_commands() {
    let out = common::run(brain(), &["--help"], "");
    assert!(out.status.success());
    let help = stdout(&out);
    // What the command reference says the brain does, each in its help.
    for command in [
        "SWAP2BOARD",
        "YXBOARD",
        "YXNBEST n",
        "YXSTOP",
        "YXHASHCLEAR",
        "YXSHOWINFO",
        "YXSHOWFORBID",
        "max_node",
        "max_depth",
        "show_detail",
        "hash_size",
        "--settings",
        "--eval",
    ] {
        assert!(CLI_DOC.contains(command), "{command}");
        assert!(help.contains(command), "{command}: {help}");
    }
    // And what it answers to a command it does not know, as it answers.
    assert!(help.contains("UNKNOWN command NAME"), "{help}");
    assert_eq!(brain_lines(&[], "FOO\nEND\n"), ["UNKNOWN command FOO"]);
}

#[test]
fn pbrain_plays_with_a_tables_file() {
    let tables = embedded_tables();
    let lines = brain_lines(
        &["--quiet", "--eval", tables.to_str().unwrap()],
        "START 15\nBEGIN\nEND\n",
    );
    assert_eq!(lines, ["OK", "7,7"]);
}

#[test]
fn selfplay_plays_a_small_match() {
    let dir = tempfile::tempdir().unwrap();
    let games = dir.path().join("games.txt");
    let args = [
        "selfplay",
        "--pairs",
        "2",
        "--nodes",
        "300",
        "--games-file",
        games.to_str().unwrap(),
    ];
    let out = ok(&args, "");
    // It says what A and B are first.
    assert!(
        out.starts_with(
            "A: the inarow engine of this build, default settings\n\
             B: the inarow engine of this build, default settings\n\
             A and B are the same engine with the same settings"
        ),
        "{out}"
    );
    for said in [
        "2 pairs of balanced 5-stone openings from seed 1, 15x15 freestyle, 300 nodes a move",
        "A vs B: +",
        "A by pair (points 0/0.5/1/1.5/2): ",
        "SPRT elo0 0 elo1 20: ",
        "wins proven early: A ",
    ] {
        assert!(out.contains(said), "{said}: {out}");
    }
    assert_eq!(fs::read_to_string(&games).unwrap().lines().count(), 4);
    // On a node budget it repeats exactly, but for the wall-clock think.
    let timeless = |out: &str| -> Vec<String> {
        out.lines()
            .filter(|l| !l.contains("longest think"))
            .map(String::from)
            .collect()
    };
    assert_eq!(timeless(&ok(&args, "")), timeless(&out));
}

/// The README's way of working on the engine: a change of settings
/// against the default, pairs from the same openings, Elo and SPRT (two
/// pairs at 300 nodes here, not 100 at 5,000).
#[test]
fn selfplay_measures_a_change() {
    let out = ok(
        &[
            "selfplay",
            "--a",
            "lmr_base=40",
            "--nodes",
            "300",
            "--pairs",
            "2",
        ],
        "",
    );
    assert!(
        out.starts_with(
            "A: the inarow engine of this build, settings lmr_base=40\n\
             B: the inarow engine of this build, default settings\n"
        ),
        "{out}"
    );
    assert_eq!(out.matches("\npair ").count(), 2, "{out}");
    for said in ["A vs B: +", "A by pair (points", "SPRT elo0 0 elo1 20: "] {
        assert!(out.contains(said), "{said}: {out}");
    }
}

#[test]
fn selfplay_plays_a_brain() {
    // Another build's brain: this one's. Uncontained here (the sandbox
    // needs root; tests/selfplay.rs runs brains in it).
    let out = ok(
        &[
            "selfplay",
            "--b-brain",
            brain(),
            "--pairs",
            "1",
            "--ms",
            "40",
            "--no-sandbox",
        ],
        "",
    );
    assert!(
        out.contains(&format!("\nB: the Gomocup brain {}\n", brain())),
        "{out}"
    );
    assert!(out.contains("A vs B: +"), "{out}");
}

#[test]
fn selfplay_in_shares_and_merged() {
    let dir = tempfile::tempdir().unwrap();
    let mut parts = Vec::new();
    for share in ["0/2", "1/2"] {
        let part = dir.path().join(format!("part-{}.json", &share[..1]));
        let out = ok(
            &[
                "selfplay",
                "--pairs",
                "2",
                "--nodes",
                "200",
                "--shard",
                share,
                "--part",
                part.to_str().unwrap(),
            ],
            "",
        );
        assert!(
            out.contains(&format!("share {share}: 1 pairs played")),
            "{out}"
        );
        parts.push(part.to_str().unwrap().to_string());
    }
    let mut merge = vec!["selfplay", "merge"];
    merge.extend(parts.iter().map(String::as_str));
    let out = ok(&merge, "");
    assert!(
        out.starts_with("A: the inarow engine of this build, default settings\n"),
        "{out}"
    );
    assert!(out.contains("A vs B: +"), "{out}");
    assert!(out.contains("all 2 pairs are in"), "{out}");
}

#[test]
fn selfplay_finds_open_openings() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("open.txt");
    let out = ok(
        &[
            "selfplay",
            "openings",
            "--out",
            file.to_str().unwrap(),
            "--count",
            "1",
            "--tries",
            "40",
            "--nodes",
            "150,250,400,600",
            "--seed",
            "7",
        ],
        "",
    );
    assert!(out.starts_with("1 open openings of 1 wanted"), "{out}");
    let text = fs::read_to_string(&file).unwrap();
    assert_eq!(text.lines().filter(|l| !l.starts_with('#')).count(), 1);
}

#[test]
fn eval_games_fit_and_check() {
    let dir = tempfile::tempdir().unwrap();
    let at = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let (games, tables, fine) = (at("games.gm"), at("eval.bin"), at("fine.bin"));
    let out = ok(
        &[
            "eval", "games", "--out", &games, "--games", "20", "--nodes", "150", "-j", "2",
        ],
        "",
    );
    assert!(out.contains("20 games: black won"), "{out}");
    assert!(
        out.ends_with(&format!("wrote 20 games to {games}\n")),
        "{out}"
    );
    let out = ok(
        &[
            "eval", "fit", &games, "--out", &tables, "--from", "tuned", "--epochs", "10",
        ],
        "",
    );
    assert!(out.contains("held out"), "{out}");
    assert!(
        out.contains("learned tables (evaluation v2), SHA-256 "),
        "{out}"
    );
    // Its loss beside today's, on the games given and without them.
    for extra in [&[games.as_str()][..], &["--play", "2", "--nodes", "100"]] {
        let mut args = vec!["eval", "check", &tables];
        args.extend_from_slice(extra);
        let out = ok(&args, "");
        assert!(
            out.starts_with(&format!(
                "{tables}: learned tables (evaluation v2), SHA-256 "
            )),
            "{out}"
        );
        assert!(
            out.contains("these tables ") && out.contains(", today's (the embedded tables) "),
            "{out}"
        );
    }
    let out = ok(
        &[
            "eval", "fit", "--fine", &games, "--out", &fine, "--epochs", "3",
        ],
        "",
    );
    assert!(out.contains("wrote"), "{out}");
    let out = ok(&["eval", "check", &fine, &games], "");
    assert!(out.contains("fine tables (evaluation v3)"), "{out}");
    // The embedded tables, and `eval=FILE` in a match's settings.
    let out = ok(
        &["eval", "check", embedded_tables().to_str().unwrap(), &games],
        "",
    );
    assert!(out.contains("the tables this build embeds"), "{out}");
    let settings = format!("eval={tables}");
    let out = ok(
        &[
            "selfplay", "--a", &settings, "--pairs", "1", "--nodes", "200",
        ],
        "",
    );
    assert!(
        out.starts_with(&format!(
            "A: the inarow engine of this build, settings {settings}\n"
        )),
        "{out}"
    );
}
