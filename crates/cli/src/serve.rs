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
    #[arg(long, default_value_t = 8080, value_parser = crate::numbers::whole_in::<u16>(0, 65_535))]
    port: u16,
    /// Address to listen on; the default serves this machine only. Any
    /// other (0.0.0.0 serves the LAN) needs --token.
    #[arg(long, visible_alias = "host", default_value = "127.0.0.1")]
    bind: IpAddr,
    /// Also answer requests whose Host is NAME or NAME:PORT (repeatable);
    /// others get 421.
    #[arg(long = "allow-host", value_name = "NAME")]
    allow_hosts: Vec<String>,
    /// Every request must carry this token (required beyond loopback): open
    /// the printed http://HOST:PORT/?token=TOKEN once, or send
    /// `Authorization: Bearer TOKEN`.
    #[arg(long, value_name = "TOKEN")]
    token: Option<String>,
    /// Milliseconds a client may take to send its request headers.
    #[arg(long, value_name = "MS", default_value_t = 10_000, hide = true, value_parser = crate::numbers::whole::<u64>(1))]
    header_timeout_ms: u64,
    /// Milliseconds a client may take to send a request's body once its
    /// headers are in (408 after that), or to take in an answer.
    #[arg(long, value_name = "MS", default_value_t = 10_000, hide = true, value_parser = crate::numbers::whole::<u64>(1))]
    body_timeout_ms: u64,
    /// Folder of bot folders that tournaments run over.
    #[arg(long, value_name = "DIR", default_value = "bots")]
    bots: PathBuf,
    /// Where tournaments run from the page write their results (JSON), as
    /// `inarow judge` does, never over an earlier run's: a run takes the
    /// next free name (FILE-2.json with DIR-2, ...); the newest is read
    /// back at start so past games replay.
    #[arg(long, value_name = "FILE", default_value = "results.json")]
    results: PathBuf,
    /// Folder for one SGF record per game of those tournaments.
    #[arg(long, value_name = "DIR", default_value = "sgf")]
    sgf: PathBuf,
    #[command(flatten)]
    machine: MachineArgs,
    #[command(flatten)]
    sandbox: crate::args::SandboxArgs,
}

/// Runs `inarow serve` until Ctrl-C or SIGTERM, then saves MENACE.
pub fn run(args: Args) -> anyhow::Result<()> {
    if !args.bind.is_loopback() && args.token.is_none() {
        anyhow::bail!(
            "--host {} serves beyond this machine: give a token with --token TOKEN \
             (16 or more letters and digits, e.g. from `openssl rand -hex 16`)",
            args.bind
        );
    }
    let options = inarow_web::Options {
        access: inarow_web::api::Access {
            allow_hosts: args.allow_hosts.clone(),
            token: args.token.clone(),
        },
        header_timeout: std::time::Duration::from_millis(args.header_timeout_ms),
        body_timeout: std::time::Duration::from_millis(args.body_timeout_ms),
        ..inarow_web::Options::default()
    };
    // Bad tokens and names are refused before anything is loaded.
    inarow_web::api::Guard::new(&options.access, SocketAddr::new(args.bind, args.port))?;
    // Tournaments from the page ask for their own time per answer; the CPU
    // limit is the backstop of a game without one.
    // Refused here, the page's tournaments say why; MENACE and gomoku play on.
    let sandbox = args
        .sandbox
        .sandbox_checked_later(crate::args::cpu_for_timeout(None))?;
    let (memory, lock) = store::open(&args.machine, true)?;
    let machine = args.machine.clone();
    let state = args.machine.state.clone();
    // The saver lives as long as the server, and holds the state file's
    // lock till then: no other inarow saves to the file meanwhile.
    let saver: inarow_web::Saver = Arc::new(move |memory| {
        let _held = &lock;
        store::save(&machine, memory)
    });
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
        analyses: Default::default(),
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
        let query = match &args.token {
            Some(token) => format!("?token={token}"),
            None => String::new(),
        };
        println!(
            "serving on http://{host}:{}/{query} (Ctrl-C stops)",
            address.port()
        );
        if !args.bind.is_loopback() {
            eprintln!(
                "inarow serve: warning: serving on {host}, reachable from other machines; \
                 every request must carry the token (open the address above once, \
                 with this machine's address in place of {host} if it is unspecified)"
            );
        }
        inarow_web::serve(listener, shared, options, stopped()).await?;
        // Said as it is: without --state, MENACE's learning was kept nowhere.
        match &state {
            Some(path) => println!("stopped; MENACE saved in {}", path.display()),
            None => println!("stopped; MENACE was not saved (no --state file)"),
        }
        Ok(())
    })
}

/// Completes on Ctrl-C (SIGINT) or SIGTERM, once no bot can start any more
/// and those running are dead.
async fn stopped() {
    let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        .expect("SIGTERM handler");
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {}
        _ = term.recv() => {}
    }
    // This process's one server stops: its tournaments' bots with it.
    inarow_judge::process::kill_all_bots();
}
