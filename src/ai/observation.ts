/**
 * Observation tensors (version 2): board planes over a fixed window plus a vector of public
 * features, written into a caller-owned Float32Array. Only what every player sees goes in.
 */
import { findRoot } from '../core/features.js';
import type { Ruleset } from '../core/ruleset.js';
import { keyX, keyY, type GameState, type GameView } from '../core/state.js';
import type { Immutable } from '../core/types.js';
import { collectPlacements } from '../core/board.js';
import { observe } from '../core/engine/observe.js';
import { projectedScores } from '../core/engine/query.js';
import { isChanceNode } from './chance.js';
import { actionLayout, OBSERVATION_VERSION, type BoardWindow } from './layout.js';

/** Side length of the board window of an unbounded board (classic): 31 x 31 cells around the played area. */
export const OBSERVATION_WINDOW = 31;

/** Shape and layout of an observation tensor. */
export interface ObservationSpec {
  /** {@link OBSERVATION_VERSION}. */
  readonly version: number;
  /** Board planes: `[channels, height, width]`, channel-major, rows north to south, columns west to east. */
  readonly planes: readonly [number, number, number];
  /** Length of the vector of public features that follows the planes. */
  readonly vector: number;
  /** Total length: `channels * height * width + vector`. */
  readonly size: number;
  /** What each channel holds, in order. */
  readonly channels: readonly string[];
  /** What each vector entry holds, in order. */
  readonly features: readonly string[];
}

/** Whether the ruleset's board window is fixed (a bounded board, from the game's codec). */
function fixedWindow(rules: Ruleset): BoardWindow | null {
  for (const m of rules.expansions) if (m.actions?.window !== undefined) return actionLayout(rules).window;
  return null;
}

/**
 * The layout of {@link writeObservationTensor}'s output for a ruleset and player count.
 *
 * Planes, for each cell of the window (an unbounded board: {@link OBSERVATION_WINDOW} square,
 * centred on the middle of the placed tiles' bounding box; a bounded board: its whole window):
 * a tile is there; it is the tile placed last; its pennants; for each side (N, E, S, W) and each
 * feature kind, whether the middle of that side belongs to a feature of that kind; for each kind,
 * whether the tile has a feature of it; for each side, whether the feature there is complete, and
 * its open ports (edges still unmatched: a completed feature has 0); followers of each player on
 * the tile (the observer first, then in seat order); and for each rotation, whether the tile to
 * place may go there turned so.
 *
 * Vector: copies left of each tile kind; the tile to place (one-hot over kinds); the step
 * (place-tile, deploy, a module's step, chance node, game over); whether the observer decides;
 * scores, projected final scores and followers in supply (observer first); the window's x and y
 * and whether tiles lie outside it; tiles placed; turns completed; then each module's public
 * features in hook order (`Expansion.observation`: The Castle's held and usable tokens, keeps,
 * tokens taken and face-down tokens; the King's and Robber Baron's holders and sizes; the Count's
 * quarters and where the Count stands).
 */
export function observationSpec(rules: Ruleset, players: number): ObservationSpec {
  const names = rules.kindNames;
  const sides = ['N', 'E', 'S', 'W'];
  const channels: string[] = ['tile', 'last placed', 'pennants'];
  for (const s of sides) for (const k of names) channels.push(`${s} ${k}`);
  for (const k of names) channels.push(`has ${k}`);
  for (const s of sides) channels.push(`${s} complete`);
  for (const s of sides) channels.push(`${s} open ports`);
  for (let j = 0; j < players; j++) channels.push(j === 0 ? 'followers of observer' : `followers of observer+${j}`);
  for (let r = 0; r < 4; r++) channels.push(`placeable turned ${r}`);
  const features: string[] = [];
  for (const t of rules.tiles) features.push(`left ${t.def.id}`);
  for (const t of rules.tiles) features.push(`to place ${t.def.id}`);
  features.push('step place-tile', 'step deploy', 'step module', 'step chance', 'step game-over', 'observer decides');
  for (const what of ['score', 'projected', 'supply']) for (let j = 0; j < players; j++) features.push(j === 0 ? `${what} of observer` : `${what} of observer+${j}`);
  features.push('window x', 'window y', 'clipped', 'tiles placed', 'turn');
  for (const m of rules.expansions) if (m.observation !== undefined) features.push(...m.observation.features(players));
  const fixed = fixedWindow(rules);
  const h = fixed === null ? OBSERVATION_WINDOW : fixed.height;
  const w = fixed === null ? OBSERVATION_WINDOW : fixed.width;
  return {
    version: OBSERVATION_VERSION,
    planes: [channels.length, h, w],
    vector: features.length,
    size: channels.length * h * w + features.length,
    channels,
    features,
  };
}

/**
 * Writes `player`'s observation of a state (or of a view of it) into `out` (length
 * `observationSpec(rules, players).size`), as laid out by {@link observationSpec}; returns `out`.
 * Only public information is written: two states that differ only in what `player` cannot see
 * give the same tensor. For classic boards, a game that spreads wider than the window is cropped
 * (the `clipped` entry says so; in 2,000 random games the widest spread was 27 cells).
 *
 * @throws RangeError when `out` is too short.
 *
 * @example
 * ```ts
 * import { createRuleset, newGame } from 'meeplekit';
 * import { observationSpec, writeObservationTensor } from 'meeplekit/ai';
 *
 * const rules = createRuleset({ game: 'classic' });
 * if (!rules.ok) throw new Error(rules.error.message);
 * const game = newGame(rules.value, { players: 2, seed: 'tensor' });
 * if (!game.ok) throw new Error(game.error.message);
 * const spec = observationSpec(rules.value, 2);
 * const out = new Float32Array(spec.size);
 * writeObservationTensor(rules.value, game.value, 0, out);
 * console.log(spec.planes, spec.vector); // [ 37, 31, 31 ] 65
 * ```
 */
export function writeObservationTensor(rules: Ruleset, state: Immutable<GameState> | Immutable<GameView>, player: number, out: Float32Array): Float32Array {
  if (state.ruleset !== rules.id) throw new TypeError(`meeplekit/ai: this state belongs to ruleset '${state.ruleset}', not '${rules.id}'`);
  const P = state.players;
  const K = rules.kinds.length;
  const T = rules.tiles.length;
  const fixed = fixedWindow(rules);
  const H = fixed === null ? OBSERVATION_WINDOW : fixed.height;
  const W = fixed === null ? OBSERVATION_WINDOW : fixed.width;
  const C = 3 + 4 * K + K + 4 + 4 + P + 4;
  let V = 2 * T + 6 + 3 * P + 5;
  const mods = rules.expansions;
  // Each module's share of the vector (0 without an observation member).
  const shares = mods.map((m) => m.observation?.features(P).length ?? 0);
  for (let i = 0; i < shares.length; i++) V += shares[i]!;
  const size = C * H * W + V;
  if (out.length < size) throw new RangeError(`writeObservationTensor: needs ${size} entries, got ${out.length}`);
  out.fill(0, 0, size);
  const tiles = state.tiles;
  let x0: number;
  let y0: number;
  if (fixed !== null) {
    x0 = fixed.x;
    y0 = fixed.y;
  } else {
    let minX = Infinity;
    let maxX = -Infinity;
    let minY = Infinity;
    let maxY = -Infinity;
    for (let t = 0; t < tiles.length; t++) {
      const p = tiles[t]!;
      if (p.x < minX) minX = p.x;
      if (p.x > maxX) maxX = p.x;
      if (p.y < minY) minY = p.y;
      if (p.y > maxY) maxY = p.y;
    }
    x0 = Math.floor((minX + maxX) / 2) - (OBSERVATION_WINDOW >> 1);
    y0 = Math.floor((minY + maxY) / 2) - (OBSERVATION_WINDOW >> 1);
  }
  const HW = H * W;
  const g = state.features;
  const cSide = 3;
  const cHas = cSide + 4 * K;
  const cComplete = cHas + K;
  const cOpen = cComplete + 4;
  const cFollowers = cOpen + 4;
  const cPlace = cFollowers + P;
  let clipped = 0;
  const cellOf = (x: number, y: number): number => (x < x0 || y < y0 || x >= x0 + W || y >= y0 + H ? -1 : (y - y0) * W + (x - x0));
  for (let t = 0; t < tiles.length; t++) {
    const placed = tiles[t]!;
    const cell = cellOf(placed.x, placed.y);
    if (cell < 0) {
      clipped = 1;
      continue;
    }
    const tile = rules.tiles[placed.kind]!;
    out[cell] = 1;
    if (t === tiles.length - 1) out[HW + cell] = 1;
    let pennants = 0;
    for (let f = 0; f < tile.kinds.length; f++) {
      pennants += tile.pennants[f]!;
      out[(cHas + tile.kinds[f]!) * HW + cell] = 1;
    }
    out[2 * HW + cell] = pennants;
    for (let side = 0; side < 4; side++) {
      const local = tile.portFeature[placed.rotation * 12 + side * 3 + 1]!;
      if (local < 0) continue;
      const kind = tile.kinds[local]!;
      out[(cSide + side * K + kind) * HW + cell] = 1;
      const root = findRoot(g.parent, placed.node + local);
      const open = g.open[root]!;
      if (open === 0 && rules.kinds[kind]!.completion !== 'never') out[(cComplete + side) * HW + cell] = 1;
      out[(cOpen + side) * HW + cell] = rules.kinds[kind]!.completion === 'never' ? 0 : open;
    }
  }
  for (const f of state.followers) {
    const placed = tiles[f.tile]!;
    const cell = cellOf(placed.x, placed.y);
    if (cell >= 0) out[(cFollowers + ((f.player - player + P) % P)) * HW + cell]! += 1;
  }
  const step = state.step;
  if (step.kind === 'place-tile') {
    const buf = new Int32Array(4 * state.frontier.length);
    const n = collectPlacements(rules, state, rules.tileById.get(step.tile)!, buf);
    for (let i = 0; i < n; i++) {
      const p = buf[i]!;
      const key = (p / 4) | 0;
      const cell = cellOf(keyX(key), keyY(key));
      if (cell >= 0) out[(cPlace + (p & 3)) * HW + cell] = 1;
    }
  }
  let v = C * HW;
  for (let k = 0; k < T; k++) out[v + k] = state.bag[k]!;
  v += T;
  if (step.kind === 'place-tile') out[v + rules.tileIndex[step.tile]!] = 1;
  v += T;
  const stepIndex = step.kind === 'place-tile' ? 0 : step.kind === 'deploy' ? 1 : isChanceNode(state) ? 3 : step.kind === 'game-over' ? 4 : 2;
  out[v + stepIndex] = 1;
  out[v + 5] = step.kind !== 'game-over' && step.player === player ? 1 : 0;
  v += 6;
  // Projected scores run the modules' final scoring: on the player's own view when a module hides something.
  const hides = rules.expansions.some((e) => e.observe !== undefined);
  const view = hides && 'rng' in state ? observe(rules, state as Immutable<GameState>, player) : state;
  const projected = projectedScores(rules, view);
  for (let j = 0; j < P; j++) {
    const p = (player + j) % P;
    out[v + j] = state.scores[p]!;
    out[v + P + j] = projected[p]!;
    out[v + 2 * P + j] = state.supply[p]!;
  }
  v += 3 * P;
  out[v] = x0;
  out[v + 1] = y0;
  out[v + 2] = clipped;
  out[v + 3] = tiles.length;
  out[v + 4] = state.turn;
  v += 5;
  // The modules' public features, from the observer's own view.
  for (let i = 0; i < mods.length; i++) {
    mods[i]!.observation?.write(rules, view, player, out, v);
    v += shares[i]!;
  }
  return out;
}
