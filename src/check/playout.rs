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
pub struct ScriptThenRandom<'a> {
    pub script: &'a [u32],
    pub at: usize,
    pub rest: RandomChooser,
}

impl<'a> ScriptThenRandom<'a> {
    pub fn new(script: &'a [u32], seed: u64) -> ScriptThenRandom<'a> {
        ScriptThenRandom { script, at: 0, rest: RandomChooser::new(seed) }
    }
}

impl Chooser for ScriptThenRandom<'_> {
    fn choose(&mut self, n: usize) -> usize {
        match self.script.get(self.at) {
            Some(&i) => {
                self.at += 1;
                i as usize % n
            }
            None => self.rest.choose(n),
        }
    }
    /// Past the script (indices, which ignore weights), by the weights as any playout.
    fn choose_weighted(&mut self, w: &[u32]) -> usize {
        if self.at < self.script.len() { self.choose(w.len()) } else { self.rest.choose_weighted(w) }
    }
}
