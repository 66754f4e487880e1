//! The `arbitre` binary: parses the command line and runs it (see [`arbitre::cli`]).

fn main() -> std::process::ExitCode {
    arbitre::cli::main(arbitre::Registry::builtin())
}
