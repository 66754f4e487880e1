//! The name index (issue 9) resolves names exactly as the three stages of
//! §6.3 do when they compare the input with every territory: same territory,
//! same ambiguity, same unknown, for every spelling a player may write.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use arbitre_scrambled::world::{fold, lookup, Lookup, NameTable, TerrId, World, BUILTIN};
use proptest::prelude::*;

/// The reference: the linear three-stage match over (id, id, name).
fn linear(w: &World, input: &str) -> Lookup<TerrId> {
    let items: Vec<(TerrId, String, String)> = w
        .territories
        .values()
        .map(|t| (t.id.clone(), t.id.0.to_string(), t.name.clone()))
        .collect();
    lookup(input, &items)
}

fn spellings(w: &World) -> Vec<String> {
    let mut v = Vec::new();
    for t in w.territories.values() {
        let id = t.id.as_str();
        let name = &t.name;
        v.push(id.to_string());
        v.push(id.to_lowercase());
        v.push(name.clone());
        v.push(name.to_lowercase());
        v.push(name.to_uppercase());
        v.push(fold(name));
        v.push(name.replace(' ', "-"));
        v.push(name.replace(' ', "_"));
        v.push(format!("{name} "));
        v.push(name.chars().take(3).collect());
        v.push(format!("{id}x"));
    }
    v.extend(["", " ", "-", "??", "Île", "ile", "X", "é"].map(String::from));
    v
}

#[test]
fn the_index_matches_the_linear_lookup_on_every_builtin_world() {
    for (name, text) in BUILTIN {
        let w = World::from_toml(text).unwrap();
        for s in spellings(&w) {
            assert_eq!(w.lookup(&s), linear(&w, &s), "world {name}, input {s:?}");
        }
    }
}

/// Names built to collide at each stage: an id equal to a name in another
/// case, two names equal once lower-cased or folded (an `ambiguous` world the
/// loader would refuse, checked through the table directly).
#[test]
fn the_table_reports_ambiguity_at_the_same_stage_as_the_linear_lookup() {
    let items: Vec<(u32, String, String)> = vec![
        (1, "ab".into(), "Saint-Dié".into()),
        (2, "AB".into(), "Saint Die".into()),
        (3, "c".into(), "Straße".into()),
        (4, "d".into(), "STRASSE".into()),
        (5, "e".into(), "e".into()),
        (6, "saint die".into(), "Autre".into()),
    ];
    let table = NameTable::new(items.clone());
    for s in [
        "ab",
        "AB",
        "Ab",
        "saint-dié",
        "SAINT DIE",
        "saint_die",
        "straße",
        "strasse",
        "E",
        "e",
        "autre",
        "saint die",
        "c",
        "nothing",
        "",
    ] {
        assert_eq!(table.lookup(s), lookup(s, &items), "input {s:?}");
    }
}

proptest! {
    #[test]
    fn any_input_resolves_as_the_linear_lookup(s in "[A-Za-zéÉèœ' _-]{0,12}") {
        let w = World::from_toml(BUILTIN[1].1).unwrap();
        prop_assert_eq!(w.lookup(&s), linear(&w, &s));
    }
}
