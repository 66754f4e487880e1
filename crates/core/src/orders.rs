//! Orders as a player wrote them: every line gets a verdict.
//!
//! Parsing never stops at the first error (rust-analyzer's rule: return the
//! tree and the errors). A parser returns [`Parsed`]: every order it understood,
//! each with its line, and a [`Diagnostic`] for every line it could not use.
//! The confirmation mail echoes each line with OK or its reason, built by
//! [`Parsed::verdicts`].
//!
//! Issue 17 item 8 (confirmations that tell the truth): an order a parser
//! keeps only so that the turn's report can list its refusal
//! ([`Parsed::reject`]) is not counted as accepted; an order read from a
//! section of a sheet (the EDS Befehlsblatt) is echoed with that section;
//! several entries of one line are echoed one by one. Item 7: a block whose
//! turn, month or nation does not match the open turn is refused whole
//! ([`Parsed::refuse_whole`]) and never replaces the orders already stored.

use compact_str::CompactString;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// An order with the line it came from (1-based, counted within the order block).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Located<O> {
    pub line: usize,
    /// The line as read (normalised). Kept inline up to 24 bytes, which
    /// most order lines are: a `String` here was the one allocation of an
    /// accepted order, 12-14 % of a parse (issue 21 item 2).
    pub text: CompactString,
    pub order: O,
    /// The section of the sheet the order was read in (`[7 SPRUNG]`), for
    /// the confirmation's echo; `None` where a notation has no sections.
    /// Shared by the orders of a section: a copy per order was an
    /// allocation besides its text (issue 21 item 2).
    pub section: Option<Arc<str>>,
}

/// A line that was not (fully) accepted.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Diagnostic {
    pub line: usize,
    pub text: String,
    /// Why, in the game's language ("flotte F_12 inconnue").
    pub reason: String,
    /// A warning leaves the order in force (corrected or partial); an error drops it.
    pub warning: bool,
    /// The section of the sheet the line was read in (see [`Located::section`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub section: Option<String>,
}

/// What a parser gives back: never a bare error.
#[derive(Clone, Debug)]
pub struct Parsed<O> {
    pub orders: Vec<Located<O>>,
    pub diagnostics: Vec<Diagnostic>,
    /// The player declares themself ready (early resolution). Rulesets where any
    /// order set counts as ready leave it `true`; Scrambled Nations sets it only
    /// for an explicit `READY`.
    pub ready: bool,
    /// How many of `orders` were kept only so that the turn's report can
    /// list their refusal (Nébulight's `Order::Rejected`): they carry an
    /// error and are not counted as accepted.
    pub kept_refused: usize,
    /// The whole block was refused (a turn, month or nation line that does
    /// not match the open turn, issue 17 item 7): nothing of it is in force,
    /// and the daemon keeps the orders it already stored for the turn.
    pub refused: bool,
}

impl<O> Default for Parsed<O> {
    fn default() -> Self {
        Parsed {
            orders: Vec::new(),
            diagnostics: Vec::new(),
            ready: true,
            kept_refused: 0,
            refused: false,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Verdict {
    Ok,
    Warning(String),
    Error(String),
}

/// One echoed line of a confirmation mail.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LineVerdict {
    pub line: usize,
    pub text: String,
    pub verdict: Verdict,
}

impl<O> Parsed<O> {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn push(&mut self, line: usize, text: &str, order: O) {
        self.orders.push(Located {
            line,
            text: CompactString::new(text),
            order,
            section: None,
        });
    }

    pub fn error(&mut self, line: usize, text: impl Into<String>, reason: impl Into<String>) {
        self.diagnose(line, text.into(), reason.into(), false, None);
    }

    pub fn warn(&mut self, line: usize, text: impl Into<String>, reason: impl Into<String>) {
        self.diagnose(line, text.into(), reason.into(), true, None);
    }

    /// [`Parsed::push`] for an order read in a section of a sheet.
    pub fn push_in(&mut self, section: Option<&Arc<str>>, line: usize, text: &str, order: O) {
        self.orders.push(Located {
            line,
            text: CompactString::new(text),
            order,
            section: section.cloned(),
        });
    }

    /// [`Parsed::error`] (`warning` false) or [`Parsed::warn`] (true) for a
    /// line read in a section of a sheet.
    pub fn diagnose_in(
        &mut self,
        section: Option<&str>,
        line: usize,
        text: &str,
        reason: impl Into<String>,
        warning: bool,
    ) {
        self.diagnose(
            line,
            text.to_string(),
            reason.into(),
            warning,
            section.map(str::to_string),
        );
    }

    fn diagnose(
        &mut self,
        line: usize,
        text: String,
        reason: String,
        warning: bool,
        section: Option<String>,
    ) {
        self.diagnostics.push(Diagnostic {
            line,
            text,
            reason,
            warning,
            section,
        });
    }

    /// A refused line whose order is kept all the same, so that the turn's
    /// report can list the refusal: an error, and not an accepted order.
    pub fn reject(&mut self, line: usize, text: &str, reason: impl Into<String>, order: O) {
        self.error(line, text, reason);
        self.push(line, text, order);
        self.kept_refused += 1;
    }

    /// Refuses the whole block (issue 17 item 7): every order already read
    /// becomes an error with `reason`, none stays in force, and the block is
    /// marked [`Parsed::refused`] so that it never replaces orders stored
    /// before it. The line that caused it carries its own error.
    pub fn refuse_whole(&mut self, reason: &str) {
        for o in std::mem::take(&mut self.orders) {
            let has_error = self
                .diagnostics
                .iter()
                .any(|d| !d.warning && d.line == o.line && d.text == o.text);
            if !has_error {
                let section = o.section.map(|s| s.to_string());
                self.diagnose(o.line, o.text.into(), reason.to_string(), false, section);
            }
        }
        // A warning was about an order now refused: it would read as an
        // order in force.
        self.diagnostics.retain(|d| !d.warning);
        self.kept_refused = 0;
        self.refused = true;
        self.ready = false;
    }

    pub fn error_count(&self) -> usize {
        self.diagnostics.iter().filter(|d| !d.warning).count()
    }

    /// The orders in force: those read, less those kept only to be reported
    /// as refused.
    pub fn accepted_count(&self) -> usize {
        self.orders.len().saturating_sub(self.kept_refused)
    }

    /// One verdict per line (or per entry of a line, where a notation puts
    /// several entries on one line and names each, as EDS's `a / b / c`)
    /// that carried an order or a diagnostic, in line order. An entry with
    /// an order and a warning echoes the warning; one with only an error
    /// echoes the error. Several orders read from the same text give one
    /// verdict. An entry read in a section of a sheet is echoed after the
    /// section's name (`[7 SPRUNG] 4,A,19,31`).
    pub fn verdicts(&self) -> Vec<LineVerdict> {
        fn shown(section: Option<&str>, text: &str) -> String {
            match section {
                Some(s) => format!("{s} {text}"),
                None => text.to_string(),
            }
        }
        let mut out: Vec<LineVerdict> =
            Vec::with_capacity(self.orders.len() + self.diagnostics.len());
        for o in &self.orders {
            out.push(LineVerdict {
                line: o.line,
                text: shown(o.section.as_deref(), &o.text),
                verdict: Verdict::Ok,
            });
        }
        for d in &self.diagnostics {
            let v = if d.warning {
                Verdict::Warning(d.reason.clone())
            } else {
                Verdict::Error(d.reason.clone())
            };
            out.push(LineVerdict {
                line: d.line,
                text: shown(d.section.as_deref(), &d.text),
                verdict: v,
            });
        }
        merge_verdicts(out)
    }

    /// [`Parsed::verdicts`], moving the lines' texts and the reasons
    /// instead of copying them: a 10 MiB block is not held twice while its
    /// verdicts are made (issue 14 item 1).
    pub fn into_verdicts(self) -> Vec<LineVerdict> {
        fn shown(section: Option<&str>, text: String) -> String {
            match section {
                Some(s) => format!("{s} {text}"),
                None => text,
            }
        }
        let mut out: Vec<LineVerdict> =
            Vec::with_capacity(self.orders.len() + self.diagnostics.len());
        for o in self.orders {
            out.push(LineVerdict {
                line: o.line,
                text: shown(o.section.as_deref(), o.text.into()),
                verdict: Verdict::Ok,
            });
        }
        for d in self.diagnostics {
            let v = if d.warning {
                Verdict::Warning(d.reason)
            } else {
                Verdict::Error(d.reason)
            };
            out.push(LineVerdict {
                line: d.line,
                text: shown(d.section.as_deref(), d.text),
                verdict: v,
            });
        }
        merge_verdicts(out)
    }
}

/// The verdicts of [`Parsed::verdicts`] put in line order and merged: the
/// orders' OKs first, then the diagnostics, as read.
fn merge_verdicts(mut out: Vec<LineVerdict>) -> Vec<LineVerdict> {
    // Stable: for one line, the order's OK comes first, then its diagnostics.
    out.sort_by_key(|v| v.line);
    // Within one line, the verdicts of one entry (same text) gather:
    // an OK is replaced by the entry's first diagnostic, a second OK of
    // the same entry adds nothing. A line's accepted entries come
    // first, then its refused ones, each in the order read.
    let mut merged: Vec<LineVerdict> = Vec::with_capacity(out.len());
    let mut first_of_line = 0;
    for v in out {
        if merged.last().is_some_and(|l| l.line != v.line) {
            first_of_line = merged.len();
        }
        if let Some(same) = merged[first_of_line..]
            .iter_mut()
            .find(|m| m.line == v.line && m.text == v.text)
        {
            if same.verdict == Verdict::Ok && v.verdict != Verdict::Ok {
                *same = v;
                continue;
            }
            if v.verdict == Verdict::Ok {
                continue;
            }
        }
        merged.push(v);
    }
    merged
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdicts_keep_line_order_and_every_error() {
        let mut p: Parsed<&str> = Parsed::new();
        p.push(3, "F_1 M_2", "move");
        p.error(1, "XYZ", "ordre inconnu");
        p.push(2, "F_3 * F_4", "fire");
        p.warn(2, "F_3 * F_4", "tir partiel");
        p.error(5, "F_9 M_1", "flotte inconnue");
        let v = p.verdicts();
        assert_eq!(p.clone().into_verdicts(), v, "moved as copied");
        assert_eq!(
            v.iter().map(|v| v.line).collect::<Vec<_>>(),
            vec![1, 2, 3, 5]
        );
        assert_eq!(v[1].verdict, Verdict::Warning("tir partiel".into()));
        assert_eq!(v[2].verdict, Verdict::Ok);
        assert_eq!(p.error_count(), 2);
    }

    #[test]
    fn item8_every_entry_of_a_line_is_echoed_with_its_section() {
        let mut p: Parsed<&str> = Parsed::new();
        let jump: Arc<str> = Arc::from("[7 SPRUNG]");
        p.push_in(Some(&jump), 4, "4,A,19,31", "jump");
        p.diagnose_in(Some("[7 SPRUNG]"), 4, "6,Q", "Syntaxfehler", false);
        p.push_in(Some(&jump), 4, "5,A,13,19", "jump");
        p.diagnose_in(Some("[7 SPRUNG]"), 4, "5,A,13,19", "Achtung", true);
        let v = p.verdicts();
        assert_eq!(p.clone().into_verdicts(), v, "moved as copied");
        let shown: Vec<(&str, &Verdict)> =
            v.iter().map(|v| (v.text.as_str(), &v.verdict)).collect();
        assert_eq!(
            shown,
            vec![
                ("[7 SPRUNG] 4,A,19,31", &Verdict::Ok),
                ("[7 SPRUNG] 5,A,13,19", &Verdict::Warning("Achtung".into())),
                ("[7 SPRUNG] 6,Q", &Verdict::Error("Syntaxfehler".into())),
            ]
        );
        assert_eq!(p.accepted_count(), 2);
    }

    #[test]
    fn item7_refuse_whole_leaves_nothing_in_force() {
        let mut p: Parsed<&str> = Parsed::new();
        p.error(1, "TURN 9", "wrong turn");
        p.push(2, "MOVE", "move");
        p.warn(2, "MOVE", "corrected");
        p.reject(3, "XX", "unknown", "rejected");
        p.refuse_whole("refused whole");
        assert!(p.refused && !p.ready);
        assert!(p.orders.is_empty());
        assert_eq!(p.accepted_count(), 0);
        assert!(p.diagnostics.iter().all(|d| !d.warning));
        // One error per line: XX keeps its own reason, not a second one.
        assert_eq!(p.verdicts().len(), 3, "{:?}", p.verdicts());
        assert_eq!(p.clone().into_verdicts(), p.verdicts(), "moved as copied");
    }
}
