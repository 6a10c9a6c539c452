//! The `solve` subcommand (being built).

/// Options of `inarow solve`.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Runs `inarow solve`.
pub fn run(_args: Args) -> anyhow::Result<()> {
    anyhow::bail!("`inarow solve` is not built yet")
}
