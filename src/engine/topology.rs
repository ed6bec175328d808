//! Where things stand: the shapes of a board, shared by every game.
//!
//! - `Graph`: locations joined by edges, each with a capacity (ships and
//!   docks: a dock holds one ship), with `Occupancy` counting what stands
//!   where and refusing to overfill a location.
//! - `Grid`: squares in rows and columns, each with a field kind the game
//!   gives meaning to (a special field), and `chains`: the groups of
//!   orthogonally adjacent squares that share an owner (token chains).
//! - `Blocks`: plots in blocks, each block a row along its street, so a
//!   plot's neighbours are the plots beside it in its block (Dry Gulch's
//!   board).
//!
//! ```
//! use rulecheck::engine::{Grid, Id, Kind};
//! #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
//! enum Sq {}
//! impl Kind for Sq {
//!     const NAME: &'static str = "square";
//! }
//! let grid: Grid<Sq> = Grid::new(3, 2).unwrap();
//! let owner = |s: Id<Sq>| [Some(1), Some(1), None, None, Some(1), Some(2)][s.index()];
//! let chains = grid.chains(owner);
//! assert_eq!(chains.len(), 2);
//! assert_eq!(chains[0].1.len(), 3); // squares 0, 1 and 4 belong to seat 1
//! ```

use serde::{Deserialize, Serialize};
use smallvec::SmallVec;

use super::ids::{Id, Kind, Overflow};

/// Locations joined by edges (undirected), each with a capacity.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(bound = "")]
pub struct Graph<L: Kind> {
    edges: Vec<SmallVec<[Id<L>; 4]>>,
    capacity: Vec<u32>,
}

impl<L: Kind> Graph<L> {
    /// `n` locations with no edges, each holding `capacity`.
    pub fn new(n: usize, capacity: u32) -> Result<Graph<L>, Overflow> {
        if n > 0 {
            Id::<L>::new(n - 1)?;
        }
        Ok(Graph { edges: vec![SmallVec::new(); n], capacity: vec![capacity; n] })
    }

    pub fn len(&self) -> usize {
        self.edges.len()
    }

    pub fn is_empty(&self) -> bool {
        self.edges.is_empty()
    }

    pub fn locations(&self) -> impl DoubleEndedIterator<Item = Id<L>> + ExactSizeIterator + Clone {
        Id::first(self.len())
    }

    /// Joins `a` and `b` (once; joining them again changes nothing).
    pub fn connect(&mut self, a: Id<L>, b: Id<L>) {
        if a != b && !self.edges[a.index()].contains(&b) {
            self.edges[a.index()].push(b);
            self.edges[b.index()].push(a);
            self.edges[a.index()].sort_unstable();
            self.edges[b.index()].sort_unstable();
        }
    }

    /// The locations joined to `a`, in id order.
    pub fn neighbours(&self, a: Id<L>) -> &[Id<L>] {
        &self.edges[a.index()]
    }

    pub fn adjacent(&self, a: Id<L>, b: Id<L>) -> bool {
        self.edges[a.index()].contains(&b)
    }

    pub fn capacity(&self, a: Id<L>) -> u32 {
        self.capacity[a.index()]
    }

    pub fn set_capacity(&mut self, a: Id<L>, c: u32) {
        self.capacity[a.index()] = c;
    }

    /// The fewest edges from `a` to every location (`None`: unreachable),
    /// walking only through locations `open` allows (the ends need not be).
    pub fn distances(&self, a: Id<L>, open: impl Fn(Id<L>) -> bool) -> Vec<Option<u32>> {
        let mut dist = vec![None; self.len()];
        let mut queue = std::collections::VecDeque::from([a]);
        dist[a.index()] = Some(0);
        while let Some(x) = queue.pop_front() {
            let d = dist[x.index()].unwrap_or(0);
            if x != a && !open(x) {
                continue;
            }
            for &y in self.neighbours(x) {
                if dist[y.index()].is_none() {
                    dist[y.index()] = Some(d + 1);
                    queue.push_back(y);
                }
            }
        }
        dist
    }
}

/// What stands on each location of a graph, within its capacity.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Occupancy {
    counts: SmallVec<[u32; 16]>,
}

/// Why a piece could not enter or leave a location (nothing changed).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Blocked {
    /// The location already holds its `capacity`.
    Full { capacity: u32 },
    /// Nothing stands there to leave.
    Empty,
}

impl Occupancy {
    pub fn new<L: Kind>(g: &Graph<L>) -> Occupancy {
        Occupancy { counts: SmallVec::from_elem(0, g.len()) }
    }

    pub fn at<L: Kind>(&self, a: Id<L>) -> u32 {
        self.counts[a.index()]
    }

    /// One more stands on `a`, refused when it is full.
    pub fn enter<L: Kind>(&mut self, g: &Graph<L>, a: Id<L>) -> Result<(), Blocked> {
        let capacity = g.capacity(a);
        if self.counts[a.index()] >= capacity {
            return Err(Blocked::Full { capacity });
        }
        self.counts[a.index()] += 1;
        Ok(())
    }

    /// One leaves `a`.
    pub fn leave<L: Kind>(&mut self, a: Id<L>) -> Result<(), Blocked> {
        let c = &mut self.counts[a.index()];
        *c = c.checked_sub(1).ok_or(Blocked::Empty)?;
        Ok(())
    }

    /// Moves one from `a` to `b`: both change or neither.
    pub fn step<L: Kind>(&mut self, g: &Graph<L>, a: Id<L>, b: Id<L>) -> Result<(), Blocked> {
        if self.at(a) == 0 {
            return Err(Blocked::Empty);
        }
        if a != b {
            self.enter(g, b)?;
            self.counts[a.index()] -= 1;
        }
        Ok(())
    }
}

/// Squares in `rows` rows of `cols` columns, numbered row by row, each with
/// a field kind (`0` plain; what the others mean is the game's).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(bound = "")]
pub struct Grid<S: Kind> {
    cols: usize,
    rows: usize,
    fields: Vec<u8>,
    #[serde(skip)]
    kind: std::marker::PhantomData<fn() -> S>,
}

impl<S: Kind> Grid<S> {
    pub fn new(cols: usize, rows: usize) -> Result<Grid<S>, Overflow> {
        let n = cols * rows;
        if n > 0 {
            Id::<S>::new(n - 1)?;
        }
        Ok(Grid { cols, rows, fields: vec![0; n], kind: std::marker::PhantomData })
    }

    pub fn squares(&self) -> impl DoubleEndedIterator<Item = Id<S>> + ExactSizeIterator + Clone {
        Id::first(self.fields.len())
    }

    /// The square at a column and row, if on the grid.
    pub fn at(&self, col: usize, row: usize) -> Option<Id<S>> {
        (col < self.cols && row < self.rows).then(|| Id::new(row * self.cols + col).ok()).flatten()
    }

    /// (column, row) of a square.
    pub fn position(&self, s: Id<S>) -> (usize, usize) {
        (s.index() % self.cols, s.index() / self.cols)
    }

    pub fn field(&self, s: Id<S>) -> u8 {
        self.fields[s.index()]
    }

    pub fn set_field(&mut self, s: Id<S>, kind: u8) {
        self.fields[s.index()] = kind;
    }

    /// The squares beside `s` (up, left, right, down; fewer on an edge).
    pub fn orthogonal(&self, s: Id<S>) -> SmallVec<[Id<S>; 4]> {
        let (c, r) = self.position(s);
        let mut out = SmallVec::new();
        let mut push = |c: Option<usize>, r: Option<usize>| {
            if let (Some(c), Some(r)) = (c, r)
                && let Some(x) = self.at(c, r)
            {
                out.push(x);
            }
        };
        push(Some(c), r.checked_sub(1));
        push(c.checked_sub(1), Some(r));
        push(c.checked_add(1), Some(r));
        push(Some(c), r.checked_add(1));
        out
    }

    /// Every chain: a largest group of orthogonally connected squares with
    /// the same owner, as (owner, squares in id order), in order of each
    /// chain's first square. Squares with no owner belong to none.
    pub fn chains<O: Copy + PartialEq>(&self, owner: impl Fn(Id<S>) -> Option<O>) -> Vec<(O, Vec<Id<S>>)> {
        let mut seen = vec![false; self.fields.len()];
        let mut out = Vec::new();
        for s in self.squares() {
            let Some(o) = owner(s).filter(|_| !seen[s.index()]) else {
                continue;
            };
            let mut chain = vec![s];
            seen[s.index()] = true;
            let mut i = 0;
            while let Some(&x) = chain.get(i) {
                for y in self.orthogonal(x) {
                    if !seen[y.index()] && owner(y) == Some(o) {
                        seen[y.index()] = true;
                        chain.push(y);
                    }
                }
                i += 1;
            }
            chain.sort_unstable();
            out.push((o, chain));
        }
        out
    }
}

/// Plots in blocks, each block listed in order along its street: a plot's
/// neighbours are the plots before and after it in its block.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(bound = "")]
pub struct Blocks<P: Kind> {
    /// Each block's plots, in street order.
    blocks: Vec<Vec<Id<P>>>,
    graph: Graph<P>,
}

/// No plots.
impl<P: Kind> Default for Blocks<P> {
    fn default() -> Blocks<P> {
        Blocks { blocks: Vec::new(), graph: Graph { edges: Vec::new(), capacity: Vec::new() } }
    }
}

impl<P: Kind> Blocks<P> {
    /// Blocks over `plots` plots (a plot in no block has no neighbours).
    pub fn new(plots: usize, blocks: Vec<Vec<Id<P>>>) -> Result<Blocks<P>, Overflow> {
        let mut graph = Graph::new(plots, 1)?;
        for b in &blocks {
            for w in b.windows(2) {
                graph.connect(w[0], w[1]);
            }
        }
        Ok(Blocks { blocks, graph })
    }

    pub fn blocks(&self) -> &[Vec<Id<P>>] {
        &self.blocks
    }

    /// The block a plot lies in and its place along the street.
    pub fn block_of(&self, p: Id<P>) -> Option<(usize, usize)> {
        self.blocks.iter().enumerate().find_map(|(b, plots)| plots.iter().position(|&x| x == p).map(|i| (b, i)))
    }

    pub fn neighbours(&self, p: Id<P>) -> &[Id<P>] {
        self.graph.neighbours(p)
    }

    /// The board as a graph (for distances).
    pub fn graph(&self) -> &Graph<P> {
        &self.graph
    }
}
