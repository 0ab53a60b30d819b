/**
 * Bots off the event loop: `meeplekit/bots`' search runs in a worker thread, through the
 * examples' worker recipe (examples/bot-worker.ts, with the messages of examples/bot-messages.ts).
 * The main thread only posts the state and receives the move.
 */
import { Worker } from 'node:worker_threads';
import type { GameState, Move } from 'meeplekit';
import type { BotReply, BotRequest } from '../../bot-messages.js';
import type { GameConfig } from './config.js';

export interface BotAsk {
  readonly config: GameConfig;
  readonly state: GameState;
  readonly level: number;
  /** The search's seed: the same game, version and level give the same move in any process. */
  readonly seed: string;
}

export class BotPool {
  private readonly workers: Worker[] = [];
  private readonly pending = new Map<number, { resolve: (move: Move) => void; reject: (e: Error) => void; worker: Worker }>();
  private nextId = 1;
  private turn = 0;
  private closed = false;

  constructor(private readonly size: number) {}

  private spawn(): Worker {
    // bot-thread.mjs registers tsx in the thread, then runs examples/bot-worker.ts.
    const worker = new Worker(new URL('./bot-thread.mjs', import.meta.url));
    worker.on('message', (reply: BotReply) => {
      const waiting = this.pending.get(reply.id);
      if (waiting === undefined) return;
      this.pending.delete(reply.id);
      if (reply.ok) waiting.resolve(reply.move);
      else waiting.reject(new Error(`${reply.error.code}: ${reply.error.message}`));
    });
    worker.on('error', (e) => this.lost(worker, e));
    worker.on('exit', (code) => this.lost(worker, new Error(`bot worker exited (${code})`)));
    worker.unref();
    return worker;
  }

  /** A worker died: its requests fail (the server asks again), and it is replaced on demand. */
  private lost(worker: Worker, e: Error): void {
    const i = this.workers.indexOf(worker);
    if (i >= 0) this.workers.splice(i, 1);
    for (const [id, waiting] of this.pending) {
      if (waiting.worker === worker) {
        this.pending.delete(id);
        waiting.reject(e);
      }
    }
  }

  move(ask: BotAsk): Promise<Move> {
    if (this.closed) return Promise.reject(new Error('bot pool closed'));
    while (this.workers.length < this.size) this.workers.push(this.spawn());
    const worker = this.workers[this.turn++ % this.workers.length]!;
    const id = this.nextId++;
    const request: BotRequest = {
      type: 'move',
      id,
      game: ask.config.game,
      expansions: ask.config.expansions,
      options: ask.config.options,
      state: ask.state,
      level: ask.level,
      seed: ask.seed,
    };
    return new Promise<Move>((resolve, reject) => {
      this.pending.set(id, { resolve, reject, worker });
      worker.postMessage(request);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}
