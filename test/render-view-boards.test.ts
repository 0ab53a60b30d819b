/**
 * The boards the renderer keeps for public views (src/render/view-boards.ts): a picture of a
 * view drawn with the kept boards is byte for byte the picture drawn from scratch, at every step
 * of seeded random games of several configurations (all six expansions, The Castle, the River
 * with the Princess and the Dragon, classic; whole games in the full tier, their first 60 steps
 * in the fast one), with undos that take tiles back, the seats' and a
 * spectator's views drawn in turn, and two games of one ruleset drawn in turn; the legal cells
 * too. Drawing a game's views in order lays each tile once; the boards kept stay bounded.
 */
import { describe, expect, test } from 'vitest';
import { applyMove, createRuleset, legalMoves, newGame, publicView, undo, type Expansion, type GameState, type PublicView, type Ruleset } from '../src/index.js';
import { count } from '../src/expansions/count/index.js';
import { kingRobber } from '../src/expansions/king-robber/index.js';
import { princessDragon } from '../src/expansions/princess-dragon/index.js';
import { river } from '../src/expansions/river/index.js';
import { shrines } from '../src/expansions/shrines/index.js';
import { tower } from '../src/expansions/tower/index.js';
import { castle } from '../src/games/castle/entry.js';
import { legalPlacements, renderBoard } from '../src/render/index.js';
import { forgetLaidBoards, KEPT_PER_RULESET, laidBoardStats } from '../src/render/view-boards.js';
import { byDepth } from './depth.js';
import { must } from './helpers.js';

const CONFIGS: readonly { name: string; game: 'classic' | 'castle'; expansions: () => Expansion[]; players: number }[] = [
  { name: 'all six expansions', game: 'classic', expansions: () => [river(), kingRobber(), tower(), princessDragon(), count(), shrines()], players: 4 },
  { name: 'The Castle', game: 'castle', expansions: () => [], players: 2 },
  { name: 'the River with the Princess and the Dragon', game: 'classic', expansions: () => [river(), princessDragon()], players: 3 },
  { name: 'classic', game: 'classic', expansions: () => [], players: 2 },
];

/** Two rulesets of one configuration: the one drawn with kept boards, and a twin always drawn from scratch. */
function twins(c: (typeof CONFIGS)[number]): [Ruleset, Ruleset] {
  const make = (): Ruleset => must(createRuleset({ game: c.game === 'castle' ? castle() : 'classic', expansions: c.expansions() }));
  return [make(), make()];
}

/** A small seeded generator (mulberry32). */
function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The picture and the legal cells of a view, drawn with `rules` (its kept boards, or from scratch). */
function drawn(rules: Ruleset, view: PublicView, scratch: boolean): string {
  if (scratch) forgetLaidBoards(rules);
  const svg = must(renderBoard(rules, view, { tileSize: 48 }));
  if (scratch) forgetLaidBoards(rules);
  const cells = must(legalPlacements(rules, view));
  return `${svg}\n${JSON.stringify(cells)}`;
}

describe('boards kept for public views', () => {
  test.each(CONFIGS)('$name: the same pictures with kept boards as from scratch, at every step, with undos, seats and games in turn', (c) => {
    const [rules, reference] = twins(c);
    const games = byDepth(4, 2);
    // The fast tier plays the first 60 steps of each game (boards of 30 tiles or so), the full tier whole games.
    const steps = byDepth(Infinity, 60);
    const random = generator(games * 7919 + c.players);
    let compared = 0;
    let undos = 0;
    for (let g = 0; g < games; g += 2) {
      // Two games of one ruleset, a move of each in turn.
      const states: GameState[] = [0, 1].map((k) => must(newGame(rules, { players: c.players, seed: `view-boards/${c.name}/${g + k}` })));
      const viewers: (number | null)[] = [...Array.from({ length: c.players }, (_, p) => p), null];
      for (let step = 0; step < steps && states.some((s) => s.step.kind !== 'game-over'); step++) {
        for (let k = 0; k < states.length; k++) {
          let s = states[k]!;
          if (s.step.kind === 'game-over') continue;
          if (s.moves.length > 3 && random() < 0.05) {
            // Take back one to three moves (tiles come off the board: the view's tiles shrink).
            s = must(undo(rules, s, 1 + Math.floor(random() * Math.min(3, s.moves.length))));
            undos++;
          } else {
            const legal = legalMoves(rules, s);
            s = must(applyMove(rules, s, legal[random() < 0.6 ? 0 : Math.floor(random() * legal.length)]!)).state;
          }
          states[k] = s;
          // Every seat's view and a spectator's, in a shuffled order: the same tiles, other followers' details.
          const order = [...viewers].sort(() => random() - 0.5).slice(0, random() < 0.7 ? 1 : 2);
          for (const viewer of order) {
            const view = must(publicView(rules, s, viewer));
            expect(drawn(rules, view, false)).toBe(drawn(reference, view, true));
            compared++;
          }
          expect(laidBoardStats(rules).kept).toBeLessThanOrEqual(KEPT_PER_RULESET);
        }
      }
    }
    expect(compared).toBeGreaterThan(100);
    expect(undos).toBeGreaterThan(0);
  });

  test("a game's views drawn in order lay each tile once", () => {
    const [rules] = twins(CONFIGS[3]!);
    let s = must(newGame(rules, { players: 2, seed: 'view-boards/once' }));
    const before = laidBoardStats(rules).tilesLaid;
    let i = 0;
    while (s.step.kind !== 'game-over') {
      must(renderBoard(rules, must(publicView(rules, s, 0))));
      must(legalPlacements(rules, must(publicView(rules, s, 1))));
      const legal = legalMoves(rules, s);
      s = must(applyMove(rules, s, legal[i++ % legal.length]!)).state;
    }
    must(renderBoard(rules, must(publicView(rules, s, null))));
    expect(s.tiles.length).toBeGreaterThan(60);
    // The boards kept let every view after the first lay its new tiles only.
    expect(laidBoardStats(rules).tilesLaid - before).toBe(s.tiles.length);
    expect(laidBoardStats(rules).kept).toBeLessThanOrEqual(KEPT_PER_RULESET);
  });
});
