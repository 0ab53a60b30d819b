/**
 * The Tower's capture targets against their definition, over positions of seeded random games:
 * the followers of other players on tiles whose cell is in the tower's reach (`reachOf`, the
 * rulebook's "Tyto možnosti nemohou přesahovat mezery v krajině"), plus the followers on other
 * towers' tops in reach, in canonical order (cell, local feature with the top last, owner), alike
 * followers once. `captureTargets` and `canCapture` answer it without walking every side of the
 * reach; this keeps them equal to the plain reading.
 */
import { describe, expect, test } from 'vitest';
import { createRandomSource, createRuleset, createSimulator, newGame, type Ruleset } from '../src/index.js';
import { captureTargets, reachOf, tower, type CaptureTarget, type TowerState } from '../src/expansions/tower/index.js';
import { canCapture } from '../src/expansions/tower/capture.js';
import { cellKey, type GameState } from '../src/core/state.js';
import { must } from './helpers.js';
import { byDepth } from './depth.js';

const rules = must(createRuleset({ game: 'classic', expansions: [tower()] }));

/** The targets read straight from the rule: every follower, then every top, kept when its cell is in reach. */
function plainTargets(r: Ruleset, s: GameState, x: number, y: number, height: number, captor: number): CaptureTarget[] {
  const reach = new Set(reachOf(s, x, y, height));
  const found: { key: number; local: number; t: CaptureTarget }[] = [];
  for (const f of s.followers) {
    const t = s.tiles[f.tile]!;
    if (f.player === captor || !reach.has(cellKey(t.x, t.y))) continue;
    found.push({ key: cellKey(t.x, t.y), local: f.local, t: { x: t.x, y: t.y, feature: r.tiles[t.kind]!.def.features[f.local]!.id, owner: f.player } });
  }
  for (const w of (s.ext['tower'] as TowerState).towers) {
    if (w.top < 0 || w.top === captor || !reach.has(cellKey(w.x, w.y))) continue;
    found.push({ key: cellKey(w.x, w.y), local: 1000, t: { x: w.x, y: w.y, feature: 'top', owner: w.top } });
  }
  found.sort((a, b) => a.key - b.key || a.local - b.local || a.t.owner - b.t.owner);
  return found.filter((f, i) => i === 0 || f.key !== found[i - 1]!.key || f.local !== found[i - 1]!.local || f.t.owner !== found[i - 1]!.t.owner).map((f) => f.t);
}

describe('capture targets', () => {
  test('equal the plain reading of the rule at every tower, height and captor of seeded games', () => {
    let checked = 0;
    let nonEmpty = 0;
    for (let g = 0; g < byDepth(6, 2); g++) {
      const players = 2 + (g % 4);
      const sim = must(createSimulator(rules, must(newGame(rules, { players, seed: `capture-${g}` }))));
      const random = createRandomSource(`capture-${g}`);
      while (!sim.isOver()) {
        const s = sim.state as GameState;
        for (const w of (s.ext['tower'] as TowerState).towers) {
          for (let height = 0; height <= 4; height++) {
            for (let captor = 0; captor < players; captor++) {
              const want = plainTargets(rules, s, w.x, w.y, height, captor);
              expect(captureTargets(rules, s, w.x, w.y, height, captor)).toEqual(want);
              expect(canCapture(s, w.x, w.y, height, captor)).toBe(want.length > 0);
              checked++;
              if (want.length > 0) nonEmpty++;
            }
          }
        }
        sim.playRandom(random);
      }
    }
    expect(nonEmpty).toBeGreaterThan(100);
    expect(checked).toBeGreaterThan(nonEmpty);
  });
});
