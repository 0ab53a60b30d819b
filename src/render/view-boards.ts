/**
 * The boards rebuilt from public views, remembered: drawing a view (from-view.ts) lays its tiles
 * in order with the core's `layTile` to get the segments and the feature graph, which took most of
 * a picture's time on a full board. A client draws view after view of the same game, each the
 * last one with a tile or none added, so the last few boards built are kept per ruleset; a view
 * whose tiles begin with a kept board's tiles (same kind, cell and rotation, in the same order)
 * starts from a copy of that board and lays only the tiles after them. Anything else (a view after
 * an undo that took a tile back, another game) is built from the start tiles, and kept in turn.
 *
 * A board depends on the placed tiles alone: followers, scores and module parts are read from
 * each view, never kept. Memory is bounded: {@link KEPT_PER_RULESET} boards per ruleset, the
 * least recently used dropped first, and a ruleset's boards go with it (a WeakMap).
 */
import { emptyCellTable, layTile } from '../core/board.js';
import type { Ruleset } from '../core/ruleset.js';
import type { GameState } from '../core/state.js';
import type { Rotation } from '../core/types.js';

/** A placed tile as a view names it, checked by the caller. */
export interface ViewTileRef {
  readonly tile: string;
  readonly x: number;
  readonly y: number;
  readonly rotation: number;
}

/** The board parts of a state that laying tiles builds: what a picture reads besides the view's own fields. */
export type LaidBoard = Pick<GameState, 'tiles' | 'cells' | 'frontier' | 'demand' | 'areas' | 'features'>;

/** Boards kept per ruleset: a couple of games or seats drawn in turn, and a board before an undo. */
export const KEPT_PER_RULESET = 4;

interface Kept {
  /** The tiles laid, in order. */
  readonly tiles: readonly ViewTileRef[];
  /** The board they make; never changed once kept (extensions lay tiles on a copy). */
  readonly board: LaidBoard;
}

const kept = new WeakMap<Ruleset, Kept[]>();

/** Tiles laid so far, all rulesets together (tests check that kept boards spare the work). */
let laid = 0;

function emptyBoard(): LaidBoard {
  return {
    tiles: [],
    cells: emptyCellTable(),
    frontier: [],
    demand: [],
    areas: [],
    features: { parent: [], kind: [], tile: [], open: [], pennants: [], followers: [], size: [], twins: [] },
  } as unknown as LaidBoard;
}

/** A copy that laying more tiles may change (placed tiles and twin lists are never changed in place, so they are shared, as engine/clone.ts does). */
function copyBoard(b: LaidBoard): LaidBoard {
  const g = b.features;
  return {
    tiles: [...b.tiles],
    cells: [...b.cells],
    frontier: [...b.frontier],
    demand: [...b.demand],
    areas: [...b.areas],
    features: {
      parent: [...g.parent],
      kind: [...g.kind],
      tile: [...g.tile],
      open: [...g.open],
      pennants: [...g.pennants],
      followers: [...g.followers],
      size: [...g.size],
      twins: [...g.twins],
    },
  } as LaidBoard;
}

/** How many of `tiles` a kept board's tiles are the start of: its length, or -1 when they are not a prefix. */
function prefixOf(k: Kept, tiles: readonly ViewTileRef[]): number {
  if (k.tiles.length > tiles.length) return -1;
  for (let i = 0; i < k.tiles.length; i++) {
    const a = k.tiles[i]!;
    const b = tiles[i]!;
    if (a.tile !== b.tile || a.x !== b.x || a.y !== b.y || a.rotation !== b.rotation) return -1;
  }
  return k.tiles.length;
}

/**
 * The board `tiles` make, laid in order as the rules laid them (start tiles by nobody, -1, the
 * others by player 0: a view does not say who laid them). The tiles must be checked first (kind
 * ids of the ruleset, cells in range, no cell twice). The board returned may be shared with later
 * calls: read it, never change it.
 */
export function laidBoard(rules: Ruleset, tiles: readonly ViewTileRef[]): LaidBoard {
  let list = kept.get(rules);
  if (list === undefined) kept.set(rules, (list = []));
  // The kept board with the longest run of the view's first tiles.
  let best = -1;
  let from = 0;
  for (let i = 0; i < list.length; i++) {
    const n = prefixOf(list[i]!, tiles);
    if (n >= 0 && (best < 0 || n > from)) {
      best = i;
      from = n;
    }
  }
  if (best >= 0 && from === tiles.length) {
    // The same tiles: the kept board as it is, now the most recently used.
    const hit = list.splice(best, 1)[0]!;
    list.unshift(hit);
    return hit.board;
  }
  const board = best >= 0 ? copyBoard(list[best]!.board) : emptyBoard();
  const s = board as GameState;
  for (let i = from; i < tiles.length; i++) {
    const t = tiles[i]!;
    layTile(rules, s, rules.tileById.get(t.tile)!, t.x, t.y, t.rotation as Rotation, i < rules.start.length ? -1 : 0);
    laid++;
  }
  list.unshift({ tiles: tiles.map((t) => ({ tile: t.tile, x: t.x, y: t.y, rotation: t.rotation })), board });
  if (list.length > KEPT_PER_RULESET) list.length = KEPT_PER_RULESET;
  return board;
}

/** Forgets the boards kept for `rules` (tests and benchmarks: the next view is laid from the start). */
export function forgetLaidBoards(rules: Ruleset): void {
  kept.delete(rules);
}

/** What is kept, for tests: the boards kept for `rules` and the tiles laid so far (all rulesets). */
export function laidBoardStats(rules: Ruleset): { readonly kept: number; readonly tilesLaid: number } {
  return { kept: kept.get(rules)?.length ?? 0, tilesLaid: laid };
}
