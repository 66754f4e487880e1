//! The complete example mail of docs/scrambled.md parses without an error.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test
use crate::common;
use arbitre_scrambled::parser::parse;
use common::*;

#[test]
fn docs_example_mail_parses_cleanly() {
    let doc = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../docs/scrambled.md"
    ))
    .unwrap();
    let section = doc
        .split("## 3. Exemple complet")
        .nth(1)
        .expect("example section");
    let mail = section.split("```").nth(1).expect("example block");
    let pos = [
        "turn = 7".to_string(),
        player("alice", "LOR", Some("LOR"), &[]),
        player("bob", "SWA", Some("SWA"), &[]),
        player("carol", "BAV", Some("BAV"), &[]),
        territory("LOR", Some("alice"), 100, &[("alice", 1000)]),
        territory("ALS", Some("alice"), 100, &[("alice", 300)]),
        territory("IDF", Some("alice"), 100, &[("alice", 200)]),
        territory("PIC", Some("alice"), 100, &[]),
        "[[chain]]\nnumber = 5\nplayer = \"alice\"\nroute = [\"LOR\", \"CHA\", \"PIC\", \"IDF\"]\nnext = 1\nplanned = 10\n".to_string(),
    ]
    .join("\n");
    let s = testland(ABC, &pos);
    let p = parse(&s, &pid("alice"), mail);
    assert_eq!(p.error_count(), 0, "{:?}", p.diagnostics);
    assert_eq!(p.orders.len(), 10);
    assert!(p.ready);
}
