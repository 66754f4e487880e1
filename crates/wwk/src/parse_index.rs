//! What the order parser reads of the units, found once per state (issue 21).
//!
//! A block's checks ask where the nation has units (may a zone issue
//! orders), how many units of a type stand in a zone (the receipt's
//! warning) and how many factories (a capital's extra orders). Read from
//! the state's `units` map, each answer is a scan of every unit of the
//! game, per block: at 1,000 zones and 100 nations that was 84% of a parse.
//! [`Index`] holds the answers of every nation, built in one pass over the
//! units; the turn's parse and a loaded game's checks build it once for the
//! state ([`arbitre_core::Ruleset::parse_index`]), and a lone block builds
//! its nation's part only ([`UnitsOf::of`]).

use crate::model::{short_key, Nation, State, Unit};
// Keys are nation codes and player ids from the game file, not from a
// player's mail: a fast hash (Fx) rather than SipHash, as the catalog's.
use rustc_hash::FxHashMap as HashMap;
use std::borrow::Borrow;
use std::hash::Hash;

/// One nation's units, as the parser's checks read them: the codes owned
/// (`S` = `String`) in the [`Index`], which outlives the parse, borrowed
/// from the state (`&str`) for a lone block.
#[derive(Clone, Debug)]
pub struct UnitsOf<S> {
    /// Zones where the nation has units (cargo in its carrier's zone,
    /// however deep), sorted and without repeats.
    present: Vec<S>,
    /// How many units of each (zone, unit type) (cargo in its carrier's
    /// zone, one level, as transports do not nest; units in space count
    /// nowhere), sorted by (zone, unit type).
    counts: Vec<((S, S), usize)>,
    /// Where each zone's entries of `counts` lie: one hash of the zone and
    /// a scan of its few unit types a question. A binary search of the
    /// (zone, type) pairs compared strings some ten times, a tenth of a
    /// parse at 1,000 zones (issue 21).
    count_at: HashMap<S, (u32, u32)>,
    /// `count_at` for the zones whose code [`short_key`] packs (every
    /// such zone is here, not there): a word hashed and compared.
    count_short: HashMap<u64, (u32, u32)>,
    /// Each entry of `counts`, its unit type as [`short_key`] packs it
    /// (None for a longer code): the scan of a zone's types compares one
    /// word where it called `memcmp` (issue 21).
    count_keys: Vec<Option<u64>>,
    /// How many of the nation's factories stand directly in each zone,
    /// sorted by zone.
    factories: Vec<(S, usize)>,
}

impl<S> Default for UnitsOf<S> {
    fn default() -> Self {
        UnitsOf {
            present: Vec::new(),
            counts: Vec::new(),
            count_at: HashMap::default(),
            count_short: HashMap::default(),
            count_keys: Vec::new(),
            factories: Vec::new(),
        }
    }
}

/// Sorts `(key, 1)` entries by key and merges those of one key, adding
/// their counts.
fn tally<K: Ord>(v: &mut Vec<(K, usize)>) {
    v.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    v.dedup_by(|later, kept| {
        let same = later.0 == kept.0;
        if same {
            kept.1 += later.1;
        }
        same
    });
}

/// The parts of a [`UnitsOf`] to build.
#[derive(Clone, Copy, Debug)]
pub struct Want {
    pub present: bool,
    pub counts: bool,
    pub factories: bool,
}

impl Want {
    pub const ALL: Want = Want {
        present: true,
        counts: true,
        factories: true,
    };
}

/// [`State::unit_zone`] borrowed from the state.
fn unit_zone<'s>(st: &'s State, u: &'s Unit) -> Option<&'s str> {
    if let Some(c) = u.at.strip_prefix('@') {
        return unit_zone(st, st.unit(c.parse().ok()?)?);
    }
    (!u.at.starts_with('#')).then_some(u.at.as_str())
}

impl<'s> UnitsOf<&'s str> {
    /// The part of one nation that `want` names, in one pass over the
    /// units, borrowed: a lone block reads only what it asks (most blocks
    /// ask where the units are only for a zone the nation does not hold,
    /// and a lone block asks the factories of the state,
    /// [`State::factories`]).
    pub fn of(st: &'s State, nation: &str, want: Want) -> Self {
        let mut me = UnitsOf::default();
        for u in st.units.values().filter(|u| u.owner == nation) {
            me.add(st, u, |s| s, want);
        }
        me.finish();
        me
    }
}

impl<S: AsRef<str> + Ord + Borrow<str> + Hash + Clone> UnitsOf<S> {
    fn add<'s>(&mut self, st: &'s State, u: &'s Unit, own: impl Fn(&'s str) -> S, want: Want) {
        if let Some(z) = unit_zone(st, u).filter(|_| want.present) {
            self.present.push(own(z));
        }
        if !want.counts {
            return;
        }
        let at = match u.at.strip_prefix('@') {
            Some(c) => c
                .parse()
                .ok()
                .and_then(|id| st.unit(id))
                .map(|carrier| carrier.at.as_str()),
            None => Some(u.at.as_str()),
        };
        if let Some(at) = at.filter(|at| !at.starts_with('#') && !at.starts_with('@')) {
            self.counts.push(((own(at), own(&u.code)), 1));
        }
        if want.factories && u.code == "FAC" {
            self.factories.push((own(&u.at), 1));
        }
    }

    fn finish(&mut self) {
        self.present.sort_unstable();
        self.present.dedup();
        tally(&mut self.counts);
        tally(&mut self.factories);
        self.count_at.clear();
        self.count_short.clear();
        self.count_keys = self
            .counts
            .iter()
            .map(|((_, c), _)| short_key(c.as_ref()))
            .collect();
        let mut start = 0;
        while let Some(((zone, _), _)) = self.counts.get(start) {
            let end = start
                + self.counts[start..]
                    .iter()
                    .take_while(|((z, _), _)| z == zone)
                    .count();
            let range = (start as u32, end as u32);
            match short_key(zone.as_ref()) {
                Some(k) => self.count_short.insert(k, range),
                None => self.count_at.insert(zone.clone(), range),
            };
            start = end;
        }
    }

    /// The nation has a unit in zone `z`.
    pub fn present(&self, z: &str) -> bool {
        self.present.binary_search_by(|p| p.as_ref().cmp(z)).is_ok()
    }

    /// How many of the nation's `code` units stand in `zone`.
    pub fn count(&self, zone: &str, code: &str) -> usize {
        let range = match short_key(zone) {
            Some(k) => self.count_short.get(&k),
            None => self.count_at.get(zone),
        };
        let Some(&(a, b)) = range else {
            return 0;
        };
        let (a, b) = (a as usize, b as usize);
        let entries = &self.counts[a..b];
        match short_key(code) {
            // Two codes are equal exactly when their keys are, and a longer
            // code has none.
            Some(k) => entries
                .iter()
                .zip(&self.count_keys[a..b])
                .find(|(_, key)| **key == Some(k))
                .map_or(0, |((_, n), _)| *n),
            None => entries
                .iter()
                .find(|((_, c), _)| c.as_ref() == code)
                .map_or(0, |(_, n)| *n),
        }
    }

    /// How many factories of the nation stand in zone `z`
    /// ([`State::factories`]).
    pub fn factories(&self, z: &str) -> usize {
        self.factories
            .binary_search_by(|(f, _)| f.as_ref().cmp(z))
            .map_or(0, |i| self.factories[i].1)
    }
}

/// Every nation's [`UnitsOf`], and which nation each player plays.
#[derive(Debug, Default)]
pub struct Index {
    nation_of: HashMap<String, String>,
    nations: HashMap<String, NationIndex>,
}

/// What the parse of one nation's block reads of the [`Index`], found by
/// one hash of the nation's code: the units, the issuing zones and the
/// nation's entry of the state were three searches a block, the entry a
/// `BTreeMap` search comparing codes some eight times at 100 nations
/// (issue 21).
#[derive(Debug)]
pub struct NationIndex {
    pub units: UnitsOf<String>,
    /// The map positions ([`crate::model::Map::position`]) of the zones
    /// the nation may issue local orders from: those whose status names
    /// it, and those where it has units; ascending. Asked for every local
    /// order, it replaced a search of the zones' `BTreeMap` (ten string
    /// compares at 1,000 zones) by a search of numbers.
    pub issuers: Vec<usize>,
    /// `State::nations`' entry of the nation's code, copied.
    pub entry: Option<Nation>,
}

impl Index {
    pub fn build(st: &State) -> Index {
        let mut ix = Index::default();
        let mut units: HashMap<String, UnitsOf<String>> = HashMap::default();
        let mut issuers: HashMap<String, Vec<usize>> = HashMap::default();
        // [`State::nation_of_player`] takes the first nation in code order.
        for n in st.nations.values() {
            ix.nation_of
                .entry(n.player.clone())
                .or_insert_with(|| n.code.clone());
            units.insert(n.code.clone(), UnitsOf::default());
        }
        for u in st.units.values() {
            if let Some(of) = units.get_mut(u.owner.as_str()) {
                of.add(st, u, str::to_string, Want::ALL);
            }
        }
        for of in units.values_mut() {
            of.finish();
        }
        for (code, zs) in &st.zones {
            let Some(at) = st.map.position(code) else {
                continue;
            };
            for n in zs.status.parties() {
                issuers.entry(n).or_default().push(at);
            }
        }
        for (n, of) in &units {
            let at = of.present.iter().filter_map(|z| st.map.position(z));
            issuers.entry(n.clone()).or_default().extend(at);
        }
        for v in issuers.values_mut() {
            v.sort_unstable();
            v.dedup();
        }
        for (code, of) in units {
            let entry = NationIndex {
                issuers: issuers.remove(&code).unwrap_or_default(),
                entry: st.nations.get(&code).cloned(),
                units: of,
            };
            ix.nations.insert(code, entry);
        }
        ix
    }

    /// What a block of `nation`'s orders reads of the index.
    pub fn nation(&self, nation: &str) -> Option<&NationIndex> {
        self.nations.get(nation)
    }

    /// The map positions of the zones `nation` may issue local orders
    /// from, ascending (empty for a nation with none).
    pub fn issuers(&self, nation: &str) -> &[usize] {
        self.nations
            .get(nation)
            .map_or(&[], |n| n.issuers.as_slice())
    }

    /// The code of the nation `player` plays ([`State::nation_of_player`]).
    pub fn nation_of(&self, player: &str) -> Option<&str> {
        self.nation_of.get(player).map(String::as_str)
    }

    pub fn units_of(&self, nation: &str) -> Option<&UnitsOf<String>> {
        self.nations.get(nation).map(|n| &n.units)
    }
}
