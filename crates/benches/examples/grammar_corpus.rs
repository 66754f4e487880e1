//! Writes the order corpus a ruleset's grammar differential test starts from
//! (issue 21 item 3): `crates/<ruleset>/tests/data/grammar-corpus.txt`, one
//! input per line, deduplicated, in first-seen order.
//!
//! It gathers every line of the ruleset's fixtures (`fixtures/<ruleset>/`,
//! mails, confirmations and reports alike: the reports are good garbage),
//! the bots' orders of its golden game, the rule cases' files, and the bots'
//! orders of generated games of several sizes (the parse bench's sizes and
//! one between). The corpus is stored so that the test's inputs stay the
//! same when a bot or a fixture changes later.
//!
//! ```sh
//! cargo run --release -p arbitre-benches --example grammar_corpus -- nebulight
//! cargo run --release -p arbitre-benches --example grammar_corpus -- eds
//! ```
#![allow(clippy::unwrap_used)] // tool code: a failed unwrap is a failed run

use arbitre_benches::game::Game;
use arbitre_core::Ruleset;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

const SEED: u64 = 9;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every file under `dir`, sorted, recursively.
fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = rd.map(|e| e.unwrap().path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            files(&p, out);
        } else {
            out.push(p);
        }
    }
}

struct Corpus {
    seen: BTreeSet<String>,
    lines: Vec<String>,
}

impl Corpus {
    fn add_text(&mut self, text: &str) {
        for l in text.lines() {
            let l = l.trim_end_matches('\r');
            if !l.trim().is_empty() && l.len() <= 300 && self.seen.insert(l.to_string()) {
                self.lines.push(l.to_string());
            }
        }
    }

    fn add_dir(&mut self, dir: &Path, keep: impl Fn(&Path) -> bool) {
        let mut fs = Vec::new();
        files(dir, &mut fs);
        for f in fs.into_iter().filter(|f| keep(f)) {
            if let Ok(t) = std::fs::read_to_string(&f) {
                self.add_text(&t);
            }
        }
    }

    fn add_game<R: Ruleset>(&mut self, mut g: Game<R>, turns: &[u32]) {
        let mut done = 0;
        for &t in turns {
            g.advance(t - done);
            done = t;
            for text in g.bot_orders().values() {
                self.add_text(text);
            }
        }
    }
}

fn main() {
    let ruleset = std::env::args().nth(1).unwrap_or_default();
    let root = root();
    let mut c = Corpus {
        seen: BTreeSet::new(),
        lines: Vec::new(),
    };
    c.add_dir(&root.join("fixtures").join(&ruleset), |_| true);
    c.add_dir(&root.join("rulesets").join(&ruleset).join("cases"), |_| {
        true
    });
    match ruleset.as_str() {
        "nebulight" => {
            c.add_dir(&root.join("crates/nebulight/tests/golden/bot-duel"), |f| {
                f.to_string_lossy().contains("ordres")
            });
            c.add_game(Game::nebulight(100, SEED), &[0, 3]);
            c.add_game(Game::nebulight(1_000, SEED), &[0, 2]);
            c.add_game(Game::nebulight(10_000, SEED), &[0]);
        }
        "eds" => {
            c.add_game(Game::eds(250, 10, SEED), &[0, 3]);
            c.add_game(Game::eds(1_000, 50, SEED), &[0, 2]);
            c.add_game(Game::eds(2_500, 99, SEED), &[0]);
        }
        other => panic!("usage: grammar_corpus nebulight|eds (got {other:?})"),
    }
    let out = root
        .join("crates")
        .join(&ruleset)
        .join("tests/data/grammar-corpus.txt");
    std::fs::create_dir_all(out.parent().unwrap()).unwrap();
    let mut text = c.lines.join("\n");
    text.push('\n');
    std::fs::write(&out, text).unwrap();
    println!("{}: {} lines", out.display(), c.lines.len());
}
