//! The `judge` subcommand (being built).

/// Options of `inarow judge`.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Runs `inarow judge`.
pub fn run(_args: Args) -> anyhow::Result<()> {
    anyhow::bail!("`inarow judge` is not built yet")
}
