//! The `play` subcommand (being built).

/// Options of `inarow play`.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Runs `inarow play`.
pub fn run(_args: Args) -> anyhow::Result<()> {
    anyhow::bail!("`inarow play` is not built yet")
}
