//! The worked examples of tests/examples/worked.toml (rulebook and spec §9),
//! each checked against the rule functions.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use arbitre_wwk::combat::{thresholds, Rat};
use arbitre_wwk::economy::{allocate, gain, price, research_points, victory_points};
use arbitre_wwk::intake::ai_crisis_pct;
use arbitre_wwk::intel::{fail_pct, pg_fail, rp_fail, st_fail};
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
struct St {
    l_att: i64,
    l_tgt: i64,
    ce: i64,
    capital: bool,
    expect: i64,
}
#[derive(Deserialize)]
struct Propaganda {
    ce_own: i64,
    max_inf: i64,
    expect: i64,
}
#[derive(Deserialize)]
struct Purge {
    l: i64,
    l_adv: i64,
    inf: i64,
    ce: i64,
    literal: bool,
    expect: i64,
}
#[derive(Deserialize)]
struct Crisis {
    l: i32,
    expect: u32,
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
    st: Vec<St>,
    propaganda: Vec<Propaganda>,
    purge: Vec<Purge>,
    crisis: Vec<Crisis>,
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
fn wwk_72_st_rp_pg_fail_examples() {
    let w = worked();
    assert!(!w.st.is_empty() && !w.propaganda.is_empty() && !w.purge.is_empty());
    for s in w.st {
        let got = st_fail(s.l_att, s.l_tgt, s.ce, s.capital);
        assert_eq!(got, s.expect, "ST capital {}", s.capital);
    }
    for r in w.propaganda {
        assert_eq!(rp_fail(r.ce_own, r.max_inf), r.expect, "RP");
    }
    for p in w.purge {
        let got = pg_fail(p.l, p.l_adv, p.inf, p.ce, p.literal);
        assert_eq!(got, p.expect, "PG literal {}", p.literal);
    }
}

#[test]
fn wwk_27_ai_crisis_examples() {
    let rows = worked().crisis;
    assert!(!rows.is_empty());
    for c in rows {
        assert_eq!(ai_crisis_pct(c.l), c.expect, "L {}", c.l);
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
