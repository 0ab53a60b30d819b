/** What test/playground.test.ts imports from the playground: it bundles this file with esbuild, the engine included (one copy). */
export { applyMove, legalMoves, newGame, publicView, undo, viewDelta } from 'meeplekit';
export { choicesOf, LABELLED_MOVES, moveLabels } from './src/decisions.js';
export { eventLines, REASON_WORDS, WORDED_EXPANSION_EVENTS } from './src/events.js';
export { newLocalSession } from './src/local-session.js';
export { onlineSession } from './src/online-session.js';
export { rulesFor } from './src/rules.js';
export { clear, restore, restoreText, savedText } from './src/storage.js';
