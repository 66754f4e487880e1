//! Bot games on both built-in worlds with several seeds and player counts:
//! no panic, and the state keeps its invariants after every resolution.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test
use arbitre_core::{Adapter, Engine, PlayerId, PlayerSetup, SetupConfig};
use arbitre_scrambled::state::{State, Status};
use std::collections::BTreeMap;

fn check(s: &State) {
    for (t, ts) in &s.territories {
        let terr = &s.world.territories[t];
        if !terr.is_land() {
            assert!(
                ts.owner.is_none(),
                "{t}: seas and mountains are never owned"
            );
        }
        if !terr.terrain.passable() {
            assert!(ts.troops.is_empty(), "{t}: no troops in mountains");
        }
        assert!(ts.economy <= 100 && ts.suppression <= 100);
        assert!(
            ts.troops.values().all(|n| *n > 0),
            "{t}: empty stacks are removed"
        );
        for p in ts.troops.keys() {
            assert!(
                s.players[p].active(),
                "{t}: troops of a player out of the game"
            );
            assert!(
                ts.supremacy.contains_key(p),
                "{t}: supremacy for every player present"
            );
        }
    }
    for p in s.players.values() {
        if let Some(c) = &p.capital {
            assert_eq!(
                s.territories[c].owner.as_ref(),
                Some(&p.id),
                "{}: capital held",
                p.id
            );
        }
        if p.status != Status::Active {
            assert!(
                p.capital.is_none() && s.troops_total(&p.id) == 0 && s.owned_by(&p.id).is_empty()
            );
        }
    }
    for c in &s.chains {
        assert!(c.next + 1 < c.route.len());
        assert!(s.players[&c.player].active());
    }
}

#[test]
fn bot_games_keep_the_invariants() {
    let engine = Adapter(arbitre_scrambled::Scrambled);
    for (world, n, seed) in [
        ("testland", 3, 1u64),
        ("testland", 2, 2),
        ("hexagone", 6, 3),
        ("hexagone", 12, 4),
        ("hexagone", 5, 5),
    ] {
        let options: toml::Table =
            toml::from_str(&format!("world = \"{world}\"\nturn_limit = 20")).unwrap();
        let players = (0..n)
            .map(|i| PlayerSetup {
                id: PlayerId::from(format!("p{i}").as_str()),
                name: format!("Joueur{i}"),
                options: Default::default(),
            })
            .collect();
        let cfg = SetupConfig {
            game_id: "inv".into(),
            seed,
            players,
            options,
            files: BTreeMap::new(),
        };
        let mut state = engine.setup(&cfg).unwrap().state;
        for turn in 1..=20 {
            let mut orders = BTreeMap::new();
            for p in engine
                .players(&state)
                .unwrap()
                .into_iter()
                .filter(|p| p.active)
            {
                let mut text = engine.bot_orders(&state, seed, &p.id).unwrap();
                let c = engine.check(&state, &p.id, &text).unwrap();
                assert_eq!(c.errors, 0, "bot {} at turn {turn}: {:?}", p.id, c.verdicts);
                // Now and then a player quits or sends tributes and gifts.
                if turn == 7 && p.id.as_str() == "p1" {
                    text.push_str("QUIT\n");
                }
                if turn % 5 == 0 && p.id.as_str() == "p0" {
                    text.push_str("TRIBUTE 1000 TO p2\nPATH ALL p0 -> p0\n");
                }
                orders.insert(p.id, text);
            }
            let res = engine.resolve(&state, seed, &orders).unwrap();
            state = res.snapshot.state;
            let s: State = serde_json::from_str(&state).unwrap();
            check(&s);
            if res.outcome.is_some() {
                break;
            }
        }
    }
}

#[test]
fn a_large_generated_world_sets_up_and_resolves() {
    // 900 territories on a 30 × 30 grid: setup (with its map layout) and a
    // turn stay quick and the map has every territory.
    let side = 30;
    let mut w = String::from("[world]\nname = \"Grand\"\n");
    for i in 0..side * side {
        let (x, y) = (i % side, i / side);
        let mut nb = Vec::new();
        if x > 0 {
            nb.push(format!("\"T{}\"", i - 1));
        }
        if x + 1 < side {
            nb.push(format!("\"T{}\"", i + 1));
        }
        if y > 0 {
            nb.push(format!("\"T{}\"", i - side));
        }
        if y + 1 < side {
            nb.push(format!("\"T{}\"", i + side));
        }
        w.push_str(&format!(
            "[[territory]]\nid = \"T{i}\"\nname = \"Terre {i}\"\nterrain = \"land\"\narea = 20000\nneighbours = [{}]\n",
            nb.join(", ")
        ));
    }
    let engine = Adapter(arbitre_scrambled::Scrambled);
    let players = (0..8)
        .map(|i| PlayerSetup {
            id: PlayerId::from(format!("p{i}").as_str()),
            name: format!("J{i}"),
            options: Default::default(),
        })
        .collect();
    let cfg = SetupConfig {
        game_id: "big".into(),
        seed: 1,
        players,
        options: Default::default(),
        files: [("world_file".to_string(), w)].into(),
    };
    let state = engine.setup(&cfg).unwrap().state;
    let s: State = serde_json::from_str(&state).unwrap();
    assert_eq!(s.layout.len(), side * side);
    let orders: BTreeMap<PlayerId, String> = (0..8)
        .map(|i| PlayerId::from(format!("p{i}").as_str()))
        .map(|p| (p.clone(), engine.bot_orders(&state, 1, &p).unwrap()))
        .collect();
    let res = engine.resolve(&state, 1, &orders).unwrap();
    let s: State = serde_json::from_str(&res.snapshot.state).unwrap();
    check(&s);
    assert_eq!(res.reports.len(), 8);
}
