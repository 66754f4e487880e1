//! Orders as a player wrote them: every line gets a verdict.
//!
//! Parsing never stops at the first error (rust-analyzer's rule: return the
//! tree and the errors). A parser returns [`Parsed`]: every order it understood,
//! each with its line, and a [`Diagnostic`] for every line it could not use.
//! The confirmation mail echoes each line with OK or its reason, built by
//! [`Parsed::verdicts`].

use serde::{Deserialize, Serialize};

/// An order with the line it came from (1-based, counted within the order block).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Located<O> {
    pub line: usize,
    pub text: String,
    pub order: O,
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
}

impl<O> Default for Parsed<O> {
    fn default() -> Self {
        Parsed {
            orders: Vec::new(),
            diagnostics: Vec::new(),
            ready: true,
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

    pub fn push(&mut self, line: usize, text: impl Into<String>, order: O) {
        self.orders.push(Located {
            line,
            text: text.into(),
            order,
        });
    }

    pub fn error(&mut self, line: usize, text: impl Into<String>, reason: impl Into<String>) {
        self.diagnostics.push(Diagnostic {
            line,
            text: text.into(),
            reason: reason.into(),
            warning: false,
        });
    }

    pub fn warn(&mut self, line: usize, text: impl Into<String>, reason: impl Into<String>) {
        self.diagnostics.push(Diagnostic {
            line,
            text: text.into(),
            reason: reason.into(),
            warning: true,
        });
    }

    pub fn error_count(&self) -> usize {
        self.diagnostics.iter().filter(|d| !d.warning).count()
    }

    /// One verdict per line that carried an order or a diagnostic, in line order.
    /// A line with an order and a warning echoes the warning; a line with only
    /// an error echoes the error. Several orders on one line give one verdict.
    pub fn verdicts(&self) -> Vec<LineVerdict> {
        let mut out: Vec<LineVerdict> = Vec::new();
        for o in &self.orders {
            out.push(LineVerdict {
                line: o.line,
                text: o.text.clone(),
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
                text: d.text.clone(),
                verdict: v,
            });
        }
        // Stable: for one line, the order's OK comes first, then its diagnostics.
        out.sort_by_key(|v| v.line);
        // An OK followed by a diagnostic on the same line is replaced by it.
        let mut merged: Vec<LineVerdict> = Vec::with_capacity(out.len());
        for v in out {
            if let Some(last) = merged.last_mut() {
                if last.line == v.line && last.verdict == Verdict::Ok && v.verdict != Verdict::Ok {
                    *last = v;
                    continue;
                }
                if last.line == v.line && v.verdict == Verdict::Ok {
                    continue;
                }
            }
            merged.push(v);
        }
        merged
    }
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
        assert_eq!(
            v.iter().map(|v| v.line).collect::<Vec<_>>(),
            vec![1, 2, 3, 5]
        );
        assert_eq!(v[1].verdict, Verdict::Warning("tir partiel".into()));
        assert_eq!(v[2].verdict, Verdict::Ok);
        assert_eq!(p.error_count(), 2);
    }
}
