//! Crash injection for the exactly-once tests (issue 2, issue 8).
//!
//! `ARBITRE_FAILPOINT=<name>` makes the process abort — no unwinding, no
//! destructors, no flush, like SIGKILL — the moment it reaches the named
//! point. The points sit between every two durable steps of handling a mail
//! and of resolving a turn; see [`POINTS`].

/// Every failpoint, in the order a mail meets them.
pub const POINTS: &[&str] = &[
    "after-read",               // mail read and parsed, nothing written
    "before-commit",            // journal, orders and reply written, not committed
    "after-commit-before-move", // committed, file still in new/
    "after-move",               // file in cur/, nothing resolved or sent
    "before-resolve-commit",    // turn computed, not committed
    "after-resolve-commit",     // turn committed, reports not sent
    "after-send-before-mark",   // a mail handed to the transport, row still pending
];

pub fn hit(name: &str) {
    if let Ok(want) = std::env::var("ARBITRE_FAILPOINT") {
        if want == name {
            eprintln!("arbitre: failpoint {name}: aborting");
            std::process::abort();
        }
    }
}
