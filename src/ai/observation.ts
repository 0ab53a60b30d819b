/**
 * Observation tensors (version 2): board planes over a fixed window plus a vector of public
 * features, written into a caller-owned Float32Array, or in a compact encoding of the same
 * (binary channels as bits, counting channels as bytes) into a batch's buffers. Only what every
 * player sees goes in.
 */
import { findRoot } from '../core/features.js';
import type { Ruleset } from '../core/ruleset.js';
import { keyX, keyY, type GameState, type GameView } from '../core/state.js';
import type { Immutable } from '../core/types.js';
import { collectPlacements } from '../core/board.js';
import { observedView } from '../core/engine/observe.js';
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
  /** The compact encoding of the same tensor ({@link writeCompactObservation}). */
  readonly compact: CompactObservationSpec;
}

/**
 * Version of the compact encoding ({@link writeCompactObservation}) of the observation tensor
 * ({@link OBSERVATION_VERSION} says what the tensor holds; this, how the compact form packs it).
 */
export const COMPACT_OBSERVATION_VERSION = 1;

/**
 * The compact encoding of an observation: the same channels and vector as the float32 tensor,
 * in three parts. Nearly every channel holds only 0 and 1: those (`bitChannels`) are bit-packed,
 * channel after channel, each channel's cells row-major, bit `k` of the stream in byte `k >> 3`
 * at bit `k & 7` (least significant first: numpy's `unpackbits(..., bitorder='little')`), the
 * last byte padded with zeros. The channels that count (`countChannels`: pennants, open ports of
 * each side, followers of each player) take a byte per cell, saturating at 255. The vector stays
 * float32. Unpacking `bits` into the channels `bitChannels` names and `counts` into those
 * `countChannels` names gives the float32 planes exactly.
 */
export interface CompactObservationSpec {
  /** {@link COMPACT_OBSERVATION_VERSION}. */
  readonly version: number;
  /** The binary channels (indices into `channels`), in the order of the bit stream. */
  readonly bitChannels: readonly number[];
  /** The counting channels (indices into `channels`), in the order of the byte planes. */
  readonly countChannels: readonly number[];
  /** Bytes of the bit-packed binary channels: `ceil(bitChannels.length * height * width / 8)`. */
  readonly bitBytes: number;
  /** Bytes of the counting channels: `countChannels.length * height * width`. */
  readonly countBytes: number;
  /** Float32 entries of the vector (the float32 tensor's `vector`). */
  readonly vector: number;
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
  const L = observationLayout(rules, players);
  return {
    version: OBSERVATION_VERSION,
    planes: [channels.length, L.H, L.W],
    vector: features.length,
    size: channels.length * L.HW + features.length,
    channels,
    features,
    compact: L.compact,
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
  const L = layoutOf(rules, state);
  if (out.length < L.size) throw new RangeError(`writeObservationTensor: needs ${L.size} entries, got ${out.length}`);
  const planes = L.C * L.HW;
  out.fill(0, 0, planes);
  const t = TARGET;
  t.compact = false;
  t.out = out;
  t.HW = L.HW;
  const w = planeEntries(rules, state, player, L, t);
  writeVector(rules, state, player, L, w, out, planes);
  return out;
}

/**
 * The compact encoding's buffers, for a batch of `rows` observations: row i of each holds
 * observation i ({@link CompactObservationSpec} gives the row lengths).
 */
export interface CompactObservationBuffers {
  /** The binary channels, bit-packed: `rows` rows of `bitBytes` bytes. */
  readonly bits: Uint8Array;
  /** The counting channels, one byte per cell (saturating at 255): `rows` rows of `countBytes` bytes. */
  readonly counts: Uint8Array;
  /** The vector of public features: `rows` rows of `vector` entries. */
  readonly vector: Float32Array;
}

/**
 * Writes `player`'s observation of a state into row `row` of a batch of compact observations
 * (see {@link CompactObservationSpec}): the same content as {@link writeObservationTensor}'s, the
 * binary channels as bits, the counting channels as bytes, the vector as float32. Nothing is
 * allocated: a batch's buffers are written in place. Decoding a row (unpacking the bits into
 * their channels, the bytes into theirs) gives exactly {@link writeObservationTensor}'s tensor,
 * as long as no count passes 255 (a count over 255 is written as 255; no game has come close).
 *
 * `legal`, when the caller has them, are the state's legal actions as `legalActions` lists them
 * (split form): the placeable channels are then read from them rather than listed again, which
 * is most of the work of a batch that lists them anyway (a vector environment). The result is
 * the same.
 *
 * @throws RangeError when a buffer is too short for the row.
 *
 * @example
 * ```ts
 * import { createRuleset, newGame } from 'meeplekit';
 * import { observationSpec, writeCompactObservation } from 'meeplekit/ai';
 *
 * const rules = createRuleset({ game: 'classic' });
 * if (!rules.ok) throw new Error(rules.error.message);
 * const game = newGame(rules.value, { players: 2, seed: 'compact' });
 * if (!game.ok) throw new Error(game.error.message);
 * const { compact } = observationSpec(rules.value, 2);
 * const out = { bits: new Uint8Array(compact.bitBytes), counts: new Uint8Array(compact.countBytes), vector: new Float32Array(compact.vector) };
 * writeCompactObservation(rules.value, game.value, 0, out);
 * console.log(compact.bitBytes + compact.countBytes + 4 * compact.vector); // 10591 bytes, against 142,488 as float32
 * ```
 */
export function writeCompactObservation(
  rules: Ruleset,
  state: Immutable<GameState> | Immutable<GameView>,
  player: number,
  out: CompactObservationBuffers,
  row = 0,
  legal?: ArrayLike<number>,
): void {
  const L = layoutOf(rules, state);
  const c = L.compact;
  const bitsAt = row * c.bitBytes;
  const countsAt = row * c.countBytes;
  const vectorAt = row * L.V;
  if (out.bits.length < bitsAt + c.bitBytes || out.counts.length < countsAt + c.countBytes || out.vector.length < vectorAt + L.V) {
    throw new RangeError(`writeCompactObservation: row ${row} needs ${c.bitBytes} bit bytes, ${c.countBytes} count bytes and ${L.V} vector entries per row`);
  }
  const { bits, counts } = out;
  bits.fill(0, bitsAt, bitsAt + c.bitBytes);
  counts.fill(0, countsAt, countsAt + c.countBytes);
  const t = TARGET;
  t.compact = true;
  t.bits = bits;
  t.counts = counts;
  t.bitsAt = bitsAt;
  t.countsAt = countsAt;
  t.bitAt = L.bitAt;
  t.countAt = L.countAt;
  t.HW = L.HW;
  const w = planeEntries(rules, state, player, L, t, legal);
  writeVector(rules, state, player, L, w, out.vector, vectorAt);
}

/** What one observation needs of a ruleset and player count, computed once. @internal */
export interface ObservationLayout {
  readonly P: number;
  readonly K: number;
  readonly T: number;
  readonly H: number;
  readonly W: number;
  readonly HW: number;
  /** Channels. */
  readonly C: number;
  /** Vector entries. */
  readonly V: number;
  /** Float32 entries in all. */
  readonly size: number;
  readonly fixed: BoardWindow | null;
  /** Each module's share of the vector (0 without an observation member). */
  readonly shares: readonly number[];
  /** Whether a module hides something (projected scores are then computed on the observer's view). */
  readonly hides: boolean;
  /** Per channel: its index among the binary channels, or `-1 - i` for the i-th counting channel. */
  readonly slot: Int32Array;
  /** Per channel: where a binary channel starts in a compact row's bit stream (`slot * HW`), -1 for a counting one. */
  readonly bitAt: Int32Array;
  /** Per channel: where a counting channel starts in a compact row's bytes (`i * HW`), -1 for a binary one. */
  readonly countAt: Int32Array;
  /** Per feature kind: 1 when the kind is never complete (fields: no complete mark, open ports written as 0). */
  readonly never: Uint8Array;
  /** Per tile kind: its pennants, summed over its features. */
  readonly pennants: Int32Array;
  /**
   * The first channel of each group after the three of the tile itself (occupied, last placed,
   * pennants): the sides' kinds (4 x K), the kinds a tile has (K), each side's complete mark (4),
   * each side's open ports (4), the followers by player (P, the observer first), the placeable
   * rotations (4). Every writer of the planes reads them here.
   */
  readonly cSide: number;
  readonly cHas: number;
  readonly cComplete: number;
  readonly cOpen: number;
  readonly cFollowers: number;
  readonly cPlace: number;
  readonly compact: CompactObservationSpec;
}

/** Layouts by ruleset and player count. */
const LAYOUTS = new WeakMap<Ruleset, (ObservationLayout | undefined)[]>();

/** The layout of a ruleset's observations for `state`'s player count; checks that the state is the ruleset's. @internal */
export function layoutOf(rules: Ruleset, state: Immutable<GameState> | Immutable<GameView>): ObservationLayout {
  if (state.ruleset !== rules.id) throw new TypeError(`meeplekit/ai: this state belongs to ruleset '${state.ruleset}', not '${rules.id}'`);
  return observationLayout(rules, state.players);
}

function observationLayout(rules: Ruleset, players: number): ObservationLayout {
  let byPlayers = LAYOUTS.get(rules);
  if (byPlayers === undefined) LAYOUTS.set(rules, (byPlayers = []));
  const known = byPlayers[players];
  if (known !== undefined) return known;
  const P = players;
  const K = rules.kinds.length;
  const T = rules.tiles.length;
  const fixed = fixedWindow(rules);
  const H = fixed === null ? OBSERVATION_WINDOW : fixed.height;
  const W = fixed === null ? OBSERVATION_WINDOW : fixed.width;
  const cSide = 3;
  const cHas = cSide + 4 * K;
  const cComplete = cHas + K;
  const cOpen = cComplete + 4;
  const cFollowers = cOpen + 4;
  const cPlace = cFollowers + P;
  const C = cPlace + 4;
  const shares = rules.expansions.map((m) => m.observation?.features(P).length ?? 0);
  let V = 2 * T + 6 + 3 * P + 5;
  for (const s of shares) V += s;
  // Counting channels: pennants, the open ports of each side, the followers of each player.
  const counting = [2, ...[0, 1, 2, 3].map((s) => cOpen + s), ...Array.from({ length: P }, (_, j) => cFollowers + j)];
  const slot = new Int32Array(C);
  const bitChannels: number[] = [];
  for (let c = 0; c < C; c++) {
    const i = counting.indexOf(c);
    if (i >= 0) slot[c] = -1 - i;
    else slot[c] = bitChannels.push(c) - 1;
  }
  const HW = H * W;
  const bitAt = new Int32Array(C);
  const countAt = new Int32Array(C);
  for (let c = 0; c < C; c++) {
    bitAt[c] = slot[c]! >= 0 ? slot[c]! * HW : -1;
    countAt[c] = slot[c]! < 0 ? (-1 - slot[c]!) * HW : -1;
  }
  const never = Uint8Array.from(rules.kinds, (k) => (k.completion === 'never' ? 1 : 0));
  const pennants = Int32Array.from(rules.tiles, (t) => t.pennants.reduce((a, b) => a + b, 0));
  const layout: ObservationLayout = {
    P,
    K,
    T,
    H,
    W,
    HW,
    C,
    V,
    size: C * HW + V,
    fixed,
    shares,
    hides: rules.expansions.some((e) => e.observe !== undefined),
    slot,
    bitAt,
    countAt,
    never,
    pennants,
    cSide,
    cHas,
    cComplete,
    cOpen,
    cFollowers,
    cPlace,
    compact: {
      version: COMPACT_OBSERVATION_VERSION,
      bitChannels,
      countChannels: counting,
      bitBytes: Math.ceil((bitChannels.length * HW) / 8),
      countBytes: counting.length * HW,
      vector: V,
    },
  };
  byPlayers[players] = layout;
  return layout;
}

/**
 * Where the planes' entries go: the float32 planes (entry `channel * H * W + cell`), or a row of
 * compact observations (binary channels as bits, counting channels as bytes, saturating). One
 * pass ({@link planeEntries}) writes either; each entry's place is found from per-channel offsets
 * of the layout, with no division and no call through an interface.
 */
interface PlaneTarget {
  /** Whether the target is a compact row (else the float32 planes). */
  compact: boolean;
  /** The float32 planes. */
  out: Float32Array;
  /** The compact row's bit-packed binary channels, from `bitsAt`. */
  bits: Uint8Array;
  /** The compact row's counting channels, from `countsAt`. */
  counts: Uint8Array;
  bitsAt: number;
  countsAt: number;
  /** The layout's {@link ObservationLayout.bitAt} and {@link ObservationLayout.countAt}. */
  bitAt: Int32Array;
  countAt: Int32Array;
  HW: number;
}

const TARGET: PlaneTarget = {
  compact: false,
  out: new Float32Array(0),
  bits: new Uint8Array(0),
  counts: new Uint8Array(0),
  bitsAt: 0,
  countsAt: 0,
  bitAt: new Int32Array(0),
  countAt: new Int32Array(0),
  HW: 1,
};

/** Sets binary channel `channel`'s entry at `cell` to 1. */
function mark(t: PlaneTarget, channel: number, cell: number): void {
  if (t.compact) {
    const bit = t.bitAt[channel]! + cell;
    t.bits[t.bitsAt + (bit >> 3)]! |= 1 << (bit & 7);
  } else t.out[channel * t.HW + cell] = 1;
}

/** Sets counting channel `channel`'s entry at `cell` to `v` (written at most once per observation). */
function setCount(t: PlaneTarget, channel: number, cell: number, v: number): void {
  if (t.compact) t.counts[t.countsAt + t.countAt[channel]! + cell] = v > 255 ? 255 : v;
  else t.out[channel * t.HW + cell] = v;
}

/** Adds 1 to counting channel `channel`'s entry at `cell` (followers: a tile may hold several). */
function addOne(t: PlaneTarget, channel: number, cell: number): void {
  if (t.compact) {
    const at = t.countsAt + t.countAt[channel]! + cell;
    const total = t.counts[at]! + 1;
    t.counts[at] = total > 255 ? 255 : total;
  } else t.out[channel * t.HW + cell]! += 1;
}

/** What the vector needs of the planes' pass: the window's corner and whether tiles lie outside it. @internal */
export interface PlaneWrite {
  x0: number;
  y0: number;
  clipped: number;
}

/**
 * Sets `w`'s x0 and y0 to the observation window's north-west cell: a bounded board's window, or
 * the {@link OBSERVATION_WINDOW} square centred on the middle of the placed tiles' bounding box. @internal
 */
export function windowCorner(state: Immutable<GameState> | Immutable<GameView>, L: ObservationLayout, w: PlaneWrite): void {
  if (L.fixed !== null) {
    w.x0 = L.fixed.x;
    w.y0 = L.fixed.y;
    return;
  }
  const tiles = state.tiles;
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
  windowAround(minX, maxX, minY, maxY, w);
}

/**
 * Sets `w`'s north-west corner to that of the window centred on a bounding box of placed tiles
 * (an unbounded board's window follows the tiles). @internal
 */
export function windowAround(minX: number, maxX: number, minY: number, maxY: number, w: PlaneWrite): void {
  w.x0 = Math.floor((minX + maxX) / 2) - (OBSERVATION_WINDOW >> 1);
  w.y0 = Math.floor((minY + maxY) / 2) - (OBSERVATION_WINDOW >> 1);
}

const WRITE: PlaneWrite = { x0: 0, y0: 0, clipped: 0 };

/** Placements of the tile to place (scratch space of {@link collectPlacements}, grown as needed). */
let PLACEMENTS = new Int32Array(1024);

/**
 * Writes the non-zero entries of the planes of `player`'s observation (and 0 for a pennant or
 * open-port count that is 0) into `t`: each tile's channels, the places where the tile to place
 * may go, then the followers (added: a tile may hold several); returns the window.
 */
function planeEntries(
  rules: Ruleset,
  state: Immutable<GameState> | Immutable<GameView>,
  player: number,
  L: ObservationLayout,
  t: PlaneTarget,
  legal?: ArrayLike<number>,
): PlaneWrite {
  const { P, K, H, W, never, pennants, cSide, cHas, cComplete, cOpen, cFollowers, cPlace } = L;
  const tiles = state.tiles;
  windowCorner(state, L, WRITE);
  const x0 = WRITE.x0;
  const y0 = WRITE.y0;
  const g = state.features;
  const parent = g.parent;
  const openOf = g.open;
  const step = state.step;
  const last = tiles.length - 1;
  let clipped = 0;
  for (let i = 0; i <= last; i++) {
    const placed = tiles[i]!;
    const dx = placed.x - x0;
    const dy = placed.y - y0;
    if (dx < 0 || dy < 0 || dx >= W || dy >= H) {
      clipped = 1;
      continue;
    }
    const cell = dy * W + dx;
    const tile = rules.tiles[placed.kind]!;
    mark(t, 0, cell);
    if (i === last) mark(t, 1, cell);
    const kinds = tile.kinds;
    for (let f = 0; f < kinds.length; f++) mark(t, cHas + kinds[f]!, cell);
    setCount(t, 2, cell, pennants[placed.kind]!);
    const ports = tile.portFeature;
    const r12 = placed.rotation * 12;
    for (let side = 0; side < 4; side++) {
      const local = ports[r12 + side * 3 + 1]!;
      if (local < 0) continue;
      const kind = kinds[local]!;
      mark(t, cSide + side * K + kind, cell);
      if (never[kind] === 1) {
        setCount(t, cOpen + side, cell, 0);
        continue;
      }
      const open = openOf[findRoot(parent, placed.node + local)]!;
      if (open === 0) mark(t, cComplete + side, cell);
      setCount(t, cOpen + side, cell, open);
    }
  }
  if (step.kind === 'place-tile' && legal !== undefined) {
    // Placement ids: 4 * (row * width + column) + rotation of the action window.
    const a = actionLayout(rules);
    const aw = a.window;
    for (let i = 0; i < legal.length; i++) {
      const id = legal[i]!;
      if (id >= a.placements) break;
      const c = id >> 2;
      const row = (c / aw.width) | 0;
      const dx = c - row * aw.width + aw.x - x0;
      const dy = row + aw.y - y0;
      if (dx < 0 || dy < 0 || dx >= W || dy >= H) continue;
      mark(t, cPlace + (id & 3), dy * W + dx);
    }
  } else if (step.kind === 'place-tile') {
    if (PLACEMENTS.length < 4 * state.frontier.length) PLACEMENTS = new Int32Array(8 * state.frontier.length);
    const buf = PLACEMENTS;
    const count = collectPlacements(rules, state, rules.tileById.get(step.tile)!, buf);
    for (let i = 0; i < count; i++) {
      const p = buf[i]!;
      const key = (p / 4) | 0;
      const dx = keyX(key) - x0;
      const dy = keyY(key) - y0;
      if (dx < 0 || dy < 0 || dx >= W || dy >= H) continue;
      mark(t, cPlace + (p & 3), dy * W + dx);
    }
  }
  const fs = state.followers;
  for (let i = 0; i < fs.length; i++) {
    const f = fs[i]!;
    const placed = tiles[f.tile]!;
    const dx = placed.x - x0;
    const dy = placed.y - y0;
    if (dx < 0 || dy < 0 || dx >= W || dy >= H) continue;
    addOne(t, cFollowers + ((f.player - player + P) % P), dy * W + dx);
  }
  WRITE.x0 = x0;
  WRITE.y0 = y0;
  WRITE.clipped = clipped;
  return WRITE;
}

/** Writes the vector of public features of `player`'s observation into `out` from `v`. @internal */
export function writeVector(
  rules: Ruleset,
  state: Immutable<GameState> | Immutable<GameView>,
  player: number,
  L: ObservationLayout,
  w: PlaneWrite,
  out: Float32Array,
  v: number,
): void {
  const { P, T, V, shares } = L;
  out.fill(0, v, v + V);
  const step = state.step;
  for (let k = 0; k < T; k++) out[v + k] = state.bag[k]!;
  v += T;
  if (step.kind === 'place-tile') out[v + rules.tileIndex[step.tile]!] = 1;
  v += T;
  const stepIndex = step.kind === 'place-tile' ? 0 : step.kind === 'deploy' ? 1 : isChanceNode(state) ? 3 : step.kind === 'game-over' ? 4 : 2;
  out[v + stepIndex] = 1;
  out[v + 5] = step.kind !== 'game-over' && step.player === player ? 1 : 0;
  v += 6;
  // Projected scores run the modules' final scoring: on the player's own view when a module hides something.
  // (`observedView`: the view without copying what it shares with the state.)
  const view = L.hides && 'rng' in state ? observedView(rules, state as Immutable<GameState>, player) : state;
  const projected = projectedScores(rules, view);
  for (let j = 0; j < P; j++) {
    const p = (player + j) % P;
    out[v + j] = state.scores[p]!;
    out[v + P + j] = projected[p]!;
    out[v + 2 * P + j] = state.supply[p]!;
  }
  v += 3 * P;
  out[v] = w.x0;
  out[v + 1] = w.y0;
  out[v + 2] = w.clipped;
  out[v + 3] = state.tiles.length;
  out[v + 4] = state.turn;
  v += 5;
  // The modules' public features, from the observer's own view.
  const mods = rules.expansions;
  for (let i = 0; i < mods.length; i++) {
    mods[i]!.observation?.write(rules, view, player, out, v);
    v += shares[i]!;
  }
}
