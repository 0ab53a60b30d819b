/**
 * The bot operations of the serve protocol: `bot` answers the move of the player who decides in a
 * state (a state handle, one environment of a vector environment, or a state sent as text), found
 * by meeplekit/bots' search at a level or within a budget; `analyse` answers it with every
 * candidate the search looked at. The search runs in slices of about {@link SLICE_MS}
 * milliseconds and yields to the event loop between them, so that the server's other connections
 * are answered while it runs; a closed connection aborts it. Every refusal is decided before the
 * search starts, and nothing a handle holds is changed.
 */
import { legalMoves } from '../core/engine/apply.js';
import type { GameState } from '../core/state.js';
import type { Immutable } from '../core/types.js';
import { err, ok } from '../core/result.js';
import { actionToMove, moveToAction } from '../ai/index.js';
import { resolveOptions } from '../bots/levels.js';
import { bestMove, createSearch, iterate, ranked, type Search } from '../bots/search.js';
import type { GameEntry } from './games.js';
import type { Handles, Op } from './registry.js';
import { intField, refuse, seedField, type Checked, type Request } from './request.js';
import { stateOfText } from './states.js';

/**
 * How long a search runs without yielding to the event loop, in milliseconds (the clock is read
 * every 16 searches, so a slice may run a little over): what it can delay another connection's
 * request by, besides that request's own time.
 */
export const SLICE_MS = 10;

/** Fields of `bot` and `analyse`: one way to name the state, then the search's budget. */
export const BOT_FIELDS = ['state_id', 'env_id', 'env', 'game_id', 'text', 'level', 'iterations', 'time_ms', 'seed'] as const;

/** A search checked and ready to run, and what its answer reports. */
export interface BotJob {
  /** The search (of its own copy of the state). */
  readonly search: Search;
  /** The game the state belongs to. */
  readonly game: GameEntry;
  /** Whether the answer lists the candidates (`analyse`). */
  readonly candidates: boolean;
  /** The server's bound on the search's wall-clock time (`--max-bot-ms`). */
  readonly capMs: number;
}

/** How a search ended: its own budget ran out (or its `time_ms`), the server's time limit cut it, or the connection closed. */
type Stop = 'budget' | 'limit' | 'aborted';

/** The state a bot request names, and its game: a copy, so that nothing the search does reaches a handle. */
function stateOf(req: Request, handles: Handles): Checked<{ game: GameEntry; state: Immutable<GameState>; where: string }> {
  const named = (['state_id', 'env_id', 'game_id'] as const).filter((k) => req[k] !== undefined);
  if (named.length !== 1) {
    return refuse('protocol/request', `name the state with exactly one of 'state_id', 'env_id' (with 'env') or 'game_id' (with 'text'), got ${named.length === 0 ? 'none' : named.map((k) => `'${k}'`).join(' and ')}`);
  }
  if (req['env'] !== undefined && named[0] !== 'env_id') return refuse('protocol/request', `'env' goes with 'env_id' only`);
  if (req['text'] !== undefined && named[0] !== 'game_id') return refuse('protocol/request', `'text' goes with 'game_id' only`);
  if (named[0] === 'state_id') {
    const s = handles.get(req['state_id'], 'state', 'state_id');
    if (!s.ok) return s;
    return ok({ game: s.value.game, state: s.value.sim.clone().state, where: `state ${String(req['state_id'])}` });
  }
  if (named[0] === 'env_id') {
    const v = handles.get(req['env_id'], 'vec', 'env_id');
    if (!v.ok) return v;
    const i = intField(req, 'env', 0, v.value.n - 1);
    if (!i.ok) return i;
    return ok({ game: v.value.game, state: v.value.envs[i.value]!.clone().state, where: `${String(req['env_id'])} env ${i.value}` });
  }
  const g = handles.get(req['game_id'], 'game', 'game_id');
  if (!g.ok) return g;
  const state = stateOfText(req, g.value);
  return state.ok ? ok({ game: g.value, state: state.value, where: 'the state of text' }) : state;
}

/**
 * Checks a `bot` or `analyse` request: the state (a decision: not a chance node, not the end),
 * the level or budget (the library's checks, then the server's limits `--max-bot-iterations` and
 * `--max-bot-ms`: `protocol/too-large`) and the seed; answers the search ready to run.
 */
export function prepareBot(req: Request, handles: Handles, candidates: boolean): Checked<BotJob> {
  const target = stateOf(req, handles);
  if (!target.ok) return target;
  const { game, state, where } = target.value;
  if (state.step.kind !== 'game-over' && state.step.player < 0) {
    return refuse('protocol/chance-node', `${where} stands at a chance node: nobody decides there; apply a chance outcome first`);
  }
  const seed = seedField(req, 'seed', false);
  if (!seed.ok) return seed;
  const level = req['level'];
  const iterations = req['iterations'];
  const timeMs = req['time_ms'];
  const search = createSearch(game.rules, state, {
    ...(level === undefined ? {} : { level: level as number }),
    ...(iterations === undefined ? {} : { iterations: iterations as number }),
    ...(timeMs === undefined ? {} : { timeMs: timeMs as number }),
    ...(seed.value === undefined ? {} : { seed: String(seed.value) }),
  });
  if (!search.ok) {
    // The library names its own option; the protocol's field is time_ms.
    return err({ code: search.error.code, message: search.error.message.replace(/\btimeMs\b/g, 'time_ms') });
  }
  const s = search.value;
  const { botIterations, botMs } = handles.limits;
  if (typeof iterations === 'number' && iterations > botIterations) {
    return refuse('protocol/too-large', `'iterations' is ${iterations}, over this server's limit of ${botIterations} (--max-bot-iterations)`);
  }
  if (iterations === undefined && timeMs === undefined) {
    // The level's searches in this game (levels 3 to 5 search fewer times in The Castle).
    const settled = resolveOptions({ level: level ?? 3 }, game.rules.game.game);
    const nominal = settled.ok ? settled.value.iterations : Infinity;
    if (nominal > botIterations) {
      return refuse('protocol/too-large', `level ${String(level ?? 3)} searches up to ${nominal} times, over this server's limit of ${botIterations} (--max-bot-iterations): a lower level, or fewer 'iterations'`);
    }
  }
  if (typeof timeMs === 'number' && timeMs > botMs) {
    return refuse('protocol/too-large', `'time_ms' is ${timeMs}, over this server's limit of ${botMs} (--max-bot-ms)`);
  }
  return ok({ search: s, game, candidates, capMs: botMs });
}

/**
 * Runs a search in slices, yielding between them: about {@link SLICE_MS} milliseconds of work
 * each (read every 16 searches), until its budget runs out, its `time_ms` or the server's limit
 * passes, or `signal` aborts it. The searches run are the same however they are sliced, so an
 * iteration budget gives the same move as `searchBot`'s.
 */
function* slices(s: Search, capMs: number, signal: AbortSignal | null): Generator<void, Stop> {
  const start = performance.now();
  const own = Number.isFinite(s.budget.timeMs) ? start + s.budget.timeMs : Infinity;
  const cap = start + capMs;
  // A single legal move needs no search.
  if (legalMoves(s.rules, s.state).length <= 1) return 'budget';
  for (;;) {
    if (s.iterations >= s.budget.iterations) return 'budget';
    if (signal?.aborted === true) return 'aborted';
    const now = performance.now();
    if (now >= own) return 'budget';
    if (now >= cap) return 'limit';
    iterate(s, s.budget.iterations - s.iterations, Math.min(own, cap, now + SLICE_MS));
    yield;
  }
}

/**
 * The candidates of `analyse`, most searched first, as analyse() lists them (a single legal move
 * is searched a little first, so that it has figures), with their split actions.
 */
function candidatesOf(s: Search): Record<string, unknown>[] {
  if (s.iterations === 0) iterate(s, Math.min(s.budget.iterations, 16));
  const out: Record<string, unknown>[] = [];
  for (const [action, n] of ranked(s)) {
    const move = actionToMove(s.rules, s.state, action);
    if (move === null || n.visits === 0) continue;
    out.push({ action, move, visits: n.visits, margin: n.margin[s.player]! / n.visits, value: n.reward[s.player]! / n.visits });
  }
  return out;
}

/** The answer of a search that ended with `stop`: the move recommended (the most searched), and with `analyse` every candidate. */
function answer(job: BotJob, stop: Stop): Checked<Record<string, unknown>> {
  const s = job.search;
  const list = job.candidates ? candidatesOf(s) : null;
  const move = bestMove(s);
  const out: Record<string, unknown> = { player: s.player, action: moveToAction(s.rules, s.state, move), move, iterations: s.iterations, cut_short: stop !== 'budget' };
  if (list !== null) out['candidates'] = list;
  return ok(out);
}

/** Runs the search to its end on this thread, without yielding (a session driven line by line). */
export function runBot(job: BotJob): Checked<Record<string, unknown>> {
  const run = slices(job.search, job.capMs, null);
  let step = run.next();
  while (step.done !== true) step = run.next();
  return answer(job, step.value);
}

const pause = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Runs the search in slices, letting the event loop run between them; `signal` stops it (the connection closed). */
export async function runBotAsync(job: BotJob, signal: AbortSignal): Promise<Checked<Record<string, unknown>>> {
  const run = slices(job.search, job.capMs, signal);
  let step = run.next();
  while (step.done !== true) {
    await pause();
    step = run.next();
  }
  return answer(job, step.value);
}

/** `bot` (the move) or `analyse` (the move and the candidates). */
function botOp(candidates: boolean): Op {
  return {
    fields: BOT_FIELDS,
    run(req, handles) {
      const job = prepareBot(req, handles, candidates);
      return job.ok ? runBot(job.value) : job;
    },
    start(req, handles, signal) {
      const job = prepareBot(req, handles, candidates);
      return job.ok ? ok(runBotAsync(job.value, signal)) : job;
    },
  };
}

/** The bot operations by name. */
export const BOT_OPS: Readonly<Record<string, Op>> = { bot: botOp(false), analyse: botOp(true) };
