//! Random playouts: a seed and a stream of choice indices into the legal
//! action list, so every generated game is legal and replayable.

use crate::engine::{Chance, Config, ConfigError, Game, Outcome, ToMove};

/// Picks an index below `n` (n > 0), or by weights at a chance node.
pub trait Chooser {
    fn choose(&mut self, n: usize) -> usize;
    /// An index into `weights` (not empty, each positive); by default the
    /// weights are ignored, which keeps a script of indices replayable.
    fn choose_weighted(&mut self, weights: &[u32]) -> usize {
        self.choose(weights.len())
    }
}

/// Picks the next action of a playout: by weight at a chance node, by the
/// game's `play_weights` at a seat's node when it gives them, else
/// uniformly. `weights` is scratch space.
pub fn pick<G: Game>(
    state: &G,
    rules: &G::Rules,
    legal: &[G::Action],
    weights: &mut Vec<u32>,
    chooser: &mut dyn Chooser,
) -> usize {
    match state.to_move() {
        ToMove::Chance => state.chance_weights(rules, weights),
        ToMove::Terminal => weights.clear(),
        _ => state.play_weights(rules, legal, weights),
    }
    if !weights.is_empty() && weights.len() == legal.len() && weights.iter().all(|&w| w > 0) {
        return chooser.choose_weighted(weights);
    }
    chooser.choose(legal.len())
}

/// Uniform choices from a seeded generator independent of the game's own.
pub struct RandomChooser(pub Chance);

impl RandomChooser {
    pub fn new(seed: u64) -> RandomChooser {
        RandomChooser(Chance::new(seed ^ 0x5bd1_e995_5bd1_e995))
    }
}

impl Chooser for RandomChooser {
    fn choose(&mut self, n: usize) -> usize {
        self.0.below(n as u32) as usize
    }
    fn choose_weighted(&mut self, weights: &[u32]) -> usize {
        let total: u64 = weights.iter().map(|&w| u64::from(w)).sum();
        // the total of at most a few thousand u32 weights fits; fall back to
        // uniform if a game lists absurd weights
        let Ok(total) = u32::try_from(total) else { return self.choose(weights.len()) };
        let mut r = self.0.below(total);
        for (i, &w) in weights.iter().enumerate() {
            if r < w {
                return i;
            }
            r -= w;
        }
        weights.len() - 1
    }
}

/// Replays a list of choice indices (each taken modulo the list length), then
/// stops.
pub struct ScriptChooser<'a> {
    pub script: &'a [u32],
    pub at: usize,
}

impl Chooser for ScriptChooser<'_> {
    fn choose(&mut self, n: usize) -> usize {
        let i = self.script.get(self.at).copied().unwrap_or(0) as usize % n;
        self.at += 1;
        i
    }
}

/// Why a playout did not run to its end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlayError<A, E> {
    Config(ConfigError),
    /// `after` stopped it: its error, and the actions up to and including the last.
    Stopped {
        error: E,
        actions: Vec<A>,
    },
}

/// How one playout ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Played<A> {
    pub outcome: Option<Outcome>,
    pub turns: u32,
    pub actions: Vec<A>,
}

/// Plays until the game ends or `max_actions` were applied, calling `after`
/// after every action (for invariant checks); `after` returning `Err` stops
/// the playout with that error.
pub fn play<G: Game, E>(
    rules: &G::Rules,
    config: &Config,
    chooser: &mut dyn Chooser,
    max_actions: usize,
    mut after: impl FnMut(&G, &G::Action, usize) -> Result<(), E>,
) -> Result<Played<G::Action>, PlayError<G::Action, E>> {
    let mut state = G::new(rules, config).map_err(PlayError::Config)?;
    let (mut legal, mut weights) = (Vec::new(), Vec::new());
    let mut actions = Vec::new();
    while !state.is_over() && actions.len() < max_actions {
        state.legal_actions(rules, &mut legal);
        if legal.is_empty() {
            break;
        }
        let a = legal.swap_remove(pick(&state, rules, &legal, &mut weights, chooser));
        if let Err(e) = state.apply(rules, &a) {
            panic!("a legal action was rejected: {e} (config {config})");
        }
        actions.push(a);
        if let Err(e) = after(&state, actions.last().expect("just pushed"), actions.len()) {
            return Err(PlayError::Stopped { error: e, actions });
        }
    }
    Ok(Played { outcome: state.outcome(rules), turns: state.turns(), actions })
}

/// Replays a script of choice indices (each taken modulo the list length),
/// then goes on choosing at random from `RandomChooser::new(seed)`.
///
/// `following` a recorded game, it also holds the `sizes` of the nodes the
/// game chose at (`Recording`), and replays only while each node offers as
/// many choices as the recorded one did: from the first that offers
/// another number (a reading that adds or takes away an action there) it
/// goes on at random. An index replayed into a list of another length
/// would stand for an unrelated action, and never for one a reading adds
/// at the end of the list: such a reading would look as if it never
/// changed play (`diff`).
pub struct ScriptThenRandom<'a> {
    script: &'a [u32],
    sizes: Option<&'a [u32]>,
    at: usize,
    parted: bool,
    rest: RandomChooser,
}

impl<'a> ScriptThenRandom<'a> {
    pub fn new(script: &'a [u32], seed: u64) -> ScriptThenRandom<'a> {
        ScriptThenRandom { script, sizes: None, at: 0, parted: false, rest: RandomChooser::new(seed) }
    }

    pub fn following(script: &'a [u32], sizes: &'a [u32], seed: u64) -> ScriptThenRandom<'a> {
        ScriptThenRandom { sizes: Some(sizes), ..ScriptThenRandom::new(script, seed) }
    }

    /// The scripted choice at this node, while the game still follows it.
    fn next(&mut self, n: usize) -> Option<usize> {
        if self.parted {
            return None;
        }
        let i = *self.script.get(self.at)?;
        let size = self.sizes.map_or(Some(n as u32), |s| s.get(self.at).copied())?;
        self.at += 1;
        self.parted = size as usize != n;
        (!self.parted).then_some(i as usize % n)
    }
}

impl Chooser for ScriptThenRandom<'_> {
    fn choose(&mut self, n: usize) -> usize {
        self.next(n).unwrap_or_else(|| self.rest.choose(n))
    }
    /// While it follows the script, by index (the weights of a node of the
    /// same size are the recorded node's); past it, by the weights as any
    /// playout.
    fn choose_weighted(&mut self, w: &[u32]) -> usize {
        self.next(w.len()).unwrap_or_else(|| self.rest.choose_weighted(w))
    }
}

/// Records how many choices each node offered (`sizes`, one per call, as a
/// run's `choices` records the index taken) while `inner` chooses.
pub struct Recording<C> {
    pub inner: C,
    pub sizes: Vec<u32>,
}

impl<C: Chooser> Chooser for Recording<C> {
    fn choose(&mut self, n: usize) -> usize {
        self.sizes.push(n as u32);
        self.inner.choose(n)
    }
    fn choose_weighted(&mut self, w: &[u32]) -> usize {
        self.sizes.push(w.len() as u32);
        self.inner.choose_weighted(w)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A node offering as many choices as the record's takes the recorded
    /// one; from the first that offers another number, the choices are the
    /// seed's own, as a game never recorded would make them.
    #[test]
    fn follow_parts_from_the_record_where_a_node_offers_another_number() {
        let mut recorded = Recording { inner: RandomChooser::new(7), sizes: Vec::new() };
        let script: Vec<u32> = [5, 5, 5, 5].iter().map(|&n| recorded.choose(n) as u32).collect();
        assert_eq!(recorded.sizes, [5, 5, 5, 5]);
        let mut same = ScriptThenRandom::following(&script, &recorded.sizes, 7);
        assert_eq!((0..4).map(|_| same.choose(5) as u32).collect::<Vec<_>>(), script);
        let mut fresh = RandomChooser::new(7);
        let mut parted = ScriptThenRandom::following(&script, &recorded.sizes, 7);
        assert_eq!(parted.choose(5) as u32, script[0]);
        let after: Vec<usize> = [6, 5, 5].iter().map(|&n| parted.choose(n)).collect();
        assert_eq!(after, [6, 5, 5].iter().map(|&n| fresh.choose(n)).collect::<Vec<_>>());
    }
}
