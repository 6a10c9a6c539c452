//! The `menace` subcommand (being built).

/// Options of `inarow menace`.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Runs `inarow menace`.
pub fn run(_args: Args) -> anyhow::Result<()> {
    anyhow::bail!("`inarow menace` is not built yet")
}
