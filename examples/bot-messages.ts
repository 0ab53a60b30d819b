/**
 * The messages between an app and a search bot in a worker, and the worker's side of them: the
 * one piece of code that examples/bot-worker.ts (Node's worker_threads) and
 * examples/browser-bot/bot.worker.ts (a browser's Web Worker) share. Messages are plain JSON: the
 * rules by name, the state and the move as the library gives them. docs/bots.md shows them.
 */
import { createRuleset, type BaseGame, type Expansion, type GameState, type Move, type Ruleset } from 'meeplekit';
import { think, type SearchOptions } from 'meeplekit/bots';
import { castle } from 'meeplekit/games/castle';
import { count } from 'meeplekit/expansions/count';
import { kingRobber } from 'meeplekit/expansions/king-robber';
import { princessDragon } from 'meeplekit/expansions/princess-dragon';
import { river } from 'meeplekit/expansions/river';
import { shrines } from 'meeplekit/expansions/shrines';
import { tower } from 'meeplekit/expansions/tower';

/**
 * Asks for the move of whoever decides at `state`: the rules by name (the game, the expansions'
 * ids, and their options by id, e.g. `{ river: { riverSet: 'II' } }`), the state, and the
 * search's options (`level`, `iterations`, `timeMs`, `seed`, `maxNodes`; the seed defaults to
 * `worker/<id>`). `slice` is `think`'s: searches between two yields.
 */
export interface MoveRequest extends SearchOptions {
  readonly type: 'move';
  readonly id: number;
  readonly game: 'classic' | 'castle';
  readonly expansions: readonly string[];
  readonly options?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  readonly state: GameState;
  readonly slice?: number;
}

/** Stops request `id`'s search: it answers at once with the best move found so far. */
export interface StopRequest {
  readonly type: 'stop';
  readonly id: number;
}

export type BotRequest = MoveRequest | StopRequest;

/** The answer to request `id`: the move, the searches run and whether a stop cut them short; or an error. */
export type BotReply =
  | { readonly id: number; readonly ok: true; readonly move: Move; readonly iterations: number; readonly aborted: boolean }
  | { readonly id: number; readonly ok: false; readonly error: { readonly code: string; readonly message: string } };

type Options = Readonly<Record<string, unknown>>;
/** The games by name, made with their options (the reference server builds its rulesets from these too). */
export const GAMES: Readonly<Record<MoveRequest['game'], (options: Options) => 'classic' | BaseGame>> = {
  classic: () => 'classic',
  castle: (o) => castle(o),
};
/** The expansions by id, made with their options. */
export const EXPANSIONS: Readonly<Record<string, (options: Options) => Expansion>> = {
  count: (o) => count(o),
  'king-robber': () => kingRobber(),
  'princess-dragon': (o) => princessDragon(o),
  river: (o) => river(o),
  shrines: () => shrines(),
  tower: (o) => tower(o),
};

/**
 * The worker's side: answers each request through `post`. Rulesets hold functions, so they never
 * cross threads: each is built here once, by its names and options. Several searches may run at
 * once (each `think` yields between slices); a stop reaches the one it names.
 */
export function botWorker(post: (reply: BotReply) => void): (message: BotRequest) => Promise<void> {
  const rulesets = new Map<string, Ruleset>();
  const searches = new Map<number, AbortController>();

  function rulesFor({ game, expansions, options = {} }: MoveRequest): Ruleset {
    const key = JSON.stringify([game, expansions, options]);
    let rules = rulesets.get(key);
    if (rules === undefined) {
      const make = GAMES[game];
      if (make === undefined) throw new Error(`unknown game '${String(game)}'`);
      const modules = expansions.map((id) => {
        const expansion = EXPANSIONS[id];
        if (expansion === undefined) throw new Error(`unknown expansion '${id}'`);
        return expansion(options[id] ?? {});
      });
      const created = createRuleset({ game: make(options[game] ?? {}), expansions: modules });
      if (!created.ok) throw new Error(created.error.message);
      rulesets.set(key, (rules = created.value));
    }
    return rules;
  }

  return async (message) => {
    if (message.type === 'stop') {
      searches.get(message.id)?.abort();
      return;
    }
    // What is not the rules or the state is the search's options.
    const { type, id, game, expansions, options, state, ...search } = message;
    const stop = new AbortController();
    searches.set(id, stop);
    try {
      const rules = rulesFor(message);
      const thought = await think(rules, state, { seed: `worker/${id}`, ...search, signal: stop.signal });
      post(thought.ok ? { id, ok: true, ...thought.value } : { id, ok: false, error: thought.error });
    } catch (e) {
      post({ id, ok: false, error: { code: 'worker/failed', message: String(e) } });
    } finally {
      searches.delete(id);
    }
  };
}
