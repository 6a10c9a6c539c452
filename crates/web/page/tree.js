// The analysis board's game tree: every line played on it is kept. A stone
// put where the shown line goes on otherwise starts a variation beside it,
// never dropping the moves after it; undo and redo step along the line, and
// any variation can be chosen at its move, and left for the main line.
// Nodes are plain objects, {move: [x, y, "B"|"W"], children: [...]}, the
// first child the main line, as record.js reads and writes them in SGF, and
// a node's `comment` (SGF's C[]) if it has one (the root's: the game's).
// No page in here: node runs it as it is (e2e/tree.test.mjs).

const same = (a, b) => a[0] === b[0] && a[1] === b[1] && a[2] === b[2];

/**
 * A node of the tree: its move (none at the root), the moves that may
 * follow it (the first the main line), and `pick`, the one that redo and
 * the line shown follow: the one last stepped into.
 */
const node = (move) => ({ move, children: [], pick: 0 });

/** A plain tree as record.js reads it ({children, comment}, each {move, children, comment}) made nodes of this module, the picks on the main line. */
function adopt(plain) {
  const root = node(null);
  const stack = [[plain, root]];
  while (stack.length) {
    const [from, to] = stack.pop();
    if (from.comment) to.comment = from.comment;
    for (const c of from.children || []) {
      const n = node(c.move.slice());
      to.children.push(n);
      stack.push([c, n]);
    }
  }
  return root;
}

/** A tree of moves, and the position shown in it: the path from the empty board to one node. */
export class GameTree {
  /** A tree read from `plain` (record.js's {children}), or an empty one; the empty board shown. */
  constructor(plain) {
    this.root = plain ? adopt(plain) : node(null);
    /** The nodes from the root to the one shown. */
    this.path = [this.root];
  }

  /** A tree of one line, `moves` ([x, y, colour] in order), shown at its end. */
  static ofLine(moves) {
    const tree = new GameTree();
    for (const m of moves) tree.play(m);
    return tree;
  }

  /** The node shown. */
  get node() { return this.path[this.path.length - 1]; }

  /** How many moves are on the board. */
  get depth() { return this.path.length - 1; }

  /** The moves on the board, in order. */
  shown() { return this.path.slice(1).map((n) => n.move); }

  /** The nodes of the line: the path shown, then on through each node's pick to the line's end. */
  lineNodes() {
    const nodes = this.path.slice();
    for (let n = this.node; n.children.length; ) {
      n = n.children[n.pick];
      nodes.push(n);
    }
    return nodes;
  }

  /** The moves of the line (the shown ones first): what the move list, the slider and the review follow. */
  line() { return this.lineNodes().slice(1).map((n) => n.move); }

  /** The last node of the line: the line is the same one while this is the same node. */
  lineEnd() { const nodes = this.lineNodes(); return nodes[nodes.length - 1]; }

  /**
   * Plays `move` at the shown position: the next move of a line already
   * there is followed into it; any other starts a variation (the first the
   * main line). Returns whether it was new.
   */
  play(move) {
    const at = this.node;
    let k = at.children.findIndex((c) => same(c.move, move));
    const added = k < 0;
    if (added) k = at.children.push(node(move.slice())) - 1;
    at.pick = k;
    this.path.push(at.children[k]);
    return added;
  }

  /** Undo: one move back, the move kept for redo. Returns whether it moved. */
  back() {
    if (!this.depth) return false;
    this.path.pop();
    return true;
  }

  /** Redo: one move on along the line (the variation last chosen here). Returns whether it moved. */
  forward() {
    const at = this.node;
    if (!at.children.length) return false;
    this.path.push(at.children[at.pick]);
    return true;
  }

  /** Shows the line's position after `n` moves (0 the empty board, clamped to the line). Returns whether it moved. */
  goTo(n) {
    const nodes = this.lineNodes();
    n = Math.max(0, Math.min(nodes.length - 1, n));
    if (n === this.depth) return false;
    this.path = nodes.slice(0, n + 1);
    return true;
  }

  /**
   * The moves that may be played as move `n` of the line (from 1): the
   * line's own and its variations, in the tree's order (the first the
   * main line), each `{move, k, on}` (`on`: the line's).
   */
  alternatives(n) { return this.lineAlternatives()[n - 1] || []; }

  /** `alternatives` of every move of the line, in order: the move list's, found in one walk. */
  lineAlternatives() {
    const nodes = this.lineNodes();
    return nodes.slice(1).map((n, i) => nodes[i].children.map((c, k) => ({ move: c.move, k, on: c === n })));
  }

  /** The moves that follow the shown position, each `{move, k, on}` (`on`: the one redo plays). */
  next() {
    const at = this.node;
    return at.children.map((c, k) => ({ move: c.move, k, on: k === at.pick }));
  }

  /** Takes variation `k` for move `n` of the line (see `alternatives`) and shows the position after it. Returns whether it moved. */
  choose(n, k) {
    const nodes = this.lineNodes();
    if (n < 1 || n >= nodes.length || !nodes[n - 1].children[k]) return false;
    const at = nodes[n - 1], before = this.node;
    at.pick = k;
    this.path = nodes.slice(0, n);
    this.path.push(at.children[k]);
    return this.node !== before;
  }

  /** The variation `delta` places after (or before) the shown move, among those played in its place. Returns whether it moved. */
  sideStep(delta) {
    if (!this.depth) return false;
    const at = this.path[this.depth - 1];
    const k = at.children.indexOf(this.node) + delta;
    return k >= 0 && k < at.children.length && this.choose(this.depth, k);
  }

  /** The move number where the line leaves the main line, or 0 on the main line. */
  branch() {
    const nodes = this.lineNodes();
    for (let n = 1; n < nodes.length; n++) if (nodes[n - 1].children[0] !== nodes[n]) return n;
    return 0;
  }

  /** Back to the main line, at the position where the line shown left it. Returns whether the line changed. */
  toMainLine() {
    const n = this.branch();
    if (!n) return false;
    for (let at = this.root; at.children.length; at = at.children[0]) at.pick = 0;
    this.path = this.path.slice(0, Math.min(n, this.path.length));
    return true;
  }

  /** Deletes the shown move and every move after it, in every variation; the position before it is shown. Returns whether it did. */
  remove() {
    if (!this.depth) return false;
    const gone = this.path.pop(), at = this.node;
    const k = at.children.indexOf(gone);
    at.children.splice(k, 1);
    if (at.pick >= k && at.pick > 0) at.pick--;
    return true;
  }

  /**
   * The shown position without its stone `i` (0 the first): the last one
   * is a step back; another makes the moves after it, played without it,
   * a new line from where it was played (a variation, so nothing is lost).
   */
  takeAway(i) {
    if (i < 0 || i >= this.depth) return;
    if (i === this.depth - 1) return void this.back();
    const after = this.path.slice(i + 2).map((n) => n.move);
    this.path = this.path.slice(0, i + 1);
    for (const m of after) this.play(m);
  }

  /**
   * Shows the position of `moves` where the tree holds it: after those
   * moves in that order if a line plays them so, else after any line that
   * puts the same stones (an address names a position, not its order).
   * Returns false, changing nothing, where the tree does not hold it.
   */
  show(moves) {
    const path = this.find(moves) || this.findStones(moves);
    if (!path) return false;
    for (let d = 1; d < path.length; d++) path[d - 1].pick = path[d - 1].children.indexOf(path[d]);
    this.path = path;
    return true;
  }

  /** The path of `moves` played in order from the empty board, or null. */
  find(moves) {
    const path = [this.root];
    for (const m of moves) {
      const next = path[path.length - 1].children.find((c) => same(c.move, m));
      if (!next) return null;
      path.push(next);
    }
    return path;
  }

  /** The path of a line that puts exactly the stones `moves` on the board, in any order, or null. */
  findStones(moves) {
    const want = new Set(moves.map((m) => m.join(",")));
    // Down every line while its stones are all wanted ones: at the depth of the position, the position.
    const stack = [[this.root]];
    while (stack.length) {
      const path = stack.pop();
      if (path.length - 1 === want.size) return path;
      for (const c of path[path.length - 1].children) if (want.has(c.move.join(","))) stack.push([...path, c]);
    }
    return null;
  }

  /**
   * Every move of the tree turned by `f` ((x, y) → [x, y]: the board
   * rotated or flipped), every line, comment and the position shown kept.
   */
  transform(f) {
    const stack = [this.root];
    while (stack.length) {
      const n = stack.pop();
      if (n.move) n.move = [...f(n.move[0], n.move[1]), n.move[2]];
      stack.push(...n.children);
    }
  }

  /** Every move of the tree, in every line. */
  allMoves() {
    const out = [], stack = [this.root];
    while (stack.length) {
      const n = stack.pop();
      if (n.move) out.push(n.move);
      stack.push(...n.children);
    }
    return out;
  }
}
