/**
 * `meeplekit simulate`: K seeded games across worker threads, written as JSON lines (results.ts:
 * a header, one line per game in game order, a summary). Game i is played from seed `<seed>/<i>`
 * with bots seeded from it, so every line depends only on its own seed: the file is the same
 * whatever the number of workers, and a run stopped by Ctrl-C and resumed with `--resume` ends as
 * the very file a run never stopped writes.
 *
 * Each game's line is written as soon as it and every game before it are done. SIGINT or SIGTERM
 * (passed in as an AbortSignal by main.ts) stops the workers; what is written stays, complete
 * lines only, and a line on stderr says how many games the file holds and how to resume.
 *
 * Worker threads run this very module (the bundled CLI file, or this source file under tsx):
 * a thread started with `workerData.kind === 'meeplekit/simulate'` plays the chunks it is sent.
 */
import { closeSync, openSync, truncateSync, writeSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import type { Bot } from '../bots.js';
import { newGame } from '../core/engine/apply.js';
import { createSimulator } from '../core/engine/simulator.js';
import { createRandomSource } from '../core/rng.js';
import type { Ruleset, RulesetSpec } from '../core/ruleset.js';
import { parseFlags, shellWord, wantsHelp, wholeNumber } from './args.js';
import { BOTS, botGameFromFlags, GAME_FLAGS_HELP, GAME_OPTIONS, loadExpansionModules, makeBots, moduleLoadMessage, modulesFromArgs, NO_MODULES, rulesetFromSpec, seedProblem, unloadedModule, type ExpansionModules } from './expansions.js';
import { NO_PROGRESS, speed, startProgress, type Progress } from './progress.js';
import { createTally, readForResume, type GameRecord, type SimulateHeader } from './results.js';
import { VERSION } from './version.js';

export type { GameRecord, SimulateHeader, SimulateSummary } from './results.js';

/** `simulate`'s usage line. */
export const SIMULATE_SYNOPSIS = `meeplekit simulate [--game classic|castle] [--expansions id,id,...] [--option id.key=value]...
                          [--river-set I|II|both] [--expansion-module file.js]... [--players N] [--bots random,greedy,...]
                          [--games K] [--seed S] [--workers W] [--out results.jsonl] [--resume] [--quiet]`;
const USAGE = `usage: ${SIMULATE_SYNOPSIS}\n(meeplekit simulate --help: every flag)`;

/** `meeplekit simulate --help`. */
export const SIMULATE_HELP = `usage: ${SIMULATE_SYNOPSIS}

Plays K seeded games (game i from seed S/i) on W worker threads and writes JSON lines to --out:
a header (what produced the file), one line per game in game order as each is done, and a
summary (wins, win rates, mean and standard deviation of the scores per seat, and the run's
seconds and games/s). The same file for any W, but for those two timing fields. On a terminal, a progress bar on stderr.

${GAME_FLAGS_HELP}
  --players N           number of players (default 2; the game's range)
  --bots LIST           bots given to the seats in turn: ${BOTS.join(', ')}, search:1 to search:5 (default random)
  --games K             games to play (default 100)
  --seed S              the run's seed (default 1); game i is played from S/i, at most 256 characters
  --workers W           worker threads (default: one per core; at most one per core)
  --out FILE            where the lines go (default -, stdout)
  --resume              continue the interrupted run whose file is --out: keep its games, play the rest
  --quiet               no progress bar and no closing report on stderr
  -h, --help            this help

Ctrl-C (SIGINT) or SIGTERM stops the run: every finished game up to the first unfinished one is
in the file, and stderr says how to resume. Exit codes: 0 done, 2 bad argument or file,
130 stopped by SIGINT, 143 by SIGTERM, 1 internal error.
`;

/** What a worker needs to play game i (plain data: it is sent to the threads). */
export interface SimulateConfig {
  /** The ruleset as `rules.options` states it. */
  readonly spec: RulesetSpec;
  readonly players: number;
  /** The run's seed. */
  readonly seed: string;
  /** The bot of each seat. */
  readonly bots: readonly string[];
  readonly games: number;
  /** The `file:` URLs of the `--expansion-module` files: each worker thread loads them too. */
  readonly modules: readonly string[];
}

/** A checked `simulate` command line. */
export interface SimulateRun {
  readonly rules: Ruleset;
  readonly config: SimulateConfig;
  /** The file's first line. */
  readonly header: SimulateHeader;
  /** Worker threads to use (capped to the cores). */
  readonly workers: number;
  readonly out: string;
  readonly resume: boolean;
  readonly quiet: boolean;
  /** Lines for stderr before the run (a capped `--workers`). */
  readonly notes: readonly string[];
}

const OPTIONS = {
  ...GAME_OPTIONS,
  games: { type: 'string', default: '100' },
  workers: { type: 'string' },
  out: { type: 'string', default: '-' },
  resume: { type: 'boolean', default: false },
  quiet: { type: 'boolean', default: false },
} as const;

/**
 * Parses and checks `simulate`'s arguments (`cores`: how many threads run at once here;
 * `modules`: the expansions of the `--expansion-module` flags, loaded), or a message.
 */
export function parseSimulateArgs(args: readonly string[], cores = availableParallelism(), modules: ExpansionModules = NO_MODULES): SimulateRun | string {
  const parsed = parseFlags(args, OPTIONS, false);
  if (typeof parsed === 'string') return parsed;
  const { values } = parsed;
  const unloaded = unloadedModule(values['expansion-module'], modules);
  if (unloaded !== null) return unloaded;
  const setup = botGameFromFlags(values, modules);
  if (typeof setup === 'string') return setup;
  const { chosen, players, bots } = setup;
  const { rules } = chosen;
  const games = wholeNumber(values.games);
  if (games === null) return `--games must be a whole number (0 or more), got '${values.games}'`;
  const seedTooLong = seedProblem(values.seed, games === 0 ? '' : `/${games - 1}`);
  if (seedTooLong !== null) return seedTooLong;
  const asked = values.workers === undefined ? cores : wholeNumber(values.workers);
  if (asked === null || asked < 1) return `--workers must be a positive whole number, got '${values.workers}'`;
  const notes: string[] = [];
  if (asked > cores) notes.push(`--workers ${asked} is more than this machine runs at once: using ${cores}`);
  if (values.out === '') return '--out needs a file name (or - for stdout)';
  if (values.resume && values.out === '-') return '--resume needs --out FILE: the file of the run to continue';
  // The same game as the run's last one, set up and dropped: the library's own checks.
  const probe = newGame(rules, { players, seed: `${values.seed}/${Math.max(0, games - 1)}` });
  if (!probe.ok) return probe.error.message;
  const header: SimulateHeader = {
    type: 'header',
    meeplekit: 'simulate',
    version: VERSION,
    ruleset: rules.id,
    game: rules.options.game,
    expansions: rules.options.expansions.map((e) => e.id),
    options: chosen.options,
    bots,
    players,
    seed: values.seed,
    games,
  };
  return {
    rules,
    config: { spec: rules.options, players, seed: values.seed, bots, games, modules: Object.values(modules).map((m) => m.url) },
    header,
    workers: Math.min(asked, cores),
    out: values.out,
    resume: values.resume,
    quiet: values.quiet,
    notes,
  };
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
    // Random seats play through the simulator's own random step; the others are makeBots' (greedy
    // and search:LEVEL, as in play).
    const bots: (Bot | null)[] = config.bots.map((b) => (b === 'random' ? null : makeBots([b], random)[0]!));
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
  return { type: 'game', game: index, seed, scores: [...s.scores], winners, turns: s.turn };
}

/** Where `runSimulate` writes its text, and what it is told of the world. */
export interface SimulateIo {
  /** Standard output (the lines, with `--out -`; `--help`). */
  stdout(text: string): void;
  /** Standard error: messages, notes and the progress bar. */
  stderr(text: string): void;
  /** Whether stderr is a terminal: the progress bar is drawn only then (default false). */
  readonly stderrIsTTY?: boolean;
  /**
   * Stops the run when aborted, with the reason `'SIGINT'` or `'SIGTERM'` (exit code 130 or 143,
   * and a note on how to resume) or `'EPIPE'` (stdout was closed: exit code 0, quietly).
   */
  readonly signal?: AbortSignal;
  /** Threads that run at once (default `os.availableParallelism()`). */
  readonly cores?: number;
  /**
   * The script the worker threads run: by default this module's own file (dist/cli.js in the
   * package; under tsx, the sources, which each thread then compiles). A bundle of the command
   * serves as well: the tests pass the one they build once per run.
   */
  readonly workerScript?: string;
}

interface WorkerInput {
  readonly kind: 'meeplekit/simulate';
  readonly config: SimulateConfig;
}

/** Messages to a worker: a chunk of games to play, or the end. */
type ToWorker = { readonly from: number; readonly to: number } | null;

/** Messages from a worker: one game's record, and whether it ends its chunk. */
interface FromWorker {
  readonly record: GameRecord;
  readonly last: boolean;
}

/** Exit codes of a run stopped by a signal: 128 + the signal's number, as shells report them. */
const STOP_CODES: Readonly<Record<string, number>> = { SIGINT: 130, SIGTERM: 143, EPIPE: 0 };

/**
 * Runs `meeplekit simulate` with the arguments after `simulate`; resolves to the exit code.
 * The lines go to the `--out` file (or `io.stdout` for `-`), messages and the progress bar to
 * `io.stderr`.
 */
export async function runSimulate(args: readonly string[], io: SimulateIo): Promise<number> {
  if (wantsHelp(args)) {
    io.stdout(SIMULATE_HELP);
    return 0;
  }
  const modules = await modulesFromArgs(args, OPTIONS);
  const run = typeof modules === 'string' ? modules : parseSimulateArgs(args, io.cores, modules);
  if (typeof run === 'string') {
    io.stderr(`meeplekit simulate: ${run}\n${USAGE}\n`);
    return 2;
  }
  const { config, out } = run;
  const fail = (message: string): number => {
    io.stderr(`meeplekit simulate: ${message}\n`);
    return 2;
  };

  // What is there already (--resume), then the file opened: truncated to its complete lines.
  const state = run.resume ? readForResume(out, run.header) : ({ kind: 'fresh' } as const);
  if (typeof state === 'string') return fail(state);
  if (state.kind === 'complete') {
    if (!run.quiet) io.stderr(`meeplekit simulate: ${out} already holds all ${config.games} games and the summary: nothing to play\n`);
    return 0;
  }
  const kept = state.kind === 'partial' ? state.records : [];
  let fd = -1;
  if (out !== '-') {
    try {
      if (state.kind === 'partial') {
        truncateSync(out, state.bytes);
        fd = openSync(out, 'a');
      } else fd = openSync(out, 'w');
    } catch (e) {
      return fail(`cannot write ${out}: ${(e as Error).message}`);
    }
  }
  const write = (text: string): void => {
    if (fd < 0) io.stdout(text);
    else writeSync(fd, text);
  };

  let progress: Progress = NO_PROGRESS;
  const tally = createTally(config.players);
  for (const r of kept) tally.add(r);
  const first = kept.length;
  let written = first;
  const stopped = (): boolean => io.signal?.aborted === true;
  // Results arrive in any order; lines are written in game order, each as soon as it can be.
  const waiting = new Map<number, GameRecord>();
  const accept = (r: GameRecord): void => {
    waiting.set(r.game, r);
    let text = '';
    for (let next = waiting.get(written); next !== undefined; next = waiting.get(written)) {
      text += `${JSON.stringify(next)}\n`;
      tally.add(next);
      waiting.delete(written);
      written++;
    }
    if (text !== '') {
      write(text);
      progress.update(written);
    }
  };

  for (const note of run.quiet ? [] : run.notes) io.stderr(`meeplekit simulate: ${note}\n`);
  if (state.kind === 'partial' && !run.quiet) {
    io.stderr(`meeplekit simulate: resuming ${out}: ${first} of ${config.games} games kept${state.torn ? ', a torn last line dropped' : ''}\n`);
  }
  const started = performance.now();
  if (io.stderrIsTTY === true && !run.quiet) progress = startProgress({ total: config.games, done: first, write: (t) => io.stderr(t) });
  try {
    if (state.kind === 'fresh') write(`${JSON.stringify(run.header)}\n`);
    const workers = Math.min(run.workers, config.games - first);
    // One worker plays on this thread, unless a progress bar is drawn: a long game (greedy bots)
    // would then stop its clock, so the game goes to a thread of its own.
    if (workers === 1 && progress === NO_PROGRESS) await playHere(run.rules, config, first, accept, io.signal);
    else if (workers >= 1) await runWorkers(config, first, workers, accept, io.signal, io.workerScript);
    if (!stopped()) write(`${JSON.stringify(tally.summary({ seconds: (performance.now() - started) / 1000, played: written - first }))}\n`);
  } catch (e) {
    progress.stop();
    const err = e as NodeJS.ErrnoException;
    // A write that failed (a full disk, a file gone): the output's problem, not an internal error.
    if (typeof err.code === 'string' && err.syscall === 'write') return fail(`cannot write ${out === '-' ? 'stdout' : out}: ${err.message}`);
    io.stderr(`meeplekit simulate: internal error: ${err.message}\n`);
    return 1;
  } finally {
    if (fd >= 0) closeSync(fd);
  }
  progress.stop();
  const seconds = (performance.now() - started) / 1000;
  const played = written - first;
  if (stopped()) {
    const reason = String(io.signal?.reason);
    if (reason === 'EPIPE') return 0;
    const where = out === '-' ? 'were written to stdout' : `are in ${out}`;
    const resume = out === '-' ? ' (to resume a run, give it --out FILE)' : `; to play the other ${config.games - written}: meeplekit simulate ${[...args, ...(run.resume ? [] : ['--resume'])].map(shellWord).join(' ')}`;
    io.stderr(`meeplekit simulate: stopped by ${reason}: ${written} of ${config.games} games ${where}${resume}\n`);
    return STOP_CODES[reason] ?? 1;
  }
  if (!run.quiet) {
    const rate = seconds > 0 && played > 0 ? ` (${speed(played / seconds)} games/s)` : '';
    io.stderr(`meeplekit simulate: ${played} games in ${seconds.toFixed(1)} s${rate} to ${out === '-' ? 'stdout' : out}${first > 0 ? `, after the ${first} kept` : ''}\n`);
  }
  return 0;
}

/** Plays games `from` to the end on this thread, letting signals and the progress bar in every few milliseconds. */
async function playHere(rules: Ruleset, config: SimulateConfig, from: number, accept: (r: GameRecord) => void, signal: AbortSignal | undefined): Promise<void> {
  let slice = performance.now();
  for (let i = from; i < config.games; i++) {
    if (signal?.aborted === true) return;
    accept(playGame(rules, config, i));
    if (performance.now() - slice > 20) {
      await new Promise((resolve) => setImmediate(resolve));
      slice = performance.now();
    }
  }
}

/**
 * Plays games `from` to the end on `count` worker threads, handing out chunks of games as workers
 * get free (two chunks in flight each, so that none waits for the next). Each game's record comes
 * back on its own, to be written at once. Resolves when all are played or `signal` stopped them.
 */
function runWorkers(config: SimulateConfig, from: number, count: number, accept: (r: GameRecord) => void, signal: AbortSignal | undefined, script: string | undefined): Promise<void> {
  // Small chunks keep every thread busy to the end; large enough to keep messages rare.
  const chunk = Math.max(1, Math.min(20, Math.floor((config.games - from) / (count * 8))));
  let next = from;
  const url = script === undefined ? new URL(import.meta.url) : pathToFileURL(script);
  // Under tsx or vitest (tests, scripts) this module is TypeScript: the threads load it through
  // tsx's loader (a development dependency), registered by a small bootstrap script.
  const source = url.pathname.endsWith('.ts');
  const entry: URL | string = source ? `import('tsx/esm/api').then((t) => { t.register(); return import(${JSON.stringify(url.href)}); });` : url;
  return new Promise((resolve, reject) => {
    let running = count;
    let over = false;
    const pool: Worker[] = [];
    const finish = (e: Error | null): void => {
      if (over) return;
      over = true;
      signal?.removeEventListener('abort', stop);
      if (e === null && running === 0) {
        resolve();
        return;
      }
      void Promise.all(pool.map((w) => w.terminate())).then(() => (e === null ? resolve() : reject(e)));
    };
    const stop = (): void => finish(null);
    signal?.addEventListener('abort', stop);
    if (signal?.aborted === true) {
      resolve();
      return;
    }
    const feed = (w: Worker): boolean => {
      if (next >= config.games) return false;
      const start = next;
      next = Math.min(config.games, next + chunk);
      w.postMessage({ from: start, to: next } satisfies ToWorker);
      return true;
    };
    for (let i = 0; i < count; i++) {
      const w = new Worker(entry, { workerData: { kind: 'meeplekit/simulate', config } satisfies WorkerInput, eval: source });
      pool.push(w);
      let inFlight = 0;
      w.on('message', (msg: FromWorker) => {
        if (over) return;
        try {
          accept(msg.record);
        } catch (e) {
          finish(e as Error);
          return;
        }
        if (!msg.last) return;
        inFlight--;
        if (feed(w)) inFlight++;
        else if (inFlight === 0) w.postMessage(null satisfies ToWorker);
      });
      w.on('error', (e) => finish(e));
      w.on('exit', (code) => {
        if (over) return;
        if (code !== 0) finish(new Error(`a worker thread exited with code ${code}`));
        else if (--running === 0) finish(null);
      });
      for (let k = 0; k < 2; k++) if (feed(w)) inFlight++;
      if (inFlight === 0) w.postMessage(null satisfies ToWorker);
    }
  });
}

/**
 * The worker thread's loop: load the run's expansion modules (chunks sent meanwhile wait in the
 * port), then play each chunk sent, answer with each game's record, stop on null.
 */
async function serveChunks(input: WorkerInput): Promise<void> {
  const modules = await loadExpansionModules(input.config.modules);
  if (!modules.ok) throw new Error(moduleLoadMessage(modules.error));
  const rules = rulesetFromSpec(input.config.spec, modules.value);
  if (!rules.ok) throw new Error(rules.error);
  const port = parentPort!;
  port.on('message', (msg: ToWorker) => {
    if (msg === null) {
      port.close();
      return;
    }
    for (let i = msg.from; i < msg.to; i++) port.postMessage({ record: playGame(rules.value, input.config, i), last: i === msg.to - 1 } satisfies FromWorker);
  });
}

const input = workerData as Partial<WorkerInput> | null;
// A rejection (a module that no longer loads) ends the thread with an 'error' event, and the run with it.
if (!isMainThread && input?.kind === 'meeplekit/simulate') void serveChunks(input as WorkerInput);
