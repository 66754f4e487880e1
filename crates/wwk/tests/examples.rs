//! The worked examples of tests/examples/worked.toml (rulebook and spec §9),
//! each checked against the rule functions.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use arbitre_wwk::combat::{thresholds, Rat};
use arbitre_wwk::economy::{allocate, gain, price, research_points, victory_points};
use arbitre_wwk::intel::fail_pct;
use arbitre_wwk::military::accuracy;
use arbitre_wwk::model::{Ledger, RES};
use arbitre_wwk::orders::SpyOp;
use serde::Deserialize;

#[derive(Deserialize)]
struct Fate {
    name: String,
    fa: [i64; 2],
    fd: [i64; 2],
    #[serde(default)]
    modifier: i64,
    expect: [i64; 2],
}
#[derive(Deserialize)]
struct Spy {
    op: String,
    l_att: i64,
    l_tgt: i64,
    ce: i64,
    inf: i64,
    #[serde(default)]
    literal: bool,
    expect: i64,
}
#[derive(Deserialize)]
struct Gain {
    rp: i64,
    expect: [i64; 2],
}
#[derive(Deserialize)]
struct Rp {
    l: i64,
    controlled: i64,
    expect: i64,
}
#[derive(Deserialize)]
struct Alloc {
    rp: i64,
    weights: [i64; 6],
    expect: [i64; 6],
}
#[derive(Deserialize)]
struct Acc {
    d: u32,
    expect: [i64; 2],
}
#[derive(Deserialize)]
struct Vp {
    controlled: i64,
    shared: i64,
    income: i64,
    symbols: i64,
    tech_sum: i64,
    divisor: i64,
    expect: i64,
}
#[derive(Deserialize)]
struct Price {
    code: String,
    stock: Ledger,
    expect: [i64; 2],
}
#[derive(Deserialize)]
struct Refund {
    code: String,
    expect: [i64; 2],
}
#[derive(Deserialize)]
struct Worked {
    fate: Vec<Fate>,
    spy: Vec<Spy>,
    gain: Vec<Gain>,
    rp: Vec<Rp>,
    allocation: Vec<Alloc>,
    accuracy: Vec<Acc>,
    vp: Vec<Vp>,
    price: Vec<Price>,
    refund: Vec<Refund>,
}

fn worked() -> Worked {
    toml::from_str(include_str!("examples/worked.toml")).expect("worked.toml parses")
}

#[test]
fn wwk_80_every_fate_example_gives_the_printed_ranges() {
    for f in worked().fate {
        let fa = Rat::int(f.fa[0]).mul(1, f.fa[1]);
        let fd = Rat::int(f.fd[0]).mul(1, f.fd[1]);
        let (d, r) = thresholds(fa, fd, f.modifier);
        assert_eq!([d, r], f.expect, "{}", f.name);
    }
}

#[test]
fn wwk_72_every_espionage_example() {
    for s in worked().spy {
        let op = SpyOp::parse(&s.op).unwrap();
        assert_eq!(
            fail_pct(op, s.l_att, s.l_tgt, s.ce, s.inf, s.literal),
            s.expect,
            "{} {}",
            s.op,
            s.literal
        );
    }
}

#[test]
fn wwk_65_research_examples() {
    let w = worked();
    for g in w.gain {
        assert_eq!(gain(g.rp), (g.expect[0], g.expect[1]), "{} RP", g.rp);
    }
    for r in w.rp {
        assert_eq!(research_points(r.l, r.controlled), r.expect);
    }
    for a in w.allocation {
        assert_eq!(allocate(a.rp, &a.weights), a.expect);
    }
}

#[test]
fn wwk_101_accuracy_examples() {
    for a in worked().accuracy {
        assert_eq!(
            [accuracy(a.d, false), accuracy(a.d, true)],
            a.expect,
            "d = {}",
            a.d
        );
    }
}

#[test]
fn wwk_116_victory_point_examples() {
    for v in worked().vp {
        assert_eq!(
            victory_points(
                v.controlled,
                v.shared,
                v.income,
                v.symbols,
                v.tech_sum,
                v.divisor
            ),
            v.expect
        );
    }
}

#[test]
fn wwk_47_production_and_wwk_57_refund_examples() {
    let w = worked();
    for p in w.price {
        let (_, ec, workers) = price(&p.code, &p.stock);
        assert_eq!([ec, workers as i64], p.expect, "{}", p.code);
    }
    for r in w.refund {
        let l = arbitre_wwk::admin::refund(&r.code, false);
        let res: i64 = RES.iter().map(|c| l.res(*c)).sum();
        assert_eq!([res, l.ec], r.expect, "{}", r.code);
    }
}
