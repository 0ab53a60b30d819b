/**
 * The project's tile reference, test/fixtures/classic-tiles.json (a verbatim copy of the
 * reference tile compositions, schema classic-tiles/1, with JCloisterZone ids), for the tests that
 * check our tile tables against it (classic, king-robber, river, shrines, count and tower, one set
 * each). It lives in the repository, so the checks run in every clone.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import type { TileDef, TileFeatureDef } from '../src/index.js';

export const REFERENCE = fileURLToPath(new URL('./fixtures/classic-tiles.json', import.meta.url));

/** The parts of the reference schema (classic-tiles/1) the tests read. */
export interface RefFeature {
  readonly id: string;
  readonly type: string;
  readonly ports: readonly string[];
  readonly pennants?: number;
  readonly adj_cities?: readonly string[];
  /** An inner field (KR-05): it touches no edge of the tile. */
  readonly inner_only?: boolean;
}
export interface RefTile {
  readonly id: string;
  /** Base set only: our tile id ('BASE-D' has letter 'D'). */
  readonly letter?: string;
  readonly count: number;
  /** Base set only: 1 on the tile whose count includes the start tile. */
  readonly includes_start_tile?: number;
  /** River sets only: spring, fork or lake (course tiles have none). */
  readonly river_role?: string;
  readonly features: readonly RefFeature[];
  readonly symbols: readonly string[];
}
export interface RefSet {
  readonly key: string;
  readonly expected_total: number;
  readonly total: number;
  readonly distinct: number;
  readonly tiles: readonly RefTile[];
}

let sets: ReadonlyMap<string, RefSet> | undefined;

/** Every set of the reference, by key. */
export function referenceSets(): ReadonlyMap<string, RefSet> {
  sets ??= new Map((JSON.parse(readFileSync(REFERENCE, 'utf8')) as { sets: readonly RefSet[] }).sets.map((s) => [s.key, s]));
  return sets;
}

/** The reference set `key` ("base", "river1", ...). Fails when the reference or the set is missing. */
export function loadReferenceSet(key: string): RefSet {
  const set = referenceSets().get(key);
  if (set === undefined) throw new Error(`${REFERENCE} has no set with key "${key}"`);
  return set;
}

export const sortedIds = (xs: readonly string[]): string[] => [...xs].sort();

/**
 * Our tile `ours` has the features of reference tile `ref`: the same feature ids, and for each the
 * same kind (reference type), ports, pennants and adjacent cities. `each`, when given, checks
 * more of every feature pair, after those.
 */
export function expectFeaturesMatch(ours: TileDef, ref: RefTile, each?: (f: TileFeatureDef, rf: RefFeature) => void): void {
  const id = ours.id;
  expect(sortedIds(ours.features.map((f) => f.id))).toEqual(sortedIds(ref.features.map((f) => f.id)));
  for (const rf of ref.features) {
    const f = ours.features.find((x) => x.id === rf.id)!;
    expect(f.kind, `${id} ${rf.id} type`).toBe(rf.type);
    expect(sortedIds(f.ports), `${id} ${rf.id} ports`).toEqual(sortedIds(rf.ports));
    expect(f.pennants, `${id} ${rf.id} pennants`).toBe(rf.pennants ?? 0);
    expect(sortedIds(f.adjacent), `${id} ${rf.id} adjacent cities`).toEqual(sortedIds(rf.adj_cities ?? []));
    each?.(f, rf);
  }
}

/** Every one of the 12 ports of tile `tile` is owned by exactly one feature. */
export function expectPortsOwnedOnce(tile: TileDef): void {
  const ports = tile.features.flatMap((f) => f.ports);
  expect(ports.length).toBe(12);
  expect(new Set(ports).size).toBe(12);
}
