/**
 * `featuresClosed` (src/core/closing.ts): the count of features a placement would complete, read
 * off the feature graph without laying the tile, equals what laying it does, for every legal
 * placement of every position of random games of classic, The Castle and the expansions; and a
 * hand-worked position: a road closed between two crossroads.
 */
import { describe, expect, test } from 'vitest';
import { applyMove, createRandomSource, createRuleset, legalMoves, newGame, type GameState, type Ruleset } from '../src/index.js';
import { castle } from '../src/games/castle/entry.js';
import { count } from '../src/expansions/count/index.js';
import { kingRobber } from '../src/expansions/king-robber/index.js';
import { princessDragon } from '../src/expansions/princess-dragon/index.js';
import { river } from '../src/expansions/river/index.js';
import { shrines } from '../src/expansions/shrines/index.js';
import { tower } from '../src/expansions/tower/index.js';
import { featuresClosed, newClosingScratch } from '../src/core/closing.js';
import { layTile, tileAt } from '../src/core/board.js';
import { findRoot } from '../src/core/features.js';
import { cloneState } from '../src/core/engine/clone.js';
import { SIDE_DELTA, cellKey } from '../src/core/state.js';
import { must, rigDraw } from './helpers.js';
import type { Rotation } from '../src/core/types.js';

/** What laying the tile closes: the distinct roots of its segments and its neighbours' that have no open port left. */
function closedByLaying(rules: Ruleset, s: GameState, x: number, y: number, rotation: Rotation): number {
  const step = s.step as { tile: string; player: number };
  const tile = rules.tileById.get(step.tile)!;
  const t = cloneState(s);
  const key = cellKey(x, y);
  const before = new Set<number>();
  for (const d of SIDE_DELTA) {
    const nt = tileAt(t, key + d);
    if (nt < 0) continue;
    const other = t.tiles[nt]!;
    const n = rules.tiles[other.kind]!.kinds.length;
    for (let f = 0; f < n; f++) before.add(other.node + f);
  }
  const index = layTile(rules, t, tile, x, y, rotation, step.player);
  const g = t.features;
  const segs = [...before];
  for (let f = 0; f < tile.kinds.length; f++) segs.push(t.tiles[index]!.node + f);
  // A root counts when it holds the new tile or a neighbour's feature that was open before.
  const roots = new Set<number>();
  for (const seg of segs) {
    const r = findRoot(g.parent, seg);
    if (g.tile[seg] === index || s.features.open[findRoot(s.features.parent, seg)]! > 0) roots.add(r);
  }
  let closed = 0;
  for (const r of roots) if (g.open[r] === 0 && rules.portCompleted[g.kind[r]!]) closed++;
  return closed;
}

const CONFIGS: [string, Ruleset][] = [
  ['classic', must(createRuleset({ game: 'classic' }))],
  ['The Castle', must(createRuleset({ game: castle() }))],
  ['all six', must(createRuleset({ game: 'classic', expansions: [river(), count(), kingRobber(), princessDragon(), shrines(), tower()] }))],
];

/** The legal placements of the drawn tile on cell x, y. */
function placementsAt(rules: Ruleset, s: GameState, x: number, y: number) {
  return legalMoves(rules, s).filter((m) => m.type === 'place' && m.x === x && m.y === y) as { type: 'place'; x: number; y: number; rotation: Rotation; player: number }[];
}

describe('featuresClosed', () => {
  test('hand-worked, classic: a city closed by its second tile; a road closed only at its second end', () => {
    const rules = must(createRuleset({ game: 'classic' }));
    const scratch = newClosingScratch();
    // The start tile D at 0, 0: a city on its north side, a road from west to east.
    let s = rigDraw(rules, must(newGame(rules, { players: 2, seed: 'hand' })), 'E');
    // E (a city on one side) north of it can only turn its city south: the two-tile city closes.
    const north = placementsAt(rules, s, 0, -1);
    expect(north.length).toBe(1);
    expect(featuresClosed(rules, s, rules.tileById.get('E')!, cellKey(0, -1), north[0]!.rotation, scratch)).toBe(1);
    // A (a cloister, its road ending at it) east of the start tile ends the road there: one end still open.
    s = rigDraw(rules, s, 'A');
    const east = placementsAt(rules, s, 1, 0);
    expect(east.length).toBe(1);
    expect(featuresClosed(rules, s, rules.tileById.get('A')!, cellKey(1, 0), east[0]!.rotation, scratch)).toBe(0);
    s = must(applyMove(rules, s, east[0]!)).state;
    s = must(applyMove(rules, s, { type: 'pass', player: 0 })).state;
    // Another A west of it ends the road's other end: the road closes (the cloister is not a port feature).
    s = rigDraw(rules, s, 'A');
    const west = placementsAt(rules, s, -1, 0);
    expect(west.length).toBe(1);
    expect(featuresClosed(rules, s, rules.tileById.get('A')!, cellKey(-1, 0), west[0]!.rotation, scratch)).toBe(1);
  });

  for (const [name, rules] of CONFIGS) {
    test(`${name}: equals what laying the tile closes, for every placement of random games`, () => {
      const scratch = newClosingScratch();
      let positions = 0;
      let closing = 0;
      for (let game = 0; game < 3; game++) {
        let s = must(newGame(rules, { players: 2, seed: `closing-${game}` }));
        const random = createRandomSource(`closing-${name}-${game}`);
        while (s.step.kind !== 'game-over') {
          const moves = legalMoves(rules, s);
          if (s.step.kind === 'place-tile') {
            const tile = rules.tileById.get(s.step.tile)!;
            for (const m of moves) {
              if (m.type !== 'place') continue;
              const want = closedByLaying(rules, s, m.x, m.y, m.rotation);
              expect(featuresClosed(rules, s, tile, cellKey(m.x, m.y), m.rotation, scratch), `${JSON.stringify(m)} at turn ${s.turn}`).toBe(want);
              positions++;
              if (want > 0) closing++;
            }
          }
          s = must(applyMove(rules, s, moves[random(moves.length)]!)).state;
        }
      }
      expect(positions).toBeGreaterThan(500);
      expect(closing).toBeGreaterThan(20);
    });
  }
});
