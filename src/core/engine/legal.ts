/**
 * Legal moves and move validation. `legalMoves` is the single source of truth; `checkMove`
 * answers the same question for one move without listing them all (a property test keeps the
 * two in agreement) and says precisely why a move is refused.
 */
import { candidateCells, collectPlacements, fits, frontierIndex, placementFilter, tileAt } from '../board.js';
import { meepleError, type MeepleError } from '../errors.js';
import { findRoot } from '../features.js';
import type { Ruleset } from '../ruleset.js';
import type { CompiledTile } from '../tiles.js';
import { CELL_OFFSET, cellKey, keyX, keyY, type GameView, type Move } from '../state.js';
import type { Immutable, Rotation } from '../types.js';
import { claimNow, countExtras, deployTargets, ownerOf, type ClaimNow } from './play.js';
import { firstDifference } from './json-diff.js';

/**
 * Every legal move at the current step, in canonical order: placements by cell (north to south,
 * west to east) then rotation; deployments by local feature order, then `pass`. Empty when the
 * game is over.
 */
export function listMoves(rules: Ruleset, state: Immutable<GameView>): Move[] {
  const step = state.step;
  const out: Move[] = [];
  if (step.kind === 'place-tile') {
    const found = placementsNow(rules, state, rules.tileById.get(step.tile)!);
    for (let i = 0; i < found.length; i++) {
      const p = found[i]!;
      const key = (p / 4) | 0;
      out.push({ type: 'place', player: step.player, x: keyX(key), y: keyY(key), rotation: (p & 3) as Rotation });
    }
  } else if (step.kind === 'deploy') {
    const bits = deployTargets(rules, state);
    const placed = state.tiles[state.tiles.length - 1]!;
    const feats = rules.tiles[placed.kind]!.def.features;
    for (let f = 0; f < feats.length; f++) {
      if (bits & (1 << f)) out.push({ type: 'deploy', player: step.player, feature: feats[f]!.id });
    }
    // Expansions' alternatives to a follower (in hook order), the moves of the whole turn, then passing.
    out.push(...deployExtras(rules, state));
    if (passOffered(rules, state)) out.push({ type: 'pass', player: step.player });
    return out;
  } else if (step.kind !== 'game-over') {
    out.push(...stepMoves(rules, state, step.kind));
  }
  out.push(...turnMoves(rules, state));
  return out;
}

/** No moves: the shared, frozen empty list (most turns offer no module moves; nothing is allocated for them). */
const NO_MOVES: readonly Move[] = Object.freeze([]);

/** The moves of one of an expansion's own steps (`kind`), from that expansion. */
function stepMoves(rules: Ruleset, state: Immutable<GameView>, kind: string): Move[] {
  const owner = ownerOf(rules, kind);
  if (owner?.stepMoves === undefined) throw new Error(`no expansion lists the moves of step ${kind}`);
  return owner.stepMoves(rules, state);
}

/**
 * The moves offered at any step of the active player's own turn (ransom), in hook order. Read
 * only: it may be the shared empty list, or a module's own list. @internal
 */
export function turnMoves(rules: Ruleset, state: Immutable<GameView>): readonly Move[] {
  const hooks = rules.hooks.turnMoves;
  const step = state.step;
  if (hooks.length === 0 || step.kind === 'game-over' || step.player !== state.active) return NO_MOVES;
  // One module's list is handed on as it is (lists are fresh and owned by the caller).
  if (hooks.length === 1) return hooks[0]!(rules, state);
  const out: Move[] = [];
  for (let i = 0; i < hooks.length; i++) out.push(...hooks[i]!(rules, state));
  return out;
}

/**
 * The moves of the deploy step that are not deployments, in canonical order: the expansions'
 * alternatives (`deployMoves`, hook order), then the moves of the whole turn. `pass` not included.
 * Read only (see {@link turnMoves}). `claim`: the state's {@link claimNow}, when the caller asked it already. @internal
 */
export function deployExtras(rules: Ruleset, state: Immutable<GameView>, claim: ClaimNow = claimNow(rules, state)): readonly Move[] {
  if (claim !== null) {
    // The action belongs to one expansion: only its moves, and the moves of the whole turn.
    const out = claim.owner.deployMoves?.(rules, state) ?? [];
    const turn = turnMoves(rules, state);
    for (let i = 0; i < turn.length; i++) out.push(turn[i]!);
    return out;
  }
  const extra = rules.hooks.deployMoves;
  if (extra.length === 0) return turnMoves(rules, state);
  const out: Move[] = extra[0]!(rules, state);
  for (let i = 1; i < extra.length; i++) out.push(...extra[i]!(rules, state));
  const turn = turnMoves(rules, state);
  for (let i = 0; i < turn.length; i++) out.push(turn[i]!);
  return out;
}

/** Whether passing is offered at this deploy step (not when an expansion's claim on the action is forced). @internal */
export function passOffered(rules: Ruleset, state: Immutable<GameView>, claim: ClaimNow = claimNow(rules, state)): boolean {
  return claim === null || claim.claim.forced !== true;
}

/** Number of legal moves (without building the placements and deployments). @internal */
export function countMoves(rules: Ruleset, state: Immutable<GameView>): number {
  const step = state.step;
  if (step.kind === 'place-tile') return placementsNow(rules, state, rules.tileById.get(step.tile)!).length + turnMoves(rules, state).length;
  if (step.kind === 'deploy') {
    const claim = claimNow(rules, state);
    return bitCount(deployTargets(rules, state, claim)) + countExtras(rules, state, claim) + turnMoves(rules, state).length + (passOffered(rules, state, claim) ? 1 : 0);
  }
  if (step.kind === 'game-over') return 0;
  return listMoves(rules, state).length;
}

function bitCount(bits: number): number {
  let n = 0;
  for (let b = bits; b !== 0; b &= b - 1) n++;
  return n;
}

/** The n-th legal move in canonical order (0 <= n < countMoves), building only what it needs. @internal */
export function nthMove(rules: Ruleset, state: Immutable<GameView>, n: number): Move {
  const step = state.step;
  if (step.kind === 'place-tile') {
    const found = placementsNow(rules, state, rules.tileById.get(step.tile)!);
    const p = found[n];
    if (p === undefined) {
      const m = turnMoves(rules, state)[n - found.length];
      if (m === undefined || n < 0) throw new Error(`no move #${n}`);
      return m;
    }
    const key = (p / 4) | 0;
    return { type: 'place', player: step.player, x: keyX(key), y: keyY(key), rotation: (p & 3) as Rotation };
  }
  if (step.kind === 'deploy') {
    const m = deployMoveAt(rules, state, deployTargets(rules, state), n);
    if (m === null) throw new Error(`no move #${n}`);
    return m;
  }
  const m = step.kind === 'game-over' ? undefined : listMoves(rules, state)[n];
  if (m === undefined) throw new Error(`no move #${n}`);
  return m;
}

/** The move deploying `player`'s follower on local feature `f` of the tile just placed. @internal */
export function deployMove(rules: Ruleset, state: Immutable<GameView>, player: number, f: number): Move {
  const placed = state.tiles[state.tiles.length - 1]!;
  return { type: 'deploy', player, feature: rules.tiles[placed.kind]!.def.features[f]!.id };
}

/** Move `i` of the deploy step whose deploy targets are `bits`: a deployment, an extra (see `deployExtras`), or pass; null past the end. */
function deployMoveAt(rules: Ruleset, state: Immutable<GameView>, bits: number, i: number): Move | null {
  const player = (state.step as { player: number }).player;
  if (i < 0) return null;
  for (let f = 0; bits >>> f !== 0; f++) if (bits & (1 << f) && i-- === 0) return deployMove(rules, state, player, f);
  const extras = deployExtras(rules, state);
  if (i < extras.length) return extras[i]!;
  return i === extras.length && passOffered(rules, state) ? { type: 'pass', player } : null;
}

/**
 * `random(n)` picks one of the `n` placements of the drawn tile, in canonical order, as
 * `key * 4 + rotation` (what `legalMoves()[random(n)]` would place). `buf` must hold
 * `4 * frontier.length` entries. For playouts: no move list is built. Only when no move of the
 * whole turn is offered (see {@link randomPlaceStep}). @internal
 */
export function randomPlacement(rules: Ruleset, s: Immutable<GameView>, tile: string, buf: Int32Array, random: (n: number) => number): number {
  const n = collectPlacements(rules, s, rules.tileById.get(tile)!, buf);
  return buf[random(n)]!;
}

/** Tries of {@link samplePlaceStep} before it lists the placements. */
const SAMPLE_TRIES = 24;

/**
 * A move of a place-tile step drawn uniformly from the legal ones, for playouts: a placement of
 * the tile as `key * 4 + rotation` (>= 0), or `-1 - i` for the i-th of the `turn` moves offered
 * at any step of the turn (`turnMoves`: the Tower's ransom; usually none). By rejection: a
 * candidate is drawn among the open cells' (cell, rotation) pairs (or those of the few cells a
 * module names: `Expansion.placementCells`) and the turn moves, and kept if it
 * is a turn move, or if the tile fits there and the modules' placement rules allow it. That needs
 * a few draws where listing every placement walks the whole frontier and asks the rules about
 * every fit; after {@link SAMPLE_TRIES} misses, the list is built ({@link randomPlaceStep}). Each
 * try is uniform over the candidates and keeps only legal moves, and the list is uniform too, so
 * the result is uniform over the legal moves; but for a given random stream it is not
 * `legalMoves()[random(n)]` (the moves of `playRandom`): playouts document it. @internal
 */
export function samplePlaceStep(rules: Ruleset, s: Immutable<GameView>, tile: CompiledTile, turn: readonly Move[], buf: Int32Array, random: (n: number) => number): number {
  const frontier = s.frontier;
  const demand = s.demand;
  const sig = tile.signature;
  // The candidates are the open cells, or the few a module names (the River's open ends).
  const only = candidateCells(rules, s, tile);
  const placeable = 4 * (only === null ? frontier.length : only.length);
  // The modules' placement rules are asked only about candidates whose edges fit.
  const allowed = placementFilter(rules, s, tile);
  const candidates = placeable + turn.length;
  for (let t = 0; t < SAMPLE_TRIES && candidates > 0; t++) {
    const c = random(candidates);
    if (c >= placeable) return -1 - (c - placeable);
    const i = only === null ? c >>> 2 : only[c >>> 2]!;
    const d = demand[i]!;
    if ((sig[c & 3]! & (d >>> 12)) !== (d & 0xfff)) continue;
    const key = frontier[i]!;
    if (allowed === null || allowed(key, c & 3)) return key * 4 + (c & 3);
  }
  return randomPlaceStep(rules, s, tile.def.id, turn, buf, random);
}

/**
 * At a place-tile step: `random(n)` picks one of the legal moves as `legalMoves()[random(n)]`
 * would, returning a placement as `key * 4 + rotation` (>= 0), or `-1 - i` for the i-th move of
 * the whole turn (`turn[i]`, from {@link turnMoves}, passed in). @internal
 */
export function randomPlaceStep(rules: Ruleset, s: Immutable<GameView>, tile: string, turn: readonly Move[], buf: Int32Array, random: (n: number) => number): number {
  const n = collectPlacements(rules, s, rules.tileById.get(tile)!, buf);
  const i = random(n + turn.length);
  return i < n ? buf[i]! : -1 - (i - n);
}

/**
 * At a deploy step: `random(n)` picks one of the legal moves as `legalMoves()[random(n)]` would.
 * Returns the local feature of a deployment (>= 0), -1 for pass, or `-2 - i` for the i-th of the
 * `extras` other moves of the step (the expansions' moves and the turn's, counted by the caller: the
 * length of {@link deployExtras}; 0 without them;
 * `claim`: the state's {@link claimNow}, when the caller asked it already). @internal
 */
export function randomDeploy(rules: Ruleset, s: Immutable<GameView>, random: (n: number) => number, extras = 0, claim: ClaimNow = claimNow(rules, s)): number {
  const bits = deployTargets(rules, s, claim);
  const d = bitCount(bits);
  let i = random(d + extras + (passOffered(rules, s, claim) ? 1 : 0));
  if (i >= d) return i === d + extras ? -1 : -2 - (i - d);
  for (let f = 0; ; f++) if (bits & (1 << f) && i-- === 0) return f;
}

/**
 * Scratch space for listing placements, shared by every simulator (the core's and the research
 * one's): filled and read within one call (nothing is kept in it between calls), so a simulator,
 * one per playout in a search, allocates none. Grown on demand.
 */
let PLACEMENTS = new Int32Array(256);

/** The shared placement scratch, large enough for the placements of any tile on this state's frontier. @internal */
export function placementBuffer(s: Immutable<GameView>): Int32Array {
  if (PLACEMENTS.length < 4 * s.frontier.length) PLACEMENTS = new Int32Array(8 * s.frontier.length);
  return PLACEMENTS;
}

/**
 * Every placement of `tile` now, packed as `key * 4 + rotation`, in canonical order: a view of the
 * shared placement scratch, to be read before anything else fills it (a new typed array a call
 * cost about a microsecond: its buffer is allocated outside the heap).
 */
function placementsNow(rules: Ruleset, state: Immutable<GameView>, tile: CompiledTile): Int32Array {
  const buf = placementBuffer(state);
  return buf.subarray(0, collectPlacements(rules, state, tile, buf));
}

/**
 * A random legal move, uniform over the legal moves and made without listing them where it can:
 * `legalMoves()[random(n)]` in one pass over the frontier and the deploy step's targets; or,
 * `sampled` (playouts), a placement drawn by rejection (`samplePlaceStep`: the same distribution,
 * other moves for the same random stream). A module's own step draws from its short list. Both
 * simulators draw with it: the core's `playRandom` and `playout`, the research playouts. @internal
 */
export function randomMove(rules: Ruleset, s: Immutable<GameView>, random: (n: number) => number, sampled: boolean): Move {
  const step = s.step;
  if (step.kind === 'place-tile') {
    const turn = turnMoves(rules, s);
    const buf = placementBuffer(s);
    const p = sampled ? samplePlaceStep(rules, s, rules.tileById.get(step.tile)!, turn, buf, random) : randomPlaceStep(rules, s, step.tile, turn, buf, random);
    if (p < 0) return turn[-1 - p]!;
    const key = (p / 4) | 0;
    return { type: 'place', player: step.player, x: keyX(key), y: keyY(key), rotation: (p & 3) as Rotation };
  }
  if (step.kind === 'deploy') {
    const claim = claimNow(rules, s);
    // Modules' moves are counted, and only the one drawn is built (classic has none to count).
    if (sampled && rules.hooks.deployers.length > 0) return sampleDeploy(rules, s, random, claim, step.player);
    const extras = deployExtras(rules, s, claim);
    const f = randomDeploy(rules, s, random, extras.length, claim);
    if (f === -1) return { type: 'pass', player: step.player };
    if (f < -1) return extras[-2 - f]!;
    return deployMove(rules, s, step.player, f);
  }
  if (step.kind === 'game-over') throw new Error('randomMove: the game is over');
  // A module's own step: `listMoves(...)[random(n)]` without joining its list to the turn's moves.
  const own = stepMoves(rules, s, step.kind);
  const turn = turnMoves(rules, s);
  const i = random(own.length + turn.length);
  return i < own.length ? own[i]! : turn[i - own.length]!;
}

/**
 * Per module with `deployMoves` (hook order), written and read within one {@link sampleDeploy}: how
 * many moves it offers, and its list when it cannot count them (a list is left there until the
 * next call overwrites it: nothing reads it in between).
 */
let COUNTED = new Int32Array(16);
const LISTED: (readonly Move[] | null)[] = [];

/**
 * A move of the deploy step drawn uniformly from the legal ones, for playouts, building only that
 * move: each expansion's moves are counted (`countDeployMoves`, or the length of the list of a
 * module that cannot count), one move of the step is drawn among the follower's targets, those
 * moves, the turn's moves and passing, and a module's move is built alone by its
 * `drawDeployMove`. That numbers the module's moves its own way, so for a given random stream this
 * is not always `playRandom`'s move (the same distribution: playouts document it).
 */
function sampleDeploy(rules: Ruleset, s: Immutable<GameView>, random: (n: number) => number, claim: ClaimNow, player: number): Move {
  const mods = rules.hooks.deployers;
  if (COUNTED.length < mods.length) COUNTED = new Int32Array(2 * mods.length);
  let extras = 0;
  for (let i = 0; i < mods.length; i++) {
    const m = mods[i]!;
    let n = 0;
    LISTED[i] = null;
    if (claim === null || claim.owner === m) {
      if (m.countDeployMoves !== undefined) n = m.countDeployMoves(rules, s);
      else n = (LISTED[i] = m.deployMoves!(rules, s)).length;
    }
    COUNTED[i] = n;
    extras += n;
  }
  const turn = turnMoves(rules, s);
  const f = randomDeploy(rules, s, random, extras + turn.length, claim);
  if (f === -1) return { type: 'pass', player };
  if (f >= 0) return deployMove(rules, s, player, f);
  let e = -2 - f;
  for (let i = 0; i < mods.length; i++) {
    if (e >= COUNTED[i]!) {
      e -= COUNTED[i]!;
      continue;
    }
    const list = LISTED[i] ?? null;
    return list !== null ? list[e]! : mods[i]!.drawDeployMove!(rules, s, e);
  }
  return turn[e]!;
}

const MOVE_KEYS = {
  place: ['type', 'player', 'x', 'y', 'rotation'],
  deploy: ['type', 'player', 'feature'],
  pass: ['type', 'player'],
} as const;

function isInt(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v);
}

/**
 * Why `move` cannot be played now, or `null` if it can. Accepts anything (untrusted input) and
 * never throws on it.
 */
export function checkMove(rules: Ruleset, state: Immutable<GameView>, move: unknown): MeepleError | null {
  if (typeof move !== 'object' || move === null || Array.isArray(move)) {
    return meepleError('move/malformed', `a move must be an object, got ${describe(move)}`);
  }
  const m = move as Record<string, unknown>;
  const type = m['type'];
  if (typeof type !== 'string') return meepleError('move/malformed', 'a move needs a string "type"');
  if (type.includes('/')) return checkExpansionMove(rules, state, m, type);
  if (!Object.hasOwn(MOVE_KEYS, type)) {
    return meepleError('move/unknown-type', `unknown move type '${type}' (expected place, deploy or pass)`);
  }
  const keys = MOVE_KEYS[type as keyof typeof MOVE_KEYS];
  for (const k of Object.keys(m)) {
    if (!(keys as readonly string[]).includes(k)) {
      return meepleError('move/malformed', `a ${type} move has no field '${k}' (fields: ${keys.join(', ')})`);
    }
  }
  if (!isInt(m['player'])) return meepleError('move/malformed', `a ${type} move needs an integer "player"`);
  const player = m['player'];
  const step = state.step;
  if (step.kind === 'game-over') return meepleError('move/game-over', 'the game is over: no move can be played');
  if (player !== step.player) {
    return meepleError('move/not-your-turn', `player ${player} cannot move: player ${step.player} must decide (${step.kind})`);
  }
  if (type === 'place') {
    if (step.kind !== 'place-tile') return meepleError('move/wrong-step', `cannot place a tile now: the step is ${step.kind}`);
    const { x, y, rotation } = m;
    if (!isInt(x) || !isInt(y)) return meepleError('move/malformed', 'a place move needs integer "x" and "y"');
    if (rotation !== 0 && rotation !== 1 && rotation !== 2 && rotation !== 3) {
      return meepleError('place/bad-rotation', `rotation must be 0, 1, 2 or 3 quarter turns, got ${describe(rotation)}`);
    }
    if (Math.abs(x) >= CELL_OFFSET - 1 || Math.abs(y) >= CELL_OFFSET - 1) {
      return meepleError('place/not-adjacent', `cell ${x},${y} is nowhere near the tiles on the board`);
    }
    const key = cellKey(x, y);
    if (rules.inside !== null && !rules.inside(key)) return meepleError('place/off-board', `cell ${x},${y} is outside the play area`);
    if (tileAt(state, key) >= 0) return meepleError('place/occupied', `cell ${x},${y} already holds a tile`);
    const at = frontierIndex(state, key);
    if (at < 0) return meepleError('place/not-adjacent', `cell ${x},${y} shares no edge with a placed tile`);
    const tile = rules.tileById.get(step.tile)!;
    if (!fits(tile, state.demand[at]!, rotation)) {
      return meepleError('place/edge-mismatch', `tile ${step.tile} turned ${rotation} does not match its neighbours at ${x},${y}`);
    }
    const hooks = rules.hooks.placementByTile[tile.index]!;
    for (let i = 0; i < hooks.length; i++) {
      const why = hooks[i]!(rules, state, tile, x, y, rotation);
      if (why === null) continue;
      const text = `tile ${step.tile} turned ${rotation} may not lie at ${x},${y}: ${typeof why === 'string' ? why : why.message}`;
      return meepleError(typeof why === 'string' ? 'place/forbidden' : why.code, text);
    }
    return null;
  }
  if (step.kind !== 'deploy') return meepleError('move/wrong-step', `cannot ${type} now: the step is ${step.kind}`);
  // An expansion's claim on the action withdraws deploying (and, forced, passing): it says why.
  const claim = claimNow(rules, state);
  if (claim !== null && (type === 'deploy' || claim.claim.forced)) return meepleError(claim.claim.why.code, claim.claim.why.message);
  if (type === 'pass') return null;
  const feature = m['feature'];
  if (typeof feature !== 'string') return meepleError('move/malformed', 'a deploy move needs a string "feature" (such as "c1")');
  const placed = state.tiles[state.tiles.length - 1]!;
  const tile = rules.tiles[placed.kind]!;
  const local = Object.hasOwn(tile.localIndex, feature) ? tile.localIndex[feature]! : -1;
  if (local < 0 || !rules.deployable[tile.kinds[local]!]) {
    const ids = tile.def.features.filter((_, i) => rules.deployable[tile.kinds[i]!]).map((f) => f.id);
    return meepleError('deploy/unknown-feature', `tile ${placed.id} has no feature '${feature}' to deploy on (has: ${ids.join(', ')})`);
  }
  if (state.supply[player]! <= 0) return meepleError('deploy/no-followers', `player ${player} has no follower in supply`);
  if (state.features.followers[findRoot(state.features.parent, placed.node + local)]! > 0) {
    return meepleError('deploy/feature-occupied', `the ${rules.kindNames[tile.kinds[local]!]} at ${placed.x},${placed.y} (${feature}) already has a follower`);
  }
  const allowed = rules.hooks.deployAllowed;
  for (let i = 0; i < allowed.length; i++) {
    if (!allowed[i]!(rules, state)) return meepleError('deploy/not-allowed', 'an expansion withdrew follower deployment this turn');
  }
  return null;
}

/**
 * An expansion's move is legal exactly when its expansion lists it at the current step (the deploy
 * step's extras, or the expansion's own step): `legalMoves` stays the single source of truth.
 */
function checkExpansionMove(rules: Ruleset, state: Immutable<GameView>, m: Record<string, unknown>, type: string): MeepleError | null {
  const owner = ownerOf(rules, type);
  if (owner === undefined || owner.play === undefined) {
    return meepleError('move/unknown-type', `unknown move type '${type}': no expansion '${type.slice(0, type.indexOf('/'))}' with moves is switched on`);
  }
  const size = moveSizeError(m, type);
  if (size !== null) return size;
  if (!isInt(m['player'])) return meepleError('move/malformed', `a ${type} move needs an integer "player"`);
  const step = state.step;
  if (step.kind === 'game-over') return meepleError('move/game-over', 'the game is over: no move can be played');
  if (m['player'] !== step.player) {
    // The expansion may name the refusal in its own words (The Tower: `tower/not-your-turn`).
    const own = owner.moveError?.(rules, state, m) ?? null;
    if (own !== null) return meepleError(own.code, own.message);
    return meepleError('move/not-your-turn', `player ${m['player']} cannot move: player ${step.player} must decide (${step.kind})`);
  }
  let offered: readonly Move[];
  const claim = step.kind === 'deploy' ? claimNow(rules, state) : null;
  if (step.kind === 'deploy') offered = claim === null || claim.owner === owner ? (owner.deployMoves?.(rules, state) ?? []) : [];
  else if (step.kind.startsWith(`${owner.id}/`)) offered = owner.stepMoves?.(rules, state) ?? [];
  else offered = [];
  // Moves of the active player's whole turn (ransom) are offered at every step of it.
  const anyStep = owner.turnMoves !== undefined && step.player === state.active ? owner.turnMoves(rules, state) : [];
  for (const o of offered) if (firstDifference(o, m, '$') === null) return null;
  for (const o of anyStep) if (firstDifference(o, m, '$') === null) return null;
  // Another expansion claims the turn's action: it says why this one is withdrawn.
  if (claim !== null && claim.owner !== owner) return meepleError(claim.claim.why.code, claim.claim.why.message);
  // Refused: the expansion may say why in its own words and code.
  const own = owner.moveError?.(rules, state, m) ?? null;
  if (own !== null) return meepleError(own.code, own.message);
  if (offered.length === 0 && anyStep.length === 0 && step.kind !== 'deploy' && !step.kind.startsWith(`${owner.id}/`)) {
    return meepleError('move/wrong-step', `cannot play ${type} now: the step is ${step.kind}`);
  }
  return meepleError('move/not-offered', `${type} with these fields is not among the legal moves at step ${step.kind}`);
}

/** The most fields, strings and nesting an expansion move may have: every module's moves fit with room to spare. */
const MOVE_LIMITS = { keys: 16, nodes: 64, depth: 3, text: 128 } as const;

/**
 * Refuses an expansion move too big to be one (padding with thousands of keys, long strings, deep
 * nesting) in one walk that stops at the limits, before it is compared with any offered move.
 */
function moveSizeError(m: Record<string, unknown>, type: string): MeepleError | null {
  let nodes = 0;
  const tooBig = (v: unknown, depth: number): boolean => {
    if (++nodes > MOVE_LIMITS.nodes) return true;
    if (typeof v === 'string') return v.length > MOVE_LIMITS.text;
    if (typeof v !== 'object' || v === null) return false;
    if (depth >= MOVE_LIMITS.depth) return true;
    // Own keys only: a key a host added to Object.prototype is not the move's.
    const keys = Object.keys(v);
    if (keys.length > MOVE_LIMITS.keys) return true;
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i]!;
      if (k.length > MOVE_LIMITS.text) return true;
      if (tooBig((v as Record<string, unknown>)[k], depth + 1)) return true;
    }
    return false;
  };
  return tooBig(m, 0)
    ? meepleError('move/malformed', `a ${type.slice(0, 40)} move is too big to be one (at most ${MOVE_LIMITS.keys} fields per object, ${MOVE_LIMITS.nodes} values, ${MOVE_LIMITS.text} characters per text)`)
    : null;
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}...` : v);
  return typeof v === 'object' ? 'an object' : String(v);
}
