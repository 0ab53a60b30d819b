/** What test/playground.test.ts imports from the playground: it bundles this file with esbuild, the engine included (one copy). */
export { applyMove, legalMoves, newGame, publicView } from 'meeplekit';
export { choicesOf, LABELLED_MOVES, moveLabels } from './src/decisions.js';
export { rulesFor } from './src/rules.js';
export { clear, restore, restoreText, savedText } from './src/storage.js';
