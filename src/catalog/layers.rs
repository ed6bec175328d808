//! Layering one game's catalog folder with a house-rules overlay, the same
//! for every game: `game.yaml`'s sections replaced whole by the overlay's
//! (each remembering the file it came from: [`Sections`]), its header's
//! `extends:` checked, list files merged entry by entry ([`list`], over
//! `overlay::merge`), and [`load`], the one driver from folders to a
//! game's rules or every diagnostic. A game writes only its tables: its
//! `game.yaml` sections ([`game_overlay!`](crate::game_overlay)), its list
//! files and what it lowers them to.

use std::collections::BTreeMap;

use super::common::{
    Document, Entry, NumberTally, Numbers, RawCitation, RawInterpretation, Source, check_id, check_names, lower_rules,
};
use super::diag::{Diagnostic, Diagnostics};
use super::folder::{RawGameSection, with_snippets};
use super::overlay::{self, HasId, OverlayFile, OverlayHeader, OverlaySection};
use super::{GameSources, MAX_SEATS, SourceFile};
use crate::yaml::position;

/// A game's `game.yaml`: the `game:` section every catalog writes alike,
/// and sections of its own, each of which an overlay may replace whole.
/// [`game_overlay!`](crate::game_overlay) writes it with the overlay's
/// `game.yaml`.
pub trait GameYaml: Clone {
    /// An overlay's `game.yaml`: the sections it replaces.
    type Overlay;
    /// Every section, `game` first.
    const SECTIONS: &'static [&'static str];
    /// The `game:` section.
    fn game(&self) -> &RawGameSection;
    /// Replaces the sections `with` holds, naming each to `took`.
    fn replace(&mut self, with: &Self::Overlay, took: &mut dyn FnMut(&'static str));
}

/// Declares an overlay's `game.yaml` (every section optional) and the
/// [`GameYaml`](crate::catalog::layers::GameYaml) of the base's, whose
/// sections are `game` and these.
#[macro_export]
macro_rules! game_overlay {
    ($(#[$meta:meta])* $game:ident => $over:ident { $($section:ident: $ty:ty),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, serde::Deserialize, serde::Serialize)]
        #[serde(deny_unknown_fields)]
        pub struct $over {
            $(
                #[serde(default, skip_serializing_if = "Option::is_none")]
                pub $section: Option<$ty>,
            )+
        }

        impl $crate::catalog::layers::GameYaml for $game {
            type Overlay = $over;
            const SECTIONS: &'static [&'static str] = &["game", $(stringify!($section)),+];
            fn game(&self) -> &$crate::catalog::folder::RawGameSection {
                &self.game
            }
            fn replace(&mut self, with: &$over, took: &mut dyn FnMut(&'static str)) {
                $(
                    if let Some(x) = &with.$section {
                        self.$section = x.clone();
                        took(stringify!($section));
                    }
                )+
            }
        }
    };
}

/// The file each section of a layered `game.yaml` came from, and the
/// overlay's header.
pub struct Sections<'a> {
    from: BTreeMap<&'static str, Source<'a>>,
    /// The overlay's header (the documents and languages it adds), with its file.
    pub header: Option<(&'a str, &'a OverlaySection)>,
}

impl<'a> Sections<'a> {
    /// The path of the file section `name` came from ("" for no section).
    pub fn at(&self, name: &str) -> &'a str {
        self.from.get(name).map_or("", |s| s.path)
    }

    /// The file section `name` came from.
    pub fn source(&self, name: &str) -> Source<'a> {
        self.from.get(name).copied().unwrap_or(Source { path: "", text: "" })
    }

    /// Each section's numbers cited or assumed, at the file it came from.
    pub fn check(&self, rows: &[Numbers<'_>], tally: &mut NumberTally, diags: &mut Diagnostics) {
        for r in rows {
            tally.add(r.check(self.at(r.what), diags));
        }
    }

    /// Every citation of the sections, with the file each came from.
    pub fn citations<'b>(&self, rows: &[Numbers<'b>]) -> Vec<(&'a str, &'b RawCitation)> {
        rows.iter().flat_map(|r| r.of.source().iter().map(|c| (self.at(r.what), c))).collect()
    }

    /// The base's `game:` section `g` checked (its id, its names in the
    /// declared languages), with the documents and languages it and the
    /// overlay's header declare, and the places each of the code's `rules`
    /// cites (`common::lower_rules`).
    pub fn lower_game(&self, g: &RawGameSection, rules: &[&str], diags: &mut Diagnostics) -> GameSection {
        let file = self.at("game");
        check_id(file, &g.id, diags);
        let (documents, languages) = overlay::documents(file, (&g.documents, &g.languages), self.header, diags);
        if languages.is_empty() {
            diags.error(file, (1, 1), "the catalog declares no `languages:`");
        }
        check_names(file, &g.names, &languages, diags);
        check_players(file, g, diags);
        let over = self.header.map(|(f, h)| (f, &h.rules[..]));
        let rules = lower_rules((file, &g.rules), over, rules, &documents, position(&g.id), diags);
        GameSection { documents, languages, rules }
    }
}

/// The player counts of a `game:` section, alike for every game: at least
/// one, at most `MAX_SEATS`, the least not above the most; each error at
/// the number it is about.
fn check_players(file: &str, g: &RawGameSection, diags: &mut Diagnostics) {
    let (min, max) = (&g.min_players, &g.max_players);
    if min.value < 1 {
        diags.error(file, position(min), "min_players is 0; a game seats at least one player");
    } else if min.value > max.value {
        diags.error(file, position(min), format!("players {}\u{2013}{} is not a range", min.value, max.value));
    }
    if max.value > MAX_SEATS {
        let msg = format!("max_players {} is more than the {MAX_SEATS} seats the engine plays", max.value);
        diags.error(file, position(max), msg);
    }
}

/// The `game:` section lowered: the documents citations may name, the
/// languages of names, and the places each rule the code declares cites,
/// in the code's order.
pub struct GameSection {
    pub documents: Vec<Document>,
    pub languages: Vec<String>,
    pub rules: Vec<String>,
}

/// The overlay of a base `game.yaml`: its header and its `game.yaml`, if it has one.
pub type GameOverlay<'a, O> = (&'a (&'a SourceFile, OverlayHeader), Option<&'a (&'a SourceFile, O)>);

/// Layers an overlay's sections onto the base's `game.yaml`; the
/// overlay's `extends:` must name the base.
pub fn layer_game<'a, G: GameYaml>(
    base: (&'a SourceFile, &'a G),
    over: Option<GameOverlay<'a, G::Overlay>>,
    diags: &mut Diagnostics,
) -> (G, Sections<'a>) {
    let mut game = base.1.clone();
    let mut from: BTreeMap<_, _> = G::SECTIONS.iter().map(|s| (*s, Source::of(base.0))).collect();
    if let Some((f, g)) = over.and_then(|o| o.1) {
        game.replace(g, &mut |s| {
            from.insert(s, Source::of(f));
        });
    }
    let header = over.map(|((f, h), _)| (f.path.as_str(), &h.overlay));
    if let Some((f, h)) = header {
        overlay::check_extends(f, h, &base.1.game().id.value, diags);
    }
    (game, Sections { from, header })
}

/// A list file's entries with an overlay's merged in, and the base file
/// (where a diagnostic about the whole list points).
pub struct List<'a, T> {
    pub entries: Vec<Entry<'a, T>>,
    pub base: Source<'a>,
}

impl<'a, T> std::ops::Deref for List<'a, T> {
    type Target = [Entry<'a, T>];
    fn deref(&self) -> &Self::Target {
        &self.entries
    }
}

impl<'a, 'b, T> IntoIterator for &'b List<'a, T> {
    type Item = &'b Entry<'a, T>;
    type IntoIter = std::slice::Iter<'b, Entry<'a, T>>;
    fn into_iter(self) -> Self::IntoIter {
        self.entries.iter()
    }
}

impl<T: HasId> List<'_, T> {
    /// Each entry's id with its index, in catalog order.
    pub fn ids(&self) -> BTreeMap<String, usize> {
        self.entries.iter().enumerate().map(|(i, e)| (e.raw.id().value.clone(), i)).collect()
    }
}

impl<R> List<'_, RawInterpretation<R>> {
    /// Each interpretation's id with its options' ids, in catalog order
    /// (what a `reading:` condition names).
    pub fn reading_names(&self) -> Vec<(String, Vec<String>)> {
        let options = |e: &RawInterpretation<R>| e.options.iter().map(|o| o.id.value.clone()).collect();
        self.entries.iter().map(|e| (e.raw.id.value.clone(), options(e.raw))).collect()
    }
}

/// Merges an overlay's list file (`add:` and `override:` of `kind`s) into
/// the base's entries.
pub fn list<'a, T: HasId>(
    kind: &str,
    base: (&'a SourceFile, &'a [T]),
    over: Option<&'a (&'a SourceFile, OverlayFile<T>)>,
    diags: &mut Diagnostics,
) -> List<'a, T> {
    let base = (Source::of(base.0), base.1);
    let over = over.map(|(f, x)| (Source::of(f), x));
    List { entries: overlay::merge(kind, base, over, diags), base: base.0 }
}

/// Declares how a game's catalog layers with an overlay, from its tables:
/// `RawOverlay` (an overlay folder parsed: its header, its `game.yaml`
/// and each list file it may hold), `parse_overlay`, and `Layers`, the
/// base catalog `raw` (a [`catalog_files!`](crate::catalog_files) struct)
/// with the overlay merged in by `layer`: each list file's entries merged
/// ([`list`]; each list written `field: entry type = file as what messages
/// call an entry`) and each file an overlay may not hold (the `board`, and
/// why) one entry.
#[macro_export]
macro_rules! catalog_layers {
    (
        $raw:ident, $game_file:ty, $game:literal, board: $board:literal,
        lists { $($(#[$lm:meta])* $list:ident: $lty:ty = $file:literal as $kind:literal),+ $(,)? }
        entries { $($(#[$em:meta])* $entry:ident: $ety:ty = $efile:literal),* $(,)? }
    ) => {
        /// The parsed files of an overlay folder (each list file optional).
        pub(super) struct RawOverlay<'a> {
            header: (&'a $crate::catalog::SourceFile, $crate::catalog::overlay::OverlayHeader),
            game: Option<(&'a $crate::catalog::SourceFile, <$game_file as $crate::catalog::layers::GameYaml>::Overlay)>,
            $($list: Option<(&'a $crate::catalog::SourceFile, $crate::catalog::overlay::OverlayFile<$lty>)>,)+
        }

        /// Parses an overlay folder; `None` when a file failed (its diagnostics given).
        pub(super) fn parse_overlay<'a>(
            src: &'a $crate::catalog::GameSources,
            diags: &mut $crate::catalog::diag::Diagnostics,
        ) -> Option<RawOverlay<'a>> {
            let files = &["game.yaml", $($file),+];
            let allowed = $crate::catalog::overlay::Allowed { game: $game, files, board: $board };
            let mut o = $crate::catalog::overlay::OverlayFolder::open(src, $raw::FILES, &allowed, diags);
            let game = o.optional("game.yaml", diags);
            $(let $list = o.optional($file, diags);)+
            Some(RawOverlay { header: o.header(diags)?, game, $($list),+ })
        }

        /// A catalog with its overlay applied: every entry with the file it came from.
        pub(super) struct Layers<'a> {
            pub(super) game: $game_file,
            /// The file each section of `game` came from, and the overlay's header.
            pub(super) from: $crate::catalog::layers::Sections<'a>,
            $($(#[$lm])* pub(super) $list: $crate::catalog::layers::List<'a, $lty>,)+
            $($(#[$em])* pub(super) $entry: $crate::catalog::common::Entry<'a, $ety>,)*
        }

        /// The base files with the overlay's entries merged in.
        pub(super) fn layer<'a>(
            src: &'a $crate::catalog::GameSources,
            raw: &'a $raw,
            over: Option<&'a RawOverlay<'a>>,
            diags: &mut $crate::catalog::diag::Diagnostics,
        ) -> Layers<'a> {
            use $crate::catalog::layers::{layer_game, list};
            let base = |name: &str| &src.files[name];
            let over_game = over.map(|o| (&o.header, o.game.as_ref()));
            let (game, from) = layer_game((base("game.yaml"), &raw.game), over_game, diags);
            Layers {
                game,
                from,
                $($list: list($kind, (base($file), &raw.$list.$list), over.and_then(|o| o.$list.as_ref()), diags),)+
                $($entry: $crate::catalog::common::Entry {
                    from: $crate::catalog::common::Source::of(base($efile)),
                    raw: &raw.$entry,
                },)*
            }
        }
    };
}

/// Loads a game's catalog: `parse` reads the base folder, `open` the
/// overlay's, and `lower` layers and lowers what they parsed (neither
/// failed); every diagnostic is returned with its snippet.
pub fn load<'a, B, O, R>(
    src: &'a GameSources,
    overlay: Option<&'a GameSources>,
    parse: impl FnOnce(&'a GameSources, &mut Diagnostics) -> Option<B>,
    open: impl FnOnce(&'a GameSources, &mut Diagnostics) -> Option<O>,
    lower: impl FnOnce(&B, Option<&O>, &mut Diagnostics) -> R,
) -> Result<R, Vec<Diagnostic>> {
    let mut diags = Diagnostics::default();
    let raw = parse(src, &mut diags);
    let over = overlay.map(|o| open(o, &mut diags));
    let all = |diags| with_snippets(diags, std::iter::once(src).chain(overlay));
    let (Some(raw), None | Some(Some(_))) = (raw, &over) else { return Err(all(diags)) };
    let rules = lower(&raw, over.as_ref().and_then(Option::as_ref), &mut diags);
    if diags.is_empty() { Ok(rules) } else { Err(all(diags)) }
}
