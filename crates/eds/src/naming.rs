//! Phases 1 and 2: Änderung von Stern- und Raumschiffnamen (rulebook Punkt 1/2,
//! spec O-1, O-2). Names are upper case, letters A–Z ÄÖÜ, digits and spaces, at
//! most 12 characters, unique among the ruler's own stars (or ships).

use crate::events::msg;
use crate::orders::Order;
use crate::turn::{entries, m03, m04};
use crate::Eds;
use arbitre_core::TurnCtx;

/// A cleaned name and whether it was cut; `None` for an empty or illegal name.
pub fn clean_name(raw: &str, max: usize) -> Option<(String, bool)> {
    let up: String = raw.to_uppercase();
    let collapsed = up.split_whitespace().collect::<Vec<_>>().join(" ");
    if collapsed.is_empty() {
        return None;
    }
    if !collapsed
        .chars()
        .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == ' ' || "ÄÖÜ".contains(c))
    {
        return None;
    }
    let n = collapsed.chars().count();
    if n <= max {
        return Some((collapsed, false));
    }
    let cut: String = collapsed.chars().take(max).collect();
    Some((cut.trim_end().to_string(), true))
}

pub fn phase1_star_names(ctx: &mut TurnCtx<'_, Eds>) {
    for (ruler, text, order) in entries(ctx, 1) {
        let Order::StarName { star, name } = order else {
            continue;
        };
        let st = &*ctx.state;
        if st.stars.get(&star).and_then(|s| s.owner) != Some(ruler) {
            msg(ctx.events, ruler, 1, true, Some(&text), m03(star));
            continue;
        }
        let Some((name, cut)) = clean_name(&name, st.params.name_max_len) else {
            msg(
                ctx.events,
                ruler,
                1,
                true,
                Some(&text),
                "Name ungültig (nur Buchstaben, Ziffern, Leerzeichen) – Befehl verworfen",
            );
            continue;
        };
        if st
            .stars
            .values()
            .any(|s| s.owner == Some(ruler) && s.number != star && s.name == name)
        {
            msg(
                ctx.events,
                ruler,
                1,
                true,
                Some(&text),
                format!("Name {name} in Deinem Reich bereits vergeben – Befehl verworfen"),
            );
            continue;
        }
        if cut {
            msg(
                ctx.events,
                ruler,
                1,
                false,
                Some(&text),
                format!("Name auf 12 Zeichen gekürzt: {name}"),
            );
        }
        ctx.state.stars.get_mut(&star).expect("star").name = name;
    }
}

pub fn phase2_ship_names(ctx: &mut TurnCtx<'_, Eds>) {
    for (ruler, text, order) in entries(ctx, 2) {
        let Order::ShipName { ship, name } = order else {
            continue;
        };
        let st = &*ctx.state;
        if st.ships.get(&ship).map(|s| s.owner) != Some(ruler) {
            msg(ctx.events, ruler, 2, true, Some(&text), m04(ship));
            continue;
        }
        let Some((name, cut)) = clean_name(&name, st.params.name_max_len) else {
            msg(
                ctx.events,
                ruler,
                2,
                true,
                Some(&text),
                "Name ungültig (nur Buchstaben, Ziffern, Leerzeichen) – Befehl verworfen",
            );
            continue;
        };
        if st
            .ships
            .values()
            .any(|s| s.owner == ruler && s.number != ship && s.name == name)
        {
            msg(
                ctx.events,
                ruler,
                2,
                true,
                Some(&text),
                format!("Name {name} in Deinem Reich bereits vergeben – Befehl verworfen"),
            );
            continue;
        }
        if cut {
            msg(
                ctx.events,
                ruler,
                2,
                false,
                Some(&text),
                format!("Name auf 12 Zeichen gekürzt: {name}"),
            );
        }
        ctx.state.ships.get_mut(&ship).expect("ship").name = name;
    }
}
