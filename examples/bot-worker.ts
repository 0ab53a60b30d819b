/**
 * A search bot in a worker thread (Node's worker_threads), so that the main thread stays free.
 * Messages are plain JSON: the main thread posts `{ type: 'move', id, game, expansions, state,
 * level }` and gets `{ id, ok: true, move }` or `{ id, ok: false, error }`; `{ type: 'stop', id }`
 * makes the search answer at once with the best move found so far. docs/bots.md shows the main
 * thread's side and the browser's Web Worker version; test/bots.test.ts runs this file.
 */
import { parentPort } from 'node:worker_threads';
import { createRuleset, type GameState, type Ruleset } from 'meeplekit';
import { think } from 'meeplekit/bots';
import { castle } from 'meeplekit/games/castle';
import { count } from 'meeplekit/expansions/count';
import { kingRobber } from 'meeplekit/expansions/king-robber';
import { princessDragon } from 'meeplekit/expansions/princess-dragon';
import { river } from 'meeplekit/expansions/river';
import { shrines } from 'meeplekit/expansions/shrines';
import { tower } from 'meeplekit/expansions/tower';

/** A request: which rules (by name), the state as JSON, the level. */
interface MoveRequest {
  readonly type: 'move';
  readonly id: number;
  readonly game: 'classic' | 'castle';
  readonly expansions: readonly string[];
  readonly state: GameState;
  readonly level: number;
}

const FACTORIES = { count, 'king-robber': kingRobber, 'princess-dragon': princessDragon, river, shrines, tower } as const;
// Rulesets hold functions, so they never cross threads: each is built here once, by its names.
const rulesets = new Map<string, Ruleset>();
const searches = new Map<number, AbortController>();

function rulesFor(game: 'classic' | 'castle', expansions: readonly string[]): Ruleset {
  const key = `${game}:${expansions.join(',')}`;
  let rules = rulesets.get(key);
  if (rules === undefined) {
    const modules = expansions.map((id) => {
      const make = FACTORIES[id as keyof typeof FACTORIES];
      if (make === undefined) throw new Error(`unknown expansion '${id}'`);
      return make();
    });
    const created = createRuleset({ game: game === 'castle' ? castle() : 'classic', expansions: modules });
    if (!created.ok) throw new Error(created.error.message);
    rulesets.set(key, (rules = created.value));
  }
  return rules;
}

parentPort!.on('message', async (message: MoveRequest | { readonly type: 'stop'; readonly id: number }) => {
  if (message.type === 'stop') {
    searches.get(message.id)?.abort();
    return;
  }
  const stop = new AbortController();
  searches.set(message.id, stop);
  try {
    const rules = rulesFor(message.game, message.expansions);
    const thought = await think(rules, message.state, { level: message.level, seed: `worker/${message.id}`, signal: stop.signal });
    parentPort!.postMessage(thought.ok ? { id: message.id, ok: true, move: thought.value.move } : { id: message.id, ok: false, error: thought.error });
  } catch (e) {
    parentPort!.postMessage({ id: message.id, ok: false, error: { code: 'worker/failed', message: String(e) } });
  } finally {
    searches.delete(message.id);
  }
});
