/**
 * The search bot in a browser's Web Worker, so that the page stays responsive while it thinks: the
 * same messages and code as the Node worker thread (examples/bot-messages.ts). Start it from the
 * page as a module worker (main.ts); test/browser/bot-worker.test.ts runs it in Chromium.
 */
import { botWorker, type BotRequest } from '../bot-messages.js';

const answer = botWorker((reply) => self.postMessage(reply));
self.onmessage = (event: MessageEvent<BotRequest>) => void answer(event.data);
