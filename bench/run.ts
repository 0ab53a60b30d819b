/**
 * `npm run bench [-- --json] [-- --seconds S]`: random full-game playouts per second through the
 * Simulator and through applyMove, and legal-move generations per second, per configuration.
 * One core, one process; each figure is the best of several timed rounds after a warm-up.
 */
import { cpus } from 'node:os';
import { parseArgs } from 'node:util';
import {
  applyMove,
  createRandomSource,
  createRuleset,
  createSimulator,
  legalMoves,
  newGame,
  type GameState,
  type Ruleset,
} from '../src/index.js';

const { values } = parseArgs({
  options: { json: { type: 'boolean', default: false }, seconds: { type: 'string', default: '2' } },
});
const budget = Number(values.seconds) * 1000;

interface Row {
  config: string;
  path: 'simulator' | 'applyMove' | 'legalMoves';
  gamesPerSecond?: number;
  generationsPerSecond?: number;
  movesPerGame?: number;
  runs: number;
}

function must<T>(r: { ok: true; value: T } | { ok: false; error: { message: string } }): T {
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

/** Runs `fn` (which does `unit` units of work per call) in rounds; returns the best units/second. */
function measure(fn: (i: number) => number): { perSecond: number; runs: number } {
  let i = 0;
  const warm = performance.now();
  while (performance.now() - warm < budget / 4) fn(i++);
  let best = 0;
  let runs = 0;
  for (let round = 0; round < 3; round++) {
    let units = 0;
    const t0 = performance.now();
    let t = t0;
    while (t - t0 < budget / 4) {
      units += fn(i++);
      runs++;
      t = performance.now();
    }
    best = Math.max(best, (units * 1000) / (t - t0));
  }
  return { perSecond: best, runs };
}

function simulatorGames(rules: Ruleset, players: number): Row {
  let moves = 0;
  let games = 0;
  const r = measure((i) => {
    const start = must(newGame(rules, { players, seed: `bench-${i}` }));
    const sim = must(createSimulator(rules, start));
    const random = createRandomSource(`bots-${i}`);
    sim.playout(random);
    moves += sim.state.moves.length;
    games++;
    return 1;
  });
  return { config: `classic-${players}p`, path: 'simulator', gamesPerSecond: round(r.perSecond), movesPerGame: round(moves / games), runs: r.runs };
}

function applyMoveGames(rules: Ruleset, players: number): Row {
  const r = measure((i) => {
    let state: GameState = must(newGame(rules, { players, seed: `bench-${i}` }));
    const random = createRandomSource(`bots-${i}`);
    while (state.step.kind !== 'game-over') {
      const moves = legalMoves(rules, state);
      state = must(applyMove(rules, state, moves[random(moves.length)])).state;
    }
    return 1;
  });
  return { config: `classic-${players}p`, path: 'applyMove', gamesPerSecond: round(r.perSecond), runs: r.runs };
}

function generations(rules: Ruleset, players: number): Row {
  // A pool of mid-game states from seeded random games, every decision point of each.
  const pool: GameState[] = [];
  for (let g = 0; g < 20; g++) {
    const sim = must(createSimulator(rules, must(newGame(rules, { players, seed: `pool-${g}` }))));
    const random = createRandomSource(`pool-${g}`);
    while (!sim.isOver()) {
      pool.push(sim.snapshot());
      sim.playRandom(random);
    }
  }
  const r = measure((i) => {
    legalMoves(rules, pool[i % pool.length]!);
    return 1;
  });
  return { config: `classic-${players}p`, path: 'legalMoves', generationsPerSecond: round(r.perSecond), runs: r.runs };
}

function round(v: number): number {
  return Math.round(v * 10) / 10;
}

const rules = must(createRuleset({ game: 'classic' }));
const results: Row[] = [];
for (const players of [2, 4]) {
  results.push(simulatorGames(rules, players));
  results.push(applyMoveGames(rules, players));
  results.push(generations(rules, players));
}
const machine = { node: process.version, cpu: cpus()[0]?.model ?? 'unknown', cores: cpus().length };
if (values.json) {
  process.stdout.write(`${JSON.stringify({ machine, secondsPerFigure: budget / 1000, results })}\n`);
} else {
  console.log(`meeplekit bench: node ${machine.node}, ${machine.cpu}, one core`);
  for (const r of results) {
    const figure = r.gamesPerSecond !== undefined ? `${r.gamesPerSecond} games/s` : `${r.generationsPerSecond} generations/s`;
    const extra = r.movesPerGame !== undefined ? ` (${r.movesPerGame} moves/game)` : '';
    console.log(`${r.config.padEnd(12)} ${r.path.padEnd(11)} ${figure}${extra}`);
  }
}
