//! The `arbitre` binary: parses the command line and runs it (see [`arbitre::cli`]).

#[global_allocator]
static ALLOCATOR: arbitre::Allocator = arbitre::Allocator;

fn main() -> std::process::ExitCode {
    arbitre::cli::main(arbitre::Registry::builtin())
}
