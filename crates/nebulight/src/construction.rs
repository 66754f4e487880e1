//! Phases 3, 4, 6 and 7: ship construction and research, population limits,
//! industries, and VI turned into industries (spec 4, 7.3; rulebook
//! "La production").
//!
//! Every quantity is carried out for as much as the world's UP allow
//! (decision AMB-15), each UP spending one MP of the same world (AMB-9).

use crate::model::*;
use crate::orders::{Build, Order};
use crate::tech;
use crate::turn::{orders_for, partial, Ctx};

fn check_world(s: &mut NebState, slot: Slot, w: WorldId, line: usize, text: &str) -> bool {
    if !s.worlds.contains_key(&w) {
        s.reject(slot, line, text, format!("monde {w} inconnu"));
        return false;
    }
    if !s.owns_world(slot, w) {
        s.reject(
            slot,
            line,
            text,
            format!("le monde {w} ne vous appartient pas"),
        );
        return false;
    }
    true
}

/// Grants `min(asked, available)`, reporting a shortfall or a refusal.
fn grant(
    s: &mut NebState,
    slot: Slot,
    line: usize,
    text: &str,
    asked: u32,
    avail: u32,
    none: &str,
) -> u32 {
    let got = asked.min(avail);
    if got == 0 && asked > 0 {
        s.reject(slot, line, text, none.to_string());
    } else if got < asked {
        s.reject(slot, line, text, partial(got, asked));
    }
    got
}

/// Phase 3: VC, VI, VP and research.
pub fn ships_and_research(ctx: &mut Ctx<'_, '_>) {
    let list = orders_for(ctx, |o| o.phase() == 3);
    for (slot, o) in list {
        let Order::Build { world, qty, what } = o.order else {
            continue;
        };
        let s = &mut *ctx.state;
        if !check_world(s, slot, world, o.line, &o.text) {
            continue;
        }
        if let Build::Vc(f) = what {
            match s.fleets.get(&f) {
                None => {
                    s.reject(slot, o.line, &o.text, format!("flotte {f} inconnue"));
                    continue;
                }
                Some(fl) if fl.owner != Some(slot) => {
                    s.reject(
                        slot,
                        o.line,
                        &o.text,
                        format!("la flotte {f} ne vous appartient pas"),
                    );
                    continue;
                }
                Some(fl) if fl.world != world => {
                    s.reject(
                        slot,
                        o.line,
                        &o.text,
                        format!("la flotte {f} n'est pas sur {world}"),
                    );
                    continue;
                }
                _ => {}
            }
        }
        let mut avail = s.up_left(world);
        if let Build::Research(t) = what {
            let room = tech::room(t, s.tech(slot, t));
            if room == 0 {
                s.reject(
                    slot,
                    o.line,
                    &o.text,
                    format!("{} déjà au niveau maximum", tech::keyword(t)),
                );
                continue;
            }
            avail = avail.min(room);
        }
        let got = grant(
            s,
            slot,
            o.line,
            &o.text,
            qty,
            avail,
            &format!("plus d'UP disponibles sur {world}"),
        );
        if got == 0 {
            continue;
        }
        s.spend_up(world, got);
        match what {
            Build::Vc(f) => s.fleets.get_mut(&f).expect("checked").vc += got,
            Build::Vi => s.worlds.get_mut(&world).expect("checked").vi += got,
            Build::Vp => s.worlds.get_mut(&world).expect("checked").vp += got,
            Build::Research(t) => tech::research(t, s.tech_mut(slot, t), got),
            Build::Limit | Build::Industry => unreachable!("phase 3 only"),
        }
    }
}

/// Phase 4: `M_m C x P`, one UP per point of population limit.
pub fn limits(ctx: &mut Ctx<'_, '_>) {
    for (slot, o) in orders_for(ctx, |o| o.phase() == 4) {
        let Order::Build { world, qty, .. } = o.order else {
            continue;
        };
        let s = &mut *ctx.state;
        if !check_world(s, slot, world, o.line, &o.text) {
            continue;
        }
        let avail = s.up_left(world);
        let got = grant(
            s,
            slot,
            o.line,
            &o.text,
            qty,
            avail,
            &format!("plus d'UP disponibles sur {world}"),
        );
        if got > 0 {
            s.spend_up(world, got);
            s.worlds.get_mut(&world).expect("checked").limit += got;
        }
    }
}

/// Phase 6: industries at 4 UP each, whole industries only.
pub fn industries(ctx: &mut Ctx<'_, '_>) {
    for (slot, o) in orders_for(ctx, |o| o.phase() == 6) {
        let Order::Build { world, qty, .. } = o.order else {
            continue;
        };
        let s = &mut *ctx.state;
        if !check_world(s, slot, world, o.line, &o.text) {
            continue;
        }
        let avail = s.up_left(world) / 4;
        let got = grant(
            s,
            slot,
            o.line,
            &o.text,
            qty,
            avail,
            &format!("moins de 4 UP disponibles sur {world}"),
        );
        if got > 0 {
            s.spend_up(world, 4 * got);
            s.worlds.get_mut(&world).expect("checked").industries += got;
        }
    }
}

/// Phase 7: 4 VI become 1 industry, VI built in phase 3 included.
pub fn convert(ctx: &mut Ctx<'_, '_>) {
    for (slot, o) in orders_for(ctx, |o| o.phase() == 7) {
        let Order::Convert { world, qty } = o.order else {
            continue;
        };
        let s = &mut *ctx.state;
        if !check_world(s, slot, world, o.line, &o.text) {
            continue;
        }
        let avail = s.worlds[&world].vi / 4;
        let got = grant(
            s,
            slot,
            o.line,
            &o.text,
            qty,
            avail,
            &format!("moins de 4 VI sur {world}"),
        );
        if got > 0 {
            let w = s.worlds.get_mut(&world).expect("checked");
            w.vi -= 4 * got;
            w.industries += got;
        }
    }
}
