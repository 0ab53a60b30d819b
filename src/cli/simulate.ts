/**
 * `meeplekit simulate`: K seeded games across worker threads, one JSON line per game, in game
 * order. Game i is played from seed `<seed>/<i>` with bots seeded from it, so every line depends
 * only on its own seed: the file is the same whatever the number of workers.
 *
 * Worker threads run this very module (the bundled CLI file, or this source file under tsx):
 * a thread started with `workerData.kind === 'meeplekit/simulate'` plays the chunks it is sent.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { createRuleset } from '../ruleset.js';
import type { Expansion } from '../core/expansion.js';
import type { Ruleset } from '../core/ruleset.js';
import { newGame } from '../core/engine/apply.js';
import { createSimulator } from '../core/engine/simulator.js';
import { createRandomSource } from '../core/rng.js';
import { greedyBot, randomBot, type Bot } from '../bots.js';
import { CLI_EXPANSIONS, expansionIds, GAME_OPTIONS, gameByName } from './expansions.js';

const BOTS = ['random', 'greedy'] as const;

const USAGE = `usage: meeplekit simulate [--game classic|castle] [--expansions id,id,...] [--river-set I|II|both] [--players N] [--games K]
                         [--seed S] [--workers W] [--bots random,greedy,...] [--out results.jsonl] [--quiet]`;

/** What a simulation needs to play game i anywhere (plain data: it is sent to the workers). */
export interface SimulateConfig {
  readonly game: string;
  readonly expansions: readonly string[];
  readonly riverSet: string | undefined;
  readonly players: number;
  readonly games: number;
  readonly seed: string;
  readonly workers: number;
  readonly bots: readonly string[];
  readonly out: string;
  readonly quiet: boolean;
}

/** One line of the output. */
export interface GameRecord {
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

/** Parses `simulate`'s arguments into a config, or a message. */
export function parseSimulateArgs(args: readonly string[]): SimulateConfig | string {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...args],
      options: {
        ...GAME_OPTIONS,
        games: { type: 'string', default: '100' },
        workers: { type: 'string' },
        out: { type: 'string', default: '-' },
        quiet: { type: 'boolean', default: false },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (e) {
    return (e as Error).message;
  }
  for (const k of ['players', 'games'] as const) if (!/^\d+$/.test(values[k])) return `--${k} must be a whole number, got '${values[k]}'`;
  const workers = values.workers ?? String(availableParallelism());
  if (!/^[1-9]\d*$/.test(workers)) return `--workers must be a positive whole number, got '${workers}'`;
  const expansions = expansionIds(values.expansions, values['river-set']);
  if (typeof expansions === 'string') return expansions;
  const bots = values.bots.split(',');
  for (const b of bots) if (!(BOTS as readonly string[]).includes(b)) return `unknown bot '${b}' (bots: ${BOTS.join(', ')})`;
  return {
    game: values.game,
    expansions,
    riverSet: values['river-set'],
    players: Number(values.players),
    games: Number(values.games),
    seed: values.seed,
    workers: Number(workers),
    bots,
    out: values.out,
    quiet: values.quiet,
  };
}

/** The config's rules, or a message. */
function rulesOf(config: SimulateConfig): Ruleset | string {
  const expansions: Expansion[] = config.expansions.map((id) => CLI_EXPANSIONS[id]!(config.riverSet === undefined ? {} : { riverSet: config.riverSet }));
  const rules = createRuleset({ game: gameByName(config.game), expansions });
  return rules.ok ? rules.value : rules.error.message;
}

/** Plays game `index` of a simulation. */
export function playGame(rules: Ruleset, config: SimulateConfig, index: number): GameRecord {
  const seed = `${config.seed}/${index}`;
  const game = newGame(rules, { players: config.players, seed });
  if (!game.ok) throw new Error(game.error.message);
  const made = createSimulator(rules, game.value);
  if (!made.ok) throw new Error(made.error.message);
  const sim = made.value;
  const random = createRandomSource(`${seed}/bots`);
  if (config.bots.every((b) => b === 'random')) sim.playout(random);
  else {
    const bots: (Bot | null)[] = Array.from({ length: config.players }, (_, p) =>
      config.bots[p % config.bots.length] === 'greedy' ? greedyBot(random) : null,
    );
    while (!sim.isOver()) {
      const bot = bots[(sim.step() as { player: number }).player];
      if (bot === null || bot === undefined) sim.playRandom(random);
      else {
        const played = sim.play(bot(rules, sim.snapshot()));
        if (!played.ok) throw new Error(played.error.message);
      }
    }
  }
  const s = sim.state;
  const winners = s.step.kind === 'game-over' ? [...s.step.winners] : [];
  return { game: index, seed, scores: [...s.scores], winners, turns: s.turn };
}

/** Where `runSimulate` writes its text (stdout only for `--out -`). */
export interface SimulateIo {
  /** Standard output. */
  stdout(text: string): void;
  /** Standard error: messages and the progress bar. */
  stderr(text: string): void;
}

interface WorkerInput {
  readonly kind: 'meeplekit/simulate';
  readonly config: SimulateConfig;
}

/** Messages from the main thread: a chunk of games to play, or the end. */
type ToWorker = { readonly from: number; readonly to: number } | null;

function progressBar(done: number, total: number, started: number): string {
  const width = 30;
  const filled = total === 0 ? width : Math.round((width * done) / total);
  const seconds = (performance.now() - started) / 1000;
  const rate = seconds > 0 ? done / seconds : 0;
  const eta = rate > 0 ? Math.ceil((total - done) / rate) : 0;
  return `\rsimulate [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} games, ${Math.round(rate)} games/s, eta ${eta}s `;
}

/**
 * Runs `meeplekit simulate` with the arguments after `simulate`; resolves to the exit code.
 * The JSON lines go to the `--out` file (or `io.stdout` for `-`), the progress bar to `io.stderr`.
 */
export async function runSimulate(args: readonly string[], io: SimulateIo): Promise<number> {
  const config = parseSimulateArgs(args);
  if (typeof config === 'string') {
    io.stderr(`meeplekit simulate: ${config}\n${USAGE}\n`);
    return 2;
  }
  const rules = rulesOf(config);
  if (typeof rules === 'string') {
    io.stderr(`meeplekit simulate: ${rules}\n${USAGE}\n`);
    return 2;
  }
  const probe = newGame(rules, { players: config.players, seed: config.seed });
  if (!probe.ok) {
    io.stderr(`meeplekit simulate: ${probe.error.message}\n${USAGE}\n`);
    return 2;
  }
  const fd = config.out === '-' ? -1 : openSync(config.out, 'w');
  let pending = '';
  const flush = (): void => {
    if (pending === '') return;
    if (fd < 0) io.stdout(pending);
    else writeSync(fd, pending);
    pending = '';
  };
  const started = performance.now();
  let lastDraw = 0;
  let written = 0;
  const draw = (force: boolean): void => {
    if (config.quiet) return;
    const now = performance.now();
    if (!force && now - lastDraw < 200) return;
    lastDraw = now;
    io.stderr(progressBar(written, config.games, started));
  };
  // Results arrive in any order; lines are written in game order.
  const waiting = new Map<number, GameRecord>();
  const accept = (r: GameRecord): void => {
    waiting.set(r.game, r);
    while (waiting.has(written)) {
      pending += `${JSON.stringify(waiting.get(written))}\n`;
      waiting.delete(written);
      written++;
      if (pending.length > 1 << 16) flush();
    }
    draw(false);
  };
  try {
    draw(true);
    const workers = Math.min(config.workers, Math.max(1, config.games));
    if (workers <= 1) {
      for (let i = 0; i < config.games; i++) accept(playGame(rules, config, i));
    } else {
      await runWorkers(config, workers, accept);
    }
    flush();
    draw(true);
    if (!config.quiet) io.stderr('\n');
    return 0;
  } catch (e) {
    flush();
    io.stderr(`\nmeeplekit simulate: ${(e as Error).message}\n`);
    return 1;
  } finally {
    if (fd >= 0) closeSync(fd);
  }
}

/** Plays every game on `count` worker threads, handing out chunks of games as workers get free. */
function runWorkers(config: SimulateConfig, count: number, accept: (r: GameRecord) => void): Promise<void> {
  // Small chunks keep every thread busy to the end; large enough to keep messages rare.
  const chunk = Math.max(1, Math.min(50, Math.floor(config.games / (count * 8))));
  let next = 0;
  const url = new URL(import.meta.url);
  // Under tsx or vitest (tests, scripts) this module is TypeScript: the threads load it through
  // tsx's loader (a development dependency), registered by a small bootstrap script.
  const source = url.pathname.endsWith('.ts');
  const entry: URL | string = source ? `import('tsx/esm/api').then((t) => { t.register(); return import(${JSON.stringify(url.href)}); });` : url;
  return new Promise((resolve, reject) => {
    let running = count;
    const pool: Worker[] = [];
    const fail = (e: Error): void => {
      for (const w of pool) void w.terminate();
      reject(e);
    };
    const feed = (w: Worker): void => {
      if (next >= config.games) {
        w.postMessage(null satisfies ToWorker);
        return;
      }
      const from = next;
      next = Math.min(config.games, next + chunk);
      w.postMessage({ from, to: next } satisfies ToWorker);
    };
    for (let i = 0; i < count; i++) {
      const w = new Worker(entry, { workerData: { kind: 'meeplekit/simulate', config } satisfies WorkerInput, eval: source });
      pool.push(w);
      w.on('message', (records: GameRecord[]) => {
        for (const r of records) accept(r);
        feed(w);
      });
      w.on('error', fail);
      w.on('exit', (code) => {
        if (code !== 0) fail(new Error(`a worker thread exited with code ${code}`));
        else if (--running === 0) resolve();
      });
      feed(w);
    }
  });
}

/** The worker thread's loop: play each chunk sent, answer with its records, stop on null. */
function serveChunks(input: WorkerInput): void {
  const rules = rulesOf(input.config);
  if (typeof rules === 'string') throw new Error(rules);
  const port = parentPort!;
  port.on('message', (msg: ToWorker) => {
    if (msg === null) {
      port.close();
      return;
    }
    const out: GameRecord[] = [];
    for (let i = msg.from; i < msg.to; i++) out.push(playGame(rules, input.config, i));
    port.postMessage(out);
  });
}

const input = workerData as Partial<WorkerInput> | null;
if (!isMainThread && input?.kind === 'meeplekit/simulate') serveChunks(input as WorkerInput);
