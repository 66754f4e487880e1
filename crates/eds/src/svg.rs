//! The SVG map attached to the report mail (issue 18 item 6): the same facts
//! as the text Sternenkarte and Sternverzeichnis (every star with its
//! number, the viewer's own stars with their names, the viewer's ships), on
//! a coordinate grid labelled as jumps are written (X,Y from 1,1 at the top
//! left), with a legend. Foreign owners are not drawn: the text map does not
//! show them either. Each star carries `data-id` (its number) for the
//! fog-of-war test. Cells are 20 pixels in the usual galaxies (53×35,
//! 96×65); a very wide galaxy gets smaller cells and loses the numbers of
//! foreign stars, which the grid and the Sternverzeichnis still give.
//!
//! Most of a map is the same for every viewer of a month (the grid, the
//! legend, every star not their own), so [`SvgBase`] writes that once and
//! each viewer's map copies it around their title, ships and own stars.

use crate::formulas::short_month;
use crate::model::{RulerNr, Star, State};
use std::fmt::Write;
use std::ops::Range;

/// The viewer-independent parts of a month's SVG map.
pub struct SvgBase {
    /// The cell size in pixels, and whether foreign stars show numbers.
    c: i32,
    numbers: bool,
    /// From `<svg` to the title's text up to the viewer's name.
    head: String,
    /// The title's end after the viewer's name, and the grid.
    grid: String,
    /// Every star drawn as a foreign one, in number order; `spans[i]` is
    /// the i-th star's text.
    stars: String,
    spans: Vec<Range<usize>>,
    /// The legend and the closing tag.
    legend: String,
}

const LEFT: i32 = 34;
const TOP: i32 = 58;
const LEGEND_H: i32 = 54;

impl SvgBase {
    pub fn new(state: &State) -> SvgBase {
        let (gw, gh) = (state.width.max(1), state.height.max(1));
        let c = (1800 / gw).clamp(6, 20);
        let numbers = c >= 14;
        let (w, h) = (LEFT + gw * c + 12, TOP + gh * c + 12 + LEGEND_H);
        let mut head = String::with_capacity(512);
        let _ = writeln!(
            head,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-family=\"sans-serif\">\n<rect width=\"{w}\" height=\"{h}\" fill=\"#0b0b2a\"/>"
        );
        let _ = write!(
            head,
            "<title>Sternenkarte {} {}</title>\n<text x=\"10\" y=\"22\" font-size=\"16\" font-weight=\"bold\" fill=\"#ffffff\">Sternenkarte · Galaxis {} · ",
            esc(&state.galaxy),
            short_month(&state.params, state.month.max(1)),
            esc(&state.galaxy),
        );
        let stand = if state.month == 0 {
            "Spielvorbereitung".to_string()
        } else {
            format!("Stand nach {}", short_month(&state.params, state.month))
        };
        let mut grid = String::with_capacity((gw + gh) as usize * 160 + 256);
        let _ = writeln!(grid, " · {stand}</text>");
        push_grid(&mut grid, gw, gh, c);
        let mut stars = String::with_capacity(state.stars.len() * 200);
        let mut spans = Vec::with_capacity(state.stars.len());
        for st in state.stars.values() {
            let start = stars.len();
            push_star(&mut stars, st, c, numbers, false);
            spans.push(start..stars.len());
        }
        let mut legend = String::with_capacity(1024);
        let ly = TOP + gh * c + 12;
        let _ = writeln!(
            legend,
            "<rect x=\"6\" y=\"{ly}\" width=\"{}\" height=\"{}\" fill=\"#15153a\" stroke=\"#5a5a8a\"/>\n\
             <circle cx=\"20\" cy=\"{}\" r=\"4\" fill=\"#e8e8e8\"/><text x=\"30\" y=\"{}\" font-size=\"12\" fill=\"#ffffff\">Stern (Nummer)</text>\n\
             <circle cx=\"150\" cy=\"{}\" r=\"6\" fill=\"#4cdf50\"/><text x=\"162\" y=\"{}\" font-size=\"12\" fill=\"#ffffff\">eigener Stern (Nummer Name)</text>\n\
             <rect x=\"360\" y=\"{}\" width=\"14\" height=\"14\" fill=\"none\" stroke=\"#ffcc00\" stroke-width=\"2\"/><text x=\"380\" y=\"{}\" font-size=\"12\" fill=\"#ffffff\">eigene Schiffe (Anzahl)</text>\n\
             <text x=\"14\" y=\"{}\" font-size=\"12\" fill=\"#b0b0d0\">Koordinaten X (oben) und Y (links) wie in den Sprungbefehlen (X,Y)</text>",
            w - 12,
            LEGEND_H - 8,
            ly + 16,
            ly + 20,
            ly + 16,
            ly + 20,
            ly + 9,
            ly + 20,
            ly + 40
        );
        legend.push_str("</svg>\n");
        SvgBase {
            c,
            numbers,
            head,
            grid,
            stars,
            spans,
            legend,
        }
    }

    /// The map of `viewer` (None: the public map). `state` must be the
    /// one the base was made from.
    pub fn render(&self, state: &State, viewer: Option<RulerNr>) -> String {
        let who = match viewer {
            Some(r) => format!("{:02} {}", r, state.name_of(r)),
            None => "öffentlich".into(),
        };
        let mut s = String::with_capacity(
            self.head.len() + self.grid.len() + self.stars.len() + self.legend.len() + 4096,
        );
        s.push_str(&self.head);
        s.push_str(&esc(&who));
        s.push_str(&self.grid);
        if let Some(r) = viewer {
            self.push_ships(&mut s, state, r);
        }
        // Foreign stars are copied in runs; only the viewer's own are drawn.
        let mut from = 0;
        for (st, span) in state.stars.values().zip(&self.spans) {
            if viewer.is_some() && st.owner == viewer {
                s.push_str(self.stars.get(from..span.start).unwrap_or_default());
                push_star(&mut s, st, self.c, self.numbers, true);
                from = span.end;
            }
        }
        s.push_str(self.stars.get(from..).unwrap_or_default());
        s.push_str(&self.legend);
        s
    }

    /// The viewer's ships, by point (under the stars, so a star stays visible).
    fn push_ships(&self, s: &mut String, state: &State, r: RulerNr) {
        let c = self.c;
        let mut at: std::collections::BTreeMap<(i32, i32), u32> = std::collections::BTreeMap::new();
        for sh in state.ships.values().filter(|x| x.owner == r) {
            *at.entry(sh.pos()).or_default() += 1;
        }
        let half = (c / 2).max(4);
        for ((x, y), n) in at {
            if !state.in_map(x, y) {
                continue;
            }
            let _ = writeln!(
                s,
                "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#ffcc00\" stroke-width=\"2\"><title>{n} Schiff(e) bei {x},{y}</title></rect>",
                cx(x, c) - half,
                cy(y, c) - half,
                2 * half,
                2 * half
            );
            if n > 1 && self.numbers {
                let _ = writeln!(
                    s,
                    "<text x=\"{}\" y=\"{}\" font-size=\"10\" fill=\"#ffcc00\">{n}</text>",
                    cx(x, c) + half + 1,
                    cy(y, c) + half + 2
                );
            }
        }
    }
}

fn cx(x: i32, c: i32) -> i32 {
    LEFT + (x - 1) * c + c / 2
}

fn cy(y: i32, c: i32) -> i32 {
    TOP + (y - 1) * c + c / 2
}

/// The grid: a faint line between all cells, a brighter one and a
/// coordinate every 5 (every 10 past 100 columns).
fn push_grid(s: &mut String, gw: i32, gh: i32, c: i32) {
    let step = if gw > 100 || gh > 100 { 10 } else { 5 };
    let (gx0, gy0, gx1, gy1) = (LEFT, TOP, LEFT + gw * c, TOP + gh * c);
    let _ = writeln!(s, "<rect x=\"{gx0}\" y=\"{gy0}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#5a5a8a\"/>", gw * c, gh * c);
    for x in 1..=gw {
        let major = x % step == 0 || x == 1;
        if c >= 10 || major {
            let lx = LEFT + x * c;
            if x < gw {
                let _ = writeln!(s, "<line x1=\"{lx}\" y1=\"{gy0}\" x2=\"{lx}\" y2=\"{gy1}\" stroke=\"{}\" stroke-width=\"1\"/>", if x % step == 0 { "#3a3a6a" } else { "#1c1c44" });
            }
        }
        if major {
            let _ = writeln!(s, "<text x=\"{}\" y=\"{}\" font-size=\"11\" fill=\"#b0b0d0\" text-anchor=\"middle\">{x}</text>", cx(x, c), TOP - 6);
        }
    }
    for y in 1..=gh {
        let major = y % step == 0 || y == 1;
        let ly = TOP + y * c;
        if (c >= 10 || major) && y < gh {
            let _ = writeln!(s, "<line x1=\"{gx0}\" y1=\"{ly}\" x2=\"{gx1}\" y2=\"{ly}\" stroke=\"{}\" stroke-width=\"1\"/>", if y % step == 0 { "#3a3a6a" } else { "#1c1c44" });
        }
        if major {
            let _ = writeln!(s, "<text x=\"{}\" y=\"{}\" font-size=\"11\" fill=\"#b0b0d0\" text-anchor=\"end\">{y}</text>", LEFT - 4, cy(y, c) + 4);
        }
    }
}

/// One star: the viewer's own large, green and named; a foreign one small
/// with its number when the cells are large enough.
fn push_star(s: &mut String, st: &Star, c: i32, numbers: bool, own: bool) {
    let (x, y) = (cx(st.x, c), cy(st.y, c));
    let (r, fill) = if own {
        ((c / 3).max(3), "#4cdf50")
    } else {
        ((c / 5).max(2), "#e8e8e8")
    };
    let _ = write!(
        s,
        "<g data-id=\"{}\"><circle cx=\"{x}\" cy=\"{y}\" r=\"{r}\" fill=\"{fill}\"><title>Stern {} ({},{})</title></circle>",
        st.number, st.number, st.x, st.y
    );
    if own {
        let _ = write!(
            s,
            "<text x=\"{}\" y=\"{}\" font-size=\"12\" font-weight=\"bold\" fill=\"#4cdf50\">{} {}</text>",
            x + (c / 2).max(4) + 3,
            y - 3,
            st.number,
            esc(&st.name)
        );
    } else if numbers {
        let _ = write!(
            s,
            "<text x=\"{}\" y=\"{}\" font-size=\"10\" fill=\"#c8c8e8\">{}</text>",
            x + r + 1,
            y - 2,
            st.number
        );
    }
    s.push_str("</g>\n");
}

use arbitre_core::report::xml_escape as esc;

/// The SVG map of `viewer` (None: the public map) alone; a month's reports
/// share one [`SvgBase`] instead.
pub fn sternenkarte_svg(state: &State, viewer: Option<RulerNr>) -> String {
    SvgBase::new(state).render(state, viewer)
}
