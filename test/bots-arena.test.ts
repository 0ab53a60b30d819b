/**
 * The arena of meeplekit/bots (issue 28): the schedule of deals and seat rotations, pairwise
 * records, the Bradley-Terry fit against a hand-worked case, the Wilson interval against a known
 * value, bots by name, and a whole arena's determinism (timing aside).
 */
import { describe, expect, test } from 'vitest';
import { createRuleset } from '../src/index.js';
import { arenaSchedule, bradleyTerry, namedBot, pairRecords, runArena, summarizeArena, wilsonInterval, type ArenaEntrant, type ArenaGame, type PairRecord } from '../src/bots/index.js';
import { must } from './helpers.js';

const CLASSIC = must(createRuleset({ game: 'classic' }));

const none: PairRecord = { games: 0, score: 0, margin: 0 };
const game = (seats: number[], scores: number[]): ArenaGame => ({ deal: 0, rotation: 0, seats, scores, timing: [] });

/** Entrants of `namedBot` names. */
const entrants = (names: readonly string[]): ArenaEntrant[] => names.map((name) => ({ name, make: (seed) => must(namedBot(name, seed)) }));

/** A result without its timing fields. */
function untimed(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, (k, v: unknown) => (k === 'timing' || k === 'msPerDecision' || k === 'slowestMs' ? undefined : v)));
}

describe('arenaSchedule', () => {
  test('two bots, two seats: each deal played with the seats swapped', () => {
    expect(arenaSchedule(2, 2, 2)).toEqual([
      { deal: 0, rotation: 0, seats: [0, 1] },
      { deal: 0, rotation: 1, seats: [1, 0] },
      { deal: 1, rotation: 0, seats: [0, 1] },
      { deal: 1, rotation: 1, seats: [1, 0] },
    ]);
  });
  test('more bots than seats: every combination, every rotation; fewer: the bots repeat in turn', () => {
    expect(arenaSchedule(3, 2, 1).map((s) => s.seats)).toEqual([[0, 1], [1, 0], [0, 2], [2, 0], [1, 2], [2, 1]]);
    expect(arenaSchedule(4, 3, 1)).toHaveLength(4 * 3);
    expect(arenaSchedule(2, 3, 1).map((s) => s.seats)).toEqual([[0, 1, 0], [1, 0, 0], [0, 0, 1]]);
    expect(arenaSchedule(2, 2, 0)).toEqual([]);
  });
  test('from a first deal: the same seatings as a run from 0 has for those deals', () => {
    expect(arenaSchedule(2, 2, 2, 3)).toEqual(arenaSchedule(2, 2, 5).slice(6));
    expect(arenaSchedule(3, 2, 1, 7).map((s) => s.deal)).toEqual([7, 7, 7, 7, 7, 7]);
  });
});

describe('pairRecords', () => {
  test('wins, ties as halves, margins; two seats of one bot make no pair', () => {
    const r = pairRecords(2, [game([0, 1], [30, 20]), game([1, 0], [25, 25]), game([0, 1, 0], [10, 12, 14])]);
    expect(r[0]![1]).toEqual({ games: 4, score: 2.5, margin: 10 + 0 - 2 + 2 });
    expect(r[1]![0]).toEqual({ games: 4, score: 1.5, margin: -10 });
    expect(r[0]![0]).toEqual(none);
  });
});

describe('bradleyTerry', () => {
  test('a hand-worked case: 3 wins of 4 is, with the prior, 3.5 of 5: 400 log10(7/3) Elo, se 400/ln10/sqrt(4 * 0.7 * 0.3)', () => {
    const [a, b] = bradleyTerry([
      [none, { games: 4, score: 3, margin: 0 }],
      [{ games: 4, score: 1, margin: 0 }, none],
    ]);
    expect(b!.elo).toBe(0);
    expect(a!.elo).toBeCloseTo(400 * Math.log10(7 / 3), 6); // 147.19
    expect(a!.se).toBeCloseTo(400 / Math.LN10 / Math.sqrt(4 * 0.7 * 0.3), 6); // 189.54
    expect(a!.low).toBeCloseTo(a!.elo - 1.96 * a!.se, 9);
    expect(a!.high).toBeCloseTo(a!.elo + 1.96 * a!.se, 9);
    expect(b!.se).toBeCloseTo(a!.se, 6);
  });
  test('a cycle of equal records rates everyone the same; the anchor is rated 0', () => {
    const win = { games: 1, score: 1, margin: 1 };
    const loss = { games: 1, score: 0, margin: -1 };
    const ratings = bradleyTerry([
      [none, win, loss],
      [loss, none, win],
      [win, loss, none],
    ]);
    for (const r of ratings) expect(r.elo).toBeCloseTo(0, 9);
    const anchored = bradleyTerry([[none, { games: 10, score: 10, margin: 0 }], [{ games: 10, score: 0, margin: 0 }, none]], { anchor: 0 });
    expect(anchored[0]!.elo).toBe(0);
    expect(anchored[1]!.elo).toBeCloseTo(-400 * Math.log10(10.5 / 0.5), 6);
  });
  test('no game: rating 0, an infinite interval', () => {
    expect(bradleyTerry([[none, none], [none, none]])).toEqual([
      { elo: 0, low: -Infinity, high: Infinity, se: Infinity },
      { elo: 0, low: -Infinity, high: Infinity, se: Infinity },
    ]);
  });
});

describe('wilsonInterval', () => {
  test('known values: 8 of 10 is [0.4902, 0.9433]; 33 of 36 [0.782, 0.971]; 0 of 10 starts at 0; no trials [0, 1]', () => {
    const [low, high] = wilsonInterval(8, 10);
    expect(low).toBeCloseTo(0.4902, 4);
    expect(high).toBeCloseTo(0.9433, 4);
    const [l2, h2] = wilsonInterval(33, 36);
    expect(l2).toBeCloseTo(0.782, 3);
    expect(h2).toBeCloseTo(0.971, 3);
    expect(wilsonInterval(0, 10)[0]).toBe(0);
    expect(wilsonInterval(10, 10)[1]).toBe(1);
    expect(wilsonInterval(0, 0)).toEqual([0, 1]);
  });
});

describe('summarizeArena', () => {
  test('ratings anchored at random when present; pairs with Wilson intervals and mean margins; time a decision', () => {
    const games = [
      { ...game([0, 1], [30, 20]), timing: [{ ms: 4, decisions: 2, slowestMs: 3 }, { ms: 1, decisions: 2, slowestMs: 1 }] },
      { ...game([1, 0], [18, 26]), timing: [{ ms: 1, decisions: 2, slowestMs: 1 }, { ms: 2, decisions: 2, slowestMs: 2 }] },
    ];
    const s = summarizeArena(['level 1', 'random'], games);
    expect(s.ratings[1]).toMatchObject({ bot: 'random', elo: 0, decisions: 4, msPerDecision: 0.5, slowestMs: 1 });
    expect(s.ratings[0]!.elo).toBeCloseTo(400 * Math.log10(5), 6);
    expect(s.ratings[0]).toMatchObject({ bot: 'level 1', decisions: 4, msPerDecision: 1.5, slowestMs: 3 });
    expect(s.pairs).toEqual([{ bot: 'level 1', against: 'random', games: 2, share: 1, low: wilsonInterval(2, 2)[0], high: 1, meanMargin: 9 }]);
    expect(summarizeArena(['level 1', 'random'], games, { anchor: 'level 1' }).ratings[0]!.elo).toBe(0);
  });
});

describe('namedBot', () => {
  test('the names of --bots, and the errors for others', () => {
    for (const name of ['random', 'greedy', 'search:1', 'level:5', 'search:2@50']) expect(namedBot(name, 's').ok).toBe(true);
    expect(namedBot('search:9', 's')).toMatchObject({ ok: false, error: { code: 'bots/unknown-level' } });
    expect(namedBot('search:1@0', 's')).toMatchObject({ ok: false, error: { code: 'bots/bad-budget' } });
    expect(namedBot('mcts', 's')).toMatchObject({ ok: false, error: { code: 'bots/bad-options' } });
  });
});

describe('runArena', () => {
  test('deterministic: the same seed gives the same games and ratings (timing aside); another seed other games', () => {
    const names = ['search:1', 'random'];
    const a = must(runArena(CLASSIC, entrants(names), { players: 2, deals: 1, seed: 'lib' }));
    expect(a.games.map((g) => g.seats)).toEqual([[0, 1], [1, 0]]);
    expect(a.games.every((g) => g.timing.every((t) => t.decisions > 0))).toBe(true);
    expect(untimed(must(runArena(CLASSIC, entrants(names), { players: 2, deals: 1, seed: 'lib' })))).toEqual(untimed(a));
    expect(a.ratings.map((r) => r.bot)).toEqual(names);
    expect(a.ratings[1]!.elo).toBe(0);
    expect(a.pairs).toHaveLength(1);
    expect(a.pairs[0]!.games).toBe(2);
    const other = must(runArena(CLASSIC, entrants(names), { players: 2, deals: 1, seed: 'other' }));
    expect(other.games.map((g) => g.scores)).not.toEqual(a.games.map((g) => g.scores));
  });
  test('a run from a first deal plays the games a run from 0 plays for those deals', () => {
    const names = ['search:1', 'greedy'];
    const whole = must(runArena(CLASSIC, entrants(names), { players: 2, deals: 2, seed: 'cut' }));
    const rest = must(runArena(CLASSIC, entrants(names), { players: 2, deals: 1, firstDeal: 1, seed: 'cut' }));
    expect(rest.firstDeal).toBe(1);
    expect(whole.firstDeal).toBe(0);
    expect(rest.games.map((g) => g.deal)).toEqual([1, 1]);
    expect(untimed(rest.games)).toEqual(untimed(whole.games.slice(2)));
  });
  test('progress after each game', () => {
    const seen: [number, number][] = [];
    must(runArena(CLASSIC, entrants(['random', 'greedy', 'search:1']), { players: 2, deals: 1, seed: 'p', onGame: (_, done, total) => seen.push([done, total]) }));
    expect(seen).toEqual([1, 2, 3, 4, 5, 6].map((d) => [d, 6]));
  });
  test('bad options: bots/bad-options', () => {
    const two = entrants(['random', 'greedy']);
    for (const options of [{ players: 6, deals: 1 }, { players: 2, deals: -1 }, { players: 2, deals: 1.5 }, { players: 2, deals: 1, anchor: 'nobody' }, { players: 2, deals: 1, firstDeal: -1 }, { players: 2, deals: 1, firstDeal: 0.5 }]) {
      expect(runArena(CLASSIC, two, options)).toMatchObject({ ok: false, error: { code: 'bots/bad-options' } });
    }
    expect(runArena(CLASSIC, entrants(['random']), { players: 2, deals: 1 })).toMatchObject({ ok: false, error: { code: 'bots/bad-options' } });
    expect(runArena(CLASSIC, entrants(['random', 'random']), { players: 2, deals: 1 })).toMatchObject({ ok: false, error: { code: 'bots/bad-options' } });
  });
});
