// The worker thread's entry: plain JavaScript that registers tsx's loader in this thread (a
// worker does not inherit it), then runs the examples' worker recipe, examples/bot-worker.ts.
import { register } from 'tsx/esm/api';

register();
await import('../../bot-worker.ts');
