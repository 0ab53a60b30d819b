/**
 * `npx tsx bench/parse-state.ts`: microseconds to load a finished classic 3-player game with
 * `parseState` (replay and compare), with `{ trusted: true }` (no replay), and with `JSON.parse`
 * alone (the floor), each in a loop for 2 seconds over 50 seeded finished games.
 */
import { createRandomSource, createRuleset, createSimulator, newGame, parseState, serializeState } from '../src/index.js';

const rules = createRuleset({ game: 'classic' });
if (!rules.ok) throw new Error(rules.error.message);
const texts: string[] = [];
for (let i = 0; i < 50; i++) {
  const game = newGame(rules.value, { players: 3, seed: `parse-${i}` });
  if (!game.ok) throw new Error(game.error.message);
  const sim = createSimulator(rules.value, game.value);
  if (!sim.ok) throw new Error(sim.error.message);
  sim.value.playout(createRandomSource(`parse-${i}`));
  texts.push(serializeState(sim.value.state));
}
const bytes = Math.round(texts.reduce((a, t) => a + t.length, 0) / texts.length);
const paths: [string, (text: string) => unknown][] = [
  ['JSON.parse', (t) => JSON.parse(t)],
  ['parseState', (t) => parseState(rules.value, t)],
  ['parseState trusted', (t) => parseState(rules.value, t, { trusted: true })],
];
for (const [name, load] of paths) {
  let n = 0;
  const start = performance.now();
  while (performance.now() - start < 2000) load(texts[n++ % texts.length]!);
  console.log(`${name.padEnd(20)} ${((1000 * (performance.now() - start)) / n).toFixed(1)} us per finished game (${bytes} bytes)`);
}
