//! The judge's launcher on its own (`inarow __contain` in the `inarow`
//! program): contains itself, then starts a contestant. Started by the
//! judge only; see `inarow_sandbox::launcher`.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    std::process::exit(inarow_sandbox::launcher::main(&[], &args));
}
