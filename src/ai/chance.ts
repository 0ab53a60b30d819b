/**
 * Explicit chance. The app API draws the next tile with the state's seeded generator inside the
 * move that ends a turn; the research API instead stops at a chance node, lists the outcomes
 * (tile kinds, with the probability of drawing each) and applies the one chosen, exactly as the
 * engine's draw would have: a tile that fits nowhere is discarded and another drawn, an empty bag
 * ends the game.
 */
import type { Emit, GameEvent } from '../core/events.js';
import type { Ruleset } from '../core/ruleset.js';
import type { GameState, GameView, Move } from '../core/state.js';
import type { Immutable } from '../core/types.js';
import { drawFilters, mayDraw, takeTile } from '../core/engine/draw.js';
import { endGame } from '../core/engine/game-end.js';
import { ownerOf, playMove } from '../core/engine/play.js';
import { resumeTurn } from '../core/engine/turn.js';
import type { ModuleChance } from '../core/module-chance.js';
import { assertRuleset } from '../core/engine/query.js';

/**
 * The step kind of a chance node: the state waits for a tile to be drawn (`state.step` is
 * `{ kind: 'chance/draw', player: -1 }`). Only the research API makes such states; the app API
 * never sees one.
 */
export const CHANCE_STEP = 'chance/draw';

/** The `player` of a chance node's step (OpenSpiel's chance player id). */
export const CHANCE_PLAYER = -1;

/** What `currentPlayer` answers once the game is over. */
export const TERMINAL_PLAYER = -4;

/**
 * One outcome of a chance node with its probability: at a tile draw a tile kind (its index in the
 * catalogue); at a module's own chance node (The Castle's `castle/token`, a face-down wall token
 * taken) the module's outcome (the token's kind, 1..9).
 */
export interface ChanceOutcome {
  /** The outcome id: a tile draw's tile kind index (`state.bag[outcome]` copies are left), or the module's outcome. */
  readonly outcome: number;
  /** What it is: the tile kind's id (`D`) at a draw, the module's name for it elsewhere (`token 7`). */
  readonly label: string;
  /** Its probability. */
  readonly probability: number;
}

/** Whether a state is a chance node: a tile draw, or a module's own chance node (its step's player is {@link CHANCE_PLAYER}). */
export function isChanceNode(state: Immutable<GameView>): boolean {
  const step = state.step;
  return step.kind !== 'game-over' && step.player === CHANCE_PLAYER;
}

/** The chance of the module whose chance node this is (the state is a chance node other than a draw). */
function moduleChance(rules: Ruleset, s: Immutable<GameView>): ModuleChance {
  const chance = ownerOf(rules, s.step.kind)?.chance;
  if (chance === undefined) throw new Error(`meeplekit/ai: no module decides the chance node ${s.step.kind}`);
  return chance;
}

/** One more than the largest chance outcome id of a ruleset (tile kinds, and each module's outcomes). @internal */
export function maxChanceOutcomes(rules: Ruleset): number {
  let n = rules.tiles.length;
  for (const m of rules.expansions) if (m.chance !== undefined && m.chance.maxOutcomes > n) n = m.chance.maxOutcomes;
  return n;
}

/**
 * Writes the outcomes of a chance node (ascending tile kind index) into `outcomes` and the copies
 * of each that may be drawn into `weights`; returns how many outcomes. Probabilities are
 * `weights[i] / total`. 0 when the state is not a chance node. @internal
 */
export function writeDrawable(rules: Ruleset, s: Immutable<GameView>, outcomes: Int32Array | number[], weights: Int32Array | number[] | null): number {
  if (s.step.kind !== CHANCE_STEP) {
    if (!isChanceNode(s)) return 0;
    const list = moduleChance(rules, s).outcomes(rules, s);
    for (let i = 0; i < list.length; i++) {
      outcomes[i] = list[i]![0];
      if (weights !== null) weights[i] = list[i]![1];
    }
    return list.length;
  }
  const filters = drawFilters(rules, s);
  const bag = s.bag;
  let n = 0;
  for (let k = 0; k < bag.length; k++) {
    if (bag[k]! > 0 && (filters === null || mayDraw(filters, rules.tiles[k]!))) {
      outcomes[n] = k;
      if (weights !== null) weights[n] = bag[k]!;
      n++;
    }
  }
  return n;
}

/**
 * The outcomes of a chance node with their probabilities: the tile kinds that may be drawn now
 * (the River's order respected), each with its share of the copies left that may be drawn.
 * Probabilities sum to 1. Empty when the state is not a chance node.
 *
 * @example
 * ```ts
 * import { createRuleset, newGame, legalMoves } from 'meeplekit';
 * import { applyAction, chanceOutcomes, isChanceNode, moveToAction } from 'meeplekit/ai';
 *
 * const rules = createRuleset({ game: 'classic' });
 * if (!rules.ok) throw new Error(rules.error.message);
 * const game = newGame(rules.value, { players: 2, seed: 'chance' });
 * if (!game.ok) throw new Error(game.error.message);
 * let state = game.value;
 * while (!isChanceNode(state)) state = applyAction(rules.value, state, moveToAction(rules.value, state, legalMoves(rules.value, state).at(-1)!));
 * for (const o of chanceOutcomes(rules.value, state)) console.log(o.tile, o.probability.toFixed(3));
 * ```
 */
export function chanceOutcomes(rules: Ruleset, state: Immutable<GameView>): ChanceOutcome[] {
  assertRuleset(rules, state);
  if (!isChanceNode(state)) return [];
  const ids: number[] = [];
  const weights: number[] = [];
  const n = writeDrawable(rules, state, ids, weights);
  let total = 0;
  for (let i = 0; i < n; i++) total += weights[i]!;
  const out: ChanceOutcome[] = [];
  const label = outcomeLabels(rules, state);
  for (let i = 0; i < n; i++) out.push({ outcome: ids[i]!, label: label(ids[i]!), probability: weights[i]! / total });
  return out;
}

/** How the outcomes of this chance node are named. */
function outcomeLabels(rules: Ruleset, s: Immutable<GameView>): (outcome: number) => string {
  if (s.step.kind === CHANCE_STEP) return (k) => rules.tiles[k]!.def.id;
  const chance = moduleChance(rules, s);
  return (k) => chance.label(k);
}

/** A short name for chance outcome `k` at this chance node (`draw D`, `token 7`), or null when it is not one. @internal */
export function chanceLabel(rules: Ruleset, s: Immutable<GameView>, k: number): string | null {
  if (!isDrawable(rules, s, k)) return null;
  return s.step.kind === CHANCE_STEP ? `draw ${rules.tiles[k]!.def.id}` : moduleChance(rules, s).label(k);
}

/** Whether `k` is an outcome of this chance node (a tile kind that may be drawn, or a module's outcome). @internal */
export function isDrawable(rules: Ruleset, s: Immutable<GameView>, k: number): boolean {
  if (!isChanceNode(s) || !Number.isInteger(k) || k < 0) return false;
  if (s.step.kind !== CHANCE_STEP) {
    for (const [o, w] of moduleChance(rules, s).outcomes(rules, s)) if (o === k && w > 0) return true;
    return false;
  }
  if (k >= s.bag.length || s.bag[k]! <= 0) return false;
  const filters = drawFilters(rules, s);
  return filters === null || mayDraw(filters, rules.tiles[k]!);
}

/**
 * Applies chance outcome `k` (assumed drawable) in place: the tile leaves the bag; if it fits it is
 * the active player's tile to place, else it is discarded and the state stays a chance node, or
 * the game ends when the bag is empty. @internal
 */
export function playChance(rules: Ruleset, s: GameState, k: number, emit: Emit): void {
  if (s.step.kind !== CHANCE_STEP) {
    // A module's chance node: the module applies the outcome, and the turn goes on from its flow.
    if (moduleChance(rules, s).apply({ rules, state: s, emit }, k) === 'done') resumeTurn(rules, s, emit);
    return;
  }
  if (takeTile(rules, s, k, emit)) return;
  // Discarded: another draw is the next chance node, unless no tile may be drawn any more (the bag
  // is empty, or all that is left is held back) and the game ends, as the engine's draw does.
  const bag = s.bag;
  const filters = drawFilters(rules, s);
  for (let i = 0; i < bag.length; i++) if (bag[i]! > 0 && (filters === null || mayDraw(filters, rules.tiles[i]!))) return;
  endGame(rules, s, emit);
}

/**
 * Plays a legal move in place with explicit chance: when the move ends the turn, the engine's
 * seeded draw is taken back and the state becomes a chance node. When the draw ended the game
 * (every tile left fitted nowhere, so all were discarded, in any order alike) it stands. With
 * `emit`, the move's events go there, less those of the draw taken back. @internal
 */
export function playExplicit(rules: Ruleset, s: GameState, move: Move, discarded: number[], owned = false, emit: Emit = null): void {
  const turn = noteDiscards(s, discarded);
  if (emit === null) {
    playMove(rules, s, move, null, owned);
    takeBackDraw(rules, s, discarded, turn);
    return;
  }
  const events: GameEvent[] = [];
  playMove(rules, s, move, (e) => events.push(e), owned);
  forwardEvents(events, takeBackDraw(rules, s, discarded, turn), emit);
}

/** Applies a chance outcome in place with explicit chance (a module's outcome may end the turn: its draw is taken back). @internal */
export function playChanceExplicit(rules: Ruleset, s: GameState, k: number, discarded: number[], emit: Emit = null): void {
  const turn = noteDiscards(s, discarded);
  if (emit === null) {
    playChance(rules, s, k, null);
    takeBackDraw(rules, s, discarded, turn);
    return;
  }
  const events: GameEvent[] = [];
  playChance(rules, s, k, (e) => events.push(e));
  forwardEvents(events, takeBackDraw(rules, s, discarded, turn), emit);
}

/**
 * Hands `events` to `emit`; when the engine's draw was taken back (`tookBack`), without that
 * draw's events: the drawn and discarded tiles at the end of the list (the draw is the last thing
 * a turn does), which a chance outcome decides instead.
 */
function forwardEvents(events: GameEvent[], tookBack: boolean, emit: NonNullable<Emit>): void {
  let end = events.length;
  if (tookBack) while (end > 0 && (events[end - 1]!.type === 'tile-drawn' || events[end - 1]!.type === 'tile-discarded')) end--;
  for (let i = 0; i < end; i++) emit(events[i]!);
}

/** Copies the discard counts into `discarded` before a step that may end the turn; returns the turn. */
function noteDiscards(s: GameState, discarded: number[]): number {
  const d = s.discarded;
  for (let i = 0; i < d.length; i++) discarded[i] = d[i]!;
  return s.turn;
}

/** When the turn passed since `turn`, takes the engine's seeded draw back: the state becomes a chance node. Whether it did. */
function takeBackDraw(rules: Ruleset, s: GameState, discarded: readonly number[], turn: number): boolean {
  if (s.turn === turn || s.step.kind !== 'place-tile') return false;
  backToChance(rules, s, discarded);
  return true;
}

/**
 * Takes back the draw of the tile the active player holds (`state.step` is a `place-tile` step
 * that nobody has played yet), and the discards it made (the counts before it are in
 * `discarded`): the state becomes the chance node of that draw. @internal
 */
export function backToChance(rules: Ruleset, s: GameState, discarded: readonly number[]): void {
  const step = s.step;
  if (step.kind !== 'place-tile') throw new Error('backToChance: no drawn tile to take back');
  s.bag[rules.tileIndex[step.tile]!]!++;
  s.bagSize++;
  const d = s.discarded;
  for (let i = 0; i < d.length; i++) {
    const extra = d[i]! - discarded[i]!;
    if (extra !== 0) {
      d[i] = discarded[i]!;
      s.bag[i]! += extra;
      s.bagSize += extra;
    }
  }
  s.step = { kind: CHANCE_STEP, player: CHANCE_PLAYER };
}

/**
 * Explicit chance: what the game's definition fixed in advance is forgotten, to be decided at
 * chance nodes: the chosen draws (`newGame`'s `draws`, recorded after the generator's four words
 * of `state.rng`: every draw becomes a chance node over the bag, as with none chosen) and what the
 * modules hide (The Castle's face-down tokens, chosen or seeded). @internal
 */
export function concealAll(rules: Ruleset, s: GameState): void {
  if (s.rng.length > 4) s.rng.length = 4;
  const mods = rules.expansions;
  for (let i = 0; i < mods.length; i++) mods[i]!.chance?.conceal(rules, s);
}

/** Every module's unknowns made up with `random`, consistently with what is public. @internal */
export function redrawAll(rules: Ruleset, s: GameState, random: (n: number) => number): void {
  const mods = rules.expansions;
  for (let i = 0; i < mods.length; i++) mods[i]!.chance?.redraw(rules, s, random);
}
