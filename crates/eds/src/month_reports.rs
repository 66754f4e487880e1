//! A month's reports, one per viewer (issue 22 item 5). Most of what they
//! hold is the same for every viewer: the public frame of the view (the
//! Herrscherliste, the star directory, the Kampfberichte, the
//! Sternenanzeiger), the index of where ships stand, the SVG map's grid
//! and foreign stars. [`MonthReports`] builds each of those once, when a
//! report first needs it, and every report of the month copies it.

use crate::directory::Directory;
use crate::events::Event;
use crate::model::{Spatial, State};
use crate::svg::SvgBase;
use crate::view::{self, EdsView};
use crate::{formulas, report};
use arbitre_core::{Report, ReportFacts, Viewer};
use std::cell::OnceCell;

pub struct MonthReports<'a> {
    state: &'a State,
    events: &'a [Event],
    /// More than one report will be made: worth keeping what they share.
    /// A single report builds its parts directly, without the copies.
    shared: bool,
    frame: OnceCell<EdsView>,
    spots: OnceCell<Spatial>,
    svg: OnceCell<SvgBase>,
    directory: OnceCell<Directory>,
    sections: OnceCell<String>,
}

impl<'a> MonthReports<'a> {
    /// `events` empty: a report rendered again from a stored state, which
    /// uses the month's saved events. `shared`: more than one report.
    pub fn new(state: &'a State, events: &'a [Event], shared: bool) -> MonthReports<'a> {
        let events = if events.is_empty() {
            &state.last_events[..]
        } else {
            events
        };
        MonthReports {
            state,
            events,
            shared,
            frame: OnceCell::new(),
            spots: OnceCell::new(),
            svg: OnceCell::new(),
            directory: OnceCell::new(),
            sections: OnceCell::new(),
        }
    }

    fn frame(&self) -> EdsView {
        if !self.shared {
            return view::public_frame(self.state, self.events);
        }
        self.frame
            .get_or_init(|| view::public_frame(self.state, self.events))
            .clone()
    }

    fn spots(&self) -> &Spatial {
        self.spots.get_or_init(|| report::ship_spots(self.state))
    }

    fn svg(&self, viewer: Option<crate::model::RulerNr>) -> String {
        self.svg
            .get_or_init(|| SvgBase::new(self.state))
            .render(self.state, viewer)
    }

    /// The body of `v`, whose star list is the frame's.
    fn render(&self, v: &EdsView) -> String {
        let dir = self
            .shared
            .then(|| self.directory.get_or_init(|| Directory::new(&v.map.stars)));
        report::render_with(v, dir)
    }

    /// The report for `viewer`, with the referee's `facts`.
    pub fn report(&self, viewer: &Viewer, facts: &ReportFacts) -> Report {
        let (state, events) = (self.state, self.events);
        let deadline = if state.game_over {
            None
        } else {
            facts.deadline.clone()
        };
        // A game started from a position has a month but no evaluation yet
        // (issue 17 item 9): no Monatsbericht, no Kampfberichte.
        let untold = |v: &mut EdsView| {
            if facts.setup_only {
                v.battles.clear();
                v.public_report = None;
                for d in &mut v.sheets {
                    d.month_report = None;
                }
            }
            v.deadline = deadline.clone();
        };
        let label = if state.month == 0 {
            "Spielvorbereitung".to_string()
        } else {
            formulas::short_month(&state.params, state.month)
        };
        match viewer {
            Viewer::Player(id) => {
                let Some(r) = state.ruler_by_id(id) else {
                    return Report::text(label, "Unbekannter Herrscher.\n");
                };
                let n = r.number;
                let mut v = view::player_view_from(state, events, self.spots(), self.frame(), n);
                untold(&mut v);
                let body = self.render(&v);
                let tag = label.replace('/', "");
                let mut rep = Report::text(
                    format!("{label} · Besitztümerblatt {:02} {}", n, r.name),
                    body,
                )
                .with_view(&v)
                .with_attachment(
                    &format!("sternenkarte-{tag}.svg"),
                    "image/svg+xml",
                    self.svg(Some(n)),
                );
                if !state.game_over && r.active {
                    rep = rep.with_attachment(
                        &format!(
                            "befehlsblatt-{}.txt",
                            formulas::short_month(&state.params, state.month + 1).replace('/', "")
                        ),
                        "text/plain",
                        report::befehlsblatt_with(
                            state,
                            n,
                            self.sections
                                .get_or_init(|| report::befehlsblatt_sections(state)),
                        ),
                    );
                }
                rep
            }
            Viewer::Spectator => {
                let mut v = view::spectator_view_from(state, events, self.frame());
                untold(&mut v);
                Report::text(format!("{label} · öffentlich"), self.render(&v))
                    .with_view(&v)
                    .with_attachment("sternenkarte.svg", "image/svg+xml", self.svg(None))
            }
            Viewer::GameMaster => {
                let mut v = view::master_view_from(state, events, self.spots(), self.frame());
                untold(&mut v);
                Report::text(format!("{label} · Spielleitung"), self.render(&v)).with_view(&v)
            }
        }
    }
}
