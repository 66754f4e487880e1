//! Fog of war and the report format (spec §4, §7).
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test
use crate::common;
use arbitre_core::{Ruleset, Viewer};
use arbitre_scrambled::Scrambled;
use common::*;

fn fog() -> arbitre_scrambled::State {
    let pos = [
        player("alice", "LOR", Some("LOR"), &[]),
        player("bob", "SWA", Some("SWA"), &["alice"]),
        player("carol", "BAV", Some("BAV"), &["alice"]),
        territory("LOR", Some("alice"), 100, &[("alice", 1000)]),
        territory("CHA", None, 100, &[("alice", 5)]),
        territory("SWA", Some("bob"), 100, &[("bob", 1000)]),
        territory("BAD", None, 100, &[("alice", 10), ("bob", 1000)]),
        territory("BAV", Some("carol"), 100, &[("carol", 1000)]),
        territory("BOH", Some("carol"), 100, &[("carol", 77)]),
    ]
    .join("\n");
    let mut s = testland(ABC, &pos);
    resolve(
        &mut s,
        &[
            ("alice", "MOVE 5 CHA -> PIC"),
            ("bob", "MOVE 300 SWA -> BOD"),
            ("carol", "MOVE 1000 BAV -> BOD"),
        ],
    );
    s
}

fn row<'a>(r: &'a str, id: &str) -> &'a str {
    r.lines()
        .find(|l| l.starts_with(&format!("{id} ")))
        .unwrap_or_else(|| panic!("no row {id} in\n{r}"))
}

#[test]
fn scn_57_troops_and_moves_only_inside_the_vision_set() {
    let s = fog();
    let r = report(&s, "alice");
    // Alice never had anything in SWA, BOD, BAV or BOH: no troops, no moves.
    for id in ["SWA", "BOD", "BAV", "BOH"] {
        assert!(
            row(&r, id).split_whitespace().any(|w| w == "?"),
            "{}",
            row(&r, id)
        );
    }
    assert!(!r.contains("Bob 300 vers BOD"), "{r}");
    assert!(!r.contains("Carol 1000"), "{r}");
    // Her own territory and where her troops were are visible.
    assert!(row(&r, "LOR").contains("Alice "), "{}", row(&r, "LOR"));
    assert!(has_line(&r, "Sorties : Alice 5 vers PIC"), "{r}");
    // Bob sees his own move.
    assert!(has_line(&report(&s, "bob"), "Sorties : Bob 300 vers BOD"));
}

#[test]
fn scn_58_wiped_garrison_and_explorers_give_vision_for_that_turn() {
    let mut s = fog();
    let r = report(&s, "alice");
    // BAD: her 10 were wiped out by Bob; she sees the battle and Bob's stack.
    assert!(
        has_line(
            &r,
            "* Les troupes d'Alice en Baden (BAD) ont été anéanties."
        ),
        "{r}"
    );
    assert!(row(&r, "BAD").contains("Bob "), "{}", row(&r, "BAD"));
    assert!(has_line(&r, "Bataille : avant Alice 10, Bob 1000"), "{r}");
    // CHA: she left it this turn, so she still sees it; PIC: her explorers arrived.
    assert!(row(&r, "PIC").contains("Alice 5"), "{}", row(&r, "PIC"));
    // Next turn, BAD is out of sight again.
    resolve(&mut s, &[]);
    let r = report(&s, "alice");
    assert!(
        row(&r, "BAD").split_whitespace().any(|w| w == "?"),
        "{}",
        row(&r, "BAD")
    );
}

#[test]
fn scn_59_public_facts_for_every_territory_private_income() {
    let s = fog();
    let r = report(&s, "alice");
    // Owner, economic ratio, area and flags of Carol's BOH are public.
    let boh = row(&r, "BOH");
    assert!(
        boh.contains("Carol") && boh.contains("100%") && boh.contains("25000"),
        "{boh}"
    );
    assert!(row(&r, "BAV").contains("CAP"));
    assert!(row(&r, "BAD").contains("CONFLIT"), "{}", row(&r, "BAD"));
    // Nobody else's income appears in Alice's report.
    assert!(!r.contains("Swabia (cap)") && !r.contains("Bavaria (cap)"));
    // A spectator sees public facts only, the game master sees everything.
    let spec = Scrambled.report(&s, &[], &Viewer::Spectator).body;
    assert!(
        row(&spec, "LOR").split_whitespace().any(|w| w == "?"),
        "{}",
        row(&spec, "LOR")
    );
    assert!(!spec.contains("ÉCONOMIE"));
    let gm = Scrambled.report(&s, &[], &Viewer::GameMaster).body;
    assert!(row(&gm, "BOH").contains("Carol 77"), "{}", row(&gm, "BOH"));
    assert!(gm.contains("Bob 300 vers BOD"));
}

#[test]
fn scn_60_diplomacy_shows_both_directions() {
    let s = fog();
    let r = report(&s, "alice");
    assert!(has_line(&r, "Bob ALLIÉ ENNEMI"), "{r}");
    assert!(has_line(&r, "Carol ALLIÉ ENNEMI"), "{r}");
    let rb = report(&s, "bob");
    assert!(has_line(&rb, "Alice ENNEMI ALLIÉ"), "{rb}");
    // Carol's mark toward Alice is not shown to Bob.
    assert!(has_line(&rb, "Carol ALLIÉ ALLIÉ"), "{rb}");
}

fn num(r: &str, label: &str) -> i64 {
    let l = r
        .lines()
        .find(|l| l.starts_with(label))
        .unwrap_or_else(|| panic!("no {label} in\n{r}"));
    l.split_whitespace().last().unwrap().parse().unwrap()
}

#[test]
fn scn_61_sections_in_order_and_budget_adds_up() {
    let s = fog();
    for p in ["alice", "bob", "carol"] {
        let r = report(&s, p);
        let order = [
            "== MESSAGES ==",
            "== RÉSULTATS DES ORDRES ==",
            "== ÉCONOMIE ==",
            "== VOS TROUPES ==",
            "== ORDRES PERMANENTS ==",
            "== ACTIVITÉ VISIBLE ==",
            "== TERRITOIRES ==",
            "== DIPLOMATIE ==",
            "== CLASSEMENT ==",
        ];
        let pos: Vec<usize> = order
            .iter()
            .map(|h| r.find(h).unwrap_or_else(|| panic!("{h} missing")))
            .collect();
        assert!(pos.windows(2).all(|w| w[0] < w[1]), "{r}");
        let gross = num(&r, "Revenu brut");
        let lines: i64 = r
            .lines()
            .skip_while(|l| !l.starts_with("Territoire "))
            .skip(1)
            .take_while(|l| !l.starts_with("Revenu brut"))
            .map(|l| l.split_whitespace().last().unwrap().parse::<i64>().unwrap())
            .sum();
        assert_eq!(lines, gross, "{r}");
        let net = num(&r, "Bureaucratie");
        let avail = num(&r, "Disponible");
        assert_eq!(
            net + num(&r, "Tributs envoyés") + num(&r, "Tributs reçus"),
            avail
        );
        let upkeep = num(&r, "Entretien");
        let budget = num(&r, "Budget");
        assert_eq!(avail + upkeep, budget);
        assert!(r.lines().all(|l| l.chars().count() <= 100), "line too long");
    }
}

#[test]
fn report_has_an_svg_map_and_is_stable_when_sent_again() {
    let s = fog();
    let a = Scrambled.report(&s, &[], &Viewer::Player(pid("alice")));
    assert_eq!(a.attachments.len(), 2);
    let tpl = String::from_utf8(a.attachments[1].content.clone()).unwrap();
    assert!(
        tpl.starts_with("PARTIE sn-test JOUEUR alice MOT-DE-PASSE"),
        "{tpl}"
    );
    assert!(
        tpl.contains(&format!(
            "# MOVE {} LOR -> ?   (Lorraine, voisins : ALS, CHA)",
            troops(&s, "LOR", "alice")
        )),
        "{tpl}"
    );
    // The template parses: only comments, the header and READY.
    let p = arbitre_scrambled::parser::parse(&s, &pid("alice"), &tpl);
    assert_eq!(p.error_count(), 0, "{:?}", p.diagnostics);
    assert_eq!(a.attachments[0].mime, "image/svg+xml");
    let svg = String::from_utf8(a.attachments[0].content.clone()).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("LOR"));
    // Fog of war on the map too: Carol's 77 in BOH are not drawn for Alice.
    assert!(!svg.contains("Carol 77"));
    let json = serde_json::to_string(&s).unwrap();
    let back: arbitre_scrambled::State = serde_json::from_str(&json).unwrap();
    assert_eq!(
        Scrambled.report(&back, &[], &Viewer::Player(pid("alice"))),
        a
    );
}

#[test]
fn scn_58_explorers_destroyed_on_arrival_still_see() {
    let pos = [
        player("alice", "LOR", Some("LOR"), &[]),
        player("bob", "SWA", Some("SWA"), &["alice"]),
        territory("LOR", Some("alice"), 100, &[]),
        territory("BAD", None, 100, &[("alice", 5)]),
        territory("SWA", Some("bob"), 100, &[("bob", 1000)]),
    ]
    .join("\n");
    let mut s = testland(&["Alice", "Bob"], &pos);
    resolve(&mut s, &[("alice", "MOVE 5 BAD -> SWA")]);
    assert_eq!(troops(&s, "SWA", "alice"), 0);
    let r = report(&s, "alice");
    assert!(row(&r, "SWA").contains("Bob "), "{}", row(&r, "SWA"));
    assert!(has_line(&r, "Bataille : avant Alice 5, Bob 1000"), "{r}");
    assert!(
        has_line(
            &r,
            "* Les troupes d'Alice en Swabia (SWA) ont été anéanties."
        ),
        "{r}"
    );
}

/// A grid world of `cols × rows` land territories, each bordering its four
/// neighbours.
fn grid_world(cols: usize, rows: usize) -> String {
    let mut t =
        String::from("[world]\nname = \"Grille\"\nversion = 1\nstrict_adjacency = true\n\n");
    for r in 0..rows {
        for c in 0..cols {
            let mut n = Vec::new();
            if c > 0 {
                n.push(format!("\"T{}\"", r * cols + c - 1));
            }
            if c + 1 < cols {
                n.push(format!("\"T{}\"", r * cols + c + 1));
            }
            if r > 0 {
                n.push(format!("\"T{}\"", (r - 1) * cols + c));
            }
            if r + 1 < rows {
                n.push(format!("\"T{}\"", (r + 1) * cols + c));
            }
            let i = r * cols + c;
            t.push_str(&format!(
                "[[territory]]\nid = \"T{i}\"\nname = \"Terre {i}\"\nterrain = \"land\"\narea = 10000\nneighbours = [{}]\n\n",
                n.join(", ")
            ));
        }
    }
    t
}

#[test]
fn scrambled_large_world_map_is_clipped_to_the_players_surroundings() {
    // Issue 18 item 7: a player's map of a world past CLIP_ABOVE territories
    // draws only what the player sees and its neighbours.
    let (cols, rows) = (40, 30);
    let world = grid_world(cols, rows);
    let position = format!(
        "quota = 6\n{}{}{}{}",
        player("alice", "T41", Some("T41"), &[]),
        player("bob", "T1158", Some("T1158"), &[]),
        territory("T41", Some("alice"), 100, &[("alice", 500)]),
        territory("T1158", Some("bob"), 100, &[("bob", 500)])
    );
    let s = custom(&["Alice", "Bob"], &world, &position);
    assert!(s.world.territories.len() > arbitre_scrambled::svg::CLIP_ABOVE);
    let a = Scrambled.report(&s, &[], &Viewer::Player(pid("alice")));
    let svg = String::from_utf8(a.attachments[0].content.clone()).unwrap();
    let drawn: Vec<&str> = svg
        .split("<g data-id=\"")
        .skip(1)
        .filter_map(|p| p.split('"').next())
        .collect();
    assert!(drawn.contains(&"T41"), "her start is drawn: {drawn:?}");
    for nb in ["T40", "T42", "T1", "T81"] {
        assert!(
            drawn.contains(&nb),
            "{nb}, a neighbour of her start, is drawn"
        );
    }
    assert!(
        !drawn.contains(&"T1158"),
        "Bob's start, far away, is not drawn"
    );
    assert!(drawn.len() < 40, "{} territories drawn", drawn.len());
    assert!(svg.len() < 40_000, "{} bytes", svg.len());
    // The public map still draws the whole world.
    let p = Scrambled.report(&s, &[], &Viewer::Spectator);
    let public = String::from_utf8(p.attachments[0].content.clone()).unwrap();
    assert_eq!(public.matches("<g data-id=\"").count(), cols * rows);
}
