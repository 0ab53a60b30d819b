/**
 * The arena's game lines (bench/arena-log.ts): what `npm run arena` prints for each game reads back
 * as the same game, so that `npm run arena -- --pool` over saved runs gives the table the runs
 * themselves gave; malformed lines are refused with the file and line.
 */
import { describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import { connectedGroups, gameLine, poolGames, RATED_CONFIGS, ratedPools, ratingsTable } from '../bench/arena-log.js';
import { createRuleset } from '../src/index.js';
import { namedBot, runArena, summarizeArena, type ArenaEntrant } from '../src/bots/index.js';
import { must } from './helpers.js';

const rules = must(createRuleset({ game: 'classic' }));
const entrant = (name: string): ArenaEntrant => ({ name, make: (seed) => must(namedBot(name, seed)) });

describe('arena game lines', () => {
  test('a run printed line by line and pooled back gives the run’s own ratings and pairs', () => {
    const names = ['level:1', 'greedy', 'random'];
    const run = must(runArena(rules, names.map(entrant), { players: 2, deals: 2, seed: 'log' }));
    const text = ['(a summary line the pool skips)', ...run.games.map((g) => gameLine(g, names))].join('\n');
    const pooled = poolGames([{ name: 'run.txt', text }]);
    // Bots in order of first appearance: the first game's seats.
    expect(new Set(pooled.names)).toEqual(new Set(names));
    expect(pooled.games.map((g) => ({ deal: g.deal, seats: g.seats.map((b) => pooled.names[b]), scores: g.scores }))).toEqual(
      run.games.map((g) => ({ deal: g.deal, seats: g.seats.map((b) => names[b]), scores: [...g.scores] })),
    );
    const again = summarizeArena(pooled.names, pooled.games);
    const byBot = (r: { bot: string; elo: number }) => [r.bot, Math.round(r.elo * 1e6)] as const;
    expect(new Map(again.ratings.map(byBot))).toEqual(new Map(run.ratings.map(byBot)));
    const pair = (p: { bot: string; against: string; games: number; share: number }) => [[p.bot, p.against].sort().join(' vs '), p.games] as const;
    expect(new Map(again.pairs.map(pair))).toEqual(new Map(run.pairs.map(pair)));
  });

  test('games of several files pool by bot name; a 3-player line has three seats', () => {
    const pooled = poolGames([
      { name: 'a.txt', text: 'deal 0: level:5 98 | greedy 71\ndeal 0: greedy 80 | level:5 80\n' },
      { name: 'b.txt', text: 'arena: ...\ndeal 4: greedy 60 | random 12 | level:5 75\n' },
    ]);
    expect(pooled.names).toEqual(['level:5', 'greedy', 'random']);
    expect(pooled.games.map((g) => [g.deal, g.seats, g.scores])).toEqual([
      [0, [0, 1], [98, 71]],
      [0, [1, 0], [80, 80]],
      [4, [1, 2, 0], [60, 12, 75]],
    ]);
    const { pairs } = summarizeArena(pooled.names, pooled.games);
    // A tie counts half: level 5 scored more in 2 games of 3 against greedy, tied one.
    expect(pairs.find((p) => p.bot === 'level:5' && p.against === 'greedy')).toMatchObject({ games: 3, share: 2.5 / 3 });
  });

  test('the groups of bots that games connect: a pool of two unrelated runs has two', () => {
    const apart = poolGames([
      { name: 'a.txt', text: 'deal 0: level:5@700 80 | mcts@700 70' },
      { name: 'b.txt', text: 'deal 0: greedy 60 | random 10 | level:1 50' },
    ]);
    expect(connectedGroups(apart)).toEqual([['level:5@700', 'mcts@700'], ['greedy', 'level:1', 'random']]);
    const linked = poolGames([
      { name: 'a.txt', text: 'deal 0: level:5@700 80 | mcts@700 70' },
      { name: 'b.txt', text: 'deal 0: greedy 60 | random 10 | level:1 50' },
      { name: 'c.txt', text: 'deal 0: mcts@700 60 | random 10' },
    ]);
    expect(connectedGroups(linked)).toEqual([['greedy', 'level:1', 'level:5@700', 'mcts@700', 'random']]);
  });

  test('malformed lines and files without games are refused with the file and line', () => {
    expect(() => poolGames([{ name: 'x.txt', text: 'deal 0: level:5 ninety | greedy 71' }])).toThrow("x.txt:1: a seat is '<bot> <score>', not 'level:5 ninety'");
    expect(() => poolGames([{ name: 'x.txt', text: '\ndeal 0: level:5 98' }])).toThrow('x.txt:2: a game has two seats or more');
    expect(() => poolGames([{ name: 'x.txt', text: 'deal 0: greedy 9 | greedy 8' }])).toThrow('x.txt:1: greedy sits twice at one table');
    expect(() => poolGames([{ name: 'empty.txt', text: 'arena: nothing\n' }])).toThrow('empty.txt: no game lines');
  });

  test("docs/bots.md's ratings table is the one the runs kept in bench/arena-games give (npm run arena -- --table)", () => {
    const pools = ratedPools();
    expect(pools.map((p) => p.id)).toEqual(RATED_CONFIGS.map((c) => c.id));
    for (const { pool } of pools) expect(pool.games.length).toBeGreaterThan(0);
    const page = readFileSync(new URL('../docs/bots.md', import.meta.url), 'utf8');
    const published = /<!-- ratings: made from bench\/arena-games -->\n([\s\S]*?)<!-- \/ratings -->/.exec(page);
    expect(published).not.toBeNull();
    expect(published![1]!.trim()).toBe(ratingsTable(pools).trim());
  });

  test('a table over games that do not link every bot is refused', () => {
    const apart = poolGames([
      { name: 'a.txt', text: 'deal 0: level:5@700 80 | mcts@700 70' },
      { name: 'b.txt', text: 'deal 0: greedy 60 | random 10' },
    ]);
    expect(() => ratingsTable([{ id: 'classic2', pool: apart }])).toThrow('classic2: no game links level:5@700, mcts@700 with greedy, random');
  });
});
