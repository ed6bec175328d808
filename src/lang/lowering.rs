//! Compiling a whole catalog: what every entry's compiling shares (the
//! registry, the game's host, the catalog's names and one `choose` table),
//! kept from the first entry to the last, so each game compiles its
//! entries, its readings' data and its declared actions through one value.

use std::collections::BTreeMap;

use super::compile::{Compiler, Host, Names, Registry, Report, Tables};
use super::effect::{Effect, Lang};
use super::node::Node;
use crate::catalog::common::Source;
use crate::catalog::diag::Diagnostics;

/// What compiling a catalog's effects and conditions needs, kept for the
/// whole catalog: the shared registry, the game's host, the catalog's
/// names, and the tables what it compiles adds to (one `choose` table for
/// the catalog, the interpretations `reading:` conditions test).
pub struct Lowering<L: Lang, H: Host<L>> {
    pub registry: Registry<L>,
    pub host: H,
    pub flags: BTreeMap<String, L::Flag>,
    /// Interpretation ids with their option ids, in catalog order.
    pub interpretations: Vec<(String, Vec<String>)>,
    pub tables: Tables<L>,
}

impl<L: Lang, H: Host<L>> Lowering<L, H> {
    /// Compiling with the game's `host`, the catalog's `flags` and
    /// `interpretations`, the shared registry and empty tables.
    pub fn new(host: H, flags: BTreeMap<String, L::Flag>, interpretations: Vec<(String, Vec<String>)>) -> Self {
        Lowering { registry: Registry::default(), host, flags, interpretations, tables: Tables::default() }
    }

    /// `f` run with a compiler for an entry of `from` (`has_target`: the
    /// entry has a target an effect may name), its diagnostics to `diags`.
    pub fn compile<T>(
        &mut self,
        from: &Source<'_>,
        has_target: bool,
        diags: &mut Diagnostics,
        f: impl FnOnce(&mut Compiler<'_, L>) -> T,
    ) -> T {
        let names = Names { flags: &self.flags, interpretations: &self.interpretations };
        let report = Report { file: from.path, text: from.text, diags };
        f(&mut Compiler::new(report, &self.registry, &self.host, &names, &mut self.tables, has_target))
    }

    /// The effects `nodes` of an entry of `from` without a target (a
    /// card's, or a reading's data: a `replace:`, an added step).
    pub fn effects(&mut self, from: &Source<'_>, nodes: &[Node], diags: &mut Diagnostics) -> Vec<Effect<L>> {
        self.compile(from, false, diags, |cx| cx.effects(nodes))
    }
}
