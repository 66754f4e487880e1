//! The contract with the rest of arbitre: registry id, boxed engine, check
//! verdicts, reports from a stored state, bot orders through the engine.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test
use arbitre_core::lang::Lang;
use arbitre_core::{Adapter, Engine, PlayerId, PlayerSetup, SetupConfig, Verdict, Viewer};
use arbitre_scrambled::Scrambled;
use std::collections::BTreeMap;

fn config() -> SetupConfig {
    let options: toml::Table = toml::from_str("world = \"testland\"\nturn_limit = 3").unwrap();
    SetupConfig {
        game_id: "sn-c".into(),
        seed: 9,
        players: ["alice", "bob"]
            .iter()
            .map(|p| PlayerSetup {
                id: PlayerId::from(*p),
                name: p.to_uppercase(),
                options: Default::default(),
            })
            .collect(),
        options,
        files: BTreeMap::new(),
    }
}

#[test]
fn registry_contract() {
    let e: Box<dyn Engine> = Adapter::boxed(Scrambled);
    let info = e.info();
    assert_eq!(
        (info.id, info.lang, info.turn_word),
        ("scrambled", Lang::Fr, "tour")
    );
    let snap = e.setup(&config()).unwrap();
    assert_eq!(snap.turn, 0);
    let players = e.players(&snap.state).unwrap();
    assert_eq!(players.len(), 2);
    assert!(players.iter().all(|p| p.active));
    // Turn-0 report for each viewer, in French.
    let r = e
        .report(&snap.state, &Viewer::Player(PlayerId::from("alice")))
        .unwrap();
    assert!(r.body.contains("rapport pour ALICE") && r.subject.contains("Tour 0"));
    assert!(e
        .report(&snap.state, &Viewer::Spectator)
        .unwrap()
        .body
        .contains("rapport public"));
    assert!(e
        .report(&snap.state, &Viewer::GameMaster)
        .unwrap()
        .body
        .contains("meneur de jeu"));
    // check: one verdict per line, diagnostics in French.
    let c = e
        .check(&snap.state, &PlayerId::from("alice"), "FLY AWAY\nREADY")
        .unwrap();
    assert_eq!(c.errors, 1);
    assert!(matches!(&c.verdicts[0].verdict, Verdict::Error(m) if m.contains("ordre inconnu")));
    assert!(e
        .check(&snap.state, &PlayerId::from("zed"), "READY")
        .is_err());
    // Three turns of bots, then the outcome.
    let mut state = snap.state;
    for _ in 0..3 {
        let orders: BTreeMap<PlayerId, String> = ["alice", "bob"]
            .iter()
            .map(|p| {
                (
                    PlayerId::from(*p),
                    e.bot_orders(&state, 9, &PlayerId::from(*p)).unwrap(),
                )
            })
            .collect();
        let res = e.resolve(&state, 9, &orders).unwrap();
        assert_eq!(res.reports.len(), 2);
        state = res.snapshot.state;
    }
    let o = e.outcome(&state).unwrap().expect("turn limit reached");
    assert_eq!(o.ranking.len(), 2);
    assert!(o.summary.contains("gagne"));
    assert!(e.players(&state).unwrap().iter().all(|p| !p.active));
}
