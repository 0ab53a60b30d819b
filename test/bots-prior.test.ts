/**
 * The placement prior (src/bots/prior.ts) and level 5's rollouts that follow it
 * (src/bots/rollout.ts; docs/design.md, "Bots", twenty-second round): the prior's features on a
 * hand-worked position and against what laying the tile completes, the rollouts' legality and
 * bias, where level 5 uses them, and the same move for the same seed.
 */
import fc from 'fast-check';
import { describe, expect, test, vi } from 'vitest';
import { applyMove, createRandomSource, createRuleset, isLegal, legalMoves, newGame, type GameState, type Ruleset } from '../src/index.js';
import { greedyBot, searchBot } from '../src/bots/index.js';
import { castle } from '../src/games/castle/entry.js';
import { shrines } from '../src/expansions/shrines/index.js';
import { createSearch, iterate } from '../src/bots/search.js';
import { newPriorScratch, prepareOwners, priorFeatures, priorScore, PRIOR_FEATURES, PRIOR_WEIGHTS } from '../src/bots/prior.js';
import { newRolloutScratch, priorRollout } from '../src/bots/rollout.js';
import { FOLLOW_WEIGHTS } from '../src/bots/follow.js';
import { featuresClosed, newClosingScratch } from '../src/core/closing.js';
import { cellKey } from '../src/core/state.js';
import { createResearchSimulator, type ResearchSimulator } from '../src/ai/index.js';
import { byDepth } from './depth.js';
import { must, rigDraw } from './helpers.js';

const CLASSIC = must(createRuleset({ game: 'classic' }));
const LEVEL_5 = { temperature: 0.3, candidates: 6 };
/** Level 5's whole rollout prior: the placement prior above and the follower prior as fitted (follow.ts). */
const LEVEL_5_ROLLOUTS = { ...LEVEL_5, follow: { weights: FOLLOW_WEIGHTS, temperature: 1 } };

/** The prior's non-zero features, by name. */
function named(f: Float64Array): Record<string, number> {
  const out: Record<string, number> = {};
  PRIOR_FEATURES.forEach((n, i) => {
    if (f[i] !== 0) out[n] = f[i]!;
  });
  return out;
}

/** The features of placing the drawn tile at x, y (its first legal rotation there) for `player`. */
function featuresAt(s: GameState, x: number, y: number, player: number): Record<string, number> {
  const step = s.step as { tile: string };
  const move = legalMoves(CLASSIC, s).find((m) => m.type === 'place' && m.x === x && m.y === y) as { rotation: number } | undefined;
  if (move === undefined) throw new Error(`no placement at ${x}, ${y}`);
  const scratch = newPriorScratch(CLASSIC);
  prepareOwners(s, player, scratch);
  return named(priorFeatures(CLASSIC, s, CLASSIC.tileById.get(step.tile)!, cellKey(x, y), move.rotation, scratch));
}

describe('the placement prior', () => {
  test('hand-worked: a road extended, then completed, for its owner and for the other player', () => {
    // The start tile D at 0, 0 (a city north, a road west to east). Player 0 lays the straight
    // road U east of it and puts a thief on the road.
    let s = rigDraw(CLASSIC, must(newGame(CLASSIC, { players: 2, seed: 'prior' })), 'U');
    s = must(applyMove(CLASSIC, s, { type: 'place', player: 0, x: 1, y: 0, rotation: 0 })).state;
    s = must(applyMove(CLASSIC, s, { type: 'deploy', player: 0, feature: 'r1' })).state;
    // Player 1 draws the cloister A, whose road ends at the cloister. East of U it ends player
    // 0's road on that side (one end still open) and is a cloister with one of its 8 cells filled.
    s = rigDraw(CLASSIC, s, 'A');
    expect(featuresAt(s, 2, 0, 1)).toEqual({ 'road.extendTheirs': 1, 'cloister.own': 1, 'cloister.ownFilled': 1, sides: 1 });
    // The same placement by the road's owner extends their own road.
    expect(featuresAt(s, 2, 0, 0)).toEqual({ 'road.extendMine': 1, 'cloister.own': 1, 'cloister.ownFilled': 1, sides: 1 });
    s = must(applyMove(CLASSIC, s, legalMoves(CLASSIC, s).find((m) => m.type === 'place' && m.x === 2 && m.y === 0)!)).state;
    s = must(applyMove(CLASSIC, s, { type: 'deploy', player: 1, feature: 'm1' })).state;
    // Player 0 draws another A. West of the start tile it completes the road: D, U, both A, a
    // road of 4 tiles, which scores 4 points (classic rules, "Roads": a point a tile), for its
    // owner (player 0's thief), so the feature is the 4 points, by the owner or against them.
    s = rigDraw(CLASSIC, s, 'A');
    expect(featuresAt(s, -1, 0, 0)).toEqual({ 'road.closeMine': 4, 'cloister.own': 1, 'cloister.ownFilled': 1, sides: 1 });
    expect(featuresAt(s, -1, 0, 1)).toEqual({ 'road.closeTheirs': 4, 'cloister.own': 1, 'cloister.ownFilled': 1, sides: 1 });
    // North of player 1's monk at 2, 0 it surrounds that cloister further (2 of its own 8 cells
    // filled: U and A), and its road starts a road of its own.
    expect(featuresAt(s, 2, -1, 0)).toEqual({ 'road.new': 1, 'cloister.aroundTheirs': 1, 'cloister.own': 1, 'cloister.ownFilled': 2, sides: 1 });
    expect(featuresAt(s, 2, -1, 1)).toEqual({ 'road.new': 1, 'cloister.aroundMine': 1, 'cloister.own': 1, 'cloister.ownFilled': 2, sides: 1 });
    // The fitted weights rank completing one's own road above completing the other side's.
    const close = (p: number) => {
      const scratch = newPriorScratch(CLASSIC);
      prepareOwners(s, p, scratch);
      return priorScore(priorFeatures(CLASSIC, s, CLASSIC.tileById.get('A')!, cellKey(-1, 0), 3, scratch), PRIOR_WEIGHTS);
    };
    expect(close(0)).toBeCloseTo(4 * 0.171 + 0.123 + 0.138, 9);
    expect(close(0)).toBeGreaterThan(close(1));
  });

  test('has one weight a feature, as fitted (bench/experiments/placement-prior/weights.json)', async () => {
    const { readFileSync } = await import('node:fs');
    const fitted = JSON.parse(readFileSync(new URL('../bench/experiments/placement-prior/weights.json', import.meta.url), 'utf8')) as number[];
    expect(PRIOR_WEIGHTS.length).toBe(PRIOR_FEATURES.length);
    expect([...PRIOR_WEIGHTS]).toEqual(fitted);
  });

  test('a placement has a completion feature exactly when laying it completes a city or a road, over random games', () => {
    const closing = newClosingScratch();
    const scratch = newPriorScratch(CLASSIC);
    const completes = PRIOR_FEATURES.flatMap((n, i) => (/^(city|road)\.close/.test(n) ? [i] : []));
    let placements = 0;
    let completing = 0;
    for (let g = 0; g < byDepth(3, 1); g++) {
      const random = createRandomSource(`prior-close-${g}`);
      let s = must(newGame(CLASSIC, { players: 2 + (g % 2), seed: `prior-close-${g}` }));
      while (s.step.kind !== 'game-over') {
        const moves = legalMoves(CLASSIC, s);
        if (s.step.kind === 'place-tile') {
          const tile = CLASSIC.tileById.get(s.step.tile)!;
          prepareOwners(s, s.step.player, scratch);
          for (const m of moves) {
            if (m.type !== 'place') continue;
            const key = cellKey(m.x, m.y);
            const f = priorFeatures(CLASSIC, s, tile, key, m.rotation, scratch);
            const closed = featuresClosed(CLASSIC, s, tile, key, m.rotation, closing);
            expect(completes.some((i) => f[i]! > 0), `${JSON.stringify(m)} at turn ${s.turn}`).toBe(closed > 0);
            placements++;
            if (closed > 0) completing++;
          }
        }
        s = must(applyMove(CLASSIC, s, moves[random(moves.length)]!)).state;
      }
    }
    expect(placements).toBeGreaterThan(300);
    expect(completing).toBeGreaterThan(10);
  });

  test('counts followers past its first capacity: the same features as a scratch sized for them from the start, or one reused', () => {
    // 5 players and greedy play put more followers on the board than a new scratch holds (16).
    let s = must(newGame(CLASSIC, { players: 5, seed: 'prior-many' }));
    const bot = greedyBot(createRandomSource('prior-many'));
    const reused = newPriorScratch(CLASSIC);
    let earlier = 0;
    while (s.step.kind !== 'place-tile' || s.followers.length <= 20) {
      if (s.step.kind === 'place-tile' && s.followers.length > 0 && earlier++ % 3 === 0) prepareOwners(s, s.step.player, reused);
      s = must(applyMove(CLASSIC, s, bot(CLASSIC, s))).state;
    }
    const step = s.step as { tile: string; player: number };
    const tile = CLASSIC.tileById.get(step.tile)!;
    const grown = newPriorScratch(CLASSIC);
    const sized = newPriorScratch(CLASSIC);
    sized.roots = new Int32Array(64);
    sized.owners = new Int8Array(64);
    sized.cloisterCells = new Int32Array(64);
    sized.cloisterMine = new Uint8Array(64);
    sized.tally = new Int32Array(5);
    let owned = 0;
    for (const scratch of [grown, sized, reused]) prepareOwners(s, step.player, scratch);
    for (const m of legalMoves(CLASSIC, s)) {
      if (m.type !== 'place') continue;
      const key = cellKey(m.x, m.y);
      const features = (scratch: typeof grown): Record<string, number> => named(priorFeatures(CLASSIC, s, tile, key, m.rotation, scratch));
      const b = features(sized);
      expect(features(grown)).toEqual(b);
      expect(features(reused)).toEqual(b);
      if (Object.keys(b).some((n) => /Mine|Theirs|contest/.test(n))) owned++;
    }
    expect(grown.roots.length).toBeGreaterThanOrEqual(s.followers.length);
    expect(owned).toBeGreaterThan(0);
  });
});

/** A position of a greedy game of 2-player classic at a place-tile step after `tiles` tiles. */
function greedyPosition(seed: string, tiles: number): GameState {
  let s = must(newGame(CLASSIC, { players: 2, seed }));
  const bot = greedyBot(createRandomSource(seed));
  while (s.step.kind !== 'place-tile' || s.tiles.length < tiles) s = must(applyMove(CLASSIC, s, bot(CLASSIC, s))).state;
  return s;
}

describe("rollouts that follow the prior", () => {
  test('play legal actions only, and at most the decisions asked for', () => {
    const proto = Object.getPrototypeOf(createResearchSimulator(CLASSIC, greedyPosition('legal', 3))) as ResearchSimulator;
    const apply = proto.applyAction as (this: ResearchSimulator, action: number) => void;
    let decisions = 0;
    const spy = vi.spyOn(proto, 'applyAction').mockImplementation(function (this: ResearchSimulator, action: number) {
      if (!this.isChanceNode()) decisions++;
      expect(this.legalActions()).toContain(action);
      apply.call(this, action);
    } as ResearchSimulator['applyAction']);
    try {
      const scratch = newRolloutScratch(CLASSIC, LEVEL_5.candidates);
      for (let i = 0; i < byDepth(40, 10); i++) {
        const start = greedyPosition(`legal-${i}`, 1 + ((i * 7) % 60));
        const sim = createResearchSimulator(CLASSIC, start);
        decisions = 0;
        priorRollout(CLASSIC, sim, createRandomSource(`legal-${i}`), 12, LEVEL_5, scratch);
        // Placements go through applyAction; the other decisions are drawn by applyRandom.
        expect(decisions).toBeGreaterThan(0);
        expect(decisions).toBeLessThanOrEqual(12);
        expect(sim.state.tiles.length).toBeGreaterThan(start.tiles.length);
      }
    } finally {
      spy.mockRestore();
    }
  });

  test('choose placements the prior scores higher than uniform draws do', () => {
    // One decision from the same position, many times: the placements chosen against all legal ones.
    const s = greedyPosition('bias', 20);
    const step = s.step as { tile: string; player: number };
    const tile = CLASSIC.tileById.get(step.tile)!;
    const scratch = newPriorScratch(CLASSIC);
    prepareOwners(s, step.player, scratch);
    const score = (x: number, y: number, r: number) => priorScore(priorFeatures(CLASSIC, s, tile, cellKey(x, y), r, scratch), PRIOR_WEIGHTS);
    const places = legalMoves(CLASSIC, s).filter((m) => m.type === 'place') as { x: number; y: number; rotation: number }[];
    const uniform = places.reduce((a, m) => a + score(m.x, m.y, m.rotation), 0) / places.length;
    const rollouts = newRolloutScratch(CLASSIC, LEVEL_5.candidates);
    const random = createRandomSource('bias');
    const chosen = new Map<string, number>();
    let sum = 0;
    const n = 1000;
    for (let i = 0; i < n; i++) {
      const sim = createResearchSimulator(CLASSIC, s);
      priorRollout(CLASSIC, sim, random, 1, LEVEL_5, rollouts);
      const laid = sim.state.tiles[sim.state.tiles.length - 1]!;
      prepareOwners(s, step.player, scratch);
      sum += score(laid.x, laid.y, laid.rotation);
      const k = `${laid.x},${laid.y},${laid.rotation}`;
      chosen.set(k, (chosen.get(k) ?? 0) + 1);
    }
    expect(places.length).toBeGreaterThan(10);
    expect(sum / n).toBeGreaterThan(uniform + 0.05);
    // The best placements are chosen more often than uniform play would, the worst less often.
    const scores = places.map((m) => score(m.x, m.y, m.rotation));
    const often = (pick: number) => places.filter((_, i) => scores[i] === pick).reduce((a, m) => a + (chosen.get(`${m.x},${m.y},${m.rotation}`) ?? 0), 0) / scores.filter((v) => v === pick).length;
    expect(often(Math.max(...scores))).toBeGreaterThan((1.5 * n) / places.length);
    expect(often(Math.min(...scores))).toBeLessThan((0.5 * n) / places.length);
  });
});

describe('level 5 and the prior rollouts', () => {
  const castleRules = must(createRuleset({ game: castle() }));
  const withShrines = must(createRuleset({ game: 'classic', expansions: [shrines()] }));
  test.each([
    ['2-player classic', CLASSIC, 2, { level: 5 }, true],
    ['2-player classic', CLASSIC, 2, { level: 5, timeMs: 100 }, true],
    ['2-player classic', CLASSIC, 2, { level: 5, iterations: 50 }, true],
    ['2-player classic', CLASSIC, 2, { level: 4 }, false],
    ['2-player classic', CLASSIC, 2, { level: 1 }, false],
    ['3-player classic', CLASSIC, 3, { level: 5 }, false],
    ['2-player classic with the Shrines', withShrines, 2, { level: 5 }, false],
    ['The Castle', castleRules, 2, { level: 5 }, false],
  ] as [string, Ruleset, number, object, boolean][])('%s, %j: %s', (_name, rules, players, options, used) => {
    const search = must(createSearch(rules, must(newGame(rules, { players, seed: 'where' })), options));
    expect(search.budget.priorRollouts).toEqual(used ? LEVEL_5_ROLLOUTS : null);
    expect(search.rolloutScratch === null).toBe(!used);
  });

  test('searches otherwise than uniform rollouts, and the same for the same seed', () => {
    const s = greedyPosition('same', 24);
    const visits = (prior: boolean) => {
      const search = must(createSearch(CLASSIC, s, { level: 5, iterations: 400, seed: 'same' }));
      const run = prior ? search : { ...search, budget: { ...search.budget, priorRollouts: null } };
      iterate(run, 400);
      return [...run.root.children].map(([a, c]) => [a, c.visits]);
    };
    expect(visits(true)).toEqual(visits(true));
    expect(visits(true)).not.toEqual(visits(false));
    const move = searchBot({ level: 5, iterations: 300, seed: 'same' })(CLASSIC, s);
    expect(searchBot({ level: 5, iterations: 300, seed: 'same' })(CLASSIC, s)).toEqual(move);
  });

  test('never returns an illegal move', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e6 }), fc.array(fc.nat(), { maxLength: byDepth(140, 60) }), (g, choices) => {
        let s = must(newGame(CLASSIC, { players: 2, seed: `prior-legal/${g}` }));
        for (const c of choices) {
          if (s.step.kind === 'game-over') return;
          const moves = legalMoves(CLASSIC, s);
          s = must(applyMove(CLASSIC, s, moves[c % moves.length]!)).state;
        }
        if (s.step.kind === 'game-over') return;
        const move = searchBot({ level: 5, iterations: 30, seed: String(g) })(CLASSIC, s);
        expect(isLegal(CLASSIC, s, move)).toBe(true);
      }),
      { numRuns: byDepth(25, 6) },
    );
  });
});
