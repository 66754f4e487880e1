//! The ruleset registry (issue 2 item 8): a game's `ruleset = "nebulight"`
//! picks the engine. Built-in entries are the ruleset crates linked into the
//! binary; tests add their own (the toy `Tally`) with [`Registry::with`], so
//! no test ruleset ever ships.

use crate::fault::Guarded;
use arbitre_core::{Adapter, Engine};
use std::collections::BTreeMap;

pub struct Registry {
    engines: BTreeMap<&'static str, Box<dyn Engine>>,
    /// Registration order: `demo` takes the first real ruleset.
    order: Vec<&'static str>,
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("unknown ruleset '{id}'; known rulesets: {}", known.join(", "))]
pub struct UnknownRuleset {
    pub id: String,
    pub known: Vec<String>,
}

impl Registry {
    pub fn empty() -> Registry {
        Registry {
            engines: BTreeMap::new(),
            order: Vec::new(),
        }
    }

    /// Every ruleset crate compiled into this binary.
    pub fn builtin() -> Registry {
        // In the order of docs/contributing.md; each line lands with its crate.
        Registry::empty()
            .with(Adapter::boxed(arbitre_nebulight::Nebulight))
            .with(Adapter::boxed(arbitre_eds::Eds))
            .with(Adapter::boxed(arbitre_scrambled::Scrambled))
            .with(Adapter::boxed(arbitre_wwk::Wwk))
    }

    /// Adds (or replaces) an engine under its own `info().id`. Every
    /// engine is wrapped in [`Guarded`]: its panics become errors (issue 14
    /// item 7, fault.rs).
    pub fn with(mut self, engine: Box<dyn Engine>) -> Registry {
        let id = engine.info().id;
        let engine: Box<dyn Engine> = Box::new(Guarded(engine));
        if self.engines.insert(id, engine).is_none() {
            self.order.push(id);
        }
        self
    }

    pub fn get(&self, id: &str) -> Result<&dyn Engine, UnknownRuleset> {
        let key = id.trim().to_ascii_lowercase();
        self.engines
            .get(key.as_str())
            .map(|b| b.as_ref())
            .ok_or_else(|| UnknownRuleset {
                id: id.to_string(),
                known: self.ids().iter().map(|s| s.to_string()).collect(),
            })
    }

    /// Ids in registration order.
    pub fn ids(&self) -> Vec<&'static str> {
        self.order.clone()
    }

    pub fn first(&self) -> Option<&dyn Engine> {
        self.order
            .first()
            .and_then(|id| self.engines.get(id))
            .map(|b| b.as_ref())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_ruleset_names_the_known_ones() {
        let r = Registry::builtin();
        let e = r.get("chess").err().unwrap();
        assert_eq!(e.id, "chess");
        assert!(!e.known.is_empty());
        assert!(
            e.to_string()
                .starts_with("unknown ruleset 'chess'; known rulesets: "),
            "{e}"
        );
        for id in r.ids() {
            assert_eq!(r.get(id).unwrap().info().id, id);
            assert_eq!(
                r.get(&id.to_uppercase()).unwrap().info().id,
                id,
                "ids match case-insensitively"
            );
        }
    }
}

#[cfg(test)]
mod builtin_tests {
    use super::*;

    #[test]
    fn the_four_rulesets_are_registered_in_order() {
        assert_eq!(
            Registry::builtin().ids(),
            vec!["nebulight", "eds", "scrambled", "wwk"]
        );
        assert_eq!(Registry::builtin().first().unwrap().info().id, "nebulight");
    }
}
