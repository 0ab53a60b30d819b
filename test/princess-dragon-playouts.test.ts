/**
 * The Princess and the Dragon in random playouts: its deploy-step moves are counted
 * (`countDeployMoves`) and only the one drawn is built (`drawDeployMove`), numbered its own way (the
 * magic portal's targets in segment order, the fairy's cells as found). These tests hold the module
 * to the contract of `Expansion.countDeployMoves`/`drawDeployMove` (the count is the listed moves'
 * number, the numbering gives each listed move exactly one number) and check that a playout's deploy
 * step stays uniform over the legal moves. No rule changes: `legalMoves` keeps the listed order.
 */
import { describe, expect, test } from 'vitest';
import { createRandomSource, createRuleset, legalMoves, newGame, type Expansion, type GameState, type Move, type Ruleset } from '../src/index.js';
import { princessDragon, PORTAL_TILES } from '../src/expansions/princess-dragon/index.js';
import { tower } from '../src/expansions/tower/index.js';
import { cloneState } from '../src/core/engine/clone.js';
import { randomMove } from '../src/core/engine/legal.js';
import { playMove } from '../src/core/engine/play.js';
import { byDepth } from './depth.js';

function must(r: ReturnType<typeof createRuleset>): Ruleset {
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

const configs: readonly [string, Ruleset][] = [
  ['The Princess and the Dragon', must(createRuleset({ game: 'classic', expansions: [princessDragon()] }))],
  ['its optional princess', must(createRuleset({ game: 'classic', expansions: [princessDragon({ princess: 'optional' })] }))],
  ['with the Tower (tower tops carry the fairy too)', must(createRuleset({ game: 'classic', expansions: [tower(), princessDragon()] }))],
];

/** Plays seeded random playouts and calls `visit` at every place-tile and deploy step. */
function eachStep(rules: Ruleset, games: number, visit: (s: GameState) => void): void {
  for (let i = 0; i < games; i++) {
    const g = newGame(rules, { players: 2 + (i % 3), seed: `pd-playouts-${i}` });
    if (!g.ok) throw new Error(g.error.message);
    const s = cloneState(g.value);
    const random = createRandomSource(`pd-playouts-${i}`);
    while (s.step.kind !== 'game-over') {
      if (s.step.kind === 'deploy' || s.step.kind === 'place-tile') visit(s);
      playMove(rules, s, randomMove(rules, s, random, true), null, true);
    }
  }
}

describe('countDeployMoves and drawDeployMove agree with deployMoves (the contract of Expansion.countDeployMoves)', () => {
  for (const [name, rules] of configs) {
    test(`${name}: at every step of 30 playouts, the count is the list's length and the draws are the listed moves, each once`, () => {
      const pd: Expansion = rules.expansions.find((e) => e.id === 'princess-dragon')!;
      let portalSteps = 0;
      let fairySteps = 0;
      eachStep(rules, 30, (s) => {
        const listed = pd.deployMoves!(rules, s).map((m) => JSON.stringify(m));
        const n = pd.countDeployMoves!(rules, s);
        expect(n).toBe(listed.length);
        const drawn = Array.from({ length: n }, (_, i) => JSON.stringify(pd.drawDeployMove!(rules, s, i)));
        // The same moves, with the same keys in the same order (the history keeps the drawn object).
        expect([...drawn].sort()).toEqual([...listed].sort());
        if (listed.some((m) => m.includes('"princess-dragon/portal"'))) portalSteps++;
        if (listed.some((m) => m.includes('"princess-dragon/fairy"'))) fairySteps++;
      });
      // The playouts reached the cases the numbering distinguishes.
      expect(portalSteps).toBeGreaterThan(10);
      expect(fairySteps).toBeGreaterThan(100);
    });
  }
});

describe("a playout's deploy step is uniform over the legal moves (drawn from the counts, built alone)", () => {
  test('after a portal tile: 3,000 draws a legal move (1,000 in the fast tier) from one state, each of its legal moves drawn about equally often (chi-square, fixed seed)', () => {
    const rules = configs[0]![1];
    // The first deploy step after a portal tile with many targets, in a seeded game.
    let found: GameState | null = null;
    for (let i = 0; found === null && i < 50; i++) {
      const g = newGame(rules, { players: 2, seed: `pd-uniform-${i}` });
      if (!g.ok) throw new Error(g.error.message);
      const s = cloneState(g.value);
      const random = createRandomSource(`pd-uniform-${i}`);
      while (s.step.kind !== 'game-over') {
        const placed = s.tiles[s.tiles.length - 1]!;
        if (s.step.kind === 'deploy' && PORTAL_TILES.includes(placed.id) && legalMoves(rules, s).length >= 40) {
          found = cloneState(s);
          break;
        }
        playMove(rules, s, randomMove(rules, s, random, true), null, true);
      }
    }
    if (found === null) throw new Error('no portal step found');
    const legal = legalMoves(rules, found).map((m) => JSON.stringify(m));
    const counts = new Map<string, number>(legal.map((m) => [m, 0]));
    // About 3,000 draws per move (1,000 in the fast tier, test/depth.ts: a move numbered twice is
    // still off by about a thousand, far past the bound below).
    const draws = byDepth(3000, 1000) * Math.ceil(legal.length / 40) * 40;
    const random = createRandomSource('pd-uniform-draws');
    const unlisted: string[] = [];
    for (let i = 0; i < draws; i++) {
      const m: Move = randomMove(rules, found, random, true);
      const key = JSON.stringify(m);
      const n = counts.get(key);
      // Only legal moves are drawn...
      if (n === undefined) unlisted.push(key);
      else counts.set(key, n + 1);
    }
    expect(unlisted).toEqual([]);
    // ...each of them, about equally often: Pearson's statistic against the uniform distribution,
    // below its mean plus six standard deviations (df + 6 sqrt(2 df)). A move numbered twice (and
    // another never) would be off by thousands.
    const expected = draws / legal.length;
    let chi = 0;
    for (const c of counts.values()) chi += (c - expected) ** 2 / expected;
    const df = legal.length - 1;
    expect(Math.min(...counts.values())).toBeGreaterThan(0);
    expect(chi).toBeLessThan(df + 6 * Math.sqrt(2 * df));
  });
});
