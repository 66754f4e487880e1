//! Allocations of the order parser (issue 21 item 2): none per word, a
//! bounded few per order line. Counted by a global allocator that counts
//! calls, on this test binary alone (one test, so no other thread allocates).
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use arbitre_core::{PlayerId, PlayerSetup, Rng, Ruleset, SetupConfig};
use arbitre_wwk::{parser, State, Wwk};
use std::alloc::{GlobalAlloc, Layout, System};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

struct Counting;
static CALLS: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        CALLS.fetch_add(1, Relaxed);
        System.alloc(l)
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        System.dealloc(p, l)
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, new: usize) -> *mut u8 {
        CALLS.fetch_add(1, Relaxed);
        System.realloc(p, l, new)
    }
}

#[global_allocator]
static A: Counting = Counting;

fn allocations<T>(f: impl FnOnce() -> T) -> (usize, T) {
    let before = CALLS.load(Relaxed);
    let r = f();
    (CALLS.load(Relaxed) - before, r)
}

fn bot_orders(st: &State) -> BTreeMap<PlayerId, String> {
    Wwk.players(st)
        .into_iter()
        .filter(|p| p.active)
        .map(|p| {
            let mut rng = Rng::for_phase(3, st.turn + 1, &format!("bot:{}", p.id));
            let t = Wwk.bot_orders(st, &p.id, &mut rng);
            (p.id, t)
        })
        .collect()
}

fn nation(st: &State, p: &PlayerId) -> String {
    st.nation_of_player(p.as_str())
        .map(|n| n.code.clone())
        .unwrap()
}

#[test]
fn nom_b_wwk_no_allocation_per_word() {
    // Each seat names its nation (issue 18 item 3): the scenario's first four.
    let players: Vec<PlayerSetup> = ["FRA", "GBR", "GER", "RUS"]
        .iter()
        .enumerate()
        .map(|(i, code)| PlayerSetup {
            id: PlayerId::new(format!("p{}", i + 1)),
            name: format!("Joueur {}", i + 1),
            options: toml::from_str(&format!("nation = \"{code}\"")).unwrap(),
        })
        .collect();
    let c = SetupConfig {
        game_id: "alloc".into(),
        seed: 3,
        players,
        options: toml::from_str("map = \"monde\"").unwrap(),
        files: BTreeMap::new(),
    };
    let mut st = Wwk.setup(&c, &mut Rng::for_setup(3)).unwrap();
    // A few turns in, so the bots order everywhere.
    for _ in 0..4 {
        let orders = bot_orders(&st);
        arbitre_core::engine::run_turn(&Wwk, &mut st, 3, &orders);
    }
    let me = nation(&st, &PlayerId::from("p1"));

    // An unknown issuing zone with 2 words and with 20, in lower case and
    // brackets: the same allocations (the kept line, the reason), whatever
    // the number of words (up to the 24 a line keeps on the stack; a longer
    // line takes one vector, still not one string per word).
    let short = "[foo] bar\n".repeat(50);
    let long = format!("[foo]{}\n", " [bar]".repeat(19)).repeat(50);
    let _ = parser::parse(&st, &me, &short);
    let (a_short, p) = allocations(|| parser::parse(&st, &me, &short));
    assert_eq!(p.error_count(), 50);
    let (a_long, p) = allocations(|| parser::parse(&st, &me, &long));
    assert_eq!(p.error_count(), 50);
    println!("unknown orders: {a_short} allocations for 2 words a line, {a_long} for 20");
    assert_eq!(a_short, a_long, "allocations grow with the words of a line");

    // The bots' orders: a bounded few allocations per accepted order (the
    // kept line and the ids the order holds).
    let orders = bot_orders(&st);
    for (p, t) in &orders {
        let _ = parser::parse(&st, &nation(&st, p), t);
    }
    let (a, n) = allocations(|| {
        orders
            .iter()
            .map(|(p, t)| parser::parse(&st, &nation(&st, p), t).orders.len())
            .sum::<usize>()
    });
    assert!(n > 0);
    let per = a as f64 / n as f64;
    println!("bot orders: {n} orders, {a} allocations, {per:.2} per order");
    // 1.8 since a MOVE of one step holds its zone in place and the
    // budgets of a block's first zones are counted in place (2.9 before,
    // 4.9 when each order held its own strings): the echo, a longer path,
    // and per block its orders vector, the nation's code and, read for the
    // lone block, where its units stand.
    assert!(per <= 2.5, "{per} allocations per order");
}
