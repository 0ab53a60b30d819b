/** The four sides of a tile, clockwise from north. */
export const SIDES = ['N', 'E', 'S', 'W'] as const;
/** One of {@link SIDES}. */
export type Side = (typeof SIDES)[number];

/**
 * The 12 edge ports of a tile, clockwise from the north-west corner: each edge is cut in
 * three, port 2 is the middle. Across a shared edge, middle meets middle and corners swap
 * (my N1 touches the northern neighbour's S3).
 */
export const PORTS = ['N1', 'N2', 'N3', 'E1', 'E2', 'E3', 'S1', 'S2', 'S3', 'W1', 'W2', 'W3'] as const;
/** One of {@link PORTS}. */
export type Port = (typeof PORTS)[number];

/** Quarter turns clockwise: 0, 1, 2 or 3. */
export const ROTATIONS = [0, 1, 2, 3] as const;
/** One of {@link ROTATIONS}: how many quarter turns clockwise a tile is turned. */
export type Rotation = (typeof ROTATIONS)[number];

/** A board position. `x` grows east, `y` grows south; the start tile is at `{ x: 0, y: 0 }`. */
export interface Cell {
  /** Column: grows east. */
  readonly x: number;
  /** Row: grows south. */
  readonly y: number;
}

/** Deeply read-only view of a value: what queries and legal-move generation accept. */
export type Immutable<T> = T extends (...args: never[]) => unknown
  ? T
  : T extends readonly (infer U)[]
    ? readonly Immutable<U>[]
    : T extends object
      ? { readonly [K in keyof T]: Immutable<T[K]> }
      : T;
