//! Worked examples of the rulebook as data: every `tests/cases/*.toml` names a
//! starting position (the rule-test position, patched with JSON pointers), the
//! orders of each ruler, optional scripted dice per phase, and the expected
//! Monatsbericht lines and state values. This runner turns each into a test.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

mod common;
use arbitre_eds::model::State;
use common::*;
use serde_json::Value;
use std::collections::BTreeMap;

#[derive(serde::Deserialize)]
struct Case {
    name: String,
    #[serde(default)]
    remove: Vec<String>,
    #[serde(default)]
    patch: BTreeMap<String, toml::Value>,
    #[serde(default)]
    ships: Vec<ShipSpec>,
    #[serde(default)]
    orders: BTreeMap<String, String>,
    #[serde(default)]
    rolls: BTreeMap<String, Vec<u64>>,
    expect: Expect,
}

#[derive(serde::Deserialize)]
struct ShipSpec {
    number: u32,
    owner: u8,
    design: String,
    x: i32,
    y: i32,
    ev: u32,
    hits: Option<u32>,
    sp: Option<u32>,
}

#[derive(serde::Deserialize)]
struct Expect {
    #[serde(default)]
    lines: BTreeMap<String, Vec<String>>,
    #[serde(default)]
    state: BTreeMap<String, toml::Value>,
}

fn json(v: &toml::Value) -> Value {
    serde_json::to_value(v).expect("toml to json")
}

/// Set `ptr` in `doc`, creating the last key when missing; objects given for a
/// star are completed with the defaults of an empty star.
fn set(doc: &mut Value, ptr: &str, v: Value) {
    let (parent, key) = ptr.rsplit_once('/').expect("pointer");
    let target = doc
        .pointer_mut(parent)
        .unwrap_or_else(|| panic!("no {parent}"));
    let mut v = v;
    if parent == "/stars" {
        let base = serde_json::json!({"name": "", "owner": null, "bv": 0, "facility": null, "ljg": 0, "tjg": 0, "stock": [0, 0, 0], "rate": [0, 0, 0]});
        let mut full = base.as_object().unwrap().clone();
        full.extend(v.as_object().expect("star object").clone());
        v = Value::Object(full);
    }
    match target {
        Value::Object(m) => {
            m.insert(key.to_string(), v);
        }
        Value::Array(a) => a[key.parse::<usize>().expect("index")] = v,
        _ => panic!("cannot set {ptr}"),
    }
}

fn run(path: &std::path::Path) -> Result<(), String> {
    let case: Case = toml::from_str(&std::fs::read_to_string(path).unwrap())
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let mut s = base();
    for sp in &case.ships {
        add_ship(&mut s, sp.number, sp.owner, &sp.design, sp.x, sp.y, sp.ev);
        let sh = s.ships.get_mut(&sp.number).unwrap();
        sh.hits = sp.hits.unwrap_or(0);
        if let Some(v) = sp.sp {
            sh.sp = v;
        }
    }
    let mut doc = serde_json::to_value(&s).unwrap();
    for r in &case.remove {
        let (parent, key) = r.rsplit_once('/').unwrap();
        doc.pointer_mut(parent)
            .and_then(|p| p.as_object_mut())
            .map(|m| m.remove(key));
    }
    for (ptr, v) in &case.patch {
        set(&mut doc, ptr, json(v));
    }
    let mut s: State =
        serde_json::from_value(doc).map_err(|e| format!("{}: patched state: {e}", case.name))?;
    let orders: Vec<(usize, &str)> = case
        .orders
        .iter()
        .map(|(k, v)| (k.parse().unwrap(), v.as_str()))
        .collect();
    let rolls: Vec<(&str, Vec<u64>)> = case
        .rolls
        .iter()
        .map(|(k, v)| (k.as_str(), v.clone()))
        .collect();
    let ev = month_scripted(&mut s, &orders, &rolls, false);
    let mut errs = Vec::new();
    for (r, want) in &case.expect.lines {
        let got = lines(&ev, r.parse().unwrap());
        for w in want {
            if !got.contains(w) {
                errs.push(format!("ruler {r}: missing line\n  {w}\n  got: {got:#?}"));
            }
        }
    }
    let after = serde_json::to_value(&s).unwrap();
    for (ptr, want) in &case.expect.state {
        let got = after.pointer(ptr).cloned().unwrap_or(Value::Null);
        if got != json(want) {
            errs.push(format!("{ptr}: expected {}, got {got}", json(want)));
        }
    }
    if errs.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{} ({}):\n{}",
            case.name,
            path.display(),
            errs.join("\n")
        ))
    }
}

#[test]
fn eds_110_rulebook_examples_as_data() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    paths.sort();
    assert!(paths.len() >= 6);
    let failures: Vec<String> = paths.iter().filter_map(|p| run(p).err()).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
