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
    /// Whether it wants each node's key (`node`) before the choice there:
    /// a chooser that records a game or follows a recorded one.
    fn keyed(&self) -> bool {
        false
    }
    /// The key of the node about to be chosen at (`suite::node_key`: alike
    /// for two nodes that offer the same actions).
    fn node(&mut self, _key: u64) {}
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
/// `following` a recorded game, it also holds the `keys` of the nodes the
/// game chose at (`Recording`), and replays only while each node lists the
/// same actions as the recorded one did: from the first that lists others
/// (a reading that adds, takes away or changes an action there) it goes on
/// at random. An index replayed into another list would stand for an
/// unrelated action, and never for one a reading adds: such a reading
/// would look as if it never changed play (`diff`).
pub struct ScriptThenRandom<'a> {
    script: &'a [u32],
    keys: Option<&'a [u64]>,
    /// The key of the node chosen at next (`Chooser::node`).
    key: Option<u64>,
    at: usize,
    parted: bool,
    rest: RandomChooser,
}

impl<'a> ScriptThenRandom<'a> {
    pub fn new(script: &'a [u32], seed: u64) -> ScriptThenRandom<'a> {
        ScriptThenRandom { script, keys: None, key: None, at: 0, parted: false, rest: RandomChooser::new(seed) }
    }

    pub fn following(script: &'a [u32], keys: &'a [u64], seed: u64) -> ScriptThenRandom<'a> {
        ScriptThenRandom { keys: Some(keys), ..ScriptThenRandom::new(script, seed) }
    }

    /// The scripted choice at this node, while the game still follows it.
    fn next(&mut self, n: usize) -> Option<usize> {
        if self.parted {
            return None;
        }
        let i = *self.script.get(self.at)?;
        let key = self.key.take();
        if let Some(keys) = self.keys {
            // a node whose key was not given, or past the record's, parts too
            self.parted = !matches!((keys.get(self.at), key), (Some(&was), Some(is)) if was == is);
        }
        self.at += 1;
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
    /// Only while it follows the record: past it, no node's key is made.
    fn keyed(&self) -> bool {
        self.keys.is_some() && !self.parted && self.at < self.script.len()
    }
    fn node(&mut self, key: u64) {
        self.key = Some(key);
    }
}

/// Records the key of each node chosen at (`keys`, one per choice, as a
/// run's `choices` records the index taken) while `inner` chooses.
pub struct Recording<C> {
    pub inner: C,
    pub keys: Vec<u64>,
}

impl<C: Chooser> Chooser for Recording<C> {
    fn choose(&mut self, n: usize) -> usize {
        self.inner.choose(n)
    }
    fn choose_weighted(&mut self, w: &[u32]) -> usize {
        self.inner.choose_weighted(w)
    }
    fn keyed(&self) -> bool {
        true
    }
    fn node(&mut self, key: u64) {
        self.keys.push(key);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Chooses at nodes with these keys, each offering five choices.
    fn play(c: &mut dyn Chooser, keys: &[u64]) -> Vec<usize> {
        keys.iter()
            .map(|&k| {
                c.node(k);
                c.choose(5)
            })
            .collect()
    }

    /// A node listing what the record's did takes the recorded choice; from
    /// the first that lists other actions (as many or not), the choices are
    /// the seed's own, as a game never recorded would make them.
    #[test]
    fn follow_parts_from_the_record_where_a_node_lists_other_actions() {
        let mut recorded = Recording { inner: RandomChooser::new(7), keys: Vec::new() };
        let script: Vec<u32> = play(&mut recorded, &[1, 2, 3, 4]).into_iter().map(|i| i as u32).collect();
        assert_eq!(recorded.keys, [1, 2, 3, 4]);
        let mut same = ScriptThenRandom::following(&script, &recorded.keys, 7);
        assert_eq!(play(&mut same, &[1, 2, 3, 4]).into_iter().map(|i| i as u32).collect::<Vec<_>>(), script);
        let mut fresh = RandomChooser::new(7);
        let mut parted = ScriptThenRandom::following(&script, &recorded.keys, 7);
        // the second node lists as many actions as the record's, but others
        let after = play(&mut parted, &[1, 9, 3, 4]);
        assert_eq!(after[0] as u32, script[0]);
        assert_eq!(after[1..], (0..3).map(|_| fresh.choose(5)).collect::<Vec<_>>());
    }
}
