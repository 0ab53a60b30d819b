/**
 * The game lines `npm run arena` prints, one a game (`deal 3: level:5 98 | greedy 71`: each seat's
 * bot and final score, in seat order), written and read back, so that the games of several runs
 * can be pooled into one table of ratings (`npm run arena -- --pool FILE,...`). A bot's name has
 * no spaces and no `|`; every other line of a file (the run's summary) is skipped.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { summarizeArena, type ArenaGame } from '../src/bots/index.js';

/** A game's line: `deal <deal>: <bot> <score> | <bot> <score> ...`, the seats in order. */
export function gameLine(game: Pick<ArenaGame, 'deal' | 'seats' | 'scores'>, names: readonly string[]): string {
  return `deal ${game.deal}: ${game.seats.map((b, i) => `${names[b]} ${game.scores[i]}`).join(' | ')}`;
}

/** The games of pooled files, with the bots' names in order of first appearance. */
export interface PooledGames {
  /** Every bot that played, in the order they first appear. */
  readonly names: string[];
  /** Every game line read, as games of those bots (no timing: the lines do not record it). */
  readonly games: ArenaGame[];
}

const LINE = /^deal (\d+): (.+)$/;
const SEAT = /^(\S+) (-?\d+)$/;

/**
 * Reads the game lines of `texts` (the output of `npm run arena` runs, each a file's text) into one
 * pool. The same bot in two files must bear the same name there (`level:5`, `mcts@1000`). Throws
 * an Error naming the file and line of a game line that is malformed (a seat that is not
 * `<bot> <score>`, fewer than two seats, the same bot twice at a table) and of a file without
 * any game line.
 */
export function poolGames(texts: readonly { name: string; text: string }[]): PooledGames {
  const names: string[] = [];
  const index = new Map<string, number>();
  const games: ArenaGame[] = [];
  for (const { name, text } of texts) {
    let found = 0;
    const lines = text.split('\n');
    for (let l = 0; l < lines.length; l++) {
      const m = LINE.exec(lines[l]!.trim());
      if (m === null) continue;
      const seats: number[] = [];
      const scores: number[] = [];
      for (const part of m[2]!.split(' | ')) {
        const s = SEAT.exec(part.trim());
        if (s === null) throw new Error(`${name}:${l + 1}: a seat is '<bot> <score>', not '${part.trim()}'`);
        let b = index.get(s[1]!);
        if (b === undefined) {
          b = names.push(s[1]!) - 1;
          index.set(s[1]!, b);
        }
        if (seats.includes(b)) throw new Error(`${name}:${l + 1}: ${s[1]} sits twice at one table`);
        seats.push(b);
        scores.push(Number(s[2]));
      }
      if (seats.length < 2) throw new Error(`${name}:${l + 1}: a game has two seats or more`);
      games.push({ deal: Number(m[1]), rotation: 0, seats, scores, timing: [] });
      found++;
    }
    if (found === 0) throw new Error(`${name}: no game lines ('deal N: bot score | bot score')`);
  }
  return { names, games };
}

/**
 * The groups of bots that the games connect (two bots are connected when a chain of games links
 * them, each game linking every two bots at its table), each group in name order. Ratings of
 * bots in different groups cannot be compared: no game says how one group plays the other.
 */
export function connectedGroups(pool: PooledGames): string[][] {
  const parent = pool.names.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)));
  for (const g of pool.games) for (let i = 1; i < g.seats.length; i++) parent[find(g.seats[i]!)] = find(g.seats[0]!);
  const groups = new Map<number, string[]>();
  pool.names.forEach((name, i) => {
    const root = find(i);
    if (!groups.has(root)) groups.set(root, []);
    groups.get(root)!.push(name);
  });
  return [...groups.values()].map((g) => g.sort());
}

/** The configurations of the published ratings: bench/arena-games/<id>/, and each column's title. */
export const RATED_CONFIGS: readonly { readonly id: string; readonly title: string }[] = [
  { id: 'classic2', title: '2-player classic' },
  { id: 'classic3', title: '3-player classic' },
  { id: 'classic4', title: '4-player classic' },
  { id: 'castle', title: 'The Castle' },
  { id: 'six', title: 'all six expansions' },
];

/** Each configuration of {@link RATED_CONFIGS} with the games of its folder of bench/arena-games/ pooled. */
export function ratedPools(): { id: string; pool: PooledGames }[] {
  const root = new URL('arena-games/', import.meta.url);
  return RATED_CONFIGS.map(({ id }) => {
    const files = readdirSync(new URL(`${id}/`, root)).filter((f) => f.endsWith('.txt')).sort();
    return { id, pool: poolGames(files.map((f) => ({ name: `${id}/${f}`, text: readFileSync(new URL(`${id}/${f}`, root), 'utf8') }))) };
  });
}

/** The rows of the published table, strongest first; a bot with a time budget is `<bot>@T`. */
const RATED_ROWS = ['level:5', 'level:5@T', 'mcts@T', 'level:4', 'level:3', 'level:2', 'greedy', 'level:1', 'random'];

/**
 * The published ratings as a Markdown table (docs/bots.md, "Ratings"): a row a bot, a column a
 * configuration of {@link RATED_CONFIGS}, each cell the rating and its 95% interval fitted over
 * that configuration's pooled games (the arena's Bradley-Terry summary), then a row
 * of game counts. Throws when a configuration's games do not link every bot.
 */
export function ratingsTable(pools: readonly { readonly id: string; readonly pool: PooledGames }[]): string {
  const n = (x: number): string => Math.round(x).toLocaleString('en-US');
  const cells = new Map<string, Map<string, string>>();
  const totals = new Map<string, number>();
  for (const { id, pool } of pools) {
    const groups = connectedGroups(pool);
    if (groups.length > 1) throw new Error(`${id}: no game links ${groups.map((g) => g.join(', ')).join(' with ')}`);
    totals.set(id, pool.games.length);
    for (const r of summarizeArena(pool.names, pool.games).ratings) {
      const [bot, ms] = r.bot.split('@') as [string, string | undefined];
      const row = ms === undefined ? bot : `${bot}@T`;
      if (!cells.has(row)) cells.set(row, new Map());
      cells.get(row)!.set(id, `${n(r.elo)} [${n(r.low)}, ${n(r.high)}]${ms === undefined ? '' : ` (T = ${n(Number(ms))} ms)`}`);
    }
  }
  const cols = RATED_CONFIGS.filter((c) => totals.has(c.id));
  const lines = [`| bot | ${cols.map((c) => c.title).join(' | ')} |`, `| --- |${cols.map(() => ' --- |').join('')}`];
  const rows = [...RATED_ROWS.filter((r) => cells.has(r)), ...[...cells.keys()].filter((r) => !RATED_ROWS.includes(r))];
  for (const row of rows) lines.push(`| \`${row}\` | ${cols.map((c) => cells.get(row)!.get(c.id) ?? 'not played').join(' | ')} |`);
  lines.push(`| games | ${cols.map((c) => n(totals.get(c.id)!)).join(' | ')} |`);
  return lines.join('\n') + '\n';
}
