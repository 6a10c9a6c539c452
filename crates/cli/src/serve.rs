//! `inarow serve`: the local web page. The server is `inarow-web`; this
//! front parses flags, loads and saves MENACE's state file the way
//! `inarow menace` does, and turns Ctrl-C into a clean shutdown.

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Context;

use crate::menace::{MachineArgs, store};

/// Options of `inarow serve`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Port to listen on (0 picks a free one).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Address to listen on; the default serves this machine only.
    #[arg(long, default_value = "127.0.0.1")]
    bind: IpAddr,
    /// Folder of bot folders that tournaments run over.
    #[arg(long, value_name = "DIR", default_value = "bots")]
    bots: PathBuf,
    /// Where tournaments run from the page write their results (JSON), as
    /// `inarow judge` does; read back at start so past games replay.
    #[arg(long, value_name = "FILE", default_value = "results.json")]
    results: PathBuf,
    /// Folder for one SGF record per game of those tournaments.
    #[arg(long, value_name = "DIR", default_value = "sgf")]
    sgf: PathBuf,
    #[command(flatten)]
    machine: MachineArgs,
    #[command(flatten)]
    sandbox: crate::judge::SandboxArgs,
}

/// Runs `inarow serve` until Ctrl-C or SIGTERM, then saves MENACE.
pub fn run(args: Args) -> anyhow::Result<()> {
    // Tournaments from the page ask for their own time per answer; the CPU
    // limit is the backstop of a game without one.
    let sandbox = args.sandbox.sandbox(crate::judge::cpu_for_timeout(None))?;
    let memory = store::open(&args.machine, true)?;
    let machine = args.machine.clone();
    let saver: inarow_web::Saver = Arc::new(move |memory| store::save(&machine, memory));
    let shared = inarow_web::shared(inarow_web::Config {
        memory,
        seed: args.machine.seed,
        saver,
        bots: args.bots,
        sandbox,
        records: Some(inarow_web::tournament::Records {
            results: args.results,
            sgf: args.sgf,
        }),
    });
    let runtime = tokio::runtime::Runtime::new().context("cannot start the server runtime")?;
    runtime.block_on(async move {
        let address = SocketAddr::new(args.bind, args.port);
        let listener = tokio::net::TcpListener::bind(address)
            .await
            .with_context(|| format!("cannot listen on {address}"))?;
        let address = listener.local_addr()?;
        let host = match address {
            SocketAddr::V6(_) => format!("[{}]", address.ip()),
            SocketAddr::V4(_) => address.ip().to_string(),
        };
        println!(
            "serving on http://{host}:{}/ (Ctrl-C stops)",
            address.port()
        );
        inarow_web::serve(listener, shared, stopped()).await?;
        println!("stopped; MENACE saved");
        Ok(())
    })
}

/// Completes on Ctrl-C (SIGINT) or SIGTERM.
async fn stopped() {
    let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        .expect("SIGTERM handler");
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {}
        _ = term.recv() => {}
    }
}
