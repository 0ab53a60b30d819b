/**
 * The file `meeplekit simulate` writes: JSON lines, each with a `type`. First a `header` (what
 * produced the file: meeplekit's version, the ruleset, bots, players, seed, games), then one
 * `game` line per game in game order, then a `summary` (wins, win rates, mean and standard
 * deviation of the scores per seat, and the run's speed). Every line but the summary's two timing
 * fields (`seconds`, `gamesPerSecond`, last on their line) depends only on the run's parameters,
 * never on the number of workers or the time taken, so an interrupted run resumed with
 * `--resume` ends as the file an uninterrupted run writes, those two fields aside.
 */
import { readFileSync } from 'node:fs';
import { isRecord } from './args.js';

/** The first line: what produced the file. */
export interface SimulateHeader {
  readonly type: 'header';
  readonly meeplekit: 'simulate';
  /** meeplekit's version. */
  readonly version: string;
  /** The ruleset's id (`rules.id`). */
  readonly ruleset: string;
  /** The base game. */
  readonly game: string;
  /** The expansions' ids, in hook order. */
  readonly expansions: readonly string[];
  /** Each module's options by id (defaults left out; data from a file as its `@file`). */
  readonly options: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  /** The bot of each seat. */
  readonly bots: readonly string[];
  /** Number of players. */
  readonly players: number;
  /** The run's seed: game i is played from `<seed>/<i>`. */
  readonly seed: string;
  /** Games in the run. */
  readonly games: number;
}

/** One game's line. */
export interface GameRecord {
  readonly type: 'game';
  /** Index of the game (0-based). */
  readonly game: number;
  /** Its seed: `<seed>/<game>`. */
  readonly seed: string;
  /** Final scores per player. */
  readonly scores: readonly number[];
  /** Players with the highest score. */
  readonly winners: readonly number[];
  /** Turns played. */
  readonly turns: number;
}

/** The last line: the run's statistics per seat (numbers rounded to 4 decimals; null where undefined). */
export interface SimulateSummary {
  readonly type: 'summary';
  /** Games played. */
  readonly games: number;
  /** Games each seat won (a shared win counts for every winner). */
  readonly wins: readonly number[];
  /** `wins / games` per seat. */
  readonly winRate: readonly (number | null)[];
  /** Games with more than one winner. */
  readonly ties: number;
  /** Mean final score per seat. */
  readonly meanScore: readonly (number | null)[];
  /** Sample standard deviation (n - 1) of the final scores per seat. */
  readonly sdScore: readonly (number | null)[];
  /** Mean number of turns. */
  readonly meanTurns: number | null;
  /**
   * Wall-clock seconds this run took (after `--resume`, the resumed part only), to the
   * millisecond: with `gamesPerSecond`, the only fields that differ from run to run.
   */
  readonly seconds: number;
  /** Games this run played per second (after `--resume`, the games it played), to 0.1; null when it played none. */
  readonly gamesPerSecond: number | null;
}

/** How long a run took and how many games it played, for the summary. */
export interface RunTiming {
  /** Wall-clock seconds. */
  readonly seconds: number;
  /** Games played by this run. */
  readonly played: number;
}

function round4(x: number): number {
  return Math.round(x * 1e4) / 1e4;
}

/** Adds up game records for the summary line. */
export interface SummaryTally {
  /** Counts one game. */
  add(record: GameRecord): void;
  /** The summary of the games added, with the run's timing. */
  summary(timing: RunTiming): SimulateSummary;
}

/** A tally for `players` seats. */
export function createTally(players: number): SummaryTally {
  let games = 0;
  let ties = 0;
  let turns = 0;
  const wins = new Array<number>(players).fill(0);
  const sum = new Array<number>(players).fill(0);
  const squares = new Array<number>(players).fill(0);
  return {
    add(r) {
      games++;
      turns += r.turns;
      if (r.winners.length > 1) ties++;
      for (const p of r.winners) wins[p]!++;
      r.scores.forEach((s, p) => {
        sum[p]! += s;
        squares[p]! += s * s;
      });
    },
    summary(timing) {
      const mean = (p: number): number | null => (games === 0 ? null : round4(sum[p]! / games));
      const sd = (p: number): number | null => (games < 2 ? null : round4(Math.sqrt(Math.max(0, (squares[p]! - (sum[p]! * sum[p]!) / games) / (games - 1)))));
      const seats = Array.from({ length: players }, (_, p) => p);
      return {
        type: 'summary',
        games,
        wins: [...wins],
        winRate: seats.map((p) => (games === 0 ? null : round4(wins[p]! / games))),
        ties,
        meanScore: seats.map(mean),
        sdScore: seats.map(sd),
        meanTurns: games === 0 ? null : round4(turns / games),
        seconds: Math.round(timing.seconds * 1000) / 1000,
        gamesPerSecond: timing.played > 0 && timing.seconds > 0 ? Math.round((10 * timing.played) / timing.seconds) / 10 : null,
      };
    },
  };
}

/** What `--resume` found in an existing file. */
export type ResumeState =
  /** Nothing to keep: no file, an empty one, or only part of a header. */
  | { readonly kind: 'fresh' }
  /** The header and `records` (games 0 to n-1) to keep: the first `bytes` bytes of the file. */
  | { readonly kind: 'partial'; readonly records: readonly GameRecord[]; readonly bytes: number; readonly torn: boolean }
  /** Every game and the summary are there. */
  | { readonly kind: 'complete' };

/** Whether a parsed line is game `index`'s record for `players` seats. */
function isGameLine(v: unknown, index: number, players: number): v is GameRecord {
  if (!isRecord(v) || v['type'] !== 'game' || v['game'] !== index || typeof v['seed'] !== 'string' || !Number.isInteger(v['turns'])) return false;
  const scores = v['scores'];
  const winners = v['winners'];
  return (
    Array.isArray(scores) && scores.length === players && scores.every((s) => Number.isInteger(s)) &&
    Array.isArray(winners) && winners.every((w) => Number.isInteger(w) && (w as number) >= 0 && (w as number) < players)
  );
}

/** How two headers differ, field by field: `seed "a" there, "b" here; games 100 there, 200 here`. */
function headerDifference(found: Record<string, unknown>, expected: SimulateHeader): string {
  const keys = [...new Set([...Object.keys(expected), ...Object.keys(found)])];
  const out: string[] = [];
  for (const k of keys) {
    const there = JSON.stringify(found[k]) ?? 'nothing';
    const here = JSON.stringify((expected as unknown as Record<string, unknown>)[k]) ?? 'nothing';
    if (there !== here) out.push(`${k} ${there} there, ${here} here`);
  }
  return out.length === 0 ? 'its header is written differently' : out.join('; ');
}

/**
 * Reads a file for `--resume`: checks its header is `header` (the line this run would write),
 * keeps its complete game lines in order, drops a torn last line (a run killed mid-write), and
 * reports a finished file. A file of another run, or with a line that is not the next game's, is
 * refused with a message.
 */
export function readForResume(file: string, header: SimulateHeader): ResumeState | string {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'fresh' };
    return `cannot read ${file}: ${(e as Error).message}`;
  }
  const headerLine = JSON.stringify(header);
  const records: GameRecord[] = [];
  let at = 0;
  let kept = 0;
  for (let line = 0; ; line++) {
    const end = bytes.indexOf(0x0a, at);
    // No newline: the end of the file, or a line torn by a kill mid-write (dropped).
    if (end < 0) break;
    const text = bytes.subarray(at, end).toString('utf8');
    at = end + 1;
    if (line === 0) {
      if (text === headerLine) {
        kept = at;
        continue;
      }
      let found: unknown;
      try {
        found = JSON.parse(text);
      } catch {
        found = null;
      }
      if (!isRecord(found) || found['type'] !== 'header' || found['meeplekit'] !== 'simulate') return `${file} is not a file of meeplekit simulate (its first line is not its header): not resumed`;
      return `${file} was written by another run, not resumed: ${headerDifference(found, header)}`;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return `line ${line + 1} of ${file} is not JSON: not resumed`;
    }
    if (isRecord(value) && value['type'] === 'summary' && records.length === header.games && at === bytes.length) return { kind: 'complete' };
    if (!isGameLine(value, records.length, header.players)) return `line ${line + 1} of ${file} is not the result of game ${records.length}: not resumed`;
    if (records.length >= header.games) return `line ${line + 1} of ${file} is a game past the run's ${header.games}: not resumed`;
    records.push(value);
    kept = at;
  }
  if (kept === 0) return { kind: 'fresh' };
  return { kind: 'partial', records, bytes: kept, torn: kept < bytes.length };
}
