/**
 * Placement on the board: the frontier of open cells with the edge classes each one demands,
 * edge matching by signature, and the mutation that lays a tile and merges its features.
 *
 * Edge matching is pluggable through edge classes: every feature kind gives the edge whose
 * middle port it owns a small class number, and two edges match when their classes are equal.
 * A game that needs looser matching (The Castle: only paths must match) maps its kinds onto
 * fewer classes. A demand packs, per side, a 3-bit mask and a 3-bit value; a tile fits a cell at
 * rotation r when `(signature[r] & mask) === value`.
 */
import type { CompiledTile } from './tiles.js';
import { oppositePort } from './tiles.js';
import { addSegment, findRoot, unionFeatures } from './features.js';
import { AROUND_DELTA, CELL_OFFSET, SIDE_DELTA, cellKey, filledArray, keyX, keyY, type GameState, type GameView } from './state.js';
import type { Immutable, Rotation } from './types.js';
import type { CompiledHooks } from './compiled-hooks.js';
import type { Ruleset } from './ruleset.js';

/** What the ruleset offers the board code. @internal */
export interface BoardRules {
  readonly tiles: readonly CompiledTile[];
  readonly tileIndex: Readonly<Record<string, number>>;
  readonly tileById: ReadonlyMap<string, CompiledTile>;
  readonly tracksTiles: readonly boolean[];
  readonly inside: ((key: number) => boolean) | null;
  readonly portCompleted: readonly boolean[];
}

/** What placement enumeration needs: the board rules and the expansions' placement hooks. @internal */
export interface PlacementRules extends BoardRules {
  readonly hooks: CompiledHooks;
}

/** Whether a tile fits a demand at a rotation. */
export function fits(tile: CompiledTile, demand: number, rotation: number): boolean {
  return (tile.signature[rotation]! & (demand >>> 12)) === (demand & 0xfff);
}

/** `oppositePort` as a table: the port facing port p across the shared edge. @internal */
export const OPPOSITE_PORT: readonly number[] = Array.from({ length: 12 }, (_, p) => oppositePort(p));

/** Home slot of a cell key in a cell table of `mask + 1` slots (Fibonacci hashing). */
function homeSlot(key: number, mask: number): number {
  return (Math.imul(key, 0x9e3779b1) >>> 16) & mask;
}

/**
 * The most tiles a game may hold, start tiles included: `createRuleset` refuses rulesets with more
 * (`options/too-many-tiles`, see {@link boardLimitProblem}). It keeps the cell table's values
 * small (below) and the board inside its 1,023 x 1,023 cells. All the sets of this library together
 * make about 150.
 */
export const MAX_GAME_TILES = 400;

/**
 * Why games of `rules` could outgrow the board, or null: more than {@link MAX_GAME_TILES} tiles
 * (the bag's and the start tiles), or start tiles so far from the centre that a line of all the
 * tiles could leave the 511 cells the board spans each way. @internal
 */
export function boardLimitProblem(rules: Pick<Ruleset, 'tileCount' | 'start'>): string | null {
  const tiles = rules.tileCount + rules.start.length;
  if (tiles > MAX_GAME_TILES) return `a game of these rules would hold ${tiles} tiles (the bag's and the start tiles); a game holds at most ${MAX_GAME_TILES}`;
  let reach = 0;
  for (const st of rules.start) reach = Math.max(reach, Math.abs(st.x), Math.abs(st.y));
  if (reach + tiles > CELL_OFFSET - 1) {
    return `a start tile ${reach} cells from the centre leaves no room for ${tiles} tiles in a line: the board spans ${CELL_OFFSET - 1} cells each way`;
  }
  return null;
}

/** An empty slot in the cell table. */
const EMPTY_SLOT = -1;

/**
 * A slot holds its cell's key and value in one number, `key * VALUE_SPAN + value + VALUE_BIAS`:
 * keys are below 2^20 and values (a tile index, or `-2 - i` for frontier cell `i`) within
 * ±(VALUE_BIAS - 1), so a slot is a non-negative integer below 2^31 (a small integer to V8: one
 * machine word, where two numbers a slot cost two). A game has at most {@link MAX_GAME_TILES}
 * tiles, so its tile indexes stay within the bias, and so does its frontier: a tile fills one
 * frontier cell and opens at most three, so n tiles, k of them start tiles away from the others,
 * keep at most 2n + 2k cells open (with k <= 64, below 1,000).
 */
const VALUE_BITS = 11;
const VALUE_SPAN = 1 << VALUE_BITS;
const VALUE_BIAS = 1024;

/** The key of a filled slot. */
function slotKey(slot: number): number {
  return slot >>> VALUE_BITS;
}

/** The value of a filled slot. */
function slotValue(slot: number): number {
  return (slot & (VALUE_SPAN - 1)) - VALUE_BIAS;
}

/** The slot holding `key` with `value`. */
function packSlot(key: number, value: number): number {
  return key * VALUE_SPAN + value + VALUE_BIAS;
}

/**
 * The index in `cells` of the slot of cell `key` (see `GameState.cells`), or of the empty slot
 * where it would go; -1 when a lap of the table finds neither (only a malformed table, a view
 * built by hand: we must not hang on it).
 */
function slotOf(cells: readonly number[], key: number): number {
  const mask = cells.length - 1;
  if (mask < 0) return -1;
  for (let i = homeSlot(key, mask), n = 0; n <= mask; i = (i + 1) & mask, n++) {
    const v = cells[i]!;
    if (v === EMPTY_SLOT || slotKey(v) === key) return i;
  }
  return -1;
}

/** The value of cell `key` in the cell table: a tile index (>= 0), `-2 - i` for frontier cell `i`, or -1 (empty). */
function cellValue(cells: readonly number[], key: number): number {
  const i = slotOf(cells, key);
  if (i < 0) return -1;
  const v = cells[i]!;
  return v === EMPTY_SLOT ? -1 : slotValue(v);
}

/** The index of the tile on cell `key`, or -1 if the cell is empty. */
export function tileAt(state: Immutable<GameView>, key: number): number {
  const v = cellValue(state.cells, key);
  return v >= 0 ? v : -1;
}

/** The index of cell `key` in the frontier (`state.frontier`, `state.demand`), or -1 if it is not an open cell next to a tile. */
export function frontierIndex(state: Immutable<GameView>, key: number): number {
  const v = cellValue(state.cells, key);
  return v <= -2 ? -2 - v : -1;
}

/**
 * Empty cell tables are cut from this one (`slice` copies a packed array at memory speed: about
 * fourteen times faster than building one element by element). Never written: a constant, not
 * module state.
 */
const EMPTY_TABLE: readonly number[] = filledArray(4096, EMPTY_SLOT);

/** A packed cell table of `slots` empty slots. */
function emptySlots(slots: number): number[] {
  return slots <= EMPTY_TABLE.length ? EMPTY_TABLE.slice(0, slots) : filledArray(slots, EMPTY_SLOT);
}

/** The cell table of a new game: 16 empty slots (it grows as the board does). @internal */
export function emptyCellTable(): number[] {
  return emptySlots(16);
}

/**
 * Makes room in the state's cell table for `more` new cells: open addressing with linear probing
 * over a power-of-two table kept at most half full (doubled, every entry put again in slot order,
 * when it would be fuller: a copy of the state copies only what the board needs). A lookup is one
 * or two probes; placed tiles and frontier cells share the table, so a tile's neighbours are
 * found, and the frontier kept, with one probe each.
 */
function makeRoom(s: GameState, more: number): void {
  const old = s.cells;
  const slots = old.length;
  if (2 * (s.tiles.length + s.frontier.length + more) <= slots) return;
  let size = Math.max(16, 2 * slots);
  while (2 * (s.tiles.length + s.frontier.length + more) > size) size *= 2;
  const cells = (s.cells = emptySlots(size));
  for (let j = 0; j < slots; j++) {
    const v = old[j]!;
    if (v !== EMPTY_SLOT) cells[slotOf(cells, slotKey(v))] = v;
  }
}

/**
 * Takes frontier cell `i` out of the frontier: the last entry moves into its place (the frontier
 * keeps no order), and the cell table learns its new index.
 */
function dropFrontier(s: GameState, i: number): void {
  const frontier = s.frontier;
  const demand = s.demand;
  const last = frontier.length - 1;
  if (i !== last) {
    const moved = frontier[last]!;
    frontier[i] = moved;
    demand[i] = demand[last]!;
    s.cells[slotOf(s.cells, moved)] = packSlot(moved, -2 - i);
  }
  frontier.pop();
  demand.pop();
}

/**
 * The placement filters of the expansions, as one predicate (null when no expansion has one, so
 * that classic games keep the tight loops below). @internal
 */
export function placementFilter(rules: PlacementRules, state: Immutable<GameView>, tile: CompiledTile): ((key: number, r: number) => boolean) | null {
  const hooks = rules.hooks.placementByTile[tile.index]!;
  if (hooks.length === 0) return null;
  const ask = (key: number, r: number): boolean => {
    const x = keyX(key);
    const y = keyY(key);
    for (let i = 0; i < hooks.length; i++) if (hooks[i]!(rules as Ruleset, state, tile, x, y, r as Rotation) !== null) return false;
    return true;
  };
  if (!rules.hooks.placementCellOnly[tile.index]) return ask;
  // Every hook answers per cell: ask once per cell (candidates come cell by cell, in order).
  let lastKey = -1;
  let last = false;
  return (key, r) => {
    if (key !== lastKey) {
      lastKey = key;
      last = ask(key, r);
    }
    return last;
  };
}

/**
 * The frontier indexes of the only open cells where the tile may go, when a module names them
 * (`Expansion.placementCells`: the River's open ends for a river tile), each once; null when every
 * open cell may take it. @internal
 */
export function candidateCells(rules: PlacementRules, state: Immutable<GameView>, tile: CompiledTile): number[] | null {
  const hooks = rules.hooks.placementCellsByTile[tile.index]!;
  let out: number[] | null = null;
  for (let h = 0; h < hooks.length; h++) {
    const cells = hooks[h]!(rules as Ruleset, state, tile);
    if (cells === null) continue;
    const named: number[] = [];
    for (let j = 0; j < cells.length; j++) {
      const i = frontierIndex(state, cells[j]!);
      if (i >= 0 && (out === null || out.includes(i)) && !named.includes(i)) named.push(i);
    }
    out = named;
  }
  return out;
}

/** Whether the tile fits anywhere on the board (any open cell, any rotation). */
export function canPlaceAnywhere(rules: PlacementRules, state: Immutable<GameView>, tile: CompiledTile): boolean {
  const { frontier, demand } = state;
  const sig = tile.signature;
  const allowed = placementFilter(rules, state, tile);
  const only = candidateCells(rules, state, tile);
  const cells = only === null ? frontier.length : only.length;
  for (let j = 0; j < cells; j++) {
    const i = only === null ? j : only[j]!;
    const d = demand[i]!;
    const mask = d >>> 12;
    const val = d & 0xfff;
    if (allowed === null) {
      if ((sig[0]! & mask) === val || (sig[1]! & mask) === val || (sig[2]! & mask) === val || (sig[3]! & mask) === val) return true;
    } else {
      for (let r = 0; r < 4; r++) if ((sig[r]! & mask) === val && allowed(frontier[i]!, r)) return true;
    }
  }
  return false;
}

/**
 * Writes every (cell, rotation) placement of the tile into `out` as `key * 4 + rotation`, in
 * canonical order (ascending cell key, then rotation); returns how many. `out` must hold
 * `4 * frontier.length` entries.
 */
export function collectPlacements(rules: PlacementRules, state: Immutable<GameView>, tile: CompiledTile, out: Int32Array): number {
  const { frontier, demand } = state;
  const sig = tile.signature;
  const s0 = sig[0]!;
  const s1 = sig[1]!;
  const s2 = sig[2]!;
  const s3 = sig[3]!;
  let n = 0;
  const only = candidateCells(rules, state, tile);
  const cells = only === null ? frontier.length : only.length;
  for (let j = 0; j < cells; j++) {
    const i = only === null ? j : only[j]!;
    const d = demand[i]!;
    const mask = d >>> 12;
    const val = d & 0xfff;
    const k4 = frontier[i]! * 4;
    if ((s0 & mask) === val) out[n++] = k4;
    if ((s1 & mask) === val) out[n++] = k4 + 1;
    if ((s2 & mask) === val) out[n++] = k4 + 2;
    if ((s3 & mask) === val) out[n++] = k4 + 3;
  }
  const allowed = placementFilter(rules, state, tile);
  if (allowed !== null) {
    let kept = 0;
    for (let i = 0; i < n; i++) {
      const p = out[i]!;
      if (allowed((p / 4) | 0, p & 3)) out[kept++] = p;
    }
    n = kept;
  }
  // The frontier keeps no order: the few placements that fit are put in canonical order here.
  sortPlacements(out, n);
  return n;
}

/**
 * Sorts `out[0, n)` ascending: insertion sort, since the placements that fit are few (a dozen or
 * two) and come in runs already ordered by rotation; longer lists go to the typed array's sort.
 */
function sortPlacements(out: Int32Array, n: number): void {
  if (n > 64) out.subarray(0, n).sort();
  else sortShort(out, n);
}

/**
 * Sorts the first `n` numbers of a short list ascending in place: insertion sort, no comparator
 * calls (for lists of a few dozen at most). @internal
 */
export function sortShort(list: number[] | Int32Array, n: number = list.length): void {
  for (let i = 1; i < n; i++) {
    const v = list[i]!;
    let j = i - 1;
    while (j >= 0 && list[j]! > v) {
      list[j + 1] = list[j]!;
      j--;
    }
    list[j + 1] = v;
  }
}

/**
 * Lays tile `tile` at `x, y` turned `rotation` and updates the frontier and the feature graph.
 * Assumes the placement is legal (callers check first). Returns the new tile's index.
 */
export function layTile(
  rules: BoardRules,
  s: GameState,
  tile: CompiledTile,
  x: number,
  y: number,
  rotation: Rotation,
  player: number,
): number {
  const key = cellKey(x, y);
  const index = s.tiles.length;
  const g = s.features;
  const base = g.parent.length;
  // Never changed once made, so copies share it (clone.ts). It is born unfrozen: freezing here
  // cost the Simulator a third of its speed; applyMove freezes what it adopts (engine/sharing.ts).
  s.tiles.push({ id: tile.def.id, kind: tile.index, x, y, rotation, player, node: base });
  // The tile's cell (a frontier cell, or any cell for a start tile) and up to four new frontier cells.
  makeRoom(s, 5);
  const cells = s.cells;
  const slot = slotOf(cells, key);
  if (cells[slot] !== EMPTY_SLOT) {
    const v = slotValue(cells[slot]!);
    if (v <= -2) dropFrontier(s, -2 - v);
  }
  cells[slot] = packSlot(key, index);

  // One segment per local feature.
  const kinds = tile.kinds;
  for (let f = 0; f < kinds.length; f++) {
    const k = kinds[f]!;
    addSegment(g, k, index, tile.portCounts[f]!, tile.pennants[f]!, rules.tracksTiles[k]!, ((tile.twins >>> f) & 1) === 1);
  }

  // Cloister-like features: tell the unfinished ones around us, and count our own surroundings.
  // (`areas` may also hold neighbours' features this turn closed without joining: open 0, skipped.)
  const areas = s.areas;
  for (let i = 0; i < areas.length; i++) {
    const seg = areas[i]!;
    if (g.open[seg] === 0 || rules.portCompleted[g.kind[seg]!]) continue;
    const at = s.tiles[g.tile[seg]!]!;
    if (Math.abs(at.x - x) <= 1 && Math.abs(at.y - y) <= 1) g.open[seg]!--;
  }
  if (tile.areaFeature >= 0) {
    let around = 0;
    for (let i = 0; i < 8; i++) if (tileAt(s, key + AROUND_DELTA[i]!) >= 0) around++;
    g.open[base + tile.areaFeature] = 8 - around;
    areas.push(base + tile.areaFeature);
  }

  // Merge across the four edges; update the frontier.
  const pf = tile.portFeature;
  const rOff = rotation * 12;
  const sig = tile.signature[rotation]!;
  const inside = rules.inside;
  for (let side = 0; side < 4; side++) {
    const nkey = key + SIDE_DELTA[side]!;
    const nslot = slotOf(cells, nkey);
    const nt = cells[nslot] === EMPTY_SLOT ? -1 : slotValue(cells[nslot]!);
    if (nt < 0) {
      if (inside !== null && !inside(nkey)) {
        // A bounded board's wall: the ports facing it are closed.
        for (let k = 0; k < 3; k++) g.open[findRoot(g.parent, base + pf[rOff + side * 3 + k]!)]!--;
        continue;
      }
      // The empty neighbour now demands our edge class on its facing side (a wall side demands
      // nothing and makes no cell placeable).
      if ((tile.wallSides >>> (rotation * 4 + side)) & 1) continue;
      const cls = (sig >>> (3 * side)) & 7;
      const facing = (side + 2) % 4;
      const bits = ((7 << (3 * facing)) << 12) | (cls << (3 * facing));
      if (nt <= -2) s.demand[-2 - nt] = s.demand[-2 - nt]! | bits;
      else {
        cells[nslot] = packSlot(nkey, -2 - s.frontier.length);
        s.frontier.push(nkey);
        s.demand.push(bits);
      }
      continue;
    }
    const other = s.tiles[nt]!;
    const ot = rules.tiles[other.kind]!;
    const oOff = other.rotation * 12;
    const opf = ot.portFeature;
    const p0 = side * 3;
    const m0 = pf[rOff + p0]!;
    const t0 = opf[oOff + OPPOSITE_PORT[p0]!]!;
    if (
      m0 === pf[rOff + p0 + 1] && m0 === pf[rOff + p0 + 2] &&
      t0 === opf[oOff + OPPOSITE_PORT[p0 + 1]!] && t0 === opf[oOff + OPPOSITE_PORT[p0 + 2]!] &&
      g.kind[base + m0] === g.kind[other.node + t0]
    ) {
      // One feature on each side along the whole edge (a city or field side, most edges): one
      // union for the three ports, which close all three.
      const root = unionFeatures(g, base + m0, other.node + t0);
      g.open[root]! -= 6;
      continue;
    }
    for (let k = 0; k < 3; k++) {
      const p = side * 3 + k;
      const mine = base + pf[rOff + p]!;
      const theirs = other.node + opf[oOff + OPPOSITE_PORT[p]!]!;
      if (g.kind[mine] === g.kind[theirs]) {
        const root = unionFeatures(g, mine, theirs);
        g.open[root]! -= 2;
      } else {
        // Different kinds face each other (The Castle: a tower against a house): each is closed
        // there. A neighbour's feature closed this way is not among this tile's features: list it
        // with the areas, so that the turn's scoring finds it (the core prunes it after scoring).
        g.open[findRoot(g.parent, mine)]!--;
        const r = findRoot(g.parent, theirs);
        if (--g.open[r]! === 0 && rules.portCompleted[g.kind[r]!]) areas.push(r);
      }
    }
  }
  return index;
}
