/**
 * The Castle's board and tile data as plain JSON (the formats a user supplies) and the compiled
 * layout the engine reads. Validation and compilation: layout-data.ts and tile-data.ts.
 */
import type { TileDef } from '../../core/tiles.js';

/** A side of a cell, by name: `N`, `E`, `S` or `W` (side index 0..3 in that order). */
export type SideName = 'N' | 'E' | 'S' | 'W';

/** A boundary edge of the play area: inside cell `x`,`y` and the side of it that faces the wall. */
export interface CastleEdge {
  /** Column of the inside cell (grows east). */
  readonly x: number;
  /** Row of the inside cell (grows south). */
  readonly y: number;
  /** The side of that cell that faces the wall. */
  readonly side: SideName;
}

/** A start field: a boundary edge and the half-feature printed on the wall there. */
export interface CastleStartField extends CastleEdge {
  /**
   * The half-feature as the inside cell sees it on that side, in tile-spec notation using only
   * that side's ports, e.g. for side N: `'c:N1 p:N2 c+:N3'`. Ports of the side not named are
   * plain wall.
   */
  readonly spec: string;
}

/**
 * A wall layout as plain JSON: the play area, the start fields, the score track and the wall
 * towers. Load it with {@link loadCastleLayout}.
 */
export interface CastleLayoutData {
  /** Where the data comes from: `'reconstructed'` for the shipped default, `'official'` for real data. */
  readonly provenance: string;
  /** Free text: sources, caveats. */
  readonly notes?: string;
  /** Rows north to south, `'#'` a play-area cell, `'.'` outside. All rows have the same length. */
  readonly area: readonly string[];
  /** The 7 start fields, each on its own boundary edge. */
  readonly startFields: readonly CastleStartField[];
  /** Exactly 100 entries: track space `i` lies beside boundary edge `track[i]`, in order round the wall. */
  readonly track: readonly CastleEdge[];
  /** The 14 wall towers, each two consecutive spaces `[a, (a + 1) % 100]`; one is `[0, 1]`. */
  readonly towers: readonly (readonly [number, number])[];
  /** The first track space of each of the 10 wall pieces, ascending (absent: not recorded). */
  readonly pieces?: readonly number[];
}

/** One tile kind of a tile set: id, copies and spec in the 12-port notation with The Castle's codes. */
export interface CastleTileData {
  /** The tile kind's id, unique in the set, not starting with `@` (reserved for start fields). */
  readonly id: string;
  /** Copies in the set: a positive integer. */
  readonly count: number;
  /** Features `code[+...]:ports` separated by spaces; codes `p` path, `t` tower, `h` house, `c` court. */
  readonly spec: string;
}

/** A tile set as plain JSON: 60 tiles in all. Load it with {@link loadCastleTiles}. */
export interface CastleTileSetData {
  /** Where the data comes from: `'reconstructed'` for the shipped default, `'official'` for real data. */
  readonly provenance: string;
  /** Free text: sources, caveats. */
  readonly notes?: string;
  /** The tile kinds with their counts. */
  readonly tiles: readonly CastleTileData[];
}

/**
 * A start field compiled into a virtual tile lying on the outside cell (`x`, `y`) next to the
 * play area, at rotation 0 (its ports already in board orientation).
 */
export interface CastleStartTile {
  /** Column of the outside cell (may be -1 or the grid width). */
  readonly x: number;
  /** Row of the outside cell (may be -1 or the grid height). */
  readonly y: number;
  /** The virtual tile: id `@start-1`, `@start-2`, ...; count 0; every port not on a start field is wall (`w`). */
  readonly def: TileDef;
}

/** A validated wall layout, compiled for the engine. Read-only, typed arrays included. */
export interface CastleLayout {
  /** The data's provenance (`'reconstructed'`, `'official'`, ...). */
  readonly provenance: string;
  /** Grid width: the length of the area rows. */
  readonly width: number;
  /** Grid height: the number of area rows. */
  readonly height: number;
  /** `width * height` flags, 1 for a play-area cell, at index `y * width + x`. */
  readonly inside: Uint8Array;
  /** How many play-area cells there are (76). */
  readonly cellCount: number;
  /**
   * One virtual tile per outside cell that carries at least one start field, in order of first
   * appearance in the data; start fields touching the same outside cell share its tile.
   */
  readonly startTiles: readonly CastleStartTile[];
  /** The start fields, as given. */
  readonly startFields: readonly CastleStartField[];
  /** The 100 track spaces' boundary edges. */
  readonly track: readonly CastleEdge[];
  /** The 14 towers, as given. */
  readonly towers: readonly (readonly [number, number])[];
  /** Per track space (100): the index of the tower it belongs to, or -1. */
  readonly towerAt: Int8Array;
  /** First track space of each wall piece (empty when the data does not record them). */
  readonly pieces: readonly number[];
  /** The input data, normalized and deeply frozen. */
  readonly data: CastleLayoutData;
}
