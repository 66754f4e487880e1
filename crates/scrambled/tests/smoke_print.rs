mod common;
use arbitre_core::{Ruleset, Rng};
use arbitre_scrambled::Scrambled;

#[test]
#[ignore]
fn print_bot_game() {
    let mut s = common::game(&["Alice", "Bob", "Carol", "Dave"], "world = \"hexagone\"\nturn_limit = 15");
    for t in 1..=15 {
        let mut orders = Vec::new();
        for p in ["alice", "bob", "carol", "dave"] {
            let mut rng = Rng::for_phase(42, t, &format!("bot:{p}"));
            let o = Scrambled.bot_orders(&s, &common::pid(p), &mut rng);
            orders.push((p, o));
        }
        let o2: Vec<(&str, &str)> = orders.iter().map(|(p, o)| (*p, o.as_str())).collect();
        common::resolve(&mut s, &o2);
        if t % 5 == 0 || t == 1 { println!("{}", common::report(&s, "alice")); }
    }
}
