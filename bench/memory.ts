/**
 * `node --expose-gc --import tsx bench/memory.ts [--json]` (`npm run bench:memory`): what states
 * cost in memory, for the speed issue's two memory figures.
 *
 * - **bytes kept per move**: an app that keeps every state of a game (an undo history, a replay
 *   viewer) through `applyMove`: the heap growth over 40 seeded random classic 2-player games, all
 *   states kept, divided by the moves played. Consecutive states share what did not change.
 * - **clone**: bytes and microseconds per `clone()` of a research simulator at mid-game (the 37th
 *   tile of 20 seeded games), as MCTS makes them: the time of 400,000 clones dropped at once
 *   (measured first, on a small heap), then the heap growth over 20,000 clones kept.
 *
 * Heap figures come from `process.memoryUsage().heapUsed` after a full collection (`--expose-gc`
 * is required); typed-array buffers outside the heap are not counted.
 */
import { parseArgs } from 'node:util';
import { benchOptions } from './options.js';
import { applyMove, createRandomSource, createRuleset, legalMoves, newGame, type GameState } from '../src/index.js';
import { createResearchSimulator, newInitialState, type ResearchSimulator } from '../src/ai/index.js';

const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) {
  console.error('bench/memory.ts needs --expose-gc: node --expose-gc --import tsx bench/memory.ts');
  process.exit(2);
}
const collect: () => void = gc;
const { values } = benchOptions(import.meta.url, () => parseArgs({ options: { json: { type: 'boolean', default: false } } }));

const made = createRuleset({ game: 'classic' });
if (!made.ok) throw new Error(made.error.message);
const rules = made.value;

function heap(): number {
  collect();
  return process.memoryUsage().heapUsed;
}

/** Heap bytes kept per move when every state of 40 seeded random games is kept. */
function keptPerMove(): { games: number; moves: number; bytesPerMove: number } {
  const kept: GameState[] = [];
  let moves = 0;
  const before = heap();
  for (let i = 0; i < 40; i++) {
    const game = newGame(rules, { players: 2, seed: `memory-${i}` });
    if (!game.ok) throw new Error(game.error.message);
    let state = game.value;
    kept.push(state);
    const random = createRandomSource(`memory-bots-${i}`);
    while (state.step.kind !== 'game-over') {
      const options = legalMoves(rules, state);
      const next = applyMove(rules, state, options[random(options.length)]);
      if (!next.ok) throw new Error(next.error.message);
      state = next.value.state;
      kept.push(state);
      moves++;
    }
  }
  const bytes = heap() - before;
  if (kept.length === 0) throw new Error('unreachable');
  return { games: 40, moves, bytesPerMove: Math.round(bytes / moves) };
}

/** Bytes and microseconds per clone of a mid-game research simulator. */
function cloneCost(): { bytesPerClone: number; microsPerClone: number } {
  const pool: ResearchSimulator[] = [];
  for (let g = 0; g < 20; g++) {
    const sim = createResearchSimulator(rules, newInitialState(rules, { players: 2, seed: `memory-${g}` }));
    const random = createRandomSource(`memory-${g}`);
    while (!sim.isTerminal() && sim.state.tiles.length < 37) sim.applyRandom(random);
    pool.push(sim);
  }
  // Timed first, on a small heap: the collector's share of a clone grows with everything else alive.
  let sink = 0;
  const n = 400_000;
  const t0 = performance.now();
  for (let i = 0; i < n; i++) sink += pool[i % pool.length]!.clone().state.turn;
  const microsPerClone = Math.round(((performance.now() - t0) * 1000 * 100) / n) / 100;
  const kept: ResearchSimulator[] = [];
  const before = heap();
  for (let i = 0; i < 20_000; i++) kept.push(pool[i % pool.length]!.clone());
  const bytesPerClone = Math.round((heap() - before) / kept.length);
  if (sink < 0) throw new Error('unreachable');
  return { bytesPerClone, microsPerClone };
}

const clone = cloneCost();
const result = { node: process.version, keptPerMove: keptPerMove(), clone };
if (values.json) console.log(JSON.stringify(result, null, 2));
else {
  console.log(`applyMove, every state kept: ${result.keptPerMove.bytesPerMove} bytes per move (${result.keptPerMove.moves} moves, ${result.keptPerMove.games} games)`);
  console.log(`research clone at mid-game: ${result.clone.bytesPerClone} bytes, ${result.clone.microsPerClone} us`);
}
