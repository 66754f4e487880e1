//! Game and world files, quota, start placement (spec §1.3, §2.1, §2.6, §3.13).
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test
use crate::common;
use arbitre_core::{PlayerId, Rng, Ruleset, SetupConfig, SetupError};
use arbitre_scrambled::join::{join, JoinError};
use arbitre_scrambled::params::Params;
use arbitre_scrambled::setup::quota;
use arbitre_scrambled::world::{TerrId, World, WorldError};
use arbitre_scrambled::Scrambled;
use common::*;
use std::collections::BTreeMap;

fn try_setup(names: &[&str], rules: &str) -> Result<arbitre_scrambled::State, SetupError> {
    let options: toml::Table = toml::from_str(rules).unwrap();
    let cfg = SetupConfig {
        game_id: "g".into(),
        seed: 7,
        players: players(names),
        options,
        files: BTreeMap::new(),
    };
    Scrambled.setup(&cfg, &mut Rng::for_setup(7))
}

#[test]
fn scn_1_defaults_overrides_and_unknown_keys() {
    let s = try_setup(&["Alice", "Bob"], "world = \"testland\"").unwrap();
    assert_eq!(s.params, Params::default());
    let d = Params::default();
    assert_eq!(
        (
            d.troops_home_upkeep,
            d.troops_away_upkeep,
            d.troops_recruit_cost,
            d.troops_efficiency
        ),
        (2, 3, 20, 5)
    );
    assert_eq!(
        (d.troops_capture_capacity, d.territory_base_income),
        (50, 10_000)
    );
    assert_eq!(
        (d.economy_modifier_conflict, d.economy_modifier_peace),
        (-20, 20)
    );
    assert_eq!(
        (
            d.bureaucracy_max_ratio,
            d.bureaucracy_min_ratio,
            d.turn_interval
        ),
        (100, 50, 86_400)
    );
    assert!(d.allow_join_midgame);
    let s = try_setup(
        &["Alice", "Bob"],
        "world = \"testland\"\nturn_interval = \"12h\"\ntroops_efficiency = 4\nturn_limit = 20\n[parameters]\ntroops_recruit_cost = 25",
    )
    .unwrap();
    assert_eq!(
        (
            s.params.turn_interval,
            s.params.troops_efficiency,
            s.params.turn_limit
        ),
        (43_200, 4, 20)
    );
    assert_eq!(s.params.troops_recruit_cost, 25);
    let e = try_setup(
        &["Alice", "Bob"],
        "world = \"testland\"\ntroops_efficency = 4",
    )
    .unwrap_err();
    assert!(e.to_string().contains("troops_efficency"), "{e}");
    assert!(try_setup(&["Alice"], "world = \"nowhere\"").is_err());
    // No world named: the default one (see docs/scrambled.md).
    assert_eq!(try_setup(&["Alice"], "").unwrap().world.name, "Hexagone");
    assert!(try_setup(
        &["Alice"],
        "world = \"testland\"\nbureaucracy_min_ratio = 120"
    )
    .is_err());
    // Both built-in worlds load.
    for (name, text) in arbitre_scrambled::world::BUILTIN {
        World::from_toml(text).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}

#[test]
fn scn_2_min_and_max_players_together_are_rejected() {
    let e = try_setup(
        &["Alice", "Bob"],
        "world = \"testland\"\nmin_players = 2\nmax_players = 4",
    )
    .unwrap_err();
    assert!(e.to_string().contains("min_players"), "{e}");
}

const T: &str = "[world]\nname = \"t\"\n";

#[test]
fn scn_3_world_loader_rejects_bad_maps() {
    let land = |id: &str, name: &str, n: &str| {
        format!("[[territory]]\nid = \"{id}\"\nname = \"{name}\"\nterrain = \"land\"\narea = 100\nneighbours = [{n}]\n")
    };
    let ok = format!(
        "{T}{}{}",
        land("A", "Aa", "\"B\""),
        land("B", "Bb", "\"A\"")
    );
    assert!(World::from_toml(&ok).is_ok());
    let dup = format!("{T}{}{}", land("A", "Aa", ""), land("a", "Cc", ""));
    assert!(matches!(
        World::from_toml(&dup),
        Err(WorldError::DuplicateId(_))
    ));
    let dupname = format!("{T}{}{}", land("A", "Île", ""), land("B", "ile", ""));
    assert!(matches!(
        World::from_toml(&dupname),
        Err(WorldError::DuplicateName(_))
    ));
    let unknown = format!("{T}{}", land("A", "Aa", "\"Z\""));
    assert!(matches!(
        World::from_toml(&unknown),
        Err(WorldError::UnknownNeighbour(..))
    ));
    let oneway = format!("{T}{}{}", land("A", "Aa", "\"B\""), land("B", "Bb", ""));
    assert!(matches!(
        World::from_toml(&oneway),
        Err(WorldError::OneWay(..))
    ));
    let lenient = oneway.replace("name = \"t\"", "name = \"t\"\nstrict_adjacency = false");
    let w = World::from_toml(&lenient).unwrap();
    assert!(w.territories[&TerrId::new("B")]
        .neighbours
        .contains(&TerrId::new("A")));
    let noarea = format!("{T}[[territory]]\nid = \"A\"\nname = \"Aa\"\nterrain = \"land\"\n");
    assert!(matches!(
        World::from_toml(&noarea),
        Err(WorldError::NoArea(_))
    ));
}

#[test]
fn scn_4_quota_is_fixed_at_start_and_joiners_do_not_change_it() {
    assert_eq!(quota(18, 3), 6);
    assert_eq!(quota(8, 3), 2);
    assert_eq!(quota(2, 5), 1);
    let mut s = game(&["Alice", "Bob", "Carol"], "world = \"testland\"");
    assert_eq!(s.quota, 3); // 9 land territories, 3 players
    join(
        &mut s,
        PlayerId::from("dave"),
        "Dave".into(),
        &mut Rng::for_phase(1, 1, "join"),
    )
    .unwrap();
    assert_eq!(s.quota, 3);
}

#[test]
fn scn_5_start_placement() {
    let s = game(&["Alice", "Bob", "Carol"], "world = \"testland\"");
    let mut starts = Vec::new();
    for p in s.players.values() {
        let t = &p.start_territory;
        assert!(s.world.territories[t].is_land());
        assert_eq!(p.capital.as_ref(), Some(t));
        assert_eq!(s.territories[t].owner.as_ref(), Some(&p.id));
        assert_eq!(s.territories[t].troops_of(&p.id), 1000);
        assert_eq!(s.territories[t].economy, 100);
        assert!(p.marks.is_empty()); // no Enemy mark: everyone allied
        starts.push(t.clone());
    }
    starts.sort();
    starts.dedup();
    assert_eq!(starts.len(), 3);
    for t in s.world.land() {
        if !starts.contains(&t.id) {
            assert_eq!(s.territories[&t.id].economy, 0);
        }
    }
    let again = game(&["Alice", "Bob", "Carol"], "world = \"testland\"");
    assert_eq!(
        serde_json::to_string(&s).unwrap(),
        serde_json::to_string(&again).unwrap()
    );
    // `start` marks in the world restrict the draw.
    let w = "[world]\nname = \"s\"\n[[territory]]\nid = \"A\"\nname = \"Aa\"\nterrain = \"land\"\narea = 10\nneighbours = [\"B\"]\nstart = true\n[[territory]]\nid = \"B\"\nname = \"Bb\"\nterrain = \"land\"\narea = 10\nneighbours = [\"A\"]\n";
    let cfg = SetupConfig {
        game_id: "g".into(),
        seed: 3,
        players: players(&["Alice"]),
        options: Default::default(),
        files: [("world_file".to_string(), w.to_string())].into(),
    };
    let s = Scrambled.setup(&cfg, &mut Rng::for_setup(3)).unwrap();
    assert_eq!(s.players[&pid("alice")].start_territory, TerrId::new("A"));
}

#[test]
fn scn_6_player_limits_are_enforced_at_start() {
    // The daemon starts the game; the ruleset refuses a start outside the limits.
    assert!(matches!(
        try_setup(&["A1", "B1", "C1"], "world = \"testland\"\nmax_players = 2"),
        Err(SetupError::PlayerCount { .. })
    ));
    assert!(matches!(
        try_setup(&["A1"], "world = \"testland\"\nmin_players = 2"),
        Err(SetupError::PlayerCount { .. })
    ));
    assert!(try_setup(&["A1", "B1"], "world = \"testland\"\nmin_players = 2").is_ok());
    // With max_players reached, a join is refused.
    let mut s = try_setup(&["A1", "B1"], "world = \"testland\"\nmax_players = 2").unwrap();
    assert_eq!(
        join(
            &mut s,
            pid("c1"),
            "C1".into(),
            &mut Rng::for_phase(1, 1, "join")
        ),
        Err(JoinError::Full)
    );
}

#[test]
fn scn_62_midgame_join_places_newcomer_on_free_neutral_land() {
    let mut s = game(&["Alice", "Bob"], "world = \"testland\"");
    let t = join(
        &mut s,
        pid("dave"),
        "Dave".into(),
        &mut Rng::for_phase(1, 1, "join"),
    )
    .unwrap();
    let ts = &s.territories[&t];
    assert_eq!(ts.owner, Some(pid("dave")));
    assert_eq!(ts.troops_of(&pid("dave")), 1000);
    assert_eq!(ts.economy, 100);
    assert_eq!(s.players[&pid("dave")].capital, Some(t.clone()));
    assert!(s
        .players
        .values()
        .all(|p| p.mark(&pid("dave")) == arbitre_scrambled::state::Mark::Ally));
    // The newcomer plays the next turn like anyone.
    resolve(&mut s, &[("dave", "READY")]);
    assert!(report(&s, "dave").contains("rapport pour Dave"));
}

#[test]
fn scn_63_join_refused_when_not_allowed_or_no_room() {
    let mut s = game(
        &["Alice"],
        "world = \"testland\"\nallow_join_midgame = false",
    );
    assert_eq!(
        join(
            &mut s,
            pid("bob"),
            "Bob".into(),
            &mut Rng::for_phase(1, 1, "j")
        ),
        Err(JoinError::NotAllowed)
    );
    let mut s = game(&["Alice"], "world = \"testland\"");
    for (i, t) in s
        .world
        .land()
        .map(|t| t.id.clone())
        .collect::<Vec<_>>()
        .into_iter()
        .enumerate()
    {
        s.territories
            .get_mut(&t)
            .unwrap()
            .troops
            .insert(pid(&format!("x{i}")), 1);
    }
    assert_eq!(
        join(
            &mut s,
            pid("bob"),
            "Bob".into(),
            &mut Rng::for_phase(1, 1, "j")
        ),
        Err(JoinError::NoRoom)
    );
}

#[test]
fn position_toml_loads_every_attribute() {
    let s = testland(
        ABC,
        &format!(
            "turn = 7\nnext_chain = 9\n{}\n[[territory]]\nid = \"ALS\"\nowner = \"alice\"\neconomy = 80\nsuppression = 34\nconflict = true\ncontested = true\ntroops = {{ alice = 284, bob = 40 }}\n[[chain]]\nnumber = 7\nplayer = \"alice\"\nroute = [\"ALS\", \"BAD\", \"BOD\", \"BAV\"]\nnext = 1\nplanned = 284\n",
            abc_players("", "\"alice\"", "")
        ),
    );
    assert_eq!(s.turn, 7);
    assert_eq!(s.quota, 6);
    let als = terr(&s, "ALS");
    assert_eq!(
        (als.economy, als.suppression, als.conflict, als.contested),
        (80, 34, true, true)
    );
    assert_eq!(troops(&s, "ALS", "bob"), 40);
    assert_eq!(s.chains[0].number, 7);
    assert_eq!(s.next_chain, 9);
    assert_eq!(
        s.mark(&pid("bob"), &pid("alice")),
        arbitre_scrambled::state::Mark::Enemy
    );
    // Supremacy is computed from the loaded counts.
    assert_eq!(als.supremacy.get(&pid("bob")), Some(&false));
}

#[test]
fn builtin_scenario_loads_the_worked_example_position() {
    let mut s = game(&["Alice", "Bob", "Carol"], "scenario = \"alsace\"");
    assert_eq!((s.turn, s.quota, s.world.name.as_str()), (6, 6, "Testland"));
    assert_eq!(troops(&s, "LOR", "alice"), 2200);
    resolve(
        &mut s,
        &[
            (
                "alice",
                "MOVE 200 LOR -> ALS\nMOVE 900 BAD -> BOD\nTRIBUTE 1000 TO Carol",
            ),
            ("bob", "ENEMY Alice\nMOVE 40 BAD -> ALS"),
        ],
    );
    assert!(has_line(
        &report(&s, "alice"),
        "Alsace 10000 80% 2% 34% 5174"
    ));
    assert!(matches!(
        try_setup(&["Alice"], "scenario = \"nowhere\""),
        Err(SetupError::UnknownMap { .. })
    ));
}

#[test]
fn hexagone_hosts_fourteen_players() {
    let names: Vec<String> = (1..=14).map(|i| format!("J{i}")).collect();
    let n: Vec<&str> = names.iter().map(|s| s.as_str()).collect();
    let s = game(&n, "world = \"hexagone\"");
    assert_eq!(s.quota, 2);
    let starts: std::collections::BTreeSet<_> = s
        .players
        .values()
        .map(|p| p.start_territory.clone())
        .collect();
    assert_eq!(starts.len(), 14);
    assert!(s.world.land().count() >= 28);
}

#[test]
fn a_saved_position_resumes_the_same_game() {
    // Play 6 bot turns, write the position, load it as a GM would, and check
    // that both games go on identically.
    use arbitre_core::{Adapter, Engine};
    let engine = Adapter(Scrambled);
    let rules = "world = \"hexagone\"\nturn_limit = 12";
    let options: toml::Table = toml::from_str(rules).unwrap();
    let names = ["Anne", "Bruno", "Chloe"];
    let cfg = SetupConfig {
        game_id: "g".into(),
        seed: 5,
        players: players(&names),
        options: options.clone(),
        files: BTreeMap::new(),
    };
    let mut state = engine.setup(&cfg).unwrap().state;
    let bots = |st: &str| -> BTreeMap<PlayerId, String> {
        engine
            .players(st)
            .unwrap()
            .into_iter()
            .filter(|p| p.active)
            .map(|p| (p.id.clone(), engine.bot_orders(st, 5, &p.id).unwrap()))
            .collect()
    };
    for _ in 0..6 {
        let o = bots(&state);
        state = engine.resolve(&state, 5, &o).unwrap().snapshot.state;
    }
    // A standing path, so that chains are saved too.
    let mut o = bots(&state);
    let s0: arbitre_scrambled::State = serde_json::from_str(&state).unwrap();
    let (t, _) = s0
        .territories
        .iter()
        .find(|(_, ts)| ts.troops_of(&pid("anne")) > 0)
        .unwrap();
    let far = s0
        .world
        .land()
        .map(|x| x.id.clone())
        .find(|x| s0.world.hops(t, x).unwrap_or(0) >= 3)
        .unwrap();
    o.insert(pid("anne"), format!("PATH 10 {t} -> {far} DIRECT\n"));
    state = engine.resolve(&state, 5, &o).unwrap().snapshot.state;
    let saved: arbitre_scrambled::State = serde_json::from_str(&state).unwrap();
    assert!(!saved.chains.is_empty());
    let pos = arbitre_scrambled::position::to_toml(&saved);
    let cfg2 = SetupConfig {
        files: [("position_file".to_string(), pos)].into(),
        ..cfg.clone()
    };
    let resumed = engine.setup(&cfg2).unwrap().state;
    let r: arbitre_scrambled::State = serde_json::from_str(&resumed).unwrap();
    assert_eq!(
        (r.turn, r.quota, r.next_chain),
        (saved.turn, saved.quota, saved.next_chain)
    );
    assert_eq!(r.chains, saved.chains);
    for (id, ts) in &saved.territories {
        let rt = &r.territories[id];
        assert_eq!(
            (
                &rt.owner,
                rt.economy,
                rt.suppression,
                rt.conflict,
                rt.contested,
                &rt.troops,
                &rt.supremacy
            ),
            (
                &ts.owner,
                ts.economy,
                ts.suppression,
                ts.conflict,
                ts.contested,
                &ts.troops,
                &ts.supremacy
            ),
            "{id}"
        );
    }
    for a in saved.players.values() {
        let b = &r.players[&a.id];
        assert_eq!(
            (
                &a.status,
                &a.capital,
                &a.pending_capital,
                &a.start_territory
            ),
            (
                &b.status,
                &b.capital,
                &b.pending_capital,
                &b.start_territory
            )
        );
        for q in saved.players.keys() {
            assert_eq!(saved.mark(&a.id, q), r.mark(&a.id, q));
        }
    }
    // Both go on identically (the reports differ only by the log of the last turn).
    let o = bots(&state);
    let a = engine.resolve(&state, 5, &o).unwrap();
    let b = engine.resolve(&resumed, 5, &o).unwrap();
    assert_eq!(a.reports, b.reports);
}

#[test]
fn position_errors_name_the_duplicate_item() {
    let try_pos = |extra: &str| {
        let cfg = SetupConfig {
            game_id: "sn-test".into(),
            seed: 42,
            players: players(ABC),
            options: toml::from_str("world = \"testland\"").unwrap(),
            files: [(
                "position_file".to_string(),
                format!("quota = 6\n{}{extra}", abc_players("", "", "")),
            )]
            .into(),
        };
        Scrambled.setup(&cfg, &mut Rng::for_setup(42))
    };
    assert!(try_pos("").is_ok());
    let terr = "[[territory]]\nid = \"ALS\"\ntroops = { alice = 5 }\n";
    let e = try_pos(&format!("{terr}{terr}")).unwrap_err().to_string();
    assert!(e.contains("territory ALS appears twice"), "{e}");
    let chain = "[[chain]]\nnumber = 3\nplayer = \"alice\"\nroute = [\"LOR\", \"ALS\"]\n";
    let e = try_pos(&format!("{chain}{chain}")).unwrap_err().to_string();
    assert!(e.contains("chain 3 appears twice"), "{e}");
    let bob = "[[player]]\nid = \"bob\"\nstart = \"SWA\"\n";
    let e = try_pos(bob).unwrap_err().to_string();
    assert!(e.contains("player bob appears twice"), "{e}");
    let e = try_pos("[[player]]\nid = \"dave\"\nstart = \"ALS\"\n")
        .unwrap_err()
        .to_string();
    assert!(e.contains("dave"), "an unknown player is named: {e}");
}
