mod common;
use arbitre_core::{Rng, Ruleset, Viewer};
use arbitre_eds::Eds;

#[test]
fn smoke_bots_play_a_few_months() {
    let mut s = common::scenario("trio", 3);
    for m in 0..6 {
        let orders: Vec<(usize, String)> = (1..=3).map(|n| (n, Eds.bot_orders(&s, &common::pid(n), &mut Rng::for_phase(1, m, "bot")))).collect();
        let o: Vec<(usize, &str)> = orders.iter().map(|(n, t)| (*n, t.as_str())).collect();
        if m == 0 { println!("{}", orders[0].1); }
        let ev = common::month(&mut s, &o);
        let rep = Eds.report(&s, &ev, &Viewer::Player(common::pid(1)));
        if m == 5 { println!("{}", rep.body); }
    }
}
