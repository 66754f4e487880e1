//! The TERRITOIRES table of the text report: one row per territory of the
//! map in every report, so its rows are written from buffers reused from
//! row to row, and a turn's reports share the rows that read alike for
//! every viewer ([`crate::public`]).

use crate::report::{pad, pad_into, rpad_into, section_line, section_title};
use crate::view::{Index, PlayerRow, TerritoryRow};
use std::fmt::Write;

/// The columns' widths: from the map's ids and names and the players'
/// names, the same in every report of a state.
#[derive(Clone, Copy, Debug)]
pub struct Widths {
    iw: usize,
    nw: usize,
    ow: usize,
}

impl Widths {
    pub fn new(rows: &[TerritoryRow], players: &[PlayerRow]) -> Widths {
        let nw = rows
            .iter()
            .map(|t| t.name.chars().count())
            .max()
            .unwrap_or(3)
            .max(3)
            + 1;
        let iw = rows.iter().map(|t| t.id.0.len()).max().unwrap_or(2).max(2) + 2;
        let ow = players
            .iter()
            .map(|p| p.name.chars().count())
            .max()
            .unwrap_or(6)
            .max(9)
            + 2;
        Widths { iw, nw, ow }
    }
}

/// The section's title and the table's header line.
pub fn table_head(out: &mut String, w: Widths) {
    let Widths { iw, nw, ow } = w;
    // Flags before troops, so that one long list of stacks does not widen
    // every row; a row that would pass 100 columns continues on the next line.
    section_title(out, "TERRITOIRES");
    section_line(
        out,
        &format!(
            "{}{}{}{:>8}  {}{:>4}  {}{}",
            pad("Id", iw),
            pad("Nom", nw),
            pad("Terrain", 9),
            "km2",
            pad("Détenteur", ow),
            "Éco",
            pad("Drapeaux", 21),
            "Troupes"
        ),
    );
}

/// The buffers a row is written through, reused from row to row.
#[derive(Default)]
pub struct TableRows {
    head: String,
    troops: String,
    row: String,
    num: String,
    fl: String,
}

impl TableRows {
    /// Row `r` (with its continuation lines) at the end of `out`.
    pub fn write(&mut self, out: &mut String, ix: &Index<'_>, r: &TerritoryRow, w: Widths) {
        let Widths { iw, nw, ow } = w;
        let TableRows {
            head,
            troops,
            row,
            num,
            fl,
        } = self;
        troops.clear();
        match &r.troops {
            None => troops.push('?'),
            Some(stacks) if stacks.is_empty() => troops.push('-'),
            Some(stacks) => {
                for (i, s) in stacks.iter().enumerate() {
                    if i > 0 {
                        troops.push_str(", ");
                    }
                    let _ = write!(troops, "{} {}", ix.player(&s.player), s.count);
                }
            }
        }
        let owner = r.owner.as_ref().map(|o| ix.player(o)).unwrap_or("-");
        head.clear();
        pad_into(head, r.id.as_str(), iw);
        pad_into(head, &r.name, nw);
        pad_into(head, r.terrain.french(), 9);
        num.clear();
        match r.area {
            Some(a) => {
                let _ = write!(num, "{a}");
            }
            None => num.push('-'),
        }
        rpad_into(head, num, 8);
        head.push_str("  ");
        pad_into(head, owner, ow);
        num.clear();
        match r.economy {
            Some(e) => {
                let _ = write!(num, "{e}%");
            }
            None => num.push('-'),
        }
        rpad_into(head, num, 4);
        head.push_str("  ");
        fl.clear();
        for (i, f) in r.flags.iter().enumerate() {
            if i > 0 {
                fl.push(' ');
            }
            fl.push_str(f.word());
        }
        pad_into(head, fl, 21);
        let width = head.chars().count();
        if width + troops.chars().count() <= 100 {
            row.clear();
            row.push_str(head);
            row.push_str(troops);
            section_line(out, row);
        } else {
            section_line(out, head.trim_end());
            let mut cont = String::from("      troupes :");
            for part in troops.split(", ") {
                if cont.chars().count() + part.chars().count() + 2 > 100 {
                    section_line(out, cont.trim_end_matches(','));
                    cont = String::from("               ");
                }
                cont.push(' ');
                cont.push_str(part);
                cont.push(',');
            }
            section_line(out, cont.trim_end_matches(','));
        }
    }
}
