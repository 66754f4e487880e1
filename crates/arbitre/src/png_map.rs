//! The PNG twin of every SVG map (issue 18 item 7).
//!
//! Webmail clients rarely show an SVG attachment inline, so every report mail
//! that carries an `image/svg+xml` attachment also carries `<name>.png`,
//! rendered from the very same SVG bytes in-process with `resvg` (pure Rust,
//! no external program). The rulesets stay pure and produce SVG only; this
//! module is the one place that rasterises, whatever the ruleset (a map a
//! ruleset adds later gets its PNG with no change here).
//!
//! The font is shipped in the repository (`assets/fonts/DejaVuSans.ttf`,
//! DejaVu Sans from Debian's `fonts-dejavu-core`, licence next to it) and is
//! the only font usvg's database holds: no system font is ever looked up, so
//! the same SVG gives the same PNG bytes on every machine.

use crate::daemon::{Daemon, GameView};
use crate::registry::Registry;
use arbitre_core::{Attachment, PlayerId, Viewer};
use arbitre_store::{games, turns};
use std::sync::{Arc, OnceLock};

/// DejaVu Sans, embedded in the binary.
const FONT: &[u8] = include_bytes!("../assets/fonts/DejaVuSans.ttf");
const FONT_FAMILY: &str = "DejaVu Sans";

/// A picture larger than this many pixels is scaled down to it: a map of a
/// huge world must not make a mail of many megabytes nor exhaust memory.
pub const MAX_PIXELS: u64 = 4_000_000;

pub const SVG_MIME: &str = "image/svg+xml";
pub const PNG_MIME: &str = "image/png";

#[derive(Debug, thiserror::Error)]
pub enum PngError {
    #[error("the SVG map cannot be read: {0}")]
    Svg(String),
    #[error("the SVG map has an empty or impossible size ({0}×{1})")]
    Size(f32, f32),
    #[error("the PNG cannot be encoded: {0}")]
    Encode(String),
}

/// `e` in `lang` (`arbitre map … --png`); the SVG reader's and the PNG
/// encoder's own details stay their (English) words.
pub fn png_text(lang: arbitre_core::Lang, e: &PngError) -> String {
    use crate::fl_args;
    let (id, args): crate::i18n::Lookup = match e {
        PngError::Svg(detail) => ("map-svg-unreadable", fl_args![detail]),
        PngError::Size(width, height) => ("map-svg-size", fl_args![width, height]),
        PngError::Encode(detail) => ("map-png-encode", fl_args![detail]),
    };
    crate::i18n::tr(lang, id, &args)
}

fn fonts() -> Arc<resvg::usvg::fontdb::Database> {
    static DB: OnceLock<Arc<resvg::usvg::fontdb::Database>> = OnceLock::new();
    DB.get_or_init(|| {
        let mut db = resvg::usvg::fontdb::Database::new();
        db.load_font_data(FONT.to_vec());
        // Every generic family the maps may name resolves to the shipped font.
        db.set_sans_serif_family(FONT_FAMILY);
        db.set_serif_family(FONT_FAMILY);
        db.set_monospace_family(FONT_FAMILY);
        db.set_cursive_family(FONT_FAMILY);
        db.set_fantasy_family(FONT_FAMILY);
        Arc::new(db)
    })
    .clone()
}

/// The PNG of `svg`, at the SVG's own size (1 SVG unit = 1 pixel), scaled
/// down only past [`MAX_PIXELS`].
pub fn render(svg: &[u8]) -> Result<Vec<u8>, PngError> {
    let opt = resvg::usvg::Options {
        font_family: FONT_FAMILY.to_string(),
        fontdb: fonts(),
        ..resvg::usvg::Options::default()
    };
    let tree = resvg::usvg::Tree::from_data(svg, &opt).map_err(|e| PngError::Svg(e.to_string()))?;
    let size = tree.size();
    let (w, h) = (size.width(), size.height());
    if !(w >= 1.0 && h >= 1.0) {
        return Err(PngError::Size(w, h));
    }
    let area = f64::from(w) * f64::from(h);
    let scale = if area > MAX_PIXELS as f64 {
        (MAX_PIXELS as f64 / area).sqrt() as f32
    } else {
        1.0
    };
    let (pw, ph) = ((w * scale).ceil() as u32, (h * scale).ceil() as u32);
    let mut pixmap = resvg::tiny_skia::Pixmap::new(pw, ph).ok_or(PngError::Size(w, h))?;
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    encode(&pixmap)
}

/// The pixmap as PNG, encoded for speed (issue 22 item 4): zlib level 1
/// with the Sub filter, RGB when every pixel is opaque (every map draws an
/// opaque background). tiny_skia's own `encode_png` (level 6, adaptive
/// filters, always RGBA) took 12–17 ms a map, two thirds of a turn's
/// resolution, for files only 10–40 % smaller: this takes 3.5–5.5 ms, and
/// the maps of the fixtures stay far under the 400 KB mail budget.
fn encode(pixmap: &resvg::tiny_skia::Pixmap) -> Result<Vec<u8>, PngError> {
    let opaque = pixmap.pixels().iter().all(|p| p.alpha() == u8::MAX);
    // Opaque pixels are their own demultiplied colour.
    let (color, data) = if opaque {
        let rgb: Vec<u8> = pixmap
            .data()
            .chunks_exact(4)
            .flat_map(|p| [p[0], p[1], p[2]])
            .collect();
        (png::ColorType::Rgb, rgb)
    } else {
        (png::ColorType::Rgba, pixmap.clone().take_demultiplied())
    };
    let mut out = Vec::with_capacity(data.len() / 8);
    let mut encoder = png::Encoder::new(&mut out, pixmap.width(), pixmap.height());
    encoder.set_color(color);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_deflate_compression(png::DeflateCompression::Level(1));
    encoder.set_filter(png::Filter::Sub);
    let encode_err = |e: png::EncodingError| PngError::Encode(e.to_string());
    let mut writer = encoder.write_header().map_err(encode_err)?;
    writer.write_image_data(&data).map_err(encode_err)?;
    writer.finish().map_err(encode_err)?;
    Ok(out)
}

/// The PNG of `svg`, from the few last rendered if the same bytes were
/// rendered lately: the game master's, the spectator's and the observers'
/// maps of a turn are often one picture, and RESEND mails a map again.
/// Keyed by the SVG bytes themselves (compared whole), so a hit is always
/// the picture `render` would give.
fn render_cached(svg: &[u8]) -> Result<Arc<Vec<u8>>, PngError> {
    use std::sync::Mutex;
    const KEPT: usize = 8;
    /// (SVG bytes, their PNG), most recent last.
    type Recent = Vec<(Vec<u8>, Arc<Vec<u8>>)>;
    static RECENT: Mutex<Recent> = Mutex::new(Vec::new());
    let lookup = |recent: &mut Recent| {
        let i = recent.iter().position(|(k, _)| k.as_slice() == svg)?;
        let hit = recent.remove(i);
        let png = hit.1.clone();
        recent.push(hit);
        Some(png)
    };
    // A poisoned lock only means another thread panicked mid-update of a
    // cache: start it again rather than fail a report.
    let lock = || RECENT.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(png) = lookup(&mut lock()) {
        return Ok(png);
    }
    let png = Arc::new(render(svg)?);
    let mut recent = lock();
    if recent.len() >= KEPT {
        recent.remove(0);
    }
    recent.push((svg.to_vec(), png.clone()));
    Ok(png)
}

/// The PNG file name of an SVG attachment: `carte-t3.svg` → `carte-t3.png`.
pub fn png_name(svg_name: &str) -> String {
    let stem = svg_name
        .strip_suffix(".svg")
        .or_else(|| svg_name.strip_suffix(".SVG"))
        .unwrap_or(svg_name);
    format!("{stem}.png")
}

/// `attachments`, with their PNG twins when `png` (arbitre.toml's
/// `png_maps`).
pub fn with_png_twins_if(png: bool, attachments: Vec<Attachment>) -> Vec<Attachment> {
    if png {
        with_png_twins(&attachments)
    } else {
        attachments
    }
}

/// `attachments` with a PNG right after each SVG that has none yet. A map
/// that cannot be rendered is mailed as SVG alone (and logged): a picture
/// never stops a report.
pub fn with_png_twins(attachments: &[Attachment]) -> Vec<Attachment> {
    let mut out = Vec::with_capacity(attachments.len() * 2);
    for a in attachments {
        out.push(a.clone());
        if !a.mime.starts_with(SVG_MIME) {
            continue;
        }
        let name = png_name(&a.name);
        if attachments.iter().any(|b| b.name == name) {
            continue;
        }
        match render_cached(&a.content) {
            Ok(png) => out.push(Attachment {
                name,
                mime: PNG_MIME.to_string(),
                content: Vec::clone(&png),
            }),
            Err(e) => {
                tracing::warn!(attachment = %a.name, error = %e, "map mailed without its PNG")
            }
        }
    }
    out
}

/// A map as `arbitre map` gives it: the ruleset's SVG attachment and its PNG.
#[derive(Clone, Debug)]
pub struct MapPicture {
    /// The SVG's file name in the report mail (`carte-t3.svg`).
    pub name: String,
    pub svg: Vec<u8>,
    pub png: Vec<u8>,
}

impl Daemon {
    /// `arbitre map <game> <player> [--turn N]` (issue 18 item 8): the map
    /// of a player's report (`gm` and `spectator` are viewers too), rendered
    /// again from the stored state of that turn, exactly as the report mail
    /// carries it.
    pub fn map(
        &self,
        game: &str,
        player: &str,
        turn: Option<u32>,
    ) -> crate::error::Result<MapPicture> {
        let c = self.store.conn();
        let g = GameView::new(&self.registry, games::require_game(c, game)?)?;
        let turn = turn.unwrap_or(g.row.turn);
        let row = turns::get(c, game, turn)?
            .ok_or_else(|| self.invalid("err-no-resolved-turn", &crate::fl_args![game, turn]))?;
        let viewer = match player {
            "gm" => Viewer::GameMaster,
            "spectator" => Viewer::Spectator,
            p => {
                let player = p;
                let p = games::player_nocase(c, game, p)?
                    .ok_or_else(|| self.invalid("err-no-player", &crate::fl_args![game, player]))?;
                Viewer::Player(PlayerId::new(p.id))
            }
        };
        let r = g
            .engine
            .report(&row.state, &viewer)
            .map_err(|e| g.engine_err(e))?;
        let a = r
            .attachments
            .into_iter()
            .find(|a| a.mime.starts_with(SVG_MIME))
            .ok_or_else(|| self.invalid("err-no-map", &crate::fl_args![game, player, turn]))?;
        let png = render(&a.content).map_err(|e| {
            let error = png_text(self.lang, &e);
            self.invalid("err-map-not-drawn", &crate::fl_args![error])
        })?;
        Ok(MapPicture {
            name: a.name,
            svg: a.content,
            png,
        })
    }
}

/// `arbitre map <fixture folder> …`: replays an archived game (its
/// `turn-NNN/inbox/*.eml` through the real serve cycle, as `replay` does) up
/// to `turn` (default: the last archived) and draws the map from there, so
/// anyone can make the pictures of docs/img/ again from the repository.
pub fn fixture_map(
    dir: &std::path::Path,
    player: &str,
    turn: Option<u32>,
    registry: Registry,
) -> std::result::Result<MapPicture, crate::fixture::FixtureError> {
    use crate::fixture::{FixtureError, Run};
    let (mut run, _) = Run::start(&dir.join("game.toml"), registry)?;
    let mut turns: Vec<(u32, std::path::PathBuf)> = std::fs::read_dir(dir)
        .map_err(|e| FixtureError::Io(dir.display().to_string(), e))?
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let n = e
                .file_name()
                .to_string_lossy()
                .strip_prefix("turn-")
                .and_then(|n| n.parse::<u32>().ok())?;
            Some((n, e.path()))
        })
        .filter(|(n, _)| *n > 0 && turn.is_none_or(|t| *n <= t))
        .collect();
    turns.sort();
    for (_, tdir) in turns {
        let mut inbox: Vec<std::path::PathBuf> = std::fs::read_dir(tdir.join("inbox"))
            .map(|r| {
                r.filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|p| p.extension().is_some_and(|x| x == "eml"))
                    .collect()
            })
            .unwrap_or_default();
        inbox.sort();
        let mut mails = Vec::with_capacity(inbox.len());
        for p in inbox {
            mails
                .push(std::fs::read(&p).map_err(|e| FixtureError::Io(p.display().to_string(), e))?);
        }
        run.step(&mails)?;
    }
    Ok(run.daemon.map(&run.game, player, turn)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn png_names_follow_the_svg() {
        assert_eq!(png_name("carte-t3.svg"), "carte-t3.png");
        assert_eq!(png_name("sternenkarte-J1M2.svg"), "sternenkarte-J1M2.png");
        assert_eq!(png_name("map"), "map.png");
    }

    #[test]
    fn a_broken_svg_is_mailed_without_png() {
        let a = Attachment {
            name: "carte.svg".into(),
            mime: SVG_MIME.into(),
            content: b"<svg".to_vec(),
        };
        let out = with_png_twins(std::slice::from_ref(&a));
        assert_eq!(out.len(), 1);
        assert!(render(b"<svg").is_err());
    }

    #[test]
    fn a_map_rendered_again_comes_from_the_cache_unchanged() {
        let svg = br##"<svg xmlns="http://www.w3.org/2000/svg" width="40" height="30"><rect width="40" height="30" fill="#fff"/><circle cx="20" cy="15" r="9" fill="#c62828"/></svg>"##;
        let first = render_cached(svg).expect("renders");
        let again = render_cached(svg).expect("renders");
        assert!(
            Arc::ptr_eq(&first, &again),
            "the second rendering is the kept one"
        );
        assert_eq!(*first, render(svg).expect("renders"));
        let other = br##"<svg xmlns="http://www.w3.org/2000/svg" width="40" height="30"><rect width="40" height="30" fill="#000"/></svg>"##;
        assert_ne!(*render_cached(other).expect("renders"), *first);
    }

    #[test]
    fn huge_maps_are_scaled_down() {
        let svg = br##"<svg xmlns="http://www.w3.org/2000/svg" width="10000" height="10000"><rect width="100%" height="100%" fill="#123456"/></svg>"##;
        let png = render(svg).expect("renders");
        let img = resvg::tiny_skia::Pixmap::decode_png(&png).expect("decodes");
        assert!(u64::from(img.width()) * u64::from(img.height()) <= MAX_PIXELS + 2 * 10_000);
        assert_eq!(img.width(), 2000);
    }
}
