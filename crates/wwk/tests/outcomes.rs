//! Outcomes before text (issue 23 item 4): an espionage mission is decided
//! as a typed [`MissionOutcome`] and written by `render_mission` alone, so
//! the words each reader gets follow from the outcome and nothing else.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use crate::common;

use arbitre_wwk::intel::{render_mission, FieldKind, MissionEffect, MissionOutcome};
use arbitre_wwk::model::{Field, Ledger};
use arbitre_wwk::orders::SpyOp;
use arbitre_wwk::turn::Vis;
use common::*;

fn sp_on_sin(detected: bool) -> MissionOutcome {
    MissionOutcome {
        op: SpyOp::Sp,
        actor: "TUR".into(),
        target: Some("EGY".into()),
        zone: Some("SIN".into()),
        fail_pct: 56,
        roll: 57,
        success: true,
        detected,
        effect: MissionEffect::FactoryDestroyed,
    }
}

fn to(n: &str) -> Vis {
    Vis::Nation(n.into())
}

#[test]
fn wwk_79_sabotage_outcome_tells_the_victim_what_it_lost_or_who_did_it() {
    let unseen = render_mission(&sp_on_sin(false));
    assert_eq!(
        unseen,
        vec![
            (
                to("TUR"),
                "[SIN] SP : réussite (échec 56%, jet 57) : 1 usine détruite".to_string()
            ),
            (to("EGY"), "[SIN] sabotage : 1 usine détruite".to_string()),
        ]
    );
    let seen = render_mission(&sp_on_sin(true));
    assert_eq!(
        seen[1],
        (to("EGY"), "Détecté : SP contre [SIN] par TUR".to_string())
    );
    let lost = Ledger {
        f: 2,
        o: 1,
        ..Default::default()
    };
    let sr = MissionOutcome {
        op: SpyOp::Sr,
        effect: MissionEffect::ResourcesDestroyed(lost),
        ..sp_on_sin(false)
    };
    let lines = render_mission(&sr);
    assert!(
        lines[0]
            .1
            .ends_with(&format!(" : détruit {}", lost.stock_line())),
        "{lines:?}"
    );
}

#[test]
fn wwk_78_rt_outcome_shows_levels_only_on_success() {
    let rt = |levels: Option<Vec<(Field, i32)>>| MissionOutcome {
        op: SpyOp::Rt,
        actor: "TUR".into(),
        target: Some("EGY".into()),
        zone: None,
        fail_pct: 30,
        roll: 80,
        success: levels.is_some(),
        detected: true,
        effect: MissionEffect::TechRevealed {
            kinds: vec![
                (Field::I, FieldKind::Specialty),
                (Field::L, FieldKind::Normal),
            ],
            levels,
        },
    };
    let ok = render_mission(&rt(Some(vec![(Field::I, 14), (Field::L, 9)])));
    assert_eq!(
        ok[0].1,
        "RT -> EGY : réussite (échec 30%, jet 80) ; types : I spécialité, L normal ; niveaux : I 14 L 9"
    );
    assert_eq!(
        ok[1],
        (
            to("EGY"),
            "Détecté : RT contre notre nation par TUR".to_string()
        )
    );
    let failed = render_mission(&rt(None));
    assert!(!failed[0].1.contains("niveaux"), "{failed:?}");
}

#[test]
fn wwk_75_played_mission_reports_what_its_outcome_renders() {
    // The same mission played in a turn: the actor's report line is the one
    // render_mission writes for its outcome (TV-16: infiltration capped at 20).
    let mut st = trio();
    st.zone_mut("CAI").infiltration.insert("TUR".into(), 15);
    let ev = turn(
        &mut st,
        &[("tur", "IST SPY IN CAI")],
        &[("2.2", vec![99, 99, 7])],
    );
    let fail = arbitre_wwk::intel::fail_pct(SpyOp::In, 10, 5, 0, 15, false);
    let outcome = MissionOutcome {
        op: SpyOp::In,
        actor: "TUR".into(),
        target: Some("EGY".into()),
        zone: Some("CAI".into()),
        fail_pct: fail,
        roll: 99,
        success: true,
        detected: false,
        effect: MissionEffect::Infiltration(20),
    };
    let (_, line) = render_mission(&outcome).remove(0);
    assert!(texts(&ev).contains(&line), "{line}\n{}", texts(&ev));
}
