/**
 * Our base-game tile table (src/games/classic/tiles.ts, through the public `tileDefs`) checked
 * against the project's reference test/fixtures/classic-tiles.json, set "base": the same
 * 24 tiles, counts, and for every feature the same id, type, ports, pennants and adjacent cities.
 *
 * The fixture is a verbatim copy of the project's tile reference (classic-tiles.json, schema
 * classic-tiles/1), kept in the repository so that the checks run in any clone.
 */
import { describe, expect, test } from 'vitest';
import { newGame, tileDefs, type TileDef } from '../src/index.js';
import { classicRules } from './helpers.js';
import {
  REFERENCE,
  expectFeaturesMatch,
  expectPortsOwnedOnce,
  loadReferenceSet,
  sortedIds,
  type RefSet,
  type RefTile,
} from './reference.js';

const base: RefSet | null = loadReferenceSet('base');
const rules = classicRules();
const ours: readonly TileDef[] = tileDefs(rules);

/** Reference tile by our id (its letter): 'BASE-D' has letter 'D'. */
function refTile(id: string): RefTile {
  const t = base!.tiles.find((r) => r.letter === id);
  if (t === undefined) throw new Error(`reference has no tile with letter ${id}`);
  return t;
}


describe('classic tiles: our table against test/fixtures/classic-tiles.json (base set)', () => {
  test('tiles: the same 24 tiles A..X (reference ids BASE-A..BASE-X, letter field)', () => {
    expect(base, `missing ${REFERENCE}`).not.toBeNull();
    const b = base!;
    expect(b.distinct).toBe(24);
    expect(b.tiles.map((t) => t.id)).toEqual(b.tiles.map((t) => `BASE-${t.letter}`));
    expect(sortedIds(b.tiles.map((t) => t.letter ?? '?'))).toEqual(sortedIds(ours.map((t) => t.id)));
    expect(sortedIds(ours.map((t) => t.id))).toEqual('ABCDEFGHIJKLMNOPQRSTUVWX'.split(''));
  });

  test('tiles: the same counts, 72 in all, the start tile being one of the four D', () => {
    expect(base, `missing ${REFERENCE}`).not.toBeNull();
    const b = base!;
    for (const t of ours) expect(t.count, t.id).toBe(refTile(t.id).count);
    const total = ours.reduce((n, t) => n + t.count, 0);
    expect(total).toBe(72);
    expect(b.total).toBe(72);
    expect(b.expected_total).toBe(72);
    expect(rules.tileCount).toBe(72);
    // D's count includes the start tile (reference flag), and our start tile is a D.
    expect(refTile('D').includes_start_tile).toBe(1);
    expect(refTile('D').count).toBe(4);
    expect(rules.game.start).toEqual([{ tile: 'D', x: 0, y: 0, rotation: 0 }]);
    // A new game lays the start tile and draws one: 70 left in the bag.
    const g = newGame(rules, { players: 2, seed: 'tiles' });
    if (!g.ok) throw new Error(g.error.message);
    expect(g.value.bag.reduce((n, c) => n + c, 0)).toBe(70);
    expect(g.value.tiles.map((t) => t.id)).toEqual(['D']);
  });

  test.each(ours.map((t) => [t.id, t] as const))('tiles: %s has the reference features (id, type, ports, pennants, adjacent cities)', (id, tile) => {
    expect(base, `missing ${REFERENCE}`).not.toBeNull();
    expectFeaturesMatch(tile, refTile(id));
    // Every one of the 12 ports is owned by exactly one feature.
    expectPortsOwnedOnce(tile);
  });

  test('tiles: 6 cloister tiles and 10 pennants in the set, as the reference checks say', () => {
    expect(base, `missing ${REFERENCE}`).not.toBeNull();
    const cloisters = (ts: readonly { count: number; kinds: readonly string[] }[]): number =>
      ts.reduce((n, t) => n + (t.kinds.includes('cloister') ? t.count : 0), 0);
    expect(cloisters(ours.map((t) => ({ count: t.count, kinds: t.features.map((f) => f.kind) })))).toBe(6);
    expect(cloisters(base!.tiles.map((t) => ({ count: t.count, kinds: t.features.map((f) => f.type) })))).toBe(6);
    const pennants = ours.reduce((n, t) => n + t.count * t.features.reduce((m, f) => m + f.pennants, 0), 0);
    expect(pennants).toBe(10);
    const refPennants = base!.tiles.reduce((n, t) => n + t.count * t.features.reduce((m, f) => m + (f.pennants ?? 0), 0), 0);
    expect(refPennants).toBe(10);
    expect(base!.tiles.filter((t) => t.symbols.includes('pennant')).reduce((n, t) => n + t.count, 0)).toBe(10);
  });
});
