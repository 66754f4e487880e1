//! One measured turn, outside criterion: wall time of each step of a turn and
//! the peak heap it needed (with [`crate::alloc::Counting`] installed as the
//! global allocator by the bench), printed as a row of the table in
//! `docs/performance.md`.

use crate::alloc;
use crate::game::Game;
use arbitre_core::Ruleset;
use std::time::{Duration, Instant};

#[derive(Clone, Debug)]
pub struct Row {
    pub ruleset: &'static str,
    pub size: String,
    pub setup: Duration,
    pub bots: Duration,
    pub order_bytes: usize,
    pub orders: usize,
    pub parse: Duration,
    pub resolve: Duration,
    pub reports: Duration,
    pub report_bytes: usize,
    /// Peak heap during resolve + reports, above what was live before
    /// (the state itself is counted in `state_bytes`).
    pub turn_peak: usize,
    /// Heap of one copy of the state (measured by cloning it).
    pub state_bytes: usize,
    /// Peak heap of the whole measurement (setup included).
    pub total_peak: usize,
}

fn mb(b: usize) -> f64 {
    b as f64 / 1e6
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

impl Row {
    pub fn header() -> &'static str {
        "| ruleset | size | setup ms | bots ms | orders (KB) | parse ms | resolve ms | reports ms (KB) | turn = parse+resolve+reports ms | state MB | turn peak MB | total peak MB |\n|---|---|---|---|---|---|---|---|---|---|---|---|"
    }

    pub fn line(&self) -> String {
        format!(
            "| {} | {} | {:.1} | {:.1} | {} ({:.0}) | {:.2} | {:.1} | {:.1} ({:.0}) | {:.1} | {:.1} | {:.1} | {:.1} |",
            self.ruleset,
            self.size,
            ms(self.setup),
            ms(self.bots),
            self.orders,
            self.order_bytes as f64 / 1e3,
            ms(self.parse),
            ms(self.resolve),
            ms(self.reports),
            self.report_bytes as f64 / 1e3,
            ms(self.parse + self.resolve + self.reports),
            mb(self.state_bytes),
            mb(self.turn_peak),
            mb(self.total_peak),
        )
    }
}

/// Builds the game with `make`, then times each step of one turn once.
pub fn measure<R: Ruleset>(size: String, make: impl FnOnce() -> Game<R>) -> Row {
    let base = alloc::live();
    alloc::reset_peak();
    let t = Instant::now();
    let g = make();
    let setup = t.elapsed();
    let t = Instant::now();
    let orders = g.bot_orders();
    let bots = t.elapsed();
    let order_bytes = orders.values().map(|s| s.len()).sum();
    let t = Instant::now();
    let n = g.parse(&orders);
    let parse = t.elapsed();
    let setup_peak = alloc::peak().saturating_sub(base);
    let pre_clone = alloc::live();
    let mut s = g.state.clone();
    let state_bytes = alloc::live().saturating_sub(pre_clone);
    let before = alloc::live();
    alloc::reset_peak();
    let t = Instant::now();
    let events = g.resolve(&mut s, &orders);
    let resolve = t.elapsed().saturating_sub(parse);
    let t = Instant::now();
    let reports = g.reports(&s, &events);
    let rep = t.elapsed();
    let turn_peak = alloc::peak().saturating_sub(before);
    let total_peak = setup_peak.max(alloc::peak().saturating_sub(base));
    Row {
        ruleset: g.ruleset.info().id,
        size,
        setup,
        bots,
        order_bytes,
        orders: n,
        parse,
        resolve,
        reports: rep,
        report_bytes: reports.iter().map(|r| r.body.len()).sum(),
        turn_peak,
        state_bytes,
        total_peak,
    }
}
