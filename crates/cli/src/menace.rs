//! `inarow menace`: play MENACE, train it, show its boxes.
//!
//! The machine lives in `inarow-menace`; this module is its edge: the
//! terminal dialogue, state files, the progress bar, the CSV and the chart.

use std::path::PathBuf;

use inarow_menace::Preset;

mod chart;
mod interactive;
mod show;
pub(crate) mod store;
mod train;

/// Options of `inarow menace`. Without a subcommand it plays the
/// challenge's interactive program on standard input and output.
#[derive(clap::Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct Args {
    #[command(subcommand)]
    command: Option<MenaceCommand>,
    #[command(flatten)]
    machine: MachineArgs,
}

#[derive(clap::Subcommand, Debug)]
enum MenaceCommand {
    /// Train MENACE against a random player, a perfect player or a second MENACE.
    Train(train::Args),
    /// Print all boxes, or the box for one board.
    Show(show::Args),
}

/// Which machine to use: shared by the interactive program and the subcommands.
#[derive(clap::Args, Debug, Clone)]
pub struct MachineArgs {
    /// Rules for fresh boxes: challenge, michie or scroggs [default: challenge,
    /// or the preset stored in the state file].
    #[arg(long, value_parser = parse_preset)]
    preset: Option<Preset>,
    /// Seed for the machine's draws (and the opponent's), for reproducible games.
    #[arg(long, default_value_t = 0, value_parser = crate::numbers::seed)]
    pub(crate) seed: u64,
    /// Load the boxes from FILE (a missing file starts fresh) and save them back.
    #[arg(long, value_name = "FILE")]
    pub(crate) state: Option<PathBuf>,
}

fn parse_preset(text: &str) -> Result<Preset, String> {
    text.parse()
        .map_err(|e: inarow_menace::UnknownPreset| e.to_string())
}

/// Runs `inarow menace`.
pub fn run(args: Args) -> anyhow::Result<()> {
    match args.command {
        None => interactive::run(&args.machine),
        Some(MenaceCommand::Train(train)) => train::run(train),
        Some(MenaceCommand::Show(show)) => show::run(show),
    }
}
