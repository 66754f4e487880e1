//! Fixed-column text written straight into a document, as the `format!`
//! specs of §6.4.2's star and ship lines would write it (`{:>4}`, `{:<12}`,
//! `{:02}`). Every report lists hundreds of these lines (the game master's
//! every star, each ruler's sheet), and `format!`'s machinery with a
//! temporary `String` per line was most of the text's cost.

use crate::view::{ShipView, StarView};

const BLANKS: &str = "                        ";

fn push_blanks(s: &mut String, n: usize) {
    let mut n = n;
    while n > 0 {
        let k = n.min(BLANKS.len());
        s.push_str(&BLANKS[..k]);
        n -= k;
    }
}

pub use arbitre_core::report::push_int_right as push_int;

/// Appends a ruler number as `{:>width}` of `{:02}` would (the Bes column).
fn push_nr(s: &mut String, n: u8, width: usize) {
    if n < 10 {
        push_blanks(s, width.saturating_sub(2));
        s.push('0');
    }
    push_int(s, i64::from(n), if n < 10 { 0 } else { width });
}

/// Appends `text` left-aligned in `width` columns, as `{:<width}` would:
/// the width counts characters, not bytes (names may have umlauts).
pub fn push_left(s: &mut String, text: &str, width: usize) {
    s.push_str(text);
    push_blanks(s, width.saturating_sub(text.chars().count()));
}

/// Appends a star line (§6.4.2: Nr. Name Xko Yko BV I Ljg Tjg E U G ErE ErU ErG Bes).
pub fn push_star_line(s: &mut String, st: &StarView) {
    push_int(s, i64::from(st.number), 4);
    s.push(' ');
    push_left(s, &st.name, 12);
    s.push(' ');
    push_int(s, i64::from(st.x), 3);
    s.push(' ');
    push_int(s, i64::from(st.y), 3);
    s.push(' ');
    push_int(s, i64::from(st.bv), 2);
    s.push(' ');
    s.push(st.facility.map(|f| f.letter()).unwrap_or('-'));
    for (v, w) in [
        (st.ljg, 3),
        (st.tjg, 3),
        (st.stock.e, 5),
        (st.stock.u, 5),
        (st.stock.g, 5),
        (st.rates.e, 3),
        (st.rates.u, 3),
        (st.rates.g, 3),
    ] {
        s.push(' ');
        push_int(s, i64::from(v), w);
    }
    s.push(' ');
    match st.owner {
        Some(o) => push_nr(s, o, 3),
        None => s.push_str(" --"),
    }
}

/// Appends a ship line (§6.4.2).
pub fn push_ship_line(s: &mut String, x: &ShipView) {
    push_int(s, i64::from(x.number), 4);
    s.push(' ');
    push_left(s, &x.name, 12);
    s.push(' ');
    push_int(s, i64::from(x.x), 3);
    s.push(' ');
    push_int(s, i64::from(x.y), 3);
    s.push(' ');
    s.push(x.class);
    for (v, w) in [
        (x.tk, 3),
        (x.jg, 3),
        (x.lr, 3),
        (x.rw, 2),
        (x.lx, 2),
        (x.tx, 2),
        (x.guns.l, 4),
        (x.guns.t, 4),
        (x.guns.n, 4),
        (x.guns.a, 4),
        (x.shields.l, 4),
        (x.shields.t, 4),
        (x.shields.n, 4),
        (x.shields.a, 4),
        (x.hits, 1),
        (x.sp, 3),
        (x.ljg, 3),
        (x.tjg, 3),
    ] {
        s.push(' ');
        push_int(s, i64::from(v), w);
    }
    s.push(' ');
    let start = s.len();
    match x.cargo {
        Some(c) => {
            s.push(c.good.letter());
            s.push(',');
            push_int(s, i64::from(c.amount), 0);
        }
        None => s.push('-'),
    }
    let cargo = s[start..].chars().count();
    push_blanks(s, 6usize.saturating_sub(cargo));
    s.push(' ');
    push_int(s, i64::from(x.r), 1);
    s.push(' ');
    push_nr(s, x.owner, 3);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_match_format() {
        for v in [0i64, 7, 42, 999, 12345, -3, -120, i64::MIN + 1] {
            for w in [0, 1, 3, 5, 30] {
                let mut s = String::new();
                push_int(&mut s, v, w);
                assert_eq!(s, format!("{v:>w$}"));
            }
        }
        for n in [0u8, 5, 10, 99, 100, 255] {
            let mut s = String::new();
            push_nr(&mut s, n, 3);
            assert_eq!(s, format!("{:>3}", format!("{n:02}")));
        }
        for t in ["", "ERDE", "ÄÖÜ", "ZWÖLFZEICHEN", "MEHR ALS ZWÖLF ZEICHEN"] {
            let mut s = String::new();
            push_left(&mut s, t, 12);
            assert_eq!(s, format!("{t:<12}"));
        }
    }
}
