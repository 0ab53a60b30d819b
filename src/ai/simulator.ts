/**
 * The research simulator: a mutable game driven by integer actions, with explicit chance nodes,
 * cheap clones and fast random playouts. It runs the engine's own rule code on a plain copy of the
 * state: no immer, no validation of states, no events.
 */
import { deployExtras, deployMove, placementBuffer, randomDeploy, randomMove, randomPlacement, turnMoves } from '../core/engine/legal.js';
import { meepleError, type MeepleError } from '../core/errors.js';
import { err, ok, type Result } from '../core/result.js';
import type { RandomSource } from '../core/rng.js';
import type { Ruleset } from '../core/ruleset.js';
import { keyX, keyY, type GameState, type GameView, type Move } from '../core/state.js';
import type { Immutable, Rotation } from '../core/types.js';
import { cloneState } from '../core/engine/clone.js';
import { claimNow, playMove } from '../core/engine/play.js';
import { actionToString as actionString, capacity, combinedPlacements, encodeSplit, newScratch, NO_BUFFER, playAction, writeLegal, type Scratch } from './actions.js';
import { CHANCE_PLAYER, CHANCE_STEP, TERMINAL_PLAYER, chanceOutcomes, concealAll, playChanceExplicit, isChanceNode, maxChanceOutcomes, playChance, playExplicit, redrawAll, writeDrawable, type ChanceOutcome } from './chance.js';
import { actionLayout, type ActionForm, type ActionLayout, type ReturnKind } from './layout.js';
import { returns } from './returns.js';
import { serializeResearchState } from './research-state.js';
import { stateToString } from './text.js';
import type { GameEvent } from '../core/events.js';

/** Options of the research {@link createResearchSimulator}. */
export interface ResearchSimulatorOptions {
  /**
   * `'explicit'` (default): a move that ends a turn leads to a chance node, resolved by applying
   * one of its outcomes (your choice, or sampled from your random source). `'seeded'`: tiles are
   * drawn by the state's own seeded generator, as in the app API (no chance nodes; a search using
   * it would know the real draw order, so give it a {@link determinize}d state). The game's chosen
   * draws (`newGame`'s `draws`) are honoured in `'seeded'` mode, the same as by `applyMove` (a
   * chosen tile the rules hold back throws a `draw/held-back` Error there); explicit chance
   * forgets them, as it forgets what the seed fixed: every draw is a chance node over the bag.
   */
  readonly chance?: 'explicit' | 'seeded';
  /** The action form (default `'split'`). */
  readonly form?: ActionForm;
}

/**
 * Chooses an action during a playout: `legal` holds the legal actions, ascending (a view valid
 * only during the call); return one of them.
 */
export type Policy = (sim: ResearchSimulator, legal: Int32Array) => number;

/**
 * A mutable game for search and learning, driven by integer actions (OpenSpiel's `State`).
 *
 * @example
 * ```ts
 * import { createRandomSource, createRuleset, newGame } from 'meeplekit';
 * import { createResearchSimulator } from 'meeplekit/ai';
 *
 * const rules = createRuleset({ game: 'classic' });
 * if (!rules.ok) throw new Error(rules.error.message);
 * const game = newGame(rules.value, { players: 2, seed: 'search' });
 * if (!game.ok) throw new Error(game.error.message);
 *
 * const root = createResearchSimulator(rules.value, game.value);
 * const random = createRandomSource('playouts');
 * let best = -1;
 * let bestValue = -Infinity;
 * for (const a of root.legalActions().slice()) {
 *   let total = 0;
 *   for (let i = 0; i < 20; i++) {
 *     const sim = root.clone();
 *     sim.applyAction(a);
 *     const [mine, theirs] = sim.playout(random);
 *     total += mine! - theirs!;
 *   }
 *   if (total > bestValue) [best, bestValue] = [a, total];
 * }
 * console.log(root.actionToString(best));
 * ```
 */
export interface ResearchSimulator {
  /** The rules it runs. */
  readonly rules: Ruleset;
  /** The live state. Read it, never write it; {@link ResearchSimulator.snapshot} keeps a copy. */
  readonly state: Immutable<GameState>;
  /** The action form of its actions. */
  readonly form: ActionForm;
  /** How tiles are drawn. */
  readonly chance: 'explicit' | 'seeded';
  /** Who decides now: a player, {@link CHANCE_PLAYER} at a chance node, {@link TERMINAL_PLAYER} once the game is over. */
  currentPlayer(): number;
  /** Whether the state is a chance node. */
  isChanceNode(): boolean;
  /** Whether the game is over. */
  isTerminal(): boolean;
  /**
   * The legal actions, ascending (chance outcomes at a chance node), in `out` when given and large
   * enough, else in the simulator's own buffer: a view valid until its next call.
   */
  legalActions(out?: Int32Array): Int32Array;
  /** Writes the legal-action mask into `out` (see the module function `legalActionsMask`); returns the count. */
  legalActionsMask(out: Uint8Array): number;
  /** The chance outcomes with their probabilities (empty unless at a chance node). */
  chanceOutcomes(): ChanceOutcome[];
  /** Applies a legal action or chance outcome. Throws a RangeError for an illegal one. */
  applyAction(action: number): void;
  /**
   * Applies a legal action or chance outcome and returns its events (as the module function
   * `applyAction` with `events: true`: the events stop before the next draw's chance node).
   */
  applyAction(action: number, options: { readonly events: true }): GameEvent[];
  /** Applies a random action: uniform over the legal actions, or a chance outcome by its probability. Returns it. */
  applyRandom(random: RandomSource): number;
  /**
   * Plays to the end: decisions made by `policy` (default: uniformly at random with `random`),
   * tiles drawn by the engine's own draw from a generator seeded by `random` (the chance
   * outcomes' distribution, without stopping at each draw). Returns the final scores; `rewards`
   * then covers the whole playout. Without `policy`, placements are drawn by rejection (uniform
   * over the legal ones, as `applyRandom`'s, and deterministic for a given `random`, but not the
   * actions `applyRandom` would pick from the same stream).
   */
  playout(random: RandomSource, policy?: Policy): number[];
  /**
   * Plays on as {@link playout} does without a policy (uniform random decisions, placements drawn
   * by rejection, tiles drawn by the engine's own draw from a generator seeded by `random`), but
   * stops after `decisions` decisions, or at the end of the game if it comes first: a
   * depth-limited rollout, to be scored by an evaluation (say `projectedScores`) instead of the
   * final scores. Returns how many decisions it played (0 at the end of the game). The chance
   * nodes on the way are drawn, not stopped at, and afterwards the state's generator is the one
   * seeded by `random` (the draws still to come follow it); `rewards` then covers the whole
   * rollout. Throws a RangeError unless `decisions` is a whole number from 0.
   */
  rollout(random: RandomSource, decisions: number): number;
  /** Each player's returns now (see the module function `returns`). */
  returns(kind?: ReturnKind): number[];
  /** Each player's reward for the last applied action (0 before any). */
  rewards(kind?: ReturnKind): number[];
  /** The moves an action stands for (see the module function `actionToMoves`). */
  actionToString(action: number): string;
  /** An independent copy for branching: a few microseconds. */
  clone(): ResearchSimulator;
  /** A plain deep copy of the state (not frozen). */
  snapshot(): GameState;
  /** The state as text (see {@link serializeResearchState}); load it with `deserializeResearchState`. */
  serialize(): string;
  /** The state as readable text for logs and language models (see {@link stateToString}). */
  toString(): string;
}

/** Entries of a simulator's first legal-action buffer when `capacity` is only a loose bound (see `legalActions`). */
const LEGAL_START = 256;

class Research implements ResearchSimulator {
  readonly rules: Ruleset;
  readonly form: ActionForm;
  readonly chance: 'explicit' | 'seeded';
  readonly #layout: ActionLayout;
  #s: GameState;
  #scratch: Scratch = newScratch();
  #legal = NO_BUFFER;
  #weights: number[] = [];
  #prev: Pick<GameView, 'ruleset' | 'scores' | 'step'>;

  constructor(rules: Ruleset, layout: ActionLayout, s: GameState, form: ActionForm, chance: 'explicit' | 'seeded') {
    this.rules = rules;
    this.#layout = layout;
    this.#s = s;
    this.form = form;
    this.chance = chance;
    this.#prev = { ruleset: s.ruleset, scores: [...s.scores], step: s.step };
  }

  get state(): Immutable<GameState> {
    return this.#s;
  }
  currentPlayer(): number {
    const step = this.#s.step;
    return step.kind === 'game-over' ? TERMINAL_PLAYER : step.player;
  }
  isChanceNode(): boolean {
    return isChanceNode(this.#s);
  }
  isTerminal(): boolean {
    return this.#s.step.kind === 'game-over';
  }
  legalActions(out?: Int32Array): Int32Array {
    const s = this.#s;
    if (this.form === 'combined' && s.step.kind === 'place-tile') {
      const list = combinedPlacements(this.rules, this.#layout, s, this.#scratch);
      if (out === undefined || out.length < list.length) {
        if (this.#legal.length < list.length) this.#legal = new Int32Array(2 * list.length);
        out = this.#legal;
      }
      out.set(list);
      return out.subarray(0, list.length);
    }
    const need = capacity(this.rules, this.#layout, s);
    if (out !== undefined && out.length >= need) return out.subarray(0, writeLegal(this.rules, this.#layout, s, this.form, out, this.#scratch));
    let buf = this.#legal;
    if (buf.length < need) {
      // `capacity` is exact on the engine's fast paths but loose where modules list moves (every
      // id outside the placement block: 11,099 in The Castle), and a clone starts without a
      // buffer: sizing it by the bound made each search's clone allocate 89 KB there. So the
      // actions are written into a buffer of at most LEGAL_START entries first, and only when
      // more were listed is it grown to their number and written again (a typed array drops
      // writes past its end, so the first attempt costs time, never a wrong entry).
      if (buf.length < Math.min(need, LEGAL_START)) this.#legal = buf = new Int32Array(Math.min(2 * need, LEGAL_START));
      const n = writeLegal(this.rules, this.#layout, s, this.form, buf, this.#scratch);
      if (n <= buf.length) return buf.subarray(0, n);
      this.#legal = buf = new Int32Array(2 * n);
    }
    return buf.subarray(0, writeLegal(this.rules, this.#layout, s, this.form, buf, this.#scratch));
  }
  legalActionsMask(out: Uint8Array): number {
    const size = this.isChanceNode() ? maxChanceOutcomes(this.rules) : this.form === 'split' ? this.#layout.size : this.#layout.combinedSize;
    if (out.length < size) throw new RangeError(`legalActionsMask: the mask needs ${size} entries, got ${out.length}`);
    const legal = this.legalActions();
    out.fill(0, 0, size);
    for (let i = 0; i < legal.length; i++) out[legal[i]!] = 1;
    return legal.length;
  }
  chanceOutcomes(): ChanceOutcome[] {
    return chanceOutcomes(this.rules, this.#s);
  }
  #remember(): void {
    const s = this.#s;
    const prev = this.#prev.scores as number[];
    for (let i = 0; i < prev.length; i++) prev[i] = s.scores[i]!;
    this.#prev.step = s.step;
  }
  applyAction(action: number): void;
  applyAction(action: number, options: { readonly events: true }): GameEvent[];
  applyAction(action: number, options?: { readonly events?: boolean }): GameEvent[] | void {
    this.#remember();
    if (options?.events !== true) {
      playAction(this.rules, this.#layout, this.#s, action, this.form, this.#scratch, this.chance === 'seeded');
      return;
    }
    const events: GameEvent[] = [];
    playAction(this.rules, this.#layout, this.#s, action, this.form, this.#scratch, this.chance === 'seeded', (e) => events.push(e));
    return events;
  }
  /** A chance outcome drawn by its probability, exactly as the engine draws from the bag. */
  #sampleChance(random: RandomSource): number {
    const s = this.#s;
    if (s.step.kind === CHANCE_STEP && this.rules.hooks.drawFilter.length === 0) {
      // No module restricts the draw: walk the bag as the engine does.
      const bag = s.bag;
      let r = random(s.bagSize);
      let k = 0;
      while (r >= bag[k]!) r -= bag[k++]!;
      return k;
    }
    const most = maxChanceOutcomes(this.rules);
    if (this.#legal.length < most) this.#legal = new Int32Array(Math.max(256, most));
    const ids = this.#legal;
    const weights = this.#weights;
    const n = writeDrawable(this.rules, s, ids, weights);
    let total = 0;
    for (let i = 0; i < n; i++) total += weights[i]!;
    let r = random(total);
    let i = 0;
    while (r >= weights[i]!) r -= weights[i++]!;
    return ids[i]!;
  }
  applyRandom(random: RandomSource): number {
    if (this.#s.step.kind === 'game-over') throw new Error('applyRandom: the game is over');
    this.#remember();
    return this.#randomStep(random, this.chance === 'seeded');
  }
  /**
   * A uniform legal action, or a chance outcome by its probability, applied; `seeded`: turn ends
   * draw with the state's generator. Returns the action or outcome.
   */
  #randomStep(random: RandomSource, seeded: boolean): number {
    const s = this.#s;
    const step = s.step;
    if (step.kind === 'game-over') throw new Error('applyRandom: the game is over');
    if (isChanceNode(s)) {
      const k = this.#sampleChance(random);
      if (seeded) playChance(this.rules, s, k, null);
      else playChanceExplicit(this.rules, s, k, this.#scratch.discarded);
      return k;
    }
    const hooks = this.rules.hooks;
    let move: Move;
    let action: number;
    const w = this.#layout.window;
    // Split form: a uniform legal move is a uniform legal action (they are in bijection), and
    // placements and follower targets can be drawn without listing them.
    if (this.form === 'split' && step.kind === 'place-tile' && (hooks.turnMoves.length === 0 || turnMoves(this.rules, s).length === 0)) {
      const p = randomPlacement(this.rules, s, step.tile, placementBuffer(s), random);
      const key = (p / 4) | 0;
      const x = keyX(key);
      const y = keyY(key);
      move = { type: 'place', player: step.player, x, y, rotation: (p & 3) as Rotation };
      action = ((y - w.y) * w.width + (x - w.x)) * 4 + (p & 3);
    } else if (this.form === 'split' && step.kind === 'deploy') {
      const claim = claimNow(this.rules, s);
      const extras = deployExtras(this.rules, s, claim);
      const f = randomDeploy(this.rules, s, random, extras.length, claim);
      if (f === -1) {
        move = { type: 'pass', player: step.player };
        action = this.#layout.pass;
      } else if (f < -1) {
        move = extras[-2 - f]!;
        action = encodeSplit(this.rules, this.#layout, s, move);
      } else {
        move = deployMove(this.rules, s, step.player, f);
        action = this.#layout.deploy + f;
      }
    } else {
      const legal = this.legalActions();
      action = legal[random(legal.length)]!;
      playAction(this.rules, this.#layout, s, action, this.form, this.#scratch, seeded);
      return action;
    }
    // The move was made here and is not handed out: the history keeps it as it is.
    if (seeded) playMove(this.rules, s, move, null, true);
    else playExplicit(this.rules, s, move, this.#scratch.discarded, true);
    return action;
  }
  playout(random: RandomSource, policy?: Policy): number[] {
    const s = this.#s;
    if (s.step.kind === 'game-over') return [...s.scores];
    this.#remember();
    this.#playOn(random, policy, Infinity);
    return [...s.scores];
  }
  rollout(random: RandomSource, decisions: number): number {
    if (!Number.isInteger(decisions) || decisions < 0) throw new RangeError(`rollout: decisions must be a whole number from 0, got ${String(decisions)}`);
    if (this.#s.step.kind === 'game-over') return 0;
    this.#remember();
    return this.#playOn(random, undefined, decisions);
  }
  /** Plays at most `limit` decisions, or to the end ({@link playout}'s way); returns how many it played. */
  #playOn(random: RandomSource, policy: Policy | undefined, limit: number): number {
    const s = this.#s;
    if (s.step.kind === 'game-over') return 0;
    // Within a playout nobody looks at the chance nodes: the tiles are drawn by the engine itself,
    // from a generator seeded by \`random\` (the same distribution, without stopping at each draw),
    // and what modules conceal (The Castle's face-down tokens) is made up from \`random\` at once.
    // The generator is replaced first, and the game's chosen draws after it go: the state's own
    // would know the real draws.
    const rng = [random(0x100000000), random(0x100000000), random(0x100000000), random(0x100000000)];
    if ((rng[0]! | rng[1]! | rng[2]! | rng[3]!) === 0) rng[0] = 0x9e3779b9;
    s.rng = rng;
    // Pending chance nodes first (a token just taken may lead to another before the turn ends).
    while (isChanceNode(s)) this.#randomStep(random, true);
    redrawAll(this.rules, s, random);
    // Only modules' chance nodes are left (the engine draws the tiles): The Castle's tokens.
    const fast = policy === undefined && this.form === 'split';
    let played = 0;
    while (!this.isTerminal()) {
      if (s.step.player === CHANCE_PLAYER) {
        playChance(this.rules, s, this.#sampleChance(random), null);
        continue;
      }
      if (played === limit) break;
      played++;
      // The move was made here and is seen by nobody: the history keeps it as it is.
      if (fast) playMove(this.rules, s, randomMove(this.rules, s, random, true), null, true);
      else if (policy === undefined) this.#randomStep(random, true);
      else playAction(this.rules, this.#layout, s, policy(this, this.legalActions()), this.form, this.#scratch, true);
    }
    return played;
  }
  returns(kind: ReturnKind = 'score'): number[] {
    return returns(this.rules, this.#s, kind);
  }
  rewards(kind: ReturnKind = 'score'): number[] {
    const now = returns(this.rules, this.#s, kind);
    const before = returns(this.rules, this.#prev, kind);
    return now.map((v, p) => v - before[p]!);
  }
  actionToString(action: number): string {
    return actionString(this.rules, this.#s, action, this.form);
  }
  clone(): ResearchSimulator {
    const copy = new Research(this.rules, this.#layout, cloneState(this.#s), this.form, this.chance);
    copy.#prev = { ruleset: this.#prev.ruleset, scores: [...this.#prev.scores], step: this.#prev.step };
    return copy;
  }
  snapshot(): GameState {
    return cloneState(this.#s);
  }
  serialize(): string {
    return serializeResearchState(this.rules, this.#s);
  }
  toString(): string {
    return stateToString(this.rules, this.#s);
  }
}

/**
 * Creates a research simulator from a state (copied, never changed): a state from `newGame`,
 * `applyMove`, {@link applyAction} or {@link determinize}.
 *
 * @throws TypeError when the state belongs to other rules; Error when a module with moves has no action encoding.
 */
export function createResearchSimulator(rules: Ruleset, state: Immutable<GameState>, options: ResearchSimulatorOptions = {}): ResearchSimulator {
  const checked = checkSimulatorInput(rules, state);
  if (!checked.ok) throw new TypeError(checked.error.message);
  const chance = options.chance ?? 'explicit';
  const s = cloneState(state);
  // Explicit chance: what the seed fixed in advance and nobody has seen is decided at chance nodes.
  if (chance === 'explicit') concealAll(rules, s);
  return new Research(rules, actionLayout(rules), s, options.form ?? 'split', chance);
}

function checkSimulatorInput(rules: Ruleset, state: Immutable<GameState>): Result<void, MeepleError> {
  if (state.ruleset !== rules.id) {
    return err(meepleError('state/ruleset-mismatch', `state belongs to ruleset '${state.ruleset}', not '${rules.id}'`));
  }
  // Four generator words, then possibly the game's chosen draws (honoured with `chance: 'seeded'`).
  if (!Array.isArray(state.rng) || state.rng.length < 4) {
    return err(meepleError('state/malformed', 'a simulator needs a full state with its random generator: determinize an observation first'));
  }
  return ok(undefined);
}
