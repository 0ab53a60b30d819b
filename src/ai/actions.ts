/**
 * Integer actions (encoding version 1): legal actions ascending into an Int32Array, masks into a
 * caller-owned Uint8Array, the bijection between legal actions and legal moves, and applying an
 * action (with explicit chance).
 */
import { collectPlacements } from '../core/board.js';
import type { Emit, GameEvent } from '../core/events.js';
import type { Ruleset } from '../core/ruleset.js';
import { cellKey, keyX, keyY, type ExpansionMove, type GameState, type GameView, type Move } from '../core/state.js';
import type { Immutable, Rotation } from '../core/types.js';
import { cloneState } from '../core/engine/clone.js';
import { checkMove, listMoves, passOffered, turnMoves } from '../core/engine/legal.js';
import { assertRuleset } from '../core/engine/query.js';
import { deployTargets, playMove } from '../core/engine/play.js';
import { chanceLabel, concealAll, playChanceExplicit, isChanceNode, isDrawable, maxChanceOutcomes, playChance, playExplicit, writeDrawable } from './chance.js';
import { actionLayout, type ActionForm, type ActionLayout } from './layout.js';

/** Scratch space of one caller: placement buffer and the discard counts before a move. @internal */
export interface Scratch {
  placements: Int32Array;
  discarded: number[];
}

/**
 * A buffer of no entries: scratch buffers start as this and are replaced by one of the size needed
 * on first use (nothing can be written to it), so that a clone allocates none. @internal
 */
export const NO_BUFFER = new Int32Array(0);

/** Fresh scratch space. @internal */
export function newScratch(): Scratch {
  return { placements: NO_BUFFER, discarded: [] };
}

/** The codec block of a module move's type, or null. */
function blockOf(layout: ActionLayout, type: string): ActionLayout['modules'][number] | null {
  const id = type.slice(0, type.indexOf('/'));
  for (const m of layout.modules) if (m.module.id === id && m.codec !== null) return m;
  return null;
}

/** The split id of a module's move, or -1. */
function encodeModuleMove(rules: Ruleset, layout: ActionLayout, s: Immutable<GameView>, move: ExpansionMove): number {
  const block = blockOf(layout, move.type);
  if (block === null) throw new Error(`meeplekit/ai: no action encoding for move type ${move.type}`);
  const local = block.codec!.encode(rules, s, move, layout.window);
  if (!Number.isInteger(local) || local < 0 || local >= block.codec!.size(layout.window)) return -1;
  return block.offset + local;
}

/**
 * Writes the split legal actions of a decision node (not a chance node) into `out`, ascending;
 * returns how many. `out` must be large enough (see `capacity`). Placements and follower targets
 * take fast paths; whenever modules offer moves, the engine's own list of legal moves is encoded,
 * so the two can never disagree. @internal
 */
export function writeSplit(rules: Ruleset, layout: ActionLayout, s: Immutable<GameView>, out: Int32Array, scratch: Scratch): number {
  const step = s.step;
  if (step.kind === 'game-over' || isChanceNode(s)) return 0;
  const hooks = rules.hooks;
  if (step.kind === 'place-tile' && (hooks.turnMoves.length === 0 || turnMoves(rules, s).length === 0)) {
    if (scratch.placements.length < 4 * s.frontier.length) scratch.placements = new Int32Array(Math.max(256, 8 * s.frontier.length));
    const buf = scratch.placements;
    const n = collectPlacements(rules, s, rules.tileById.get(step.tile)!, buf);
    const w = layout.window;
    for (let i = 0; i < n; i++) {
      const p = buf[i]!;
      const key = (p / 4) | 0;
      out[i] = ((keyY(key) - w.y) * w.width + (keyX(key) - w.x)) * 4 + (p & 3);
    }
    return n;
  }
  if (step.kind === 'deploy' && hooks.deployMoves.length === 0 && hooks.turnMoves.length === 0 && hooks.claimers.length === 0) {
    let n = 0;
    const bits = deployTargets(rules, s);
    for (let f = 0; bits >>> f !== 0; f++) if (bits & (1 << f)) out[n++] = layout.deploy + f;
    out[n++] = layout.pass;
    return n;
  }
  // Modules' moves are involved: encode the engine's list.
  const moves = listMoves(rules, s);
  for (let i = 0; i < moves.length; i++) {
    const a = encodeSplit(rules, layout, s, moves[i]!);
    if (a < 0) throw new Error(`meeplekit/ai: the legal move ${JSON.stringify(moves[i])} has no action id`);
    out[i] = a;
  }
  out.subarray(0, moves.length).sort();
  return moves.length;
}

/** The cell key of placement id `p` (window cell * 4 + rotation; its rotation is `p & 3`). @internal */
export function placementKey(layout: ActionLayout, p: number): number {
  const w = layout.window;
  const cell = p >>> 2;
  return cellKey(w.x + (cell % w.width), w.y + Math.floor(cell / w.width));
}

/** The placement move of placement id `p` for the decider. */
function placementMove(layout: ActionLayout, player: number, p: number): Move {
  const key = placementKey(layout, p);
  return { type: 'place', player, x: keyX(key), y: keyY(key), rotation: (p & 3) as Rotation };
}

/** The move a split action names at this decision node (legal or not), or null. @internal */
export function decodeSplit(rules: Ruleset, layout: ActionLayout, s: Immutable<GameView>, a: number): Move | null {
  const step = s.step;
  if (step.kind === 'game-over' || isChanceNode(s) || !Number.isInteger(a) || a < 0 || a >= layout.size) return null;
  const player = step.player;
  if (a < layout.placements) return step.kind === 'place-tile' ? placementMove(layout, player, a) : null;
  if (a === layout.pass) return { type: 'pass', player };
  if (a < layout.deploy + layout.followerTargets) {
    if (step.kind !== 'deploy') return null;
    const placed = s.tiles[s.tiles.length - 1]!;
    const feature = rules.tiles[placed.kind]!.def.features[a - layout.deploy];
    return feature === undefined ? null : { type: 'deploy', player, feature: feature.id };
  }
  const mods = layout.modules;
  for (let i = mods.length - 1; i >= 0; i--) {
    const m = mods[i]!;
    if (m.codec !== null && a >= m.offset) return m.codec.decode(rules, s, a - m.offset, layout.window);
  }
  return null;
}

/** The split id of a move (legal or not: the caller checks), or -1 when it has none. @internal */
export function encodeSplit(rules: Ruleset, layout: ActionLayout, s: Immutable<GameView>, move: Move): number {
  switch (move.type) {
    case 'place': {
      const w = layout.window;
      const cx = move.x - w.x;
      const cy = move.y - w.y;
      if (cx < 0 || cy < 0 || cx >= w.width || cy >= w.height) return -1;
      return (cy * w.width + cx) * 4 + move.rotation;
    }
    case 'pass':
      return layout.pass;
    case 'deploy': {
      const placed = s.tiles[s.tiles.length - 1];
      if (placed === undefined) return -1;
      const tile = rules.tiles[placed.kind]!;
      return Object.hasOwn(tile.localIndex, move.feature) ? layout.deploy + tile.localIndex[move.feature]! : -1;
    }
    default:
      return blockOf(layout, move.type) === null ? -1 : encodeModuleMove(rules, layout, s, move as ExpansionMove);
  }
}

/**
 * Room needed in an Int32Array for the legal actions of this state (split form, or any
 * non-placement step): exactly what {@link writeSplit}'s fast paths can write where they apply (a
 * research simulator's clone sizes its buffer by it at its first call: The Castle's 11,099 ids
 * outside the placement block made that 89 KB, a quarter of a search's time), else every
 * placement and every id outside the placement block. @internal
 */
export function capacity(rules: Ruleset, layout: ActionLayout, s: Immutable<GameView>): number {
  if (isChanceNode(s)) return maxChanceOutcomes(rules);
  const kind = s.step.kind;
  if (kind === 'game-over') return 0;
  const hooks = rules.hooks;
  // The fast paths' conditions, as writeSplit tests them (a hook that exists but offers nothing now still counts).
  if (kind === 'place-tile' && hooks.turnMoves.length === 0) return 4 * s.frontier.length;
  if (kind === 'deploy' && hooks.deployMoves.length === 0 && hooks.turnMoves.length === 0 && hooks.claimers.length === 0) return layout.followerTargets + 1;
  // Distinct placement ids, and ids outside the placement block (modules' moves at any step).
  return (kind === 'place-tile' ? 4 * s.frontier.length : 0) + layout.size - layout.placements;
}

/** The combined legal actions at a place-tile step, ascending: each placement, then what the deploy step after it offers (found on a copy). @internal */
export function combinedPlacements(rules: Ruleset, layout: ActionLayout, s: Immutable<GameState>, scratch: Scratch): number[] {
  const D = layout.perPlacement;
  const places = new Int32Array(capacity(rules, layout, s));
  const np = writeSplit(rules, layout, s, places, scratch);
  const player = (s.step as { player: number }).player;
  const follow = new Int32Array(D);
  const out: number[] = [];
  for (let i = 0; i < np; i++) {
    const p = places[i]!;
    if (p >= layout.placements) {
      // A module's move offered at every step of the turn (they come last: ids above placements).
      out.push(layout.placements * D + (p - layout.placements));
      continue;
    }
    const copy = cloneState(s);
    playMove(rules, copy, placementMove(layout, player, p), null);
    const deploying = copy.step.kind === 'deploy' && copy.step.player === player;
    // Slot 0: the placement alone, or with a pass (not when a claim on the action forbids passing).
    if (!deploying || passOffered(rules, copy)) out.push(p * D);
    if (!deploying) continue;
    const nf = writeSplit(rules, layout, copy, follow, scratch);
    for (let j = 0; j < nf; j++) {
      const a = follow[j]!;
      if (a !== layout.pass) out.push(p * D + 1 + (a - layout.placements));
    }
  }
  return out;
}

/**
 * Writes the legal actions (any node: chance outcomes at a chance node) into `out`, ascending;
 * returns how many. `out` must hold `capacity(...)` entries, and in the combined form at a
 * place-tile step as many as there are actions (a RangeError otherwise). @internal
 */
export function writeLegal(rules: Ruleset, layout: ActionLayout, s: Immutable<GameState>, form: ActionForm, out: Int32Array, scratch: Scratch): number {
  if (isChanceNode(s)) return writeDrawable(rules, s, out, null);
  if (form === 'split' || s.step.kind === 'game-over') return writeSplit(rules, layout, s, out, scratch);
  if (s.step.kind !== 'place-tile') {
    const n = writeSplit(rules, layout, s, out, scratch);
    const base = layout.placements * layout.perPlacement - layout.placements;
    for (let i = 0; i < n; i++) out[i] = base + out[i]!;
    return n;
  }
  const list = combinedPlacements(rules, layout, s, scratch);
  if (list.length > out.length) throw new RangeError(`${list.length} legal actions do not fit in ${out.length} entries`);
  out.set(list);
  return list.length;
}

/**
 * Applies a legal action to `s` in place (explicit chance unless `seeded`). Throws a RangeError
 * for an illegal action; in the combined form a placement may then already be played. @internal
 */
export function playAction(rules: Ruleset, layout: ActionLayout, s: GameState, a: number, form: ActionForm, scratch: Scratch, seeded: boolean, emit: Emit = null): void {
  if (isChanceNode(s)) {
    if (!isDrawable(rules, s, a)) throw new RangeError(`action ${a} is not a chance outcome here`);
    if (seeded) playChance(rules, s, a, emit);
    else playChanceExplicit(rules, s, a, scratch.discarded, emit);
    return;
  }
  let split = a;
  if (form === 'combined') {
    const D = layout.perPlacement;
    if (!Number.isInteger(a) || a < 0 || a >= layout.combinedSize) throw new RangeError(`action ${a} is not in [0, ${layout.combinedSize})`);
    if (a >= layout.placements * D) split = a - layout.placements * D + layout.placements;
    else {
      const place = decodeSplit(rules, layout, s, Math.floor(a / D));
      if (place === null || checkMove(rules, s, place) !== null) throw new RangeError(`action ${a} is not legal here`);
      playOne(rules, s, place, scratch, seeded, emit);
      const c = a % D;
      const deploying = s.step.kind === 'deploy' && s.step.player === place.player;
      if (c === 0) {
        if (deploying) playOne(rules, s, { type: 'pass', player: place.player }, scratch, seeded, emit);
        return;
      }
      if (!deploying) throw new RangeError(`action ${a} deploys, but no deploy step follows this placement`);
      split = layout.placements + c - 1;
    }
  }
  const move = decodeSplit(rules, layout, s, split);
  if (move === null || checkMove(rules, s, move) !== null) throw new RangeError(`action ${a} is not legal here`);
  playOne(rules, s, move, scratch, seeded, emit);
}

function playOne(rules: Ruleset, s: GameState, move: Move, scratch: Scratch, seeded: boolean, emit: Emit): void {
  if (seeded) playMove(rules, s, move, emit);
  else playExplicit(rules, s, move, scratch.discarded, false, emit);
}

/**
 * The legal actions at a state, ascending, in a new Int32Array, or in `out` (a subarray of it)
 * when it is large enough. At a chance node they are the chance outcomes (tile kind indices);
 * at the end of the game there are none.
 *
 * @throws Error when a module with moves has no action encoding.
 *
 * @example
 * ```ts
 * import { createRuleset, newGame } from 'meeplekit';
 * import { actionToString, legalActions } from 'meeplekit/ai';
 *
 * const rules = createRuleset({ game: 'classic' });
 * if (!rules.ok) throw new Error(rules.error.message);
 * const game = newGame(rules.value, { players: 2, seed: 'actions' });
 * if (!game.ok) throw new Error(game.error.message);
 * for (const a of legalActions(rules.value, game.value)) console.log(a, actionToString(rules.value, game.value, a));
 * ```
 */
export function legalActions(rules: Ruleset, state: Immutable<GameState>, out?: Int32Array, form: ActionForm = 'split'): Int32Array {
  assertRuleset(rules, state);
  return legalInto(rules, actionLayout(rules), state, form, out);
}

/** The legal actions ascending, in `out` (a subarray) when it is large enough, else in a new array. */
function legalInto(rules: Ruleset, layout: ActionLayout, state: Immutable<GameState>, form: ActionForm, out: Int32Array | undefined): Int32Array {
  const scratch = newScratch();
  if (form === 'combined' && state.step.kind === 'place-tile') {
    const list = combinedPlacements(rules, layout, state, scratch);
    if (out === undefined || out.length < list.length) return Int32Array.from(list);
    out.set(list);
    return out.subarray(0, list.length);
  }
  const need = capacity(rules, layout, state);
  const buf = out === undefined || out.length < need ? new Int32Array(need) : out;
  const n = writeLegal(rules, layout, state, form, buf, scratch);
  return buf === out ? buf.subarray(0, n) : buf.slice(0, n);
}

/**
 * Writes the legal-action mask into `out` (1 for each legal action, 0 elsewhere) and returns the
 * number of legal actions. `out` must hold `gameInfo(...).numDistinctActions[form]` entries, or
 * `maxChanceOutcomes` at a chance node; entries beyond those are left alone.
 *
 * @throws RangeError when `out` is too short.
 */
export function legalActionsMask(rules: Ruleset, state: Immutable<GameState>, out: Uint8Array, form: ActionForm = 'split'): number {
  assertRuleset(rules, state);
  const layout = actionLayout(rules);
  const size = isChanceNode(state) ? maxChanceOutcomes(rules) : form === 'split' ? layout.size : layout.combinedSize;
  if (out.length < size) throw new RangeError(`legalActionsMask: the mask needs ${size} entries, got ${out.length}`);
  const legal = legalInto(rules, layout, state, form, undefined);
  out.fill(0, 0, size);
  for (let i = 0; i < legal.length; i++) out[legal[i]!] = 1;
  return legal.length;
}

/**
 * The moves a legal action stands for (one move; in the combined form a placement and, when a
 * deploy step follows it, what is played there), or null when the action is not legal here.
 * Null at a chance node (apply outcomes with {@link applyAction}).
 */
export function actionToMoves(rules: Ruleset, state: Immutable<GameState>, action: number, form: ActionForm = 'split'): Move[] | null {
  assertRuleset(rules, state);
  if (isChanceNode(state) || state.step.kind === 'game-over') return null;
  const layout = actionLayout(rules);
  if (form === 'split') {
    const m = decodeSplit(rules, layout, state, action);
    return m !== null && checkMove(rules, state, m) === null ? [m] : null;
  }
  const D = layout.perPlacement;
  if (!Number.isInteger(action) || action < 0 || action >= layout.combinedSize) return null;
  if (action >= layout.placements * D) return actionToMoves(rules, state, action - layout.placements * D + layout.placements, 'split');
  const place = decodeSplit(rules, layout, state, Math.floor(action / D));
  if (place === null || checkMove(rules, state, place) !== null) return null;
  const copy = cloneState(state);
  playMove(rules, copy, place, null);
  const c = action % D;
  const deploying = copy.step.kind === 'deploy' && copy.step.player === place.player;
  if (c === 0) return deploying ? (passOffered(rules, copy) ? [place, { type: 'pass', player: place.player }] : null) : [place];
  if (!deploying) return null;
  const second = decodeSplit(rules, layout, copy, layout.placements + c - 1);
  return second !== null && checkMove(rules, copy, second) === null ? [place, second] : null;
}

/** The legal move a split action stands for, or null when the action is not legal here. */
export function actionToMove(rules: Ruleset, state: Immutable<GameState>, action: number): Move | null {
  return actionToMoves(rules, state, action, 'split')?.[0] ?? null;
}

/**
 * The split action of a legal move, or -1 when the move is not legal here. Inverse of
 * {@link actionToMove} on legal moves.
 */
export function moveToAction(rules: Ruleset, state: Immutable<GameState>, move: Move): number {
  assertRuleset(rules, state);
  if (isChanceNode(state) || checkMove(rules, state, move) !== null) return -1;
  return encodeSplit(rules, actionLayout(rules), state, move);
}

/**
 * The action of a legal sequence of moves: one move in the split form; in the combined form a
 * placement followed by what is played at the deploy step after it (nothing when none follows),
 * or one move of another step. -1 when the moves are not legal here or name no action of the form.
 * Inverse of {@link actionToMoves} on legal moves.
 */
export function movesToAction(rules: Ruleset, state: Immutable<GameState>, moves: readonly Move[], form: ActionForm = 'split'): number {
  assertRuleset(rules, state);
  const first = moves[0];
  if (first === undefined || isChanceNode(state) || checkMove(rules, state, first) !== null) return -1;
  const layout = actionLayout(rules);
  if (form === 'split') return moves.length === 1 ? encodeSplit(rules, layout, state, first) : -1;
  const D = layout.perPlacement;
  if (first.type !== 'place') {
    if (moves.length !== 1) return -1;
    const a = encodeSplit(rules, layout, state, first);
    return a < 0 ? -1 : a - layout.placements + layout.placements * D;
  }
  const p = encodeSplit(rules, layout, state, first);
  if (p < 0) return -1;
  const copy = cloneState(state);
  playMove(rules, copy, first, null);
  const deploying = copy.step.kind === 'deploy' && copy.step.player === first.player;
  if (!deploying) return moves.length === 1 ? p * D : -1;
  const second = moves[1];
  if (moves.length !== 2 || second === undefined || checkMove(rules, copy, second) !== null) return -1;
  if (second.type === 'pass') return p * D;
  const a = encodeSplit(rules, layout, copy, second);
  return a < 0 ? -1 : p * D + 1 + (a - layout.placements);
}

function describeMove(rules: Ruleset, s: Immutable<GameView>, m: Move): string {
  switch (m.type) {
    case 'place':
      return `place ${s.step.kind === 'place-tile' ? s.step.tile : 'tile'} at ${m.x},${m.y} turned ${m.rotation}`;
    case 'deploy': {
      const placed = s.tiles[s.tiles.length - 1]!;
      const tile = rules.tiles[placed.kind]!;
      const local = tile.localIndex[m.feature];
      const kind = local === undefined ? '?' : rules.kindNames[tile.kinds[local]!];
      return `deploy on ${m.feature} (${kind})`;
    }
    case 'pass':
      return 'pass';
    default: {
      const { type, player: _player, ...rest } = m as ExpansionMove;
      return Object.keys(rest).length === 0 ? type : `${type} ${JSON.stringify(rest)}`;
    }
  }
}

/**
 * A short text for an action at a state: `place D at 3,-1 turned 1`, `deploy on c1 (city)`,
 * `pass`, a module's move type with its fields, `draw D` at a chance node, or
 * `illegal action N` when it is not legal here.
 */
export function actionToString(rules: Ruleset, state: Immutable<GameState>, action: number, form: ActionForm = 'split'): string {
  assertRuleset(rules, state);
  if (isChanceNode(state)) return chanceLabel(rules, state, action) ?? `illegal action ${action}`;
  const moves = actionToMoves(rules, state, action, form);
  if (moves === null) return `illegal action ${action}`;
  if (moves.length === 1) return describeMove(rules, state, moves[0]!);
  const copy = cloneState(state);
  playMove(rules, copy, moves[0]!, null);
  return `${describeMove(rules, state, moves[0]!)} + ${describeMove(rules, copy, moves[1]!)}`;
}

/** Options of {@link applyAction}. */
export interface ApplyActionOptions {
  /** The action form (default `'split'`). */
  readonly form?: ActionForm;
  /** `true`: also return the events the action caused, as `applyMove` does. */
  readonly events?: boolean;
}

/** What {@link applyAction} returns with `events: true`. */
export interface ActionTransition {
  /** The state after the action. */
  readonly state: GameState;
  /**
   * What happened, in order, as `applyMove` reports it; at a chance node the draw (`tile-drawn`,
   * and `tile-discarded` for a tile that fits nowhere) or the module's own events. When the action
   * ends a turn, the events stop before the next draw, which is the chance node that follows.
   */
  readonly events: GameEvent[];
}

/**
 * The state after a legal action (a chance outcome at a chance node), as a new plain, mutable
 * state; the input is not changed. When the action ends a turn, the result is a chance node: the
 * next tile is drawn by applying one of its {@link chanceOutcomes}, never by the seeded generator
 * (so the result no longer replays from its seed, and `parseState` refuses it: save it with
 * {@link serializeResearchState}). With `{ events: true }` it returns the state and the events.
 *
 * @throws RangeError for an action that is not legal here (a caller's bug).
 *
 * @example
 * ```ts
 * import { createRuleset } from 'meeplekit';
 * import { applyAction, chanceOutcomes, legalActions, newInitialState } from 'meeplekit/ai';
 *
 * const rules = createRuleset({ game: 'classic' });
 * if (!rules.ok) throw new Error(rules.error.message);
 * const start = newInitialState(rules.value, { players: 2, seed: 'events' }); // the first draw
 * const drawn = applyAction(rules.value, start, chanceOutcomes(rules.value, start)[0]!.outcome, { events: true });
 * console.log(drawn.events); // [ { type: 'tile-drawn', player: 0, tile: 'A' } ]
 * const placed = applyAction(rules.value, drawn.state, legalActions(rules.value, drawn.state)[0]!, { events: true });
 * console.log(placed.events[0]!.type); // tile-placed
 * ```
 */
export function applyAction(rules: Ruleset, state: Immutable<GameState>, action: number, options: ApplyActionOptions & { readonly events: true }): ActionTransition;
export function applyAction(rules: Ruleset, state: Immutable<GameState>, action: number, form?: ActionForm | ApplyActionOptions): GameState;
export function applyAction(rules: Ruleset, state: Immutable<GameState>, action: number, options: ActionForm | ApplyActionOptions = 'split'): GameState | ActionTransition {
  assertRuleset(rules, state);
  const { form = 'split', events = false } = typeof options === 'string' ? { form: options } : options;
  const s = cloneState(state);
  concealAll(rules, s);
  if (!events) {
    playAction(rules, actionLayout(rules), s, action, form, newScratch(), false);
    return s;
  }
  const list: GameEvent[] = [];
  playAction(rules, actionLayout(rules), s, action, form, newScratch(), false, (e) => list.push(e));
  return { state: s, events: list };
}
