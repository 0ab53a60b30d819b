/**
 * A search bot in a worker thread (Node's worker_threads), so that the main thread stays free.
 * Messages are plain JSON (examples/bot-messages.ts, shared with the browser's Web Worker in
 * examples/browser-bot/): the main thread posts `{ type: 'move', id, game, expansions, state,
 * level }` (optionally the expansions' `options` and the search's `iterations`, `timeMs`, `seed`)
 * and gets `{ id, ok: true, move, iterations, aborted }` or `{ id, ok: false, error }`;
 * `{ type: 'stop', id }` makes the search answer at once with the best move found so far.
 * docs/bots.md shows the main thread's side; test/bots.test.ts runs this file.
 */
import { parentPort } from 'node:worker_threads';
import { botWorker, type BotRequest } from './bot-messages.js';

const answer = botWorker((reply) => parentPort!.postMessage(reply));
parentPort!.on('message', (message: BotRequest) => void answer(message));
