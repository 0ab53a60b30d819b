/**
 * Tile definitions in the 12-port notation, and their compilation into small integer tables
 * per rotation. The core knows feature kinds only by name and by the few traits a game
 * declares for them ({@link FeatureKindDef}); it knows nothing of how they score.
 */
import { PORTS, type Port } from './types.js';

/** How a feature kind is completed. */
export type Completion =
  /** Complete when every port it owns is matched by a neighbour (roads, cities, paths). */
  | 'ports'
  /** Complete when all 8 surrounding cells hold tiles (cloisters). */
  | 'surroundings'
  /** Never complete (fields). */
  | 'never';

/** What a game declares about one feature kind. */
export interface FeatureKindDef {
  /** The kind's name as written in tile specs and events (`city`, `road`, ...). */
  readonly name: string;
  /** The one-letter code used in compact tile specs (`c`, `r`, `f`, `m`, ...). */
  readonly code: string;
  /** How the kind completes. */
  readonly completion: Completion;
  /** Whether the distinct tiles of a feature of this kind are tracked (needed to score it). */
  readonly tracksTiles: boolean;
  /**
   * The edge class (0..7) the kind gives an edge whose middle port it owns (for edge matching);
   * -1 for a wall, which demands nothing of the tile facing it and makes no cell placeable.
   */
  readonly edgeClass: number;
  /** How the base game values it, when that differs from its name (a shrine scores as a `cloister`). */
  readonly scoring?: string;
}

/** One feature of a tile definition, as printed (north up). */
export interface TileFeatureDef {
  /** Local id, unique on the tile: kind code + running number (`c1`, `r2`, `f1`, `m1`). */
  readonly id: string;
  /** The kind's name (`city`, `road`, `field`, `cloister`, ...). */
  readonly kind: string;
  /** The ports the feature owns on the tile (empty for cloisters). */
  readonly ports: readonly Port[];
  /** Pennants (coats of arms) on a city. */
  readonly pennants: number;
  /** For fields: local ids of the cities on this tile the field touches. */
  readonly adjacent: readonly string[];
}

/** A tile kind: its id, how many copies the set has, and its features. */
export interface TileDef {
  /** The tile kind's id (`A`..`X` for the base game). */
  readonly id: string;
  /** Copies in the set (including a start tile, if any). */
  readonly count: number;
  /** The features, in local-id order. */
  readonly features: readonly TileFeatureDef[];
}

/**
 * A tile kind compiled for one ruleset: lookup tables per rotation. Expansion hooks that decide
 * about a tile (`drawFilter`, `placementError`) are handed one. Read-only: it belongs to the
 * ruleset and is shared by every game played with it, so never write to it (not even to the
 * typed arrays, whose elements TypeScript cannot mark read-only).
 */
export interface CompiledTile {
  /** Position in the ruleset's catalogue (`GameState.bag[index]` counts the copies left). */
  readonly index: number;
  /** The definition as printed: id, count and features (north up). */
  readonly def: TileDef;
  /** Per local feature: kind index into the ruleset's kinds. */
  readonly kinds: readonly number[];
  /** Per local feature: how many ports it owns. */
  readonly portCounts: readonly number[];
  /** Per local feature: pennants. */
  readonly pennants: readonly number[];
  /** Per local feature (fields): local indices of adjacent cities. */
  readonly adjacent: readonly (readonly number[])[];
  /**
   * `adjacent` as one flat list of pairs: field, city, field, city... (a field with two adjacent
   * cities appears twice), for scoring loops that visit every adjacency of every tile.
   */
  readonly adjacentPairs: readonly number[];
  /** Local feature index owning board port `p` at rotation `r`: `portFeature[r * 12 + p]`, or -1. */
  readonly portFeature: Int8Array;
  /** Edge-class signature per rotation: 3 bits per side, side s at bit 3s. */
  readonly signature: Int32Array;
  /** Sides that are wall (edge class -1: no demand, no frontier): bit `r * 4 + side`. */
  readonly wallSides: number;
  /** Local index of the tile's 'surroundings' feature (cloister), or -1. */
  readonly areaFeature: number;
  /** Local index by local id. */
  readonly localIndex: Readonly<Record<string, number>>;
  /**
   * Local features whose kind tracks tiles and appears on the tile more than once (bit i = local
   * feature i): only these can later join one feature twice (a road looping back to its
   * crossroads), the one case where a feature's segments outnumber its distinct tiles.
   */
  readonly twins: number;
}

const PORT_INDEX: Readonly<Record<string, number>> = Object.fromEntries(PORTS.map((p, i) => [p, i]));

/** The port a port touches across a shared edge: same middle, corners swap. */
export function oppositePort(p: number): number {
  const side = (p / 3) | 0;
  return ((side + 2) % 4) * 3 + (2 - (p % 3));
}

/** Where port `p` of a tile ends up after `r` quarter turns clockwise. */
export function rotatePort(p: number, r: number): number {
  return (p + 3 * r) % 12;
}

/**
 * Parses a compact tile spec: features separated by spaces, each `code[+...][:ports][>adj]`.
 * `code` is a kind's one-letter code, each `+` a pennant, ports comma-separated with a bare side
 * letter meaning its three ports (`N` = N1,N2,N3), `>c1,c2` the adjacent cities of a field.
 * Local ids are numbered per kind in order of appearance (`c1`, `c2`, `r1`, ...).
 *
 * @example
 * ```ts
 * // Base tile D: city cap north, straight road west-east.
 * parseTileSpec('D', 4, 'c:N r:E2,W2 f:E1,W3>c1 f:E3,S,W1', kinds);
 * ```
 * @throws Error on a malformed spec: tile data is part of the library, so a bad spec is a bug.
 */
export function parseTileSpec(id: string, count: number, spec: string, kinds: readonly FeatureKindDef[]): TileDef {
  const byCode = new Map(kinds.map((k) => [k.code, k]));
  const perKind = new Map<string, number>();
  const owned = new Set<number>();
  const features: TileFeatureDef[] = [];
  for (const part of spec.trim().split(/\s+/)) {
    const m = /^([a-z])(\+*)(?::([A-Z0-9,]+))?(?:>([a-z0-9,]+))?$/.exec(part);
    if (m === null) throw new Error(`tile ${id}: cannot read feature '${part}'`);
    const kind = byCode.get(m[1]!);
    if (kind === undefined) throw new Error(`tile ${id}: unknown feature code '${m[1]}'`);
    const n = (perKind.get(kind.code) ?? 0) + 1;
    perKind.set(kind.code, n);
    const ports: Port[] = [];
    for (const tok of m[3] === undefined ? [] : m[3].split(',')) {
      const list = tok.length === 1 ? [`${tok}1`, `${tok}2`, `${tok}3`] : [tok];
      for (const p of list) {
        const i = PORT_INDEX[p];
        if (i === undefined) throw new Error(`tile ${id}: unknown port '${p}'`);
        if (owned.has(i)) throw new Error(`tile ${id}: port ${p} owned twice`);
        owned.add(i);
        ports.push(p as Port);
      }
    }
    features.push({
      id: `${kind.code}${n}`,
      kind: kind.name,
      ports,
      pennants: m[2]!.length,
      adjacent: m[4] === undefined ? [] : m[4].split(','),
    });
  }
  if (owned.size !== 12) throw new Error(`tile ${id}: ${12 - owned.size} port(s) owned by no feature`);
  for (const f of features) {
    for (const a of f.adjacent) {
      if (!features.some((g) => g.id === a)) throw new Error(`tile ${id}: ${f.id} touches unknown ${a}`);
    }
  }
  return { id, count, features };
}

/** Compiles a tile definition against a ruleset's feature kinds. @internal */
export function compileTile(def: TileDef, index: number, kinds: readonly FeatureKindDef[]): CompiledTile {
  const kindIndex = new Map(kinds.map((k, i) => [k.name, i]));
  const localIndex: Record<string, number> = {};
  def.features.forEach((f, i) => (localIndex[f.id] = i));
  const fk = def.features.map((f) => {
    const k = kindIndex.get(f.kind);
    if (k === undefined) throw new Error(`tile ${def.id}: unknown feature kind '${f.kind}'`);
    return k;
  });
  const base = new Int8Array(12).fill(-1);
  def.features.forEach((f, i) => f.ports.forEach((p) => (base[PORT_INDEX[p]!] = i)));
  const portFeature = new Int8Array(48);
  const signature = new Int32Array(4);
  let wallSides = 0;
  for (let r = 0; r < 4; r++) {
    for (let p = 0; p < 12; p++) portFeature[r * 12 + rotatePort(p, r)] = base[p]!;
    let sig = 0;
    for (let side = 0; side < 4; side++) {
      const owner = portFeature[r * 12 + side * 3 + 1]!;
      const cls = kinds[fk[owner]!]!.edgeClass;
      if (cls < 0) wallSides |= 1 << (r * 4 + side);
      sig |= Math.max(0, cls) << (3 * side);
    }
    signature[r] = sig;
  }
  let areaFeature = -1;
  fk.forEach((k, i) => {
    if (kinds[k]!.completion === 'surroundings') areaFeature = i;
  });
  let twins = 0;
  fk.forEach((k, i) => {
    if (kinds[k]!.tracksTiles && fk.indexOf(k) !== fk.lastIndexOf(k)) twins |= 1 << i;
  });
  return {
    index,
    def,
    kinds: fk,
    portCounts: def.features.map((f) => f.ports.length),
    pennants: def.features.map((f) => f.pennants),
    adjacent: def.features.map((f) => f.adjacent.map((a) => localIndex[a]!)),
    adjacentPairs: def.features.flatMap((f, i) => f.adjacent.flatMap((a) => [i, localIndex[a]!])),
    portFeature,
    signature,
    wallSides,
    areaFeature,
    localIndex,
    twins,
  };
}
