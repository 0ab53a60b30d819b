/**
 * The page's side of the bot worker (bot-worker.ts): asks for a bot's move or an analysis and
 * resolves each with its answer. A worker that fails answers everything waiting with an error.
 */
import type { BotReply, MoveRequest } from '../../examples/bot-messages.js';
import type { AnalyseReply, AnalyseRequest, PlaygroundReply } from './worker-protocol.js';

/** The bots, in a worker. */
export interface BotWorker {
  /** A bot's move. */
  move(request: Omit<MoveRequest, 'type' | 'id'>): { readonly id: number; readonly reply: Promise<BotReply> };
  /** An analysis for a hint or a move's cost. */
  analyse(request: Omit<AnalyseRequest, 'type' | 'id'>): Promise<AnalyseReply>;
  /** Stops a move's search (it answers at once). */
  stop(id: number): void;
}

/** Talks to `worker`, running bot-worker.ts. */
export function botWorker(worker: Worker): BotWorker {
  const waiting = new Map<number, (reply: PlaygroundReply) => void>();
  let lastId = 0;
  worker.addEventListener('message', (event: MessageEvent<PlaygroundReply>) => {
    waiting.get(event.data.id)?.(event.data);
    waiting.delete(event.data.id);
  });
  worker.addEventListener('error', (event) => {
    for (const [id, resolve] of waiting) resolve({ id, ok: false, error: { code: 'worker/failed', message: event.message || 'the bot worker failed' } });
    waiting.clear();
  });
  return {
    move(request) {
      const id = ++lastId;
      const reply = new Promise<BotReply>((resolve) => waiting.set(id, resolve as (r: PlaygroundReply) => void));
      worker.postMessage({ type: 'move', id, ...request });
      return { id, reply };
    },
    analyse(request) {
      const id = ++lastId;
      const reply = new Promise<AnalyseReply>((resolve) =>
        waiting.set(id, (r) => resolve('kind' in r ? r : { id, ok: false, kind: 'analysis', error: 'error' in r ? r.error : { code: 'worker/failed', message: 'no analysis' } })),
      );
      worker.postMessage({ type: 'analyse', id, ...request });
      return reply;
    },
    stop: (id) => worker.postMessage({ type: 'stop', id }),
  };
}
