//! The command line as tests drive it (review D3/D6): the `arbitre`
//! binary run in a folder with no inherited locale or log variables, the
//! in-process `cli::run` over a temporary `arbitre.toml`, and a daemon on
//! a temporary folder's configuration.

use super::{config, registry, t0, REFEREE};
use arbitre::cli::{run, Cli};
use arbitre::{Daemon, FixedClock};
use clap::Parser;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::Arc;

/// `arbitre ARGS` (the built binary) in `dir`, stdin empty (not a
/// terminal), no log variables inherited, the C locale.
pub fn arbitre_bin(dir: &Path, args: &[&str]) -> Output {
    arbitre_bin_env(dir, args, &[])
}

/// [`arbitre_bin`] with extra environment variables.
pub fn arbitre_bin_env(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_arbitre"));
    c.current_dir(dir)
        .args(args)
        .env_remove("RUST_LOG")
        .env_remove("ARBITRE_LOG")
        .env("LANG", "C")
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .stdin(Stdio::null());
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().unwrap()
}

/// A process's output bytes as text.
pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// `arbitre --config CONFIG ARGS` run in this process (the test registry):
/// its output, or the exit code or error with what it printed.
pub fn run_cli(config: &Path, args: &[&str]) -> Result<String, String> {
    let mut argv = vec!["arbitre", "--config", config.to_str().unwrap()];
    argv.extend_from_slice(args);
    let mut out = Vec::new();
    match run(Cli::try_parse_from(argv).unwrap(), registry(), &mut out) {
        Ok(0) => Ok(String::from_utf8(out).unwrap()),
        Ok(code) => Err(format!("exit {code}: {}", String::from_utf8_lossy(&out))),
        Err(e) => Err(format!("{e:#}")),
    }
}

/// An `arbitre.toml` in `dir` (Maildir `inbox`, database `db/arbitre.db`,
/// file outbox `outbox`, cheap argon2): its path.
pub fn install(dir: &Path) -> PathBuf {
    let cfg = dir.join("arbitre.toml");
    std::fs::write(
        &cfg,
        format!("referee = \"{REFEREE}\"\ninbox = \"inbox\"\ndatabase = \"db/arbitre.db\"\n[outbound]\nkind = \"file\"\ndir = \"outbox\"\n[argon2]\nm_cost = 8\nt_cost = 1\n"),
    )
    .unwrap();
    cfg
}

/// A daemon on `dir` with the tests' configuration ([`config`]) and a
/// clock fixed at [`t0`].
pub fn daemon_in(dir: &Path) -> Daemon {
    Daemon::open(config(dir), registry(), Arc::new(FixedClock::new(t0()))).unwrap()
}
