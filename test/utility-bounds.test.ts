/**
 * `gameInfo(rules, players).utility.score` (issue 14, part 3): finite, JSON-safe bounds that no
 * player's score ever leaves, at any point of any game, for classic, The Castle and the
 * expansions (alone, in pairs, all that combine, with their options). Hand-worked rows check the
 * derivations (src/games/classic/bounds.ts and each module's bounds.ts); seeded random games
 * check soundness after every move, through the research simulator's playouts and the engine's
 * Simulator.
 */
import { describe, expect, test } from 'vitest';
import { createRandomSource, createRuleset, createSimulator, newGame, type Expansion, type Ruleset } from '../src/index.js';
import { createResearchSimulator, gameInfo } from '../src/ai/index.js';
import { river } from '../src/expansions/river/index.js';
import { kingRobber } from '../src/expansions/king-robber/index.js';
import { shrines } from '../src/expansions/shrines/index.js';
import { count } from '../src/expansions/count/index.js';
import { tower } from '../src/expansions/tower/index.js';
import { princessDragon } from '../src/expansions/princess-dragon/index.js';
import { castle } from '../src/games/castle/entry.js';
import { award } from '../src/core/engine/scoring.js';
import { must } from './helpers.js';

const classicWith = (...expansions: Expansion[]): Ruleset => must(createRuleset({ game: 'classic', expansions }));

/** [name, rules, random games per player count (each simulator)]. */
const RULESETS: [string, Ruleset, number][] = [
  ['classic', classicWith(), 10],
  ['castle', must(createRuleset({ game: castle() })), 30],
  ['castle (every court, majority keep, first lap)', must(createRuleset({ game: castle({ marketToken: 'every-court', keep: 'majority', laps: 'first-lap' }) })), 10],
  ['river I', classicWith(river()), 5],
  ['river II', classicWith(river({ set: 'II' })), 5],
  ['river both', classicWith(river({ set: 'both' })), 5],
  ['king-robber', classicWith(kingRobber()), 8],
  ['shrines', classicWith(shrines()), 5],
  ['count', classicWith(count()), 6],
  ['count (edition 1, clockwise)', classicWith(count({ edition: 1, countMoves: 'clockwise' })), 3],
  ['tower', classicWith(tower()), 6],
  ['tower (ransom debt)', classicWith(tower({ ransomDebt: true })), 12],
  ['princess-dragon', classicWith(princessDragon()), 8],
  ['princess-dragon (optional princess)', classicWith(princessDragon({ princess: 'optional' })), 2],
  ['count+king-robber', classicWith(count(), kingRobber()), 3],
  ['tower+princess-dragon (ransom debt)', classicWith(tower({ ransomDebt: true }), princessDragon()), 4],
  ['count+princess-dragon (edition 1)', classicWith(count({ edition: 1 }), princessDragon()), 3],
  // All six do not combine (River and the Count exclude each other): the two largest sets that do.
  ['river (both)+king-robber+shrines+tower+princess-dragon', classicWith(river({ set: 'both' }), kingRobber(), shrines(), tower(), princessDragon()), 3],
  ['count+king-robber+shrines+tower+princess-dragon (ransom debt)', classicWith(count(), kingRobber(), shrines(), tower({ ransomDebt: true }), princessDragon()), 3],
];

const playerCounts = (rules: Ruleset): number[] => [2, 3, 4, 5].filter((n) => n >= rules.minPlayers && n <= rules.maxPlayers);

describe('utility.score by hand', () => {
  // Classic (test/fixtures/classic-tiles.json; src/games/classic/tiles.ts), 72 tiles with the start tile D:
  // - road segments: A 2, D 4, J 3, K 3, L 3x3, O 2, P 3, S 2, T 1, U 8, V 9, W 3x4, X 4x1 = 62, 1 point each;
  // - city segments: C 1, D 4, E 5, F 2, G 1, H 2x3, I 2x2, J 3, K 3, L 3, M 2, N 3, O 2, P 3, Q 1,
  //   R 3, S 2, T 1 = 49 (44 tiles with a city, H and I have two), pennants C 1, F 2, M 2, O 2, Q 1,
  //   S 2 = 10, 2 points each: 2 x 59 = 118;
  // - cloisters: A 2, B 4 = 6, 9 each: 54;
  // - field-city adjacencies: D 4, E 5, F 2x2, G 2, H 2x3, I 2x2, J 3, K 3, L 3, M 2, N 3, O 2, P 3,
  //   Q 1, R 3, S 2x2, T 2 = 54, 3 each: 162;
  // 62 + 118 + 54 + 162 = 396.
  // King and Robber Baron's 5 tiles: KR-01 cloister 9 + city 2 + 1 adjacency 3 = 14; KR-02 road 1 +
  // city 2 + 2 adjacencies 6 = 9; KR-03 roads 2 + city 2 + 2 adjacencies 6 = 10; KR-04 roads 2 +
  // city 2 + 4 adjacencies 12 = 16; KR-05 cities 4 + 4 adjacencies 12 = 16: 65, so the base game's
  // share is 461. The King: 49 + 6 = 55 city segments, each owning a side's middle, at most 27
  // complete cities; the Robber Baron: 62 + 5 = 67 road segments, 33 roads: 461 + 60 = 521.
  // The Tower with ransom debt, 2 players: 72 - 1 + 18 = 89 tiles in the bag, at most 90 turns,
  // 45 a player; the other player's 10 pieces capture at most 10 followers: -3 x 10 = -30; the
  // player's own 10 pieces, 10 ransoms received: +30 on top of the base game's share.
  // The Princess and the Dragon, 2 players: 101 tiles in the bag, 102 turns, 51 a player: the
  // fairy gives at most 51 + 3 x 51 + 3 x 7 = 225.
  const rows: [string, Ruleset, number, { min: number; max: number }][] = [
    ['classic, 2 players: 62 + 2 x (49 + 10) + 9 x 6 + 3 x 54', classicWith(), 2, { min: 0, max: 396 }],
    ['classic, 5 players: the same (classic awards nothing by turns)', classicWith(), 5, { min: 0, max: 396 }],
    ['classic+king-robber: 396 + 65 (its tiles) + 27 + 33', classicWith(kingRobber()), 2, { min: 0, max: 521 }],
  ];
  test.each(rows)('%s', (_name, rules, players, bounds) => {
    expect(gameInfo(rules, players).utility.score).toEqual(bounds);
  });

  test('the Tower: ransoms received (+3 a piece) and, with debt, paid (-3 each, at most one a turn)', () => {
    const plain = gameInfo(classicWith(tower()), 2).utility.score;
    const debt = gameInfo(classicWith(tower({ ransomDebt: true })), 2).utility.score;
    expect(debt).toEqual({ min: -30, max: plain.max });
    // 3 players: 30 turns a player, the others' 2 x 9 pieces: 18 ransoms. 5 players: 18 turns, 4 x 6 pieces: 18.
    expect(gameInfo(classicWith(tower({ ransomDebt: true })), 3).utility.score.min).toBe(-54);
    expect(gameInfo(classicWith(tower({ ransomDebt: true })), 5).utility.score.min).toBe(-54);
    // 4 players: 23 turns, 3 x 7 = 21 ransoms.
    expect(gameInfo(classicWith(tower({ ransomDebt: true })), 4).utility.score.min).toBe(-63);
  });

  test("the Princess and the Dragon: the fairy's 4 t + 3 F on top of the base game's share", () => {
    const pd = classicWith(princessDragon());
    const base = gameInfo(pd, 2).utility.score.max - 225;
    expect(gameInfo(pd, 3).utility.score.max).toBe(base + 4 * 34 + 21);
    expect(gameInfo(pd, 5).utility.score.max).toBe(base + 4 * 21 + 21);
  });

  test('a module without scoreBounds makes the bounds unknown; a wrong share is a bug', () => {
    const silent: Expansion = {
      id: 'bell',
      order: 90,
      options: {},
      finalScoring: (ctx) => award(ctx, 0, 1, 'bell/rung', null),
    };
    expect(gameInfo(classicWith(silent), 2).utility.score).toEqual({ min: -Infinity, max: Infinity });
    const declared = classicWith({ ...silent, scoreBounds: () => ({ min: 0, max: 1 }) });
    expect(gameInfo(declared, 2).utility.score).toEqual({ min: 0, max: 397 });
    const wrong = classicWith({ ...silent, scoreBounds: () => ({ min: 1, max: Infinity }) });
    expect(() => gameInfo(wrong, 2)).toThrow(/module 'bell'.*scoreBounds/);
  });
});

describe('utility.score is finite and survives JSON', () => {
  test.each(RULESETS.map(([name, rules]) => [name, rules] as const))('%s', (_name, rules) => {
    for (const players of playerCounts(rules)) {
      const info = gameInfo(rules, players);
      const { min, max } = info.utility.score;
      expect(Number.isInteger(min) && Number.isInteger(max) && min <= 0 && max > 0).toBe(true);
      expect(JSON.parse(JSON.stringify(info.utility))).toEqual(info.utility);
      expect(JSON.parse(JSON.stringify(info)).utility.score).toEqual({ min, max });
    }
  });
});

describe('no score ever leaves utility.score, after any move of seeded random games', () => {
  test.each(RULESETS)('%s', (name, rules, games) => {
    let lowest = 0;
    for (const players of playerCounts(rules)) {
      const { min, max } = gameInfo(rules, players).utility.score;
      const within = (scores: readonly number[], where: string): void => {
        for (const v of scores) {
          if (v < min || v > max) expect.fail(`${name}, ${players} players, ${where}: score ${v} outside [${min}, ${max}]`);
          if (v < lowest) lowest = v;
        }
      };
      for (let g = 0; g < games; g++) {
        const seed = `bounds/${players}/${g}`;
        const state = must(newGame(rules, { players, seed }));
        // The research simulator's playout: the policy sees every decision's state.
        const research = createResearchSimulator(rules, state);
        const random = createRandomSource(`${seed}/research`);
        let moves = 0;
        const last = research.playout(random, (sim, legal) => {
          within(sim.state.scores, `research game ${g}, decision ${moves++}`);
          return legal[random(legal.length)]!;
        });
        within(last, `research game ${g}, the end`);
        // The engine's Simulator, one move at a time.
        const sim = must(createSimulator(rules, state));
        const moveRandom = createRandomSource(`${seed}/engine`);
        for (let m = 0; !sim.isOver(); m++) {
          sim.playRandom(moveRandom);
          within(sim.scores(), `engine game ${g}, move ${m}`);
        }
      }
    }
    // With ransom debt these games do go below 0, so the lower bound is put to the test too.
    if (name.includes('ransom debt')) expect(lowest).toBeLessThan(0);
  });
});
