/**
 * The page's side of the search bot in a Web Worker (bot.worker.ts): asks for moves and stops
 * searches, with the messages of examples/bot-messages.ts. main.ts uses it.
 */
import type { BotReply, MoveRequest, StopRequest } from '../bot-messages.js';

/** A search bot in a worker, from the page. */
export interface WorkerBot {
  /** Asks for a move: the request's id (for `stop`) and the answer to come. */
  ask(request: Omit<MoveRequest, 'type' | 'id'>): { readonly id: number; readonly reply: Promise<BotReply> };
  /** "Move now": request `id`'s search answers at once with the best move found so far. */
  stop(id: number): void;
}

/** Talks to `worker`, a module worker running bot.worker.ts. */
export function workerBot(worker: Worker): WorkerBot {
  const waiting = new Map<number, (reply: BotReply) => void>();
  let lastId = 0;
  worker.addEventListener('message', (event: MessageEvent<BotReply>) => {
    waiting.get(event.data.id)?.(event.data);
    waiting.delete(event.data.id);
  });
  // A worker that fails (it did not load, it threw) answers every request waiting with an error.
  worker.addEventListener('error', (event) => {
    for (const [id, resolve] of waiting) resolve({ id, ok: false, error: { code: 'worker/failed', message: event.message } });
    waiting.clear();
  });
  return {
    ask(request) {
      const id = ++lastId;
      const reply = new Promise<BotReply>((resolve) => waiting.set(id, resolve));
      worker.postMessage({ type: 'move', id, ...request } satisfies MoveRequest);
      return { id, reply };
    },
    stop: (id) => worker.postMessage({ type: 'stop', id } satisfies StopRequest),
  };
}
