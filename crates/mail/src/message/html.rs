//! HTML to plain text, for players whose client sends HTML only.
//!
//! Only what an order block needs: tags stripped, `<script>`/`<style>`/
//! `<head>` contents dropped, line-breaking elements (`<br>`, `<p>`, `<div>`,
//! `<li>`, `<tr>`, headings) turned into newlines, entities decoded, and text
//! inside `<blockquote>` prefixed with `> ` so that a quoted order block in an
//! HTML reply is recognised as quoted (and never counts) exactly like a
//! `>`-quoted line in plain text. Whitespace inside a line is collapsed the way
//! a browser renders it; `&nbsp;` survives as U+00A0, which the envelope
//! parser treats as a separator.
//!
//! A hand-written scanner rather than an HTML crate: mail HTML is small, the
//! rules above are all we need, and a linear scanner cannot blow up on
//! hostile nesting.

/// Converts an HTML document or fragment to text lines separated by `\n`.
pub fn html_to_text(html: &str) -> String {
    let mut w = Writer::default();
    let bytes = html.as_bytes();
    let mut i = 0;
    // Name of an element whose content is skipped entirely (script, style...).
    let mut skipping: Option<String> = None;
    while i < bytes.len() {
        if bytes[i] == b'<' {
            if html[i..].starts_with("<!--") {
                i = html[i + 4..]
                    .find("-->")
                    .map_or(bytes.len(), |p| i + 4 + p + 3);
                continue;
            }
            let (tag, end) = match html[i..].find('>') {
                Some(p) => (&html[i + 1..i + p], i + p + 1),
                None => (&html[i + 1..], bytes.len()),
            };
            i = end;
            let closing = tag.starts_with('/');
            let name: String = tag
                .trim_start_matches('/')
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric())
                .collect::<String>()
                .to_ascii_lowercase();
            if let Some(skip) = &skipping {
                if closing && &name == skip {
                    skipping = None;
                }
                continue;
            }
            match name.as_str() {
                "script" | "style" | "head" | "title" if !closing && !tag.ends_with('/') => {
                    skipping = Some(name);
                }
                "br" => w.newline(),
                "p" | "div" | "li" | "tr" | "h1" | "h2" | "h3" | "h4" | "h5" | "h6" | "ul"
                | "ol" | "table" | "pre" | "hr" => w.block_break(),
                "td" | "th" if !closing => w.space(),
                "blockquote" => {
                    w.block_break();
                    if closing {
                        w.quote_depth = w.quote_depth.saturating_sub(1);
                    } else {
                        w.quote_depth += 1;
                    }
                }
                _ => {}
            }
            continue;
        }
        if skipping.is_some() {
            i += html[i..].chars().next().map_or(1, char::len_utf8);
            continue;
        }
        if bytes[i] == b'&' {
            if let Some((c, len)) = entity(&html[i..]) {
                w.push_char(c, true);
                i += len;
                continue;
            }
        }
        let c = html[i..].chars().next().unwrap_or(' ');
        i += c.len_utf8();
        w.push_char(c, false);
    }
    w.finish()
}

#[derive(Default)]
struct Writer {
    out: String,
    line: String,
    quote_depth: usize,
    pending_space: bool,
}

impl Writer {
    fn push_char(&mut self, c: char, from_entity: bool) {
        // Source whitespace collapses to one space; &nbsp; is kept as is.
        if !from_entity && c.is_whitespace() {
            if !self.line.is_empty() {
                self.pending_space = true;
            }
            return;
        }
        if self.pending_space {
            self.line.push(' ');
            self.pending_space = false;
        }
        self.line.push(c);
    }

    fn space(&mut self) {
        if !self.line.is_empty() {
            self.pending_space = true;
        }
    }

    fn newline(&mut self) {
        for _ in 0..self.quote_depth {
            self.out.push('>');
        }
        if self.quote_depth > 0 {
            self.out.push(' ');
        }
        self.out.push_str(self.line.trim_end_matches(' '));
        self.out.push('\n');
        self.line.clear();
        self.pending_space = false;
    }

    /// A block element boundary: ends the current line if it has text.
    fn block_break(&mut self) {
        if !self.line.is_empty() {
            self.newline();
        }
    }

    fn finish(mut self) -> String {
        self.block_break();
        self.out
    }
}

/// Decodes one entity at the start of `s` (which starts with `&`); returns the
/// character and the number of bytes consumed.
fn entity(s: &str) -> Option<(char, usize)> {
    let end = s.char_indices().take(12).find(|&(_, c)| c == ';')?.0;
    let body = &s[1..end];
    let c = if let Some(num) = body.strip_prefix('#') {
        let n = if let Some(hex) = num.strip_prefix('x').or_else(|| num.strip_prefix('X')) {
            u32::from_str_radix(hex, 16).ok()?
        } else {
            num.parse::<u32>().ok()?
        };
        char::from_u32(n).filter(|&c| c != '\0')?
    } else {
        match body {
            "amp" => '&',
            "lt" => '<',
            "gt" => '>',
            "quot" => '"',
            "apos" => '\'',
            "nbsp" => '\u{a0}',
            "eacute" => 'é',
            "egrave" => 'è',
            "ecirc" => 'ê',
            "euml" => 'ë',
            "agrave" => 'à',
            "acirc" => 'â',
            "auml" => 'ä',
            "ccedil" => 'ç',
            "icirc" => 'î',
            "iuml" => 'ï',
            "ocirc" => 'ô',
            "ouml" => 'ö',
            "ugrave" => 'ù',
            "ucirc" => 'û',
            "uuml" => 'ü',
            "Eacute" => 'É',
            "Egrave" => 'È',
            "Agrave" => 'À',
            "Ccedil" => 'Ç',
            "Auml" => 'Ä',
            "Ouml" => 'Ö',
            "Uuml" => 'Ü',
            "szlig" => 'ß',
            "oelig" => 'œ',
            "OElig" => 'Œ',
            "laquo" => '«',
            "raquo" => '»',
            "euro" => '€',
            "ndash" => '–',
            "mdash" => '—',
            "lsquo" => '‘',
            "rsquo" => '’',
            "ldquo" => '“',
            "rdquo" => '”',
            "hellip" => '…',
            "deg" => '°',
            "copy" => '©',
            _ => return None,
        }
    };
    Some((c, end + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_tags_and_breaks_lines() {
        let html = "<html><head><title>x</title><style>p{}</style></head><body>\
                    <p>Bonjour,</p><div>GAME&nbsp;g1 PLAYER alice PASSWORD s&eacute;same</div>\
                    <div>A&lt;B<br>END</div></body></html>";
        assert_eq!(
            html_to_text(html),
            "Bonjour,\nGAME\u{a0}g1 PLAYER alice PASSWORD sésame\nA<B\nEND\n"
        );
    }

    #[test]
    fn blockquotes_are_quoted() {
        let html = "<p>new</p><blockquote>GAME g1 PLAYER a PASSWORD p</blockquote>after";
        assert_eq!(
            html_to_text(html),
            "new\n> GAME g1 PLAYER a PASSWORD p\nafter\n"
        );
    }

    #[test]
    fn unterminated_tags_do_not_panic() {
        let _ = html_to_text("<p>abc<");
        let _ = html_to_text("<");
        let _ = html_to_text("&#99999999999;&#x110000;&");
        let _ = html_to_text("<!-- never closed");
    }
}
