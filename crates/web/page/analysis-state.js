// The analysis board's state: one object, made by analysis.js and passed
// to every part of the board (settings, heat map, drawing, navigation, the
// analysis loop, the address, records, review, modes), so that no part
// keeps the board's state of its own. Every line played is kept in a game
// tree (tree.js); the position shown is a path in it.
import { pointName } from "./board.js";
import { GameTree } from "./tree.js";

/** The analysis board: its position, settings, the analysis standing and what the parts do when they change. */
export class AnalysisBoard {
  constructor() {
    /** Every line played on the board, and the position shown in it. */
    this.tree = new GameTree();
    this.size = 15;
    this.rule = "freestyle";
    // running: analysis is on (the button says Stop): it goes on with every
    // new position until stopped, even after a proven result.
    this.running = false;
    /** The question standing: each new one takes the next number, so that older answers are dropped. */
    this.gen = 0;
    /** The last answer shown, and the line hovered (its index) if any. */
    this.result = null;
    this.hover = null;
    /** The answer that proved the shown position, which ends its analysis. */
    this.proven = null;
    /** The answer that spent the analysis time chosen, which ends it too. */
    this.spent = null;
    /** The lines of the question standing, reported live (by line, from 0) before its answer comes. */
    this.live = [];
    /** The time the question standing asks for, in ms (0: none stands). */
    this.asking = 0;
    /** {gen, busy, evals: [black's win chance | null per position], ms} */
    this.review = null;
    /** The games of the record loaded. */
    this.games = [];
    /** Which of them is shown. */
    this.gameShown = 0;
    /** Under renju with black to move: point key → why it is forbidden to black. */
    this.forbidden = new Map();
    /** The question about the rule's forbidden points now standing. */
    this.posGen = 0;
    /** The link being opened now (an older one's answer is dropped). */
    this.linkGen = 0;
    /** The board on the page (a Goban), made by analysis.js. */
    this.board = null;
    // What the parts ask of the whole, set by analysis.js: draw everything
    // again; the position shown changed (`fromAddress`: it came from the
    // address); show the analysis board (from a link).
    this.draw = () => {};
    this.positionChanged = () => {};
    this.openBoard = () => {};
  }

  /** The line shown ([x, y, "B"|"W"] in order): the moves on the board, then on as redo would play them. */
  get moves() { return this.tree.line(); }

  /** How many moves of the line are on the board. */
  get cursor() { return this.tree.depth; }

  /** The stones on the board, in the order played. */
  shown() { return this.tree.shown(); }

  /** A point's name on this board (h8). */
  name(p) { return pointName(p, this.size); }

  /**
   * Changes the tree or the position shown in it by `change()`; a new
   * position is analysed, and a new line drops the review of the old one.
   */
  step(change) {
    const shown = this.tree.node, line = this.tree.lineEnd();
    change();
    const newLine = this.tree.lineEnd() !== line;
    if (newLine) this.review = null;
    if (this.tree.node !== shown) this.positionChanged();
    else if (newLine) this.draw();
  }

  /** Shows the line's position after `n` moves. */
  setCursor(n) { this.step(() => this.tree.goTo(n)); }

  /** A new tree (a game loaded, the board cleared): `moves` its one line, shown at its end, or a tree read from a record. */
  newTree(moves, plain) {
    this.tree = plain ? new GameTree(plain) : GameTree.ofLine(moves);
    if (plain) this.tree.goTo(Infinity);
    this.review = null;
  }
}
