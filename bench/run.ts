/**
 * `npm run bench [-- --json] [-- --seconds S]`: random full-game playouts per second through the
 * Simulator and through applyMove, legal-move generations per second, and for the research
 * interface (`meeplekit/ai`) random playouts per second with explicit chance, actions per second
 * through legalActions + applyAction (one game at a time, and 256 games stepped in turn as a
 * vector environment steps them, also with compact observations) and the cost of a clone, per
 * configuration. An action is an agent's decision, as in `bench:serve`; the chance outcomes
 * sampled between decisions are timed with them and counted apart (`chancePerDecision`).
 * One core; each configuration in its own process; each figure is the best of three timed rounds
 * after a warm-up.
 *
 * `npm run bench:pairs [-- --pairs N] [-- --seconds S]`: the expansions' cost per tile placed and
 * per move over classic-2p's, measured pair by pair: for each expansion configuration, N pairs of
 * fresh processes, classic-2p's Simulator then the configuration's, one right after the other; the
 * median ratio, with the lowest and highest. The full run's ratios divide figures measured minutes
 * apart, which a shared machine's drift can move by a fifth; a pair's two figures drift together.
 */
import { execFileSync } from 'node:child_process';
import { cpus } from 'node:os';
import { parseArgs } from 'node:util';
import { benchOptions } from './options.js';
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
import { CLI_EXPANSIONS } from '../src/cli/expansions.js';
import { createResearchSimulator as createResearch, observationSpec, type CompactObservationBuffers, type ResearchSimulator } from '../src/ai/index.js';
import { createCompactRowCache, writeCompactObservationCached } from '../src/ai/compact-row-cache.js';
import { castle as castleModule } from '../src/games/castle/entry.js';

const { values } = benchOptions(import.meta.url, () => parseArgs({
  options: {
    json: { type: 'boolean', default: false },
    seconds: { type: 'string', default: '2' },
    // Internal: measure one configuration only (each runs in its own process, see below).
    only: { type: 'string' },
    // Internal: which group of paths (the engine's, the research interface's, or the Simulator's alone).
    group: { type: 'string', default: 'engine' },
    // The expansions' ratios to classic-2p, in this many pairs of processes (see above).
    pairs: { type: 'string' },
  },
}));
const budget = Number(values.seconds) * 1000;

interface Row {
  config: string;
  path: 'simulator' | 'applyMove' | 'legalMoves' | 'research' | 'actions' | 'actions-256' | 'compact-256' | 'clone';
  gamesPerSecond?: number;
  generationsPerSecond?: number;
  /**
   * Research paths: actions (an agent's decisions) per second through legalActions +
   * applyAction, one game at a time (`actions`) or 256 games stepped in turn (`actions-256`; with
   * compact observations: `compact-256`). Chance outcomes are timed with them but count apart.
   */
  actionsPerSecond?: number;
  /** Research action paths: chance outcomes sampled per decision (timed with the decisions, not counted as actions). */
  chancePerDecision?: number;
  /** Research path: microseconds per clone of a mid-game simulator. */
  microsPerClone?: number;
  movesPerGame?: number;
  /** Simulator path: tiles on the board at the end (start tiles included), for the cost per tile placed. */
  tilesPerGame?: number;
  /** Simulator path: microseconds per tile placed (1e6 / (games/s * tiles per game)). */
  microsPerTile?: number;
  /** Simulator path: microseconds per move (decision) played: expansions add decisions to a tile (the dragon's steps, the fairy). */
  microsPerMove?: number;
  /** Simulator path, classic-2p with expansions: the cost per tile placed over classic-2p's (how expansions are judged), when classic-2p was measured. */
  perTileVsClassic?: number;
  /** Simulator path, classic-2p with expansions: the cost per move (decision) over classic-2p's. */
  perMoveVsClassic?: number;
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

/** A benchmark configuration: a ruleset and a player count, named like `classic-2p+river`. */
interface Config {
  name: string;
  rules: Ruleset;
  players: number;
}

function simulatorGames({ name, rules, players }: Config): Row {
  let moves = 0;
  let tiles = 0;
  let games = 0;
  // Playouts start from prepared positions (64 seeded new games), as in search: the figure is
  // clone + random playout to the end; set-up cost is in the applyMove figure instead.
  const starts = Array.from({ length: 64 }, (_, i) => must(newGame(rules, { players, seed: `bench-${i}` })));
  const r = measure((i) => {
    const sim = must(createSimulator(rules, starts[i % starts.length]!));
    const random = createRandomSource(`bots-${i}`);
    sim.playout(random);
    moves += sim.state.moves.length;
    tiles += sim.state.tiles.length;
    games++;
    return 1;
  });
  const perGame = tiles / games;
  return {
    config: name,
    path: 'simulator',
    gamesPerSecond: round(r.perSecond),
    movesPerGame: round(moves / games),
    tilesPerGame: round(perGame),
    microsPerTile: Math.round(1e8 / (r.perSecond * perGame)) / 100,
    microsPerMove: Math.round(1e8 / (r.perSecond * (moves / games))) / 100,
    runs: r.runs,
  };
}

function applyMoveGames({ name, rules, players }: Config): Row {
  const r = measure((i) => {
    let state: GameState = must(newGame(rules, { players, seed: `bench-${i}` }));
    const random = createRandomSource(`bots-${i}`);
    while (state.step.kind !== 'game-over') {
      const moves = legalMoves(rules, state);
      state = must(applyMove(rules, state, moves[random(moves.length)])).state;
    }
    return 1;
  });
  return { config: name, path: 'applyMove', gamesPerSecond: round(r.perSecond), runs: r.runs };
}

function generations({ name, rules, players }: Config): Row {
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
  return { config: name, path: 'legalMoves', generationsPerSecond: round(r.perSecond), runs: r.runs };
}

function researchGames({ name, rules, players }: Config): Row {
  // The research simulator's own random playout (tiles drawn by the engine from a generator
  // seeded by the playout's random source), from the same prepared positions as the simulator figure.
  const starts = Array.from({ length: 64 }, (_, i) => must(newGame(rules, { players, seed: `bench-${i}` })));
  const r = measure((i) => {
    createResearch(rules, starts[i % starts.length]!).playout(createRandomSource(`bots-${i}`));
    return 1;
  });
  return { config: name, path: 'research', gamesPerSecond: round(r.perSecond), runs: r.runs };
}

function researchActions({ name, rules, players }: Config): Row {
  // Whole games through the research interface: at each decision the legal actions are listed
  // into the simulator's buffer and one is applied; chance nodes are sampled (applyRandom). An
  // action is a decision (as in bench:serve and bench_vector.py); the chance outcomes sampled on
  // the way are timed with them and counted apart.
  const starts = Array.from({ length: 64 }, (_, i) => must(newGame(rules, { players, seed: `bench-${i}` })));
  let chance = 0;
  let decisions = 0;
  const r = measure((i) => {
    const sim = createResearch(rules, starts[i % starts.length]!);
    const random = createRandomSource(`bots-${i}`);
    let actions = 0;
    while (!sim.isTerminal()) {
      if (sim.isChanceNode()) {
        sim.applyRandom(random);
        chance++;
      } else {
        const legal = sim.legalActions();
        sim.applyAction(legal[random(legal.length)]!);
        actions++;
      }
    }
    decisions += actions;
    return actions;
  });
  return { config: name, path: 'actions', actionsPerSecond: round(r.perSecond), chancePerDecision: round(chance / decisions), runs: r.runs };
}

/** Games stepped in turn by the `actions-256` path: a vector environment's `num_envs` in docs/python.md's figures. */
const INTERLEAVED = 256;

function interleavedActions(c: Config, observations: boolean): Row {
  // What a vector environment of 256 games computes per step, without the protocol: in each game
  // in turn, one decision (a uniform legal action) and the chance outcomes up to the next
  // decision, the next decision's legal actions listed and copied (a finished game is replaced by
  // the next), and with `observations` its compact observation written into the game's row (as
  // `vec_step` with `observations: "compact"` does, through a row cache). Each game's state is
  // touched once per round, after 255 others: on these machines' caches that costs about twice
  // what one game at a time does (docs/benchmarks.md, eighth session).
  const { name, rules, players } = c;
  const starts = Array.from({ length: 64 }, (_, i) => must(newGame(rules, { players, seed: `bench-${i}` })));
  let next = 0;
  const random = createRandomSource('bots-interleaved');
  const fresh = (): ResearchSimulator => {
    const sim = createResearch(rules, starts[next++ % starts.length]!);
    while (sim.isChanceNode()) sim.applyRandom(random);
    return sim;
  };
  const sims = Array.from({ length: INTERLEAVED }, fresh);
  const lists = sims.map((sim) => sim.legalActions().slice());
  // The rows and their caches only where observations are written: `actions-256` keeps its memory to the games'.
  const spec = observations ? observationSpec(rules, players).compact : null;
  const rows: CompactObservationBuffers | null = spec === null ? null : { bits: new Uint8Array(INTERLEAVED * spec.bitBytes), counts: new Uint8Array(INTERLEAVED * spec.countBytes), vector: new Float32Array(INTERLEAVED * spec.vector) };
  const caches = rows === null ? [] : sims.map(() => createCompactRowCache());
  let chance = 0;
  let decisions = 0;
  const r = measure(() => {
    decisions += INTERLEAVED;
    for (let k = 0; k < INTERLEAVED; k++) {
      let sim = sims[k]!;
      const legal = lists[k]!;
      sim.applyAction(legal[random(legal.length)]!);
      while (sim.isChanceNode()) {
        sim.applyRandom(random);
        chance++;
      }
      if (sim.isTerminal()) sims[k] = sim = fresh();
      // Copied, as the server copies each list into its batch.
      const list = (lists[k] = sim.legalActions().slice());
      if (rows !== null) writeCompactObservationCached(rules, sim.state, sim.currentPlayer(), rows, k, list, caches[k]!);
    }
    return INTERLEAVED;
  });
  return { config: name, path: observations ? 'compact-256' : 'actions-256', actionsPerSecond: round(r.perSecond), chancePerDecision: round(chance / decisions), runs: r.runs };
}

function cloneCost({ name, rules, players }: Config): Row {
  // Research simulators at every decision of 20 seeded random games; each call clones one.
  const pool: ResearchSimulator[] = [];
  for (let g = 0; g < 20; g++) {
    const sim = createResearch(rules, must(newGame(rules, { players, seed: `pool-${g}` })));
    const random = createRandomSource(`pool-${g}`);
    while (!sim.isTerminal()) {
      pool.push(sim.clone());
      sim.applyRandom(random);
    }
  }
  let sink = 0;
  const r = measure((i) => {
    sink += pool[i % pool.length]!.clone().state.turn;
    return 1;
  });
  if (sink < 0) throw new Error('unreachable');
  return { config: name, path: 'clone', microsPerClone: round(1e6 / r.perSecond), runs: r.runs };
}

function round(v: number): number {
  return Math.round(v * 10) / 10;
}

const classic = must(createRuleset({ game: 'classic' }));
// Every available expansion at once (the CLI registry lists them all), River I and II together;
// if some could not be combined (all can today; River and the Count could not before
// 2026-11-25), the first in id order would be left out until the rest can.
let ids = Object.keys(CLI_EXPANSIONS).sort();
const together = (list: readonly string[]) => createRuleset({ game: 'classic', expansions: list.map((id) => CLI_EXPANSIONS[id]!({ riverSet: 'both' })) });
let created = together(ids);
for (let i = 0; !created.ok && i < ids.length; i++) {
  const fewer = ids.filter((_, j) => j !== i);
  const attempt = together(fewer);
  if (attempt.ok) {
    ids = fewer;
    created = attempt;
  }
}
const all = must(created);
// The expansions left out above, if any, with every other one they combine with.
const rest = Object.keys(CLI_EXPANSIONS)
  .sort()
  .filter((id) => !ids.includes(id));
const others = rest.length === 0 ? [] : Object.keys(CLI_EXPANSIONS).sort().filter((id) => rest.includes(id) || together([...rest, id]).ok);
const castle = must(createRuleset({ game: castleModule() }));
const configs: Config[] = [
  { name: 'classic-2p', rules: classic, players: 2 },
  { name: 'classic-4p', rules: classic, players: 4 },
  { name: 'castle-2p', rules: castle, players: 2 },
  // Every expansion alone (River I and II together), measured against classic-2p per tile placed.
  ...Object.keys(CLI_EXPANSIONS)
    .sort()
    .map((id) => ({ name: `classic-2p+${id}`, rules: must(together([id])), players: 2 })),
  { name: `classic-2p+${ids.join('+')}`, rules: all, players: 2 },
  ...(others.length === 0 ? [] : [{ name: `classic-2p+${others.join('+')}`, rules: must(together(others)), players: 2 }]),
];
const GROUPS = ['engine', 'research'] as const;
function measureConfig(c: Config, group: string): Row[] {
  if (group === 'research') return [researchGames(c), researchActions(c), interleavedActions(c, false), interleavedActions(c, true), cloneCost(c)];
  if (group === 'simulator') return [simulatorGames(c)];
  return [simulatorGames(c), applyMoveGames(c), generations(c)];
}

/** Measures one configuration's group of paths in a fresh process. */
function inChild(name: string, group: string): Row[] {
  const out = execFileSync(process.execPath, [...process.execArgv, process.argv[1]!, '--only', name, '--group', group, '--seconds', values.seconds], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return JSON.parse(out) as Row[];
}

/** Seconds per tile placed and per move played of a Simulator row. */
function costs(r: Row | undefined): { tile: number; move: number } {
  if (r?.gamesPerSecond === undefined || r.tilesPerGame === undefined || r.movesPerGame === undefined) throw new Error('not a Simulator row');
  return { tile: 1 / (r.gamesPerSecond * r.tilesPerGame), move: 1 / (r.gamesPerSecond * r.movesPerGame) };
}

/** A pair-by-pair ratio: the median of the pairs, with the lowest and highest. */
interface PairedRatio {
  median: number;
  min: number;
  max: number;
}

function summary(values: number[]): PairedRatio {
  const v = [...values].sort((a, b) => a - b);
  const mid = v.length >> 1;
  const median = v.length % 2 === 1 ? v[mid]! : (v[mid - 1]! + v[mid]!) / 2;
  const r2 = (x: number): number => Math.round(100 * x) / 100;
  return { median: r2(median), min: r2(v[0]!), max: r2(v[v.length - 1]!) };
}

// Each configuration is measured in a fresh process, and the research interface's paths in
// another: measured one after another in one process, later configurations ran up to 40% slower,
// their call sites made polymorphic by the earlier ones (the research paths after the engine's: 35%).
let results: Row[] = [];
if (values.only !== undefined) {
  const c = configs.find((x) => x.name === values.only);
  if (c === undefined) throw new Error(`no configuration ${values.only}`);
  process.stdout.write(JSON.stringify(measureConfig(c, values.group)));
  process.exit(0);
}
if (values.pairs !== undefined) {
  const n = Number(values.pairs);
  if (!Number.isInteger(n) || n < 1 || n > 50) throw new Error(`--pairs takes a whole number of pairs from 1 to 50, got ${values.pairs}`);
  const rows: { config: string; pairs: number; perTileVsClassic: PairedRatio; perMoveVsClassic: PairedRatio }[] = [];
  for (const c of configs) {
    if (!c.name.startsWith('classic-2p+')) continue;
    const tile: number[] = [];
    const move: number[] = [];
    for (let i = 0; i < n; i++) {
      const base = costs(inChild('classic-2p', 'simulator')[0]);
      const with_ = costs(inChild(c.name, 'simulator')[0]);
      tile.push(with_.tile / base.tile);
      move.push(with_.move / base.move);
    }
    rows.push({ config: c.name, pairs: n, perTileVsClassic: summary(tile), perMoveVsClassic: summary(move) });
  }
  const machine = { node: process.version, cpu: cpus()[0]?.model ?? 'unknown', cores: cpus().length };
  if (values.json) process.stdout.write(`${JSON.stringify({ machine, secondsPerFigure: budget / 1000, ratios: rows })}\n`);
  else {
    console.log(`meeplekit bench, ${n} pairs of processes (classic-2p, then the configuration): node ${machine.node}, ${machine.cpu}, one core`);
    const show = (r: PairedRatio): string => `${r.median}x (${r.min} to ${r.max})`;
    for (const r of rows) console.log(`${r.config.padEnd(40)} per tile ${show(r.perTileVsClassic)}, per move ${show(r.perMoveVsClassic)}`);
  }
  process.exit(0);
}
for (const c of configs) {
  for (const group of GROUPS) results = results.concat(inChild(c.name, group));
}
// Expansions are judged by their cost per tile placed against classic's (one figure from each
// process, minutes apart: `--pairs` measures the ratios pair by pair).
const per = (r: Row | undefined, unit: 'tilesPerGame' | 'movesPerGame') =>
  r?.gamesPerSecond !== undefined && r[unit] !== undefined ? 1 / (r.gamesPerSecond * r[unit]) : undefined;
const classicRow = results.find((r) => r.config === 'classic-2p' && r.path === 'simulator');
const baseTile = per(classicRow, 'tilesPerGame');
const baseMove = per(classicRow, 'movesPerGame');
for (const r of results) {
  if (r.path !== 'simulator' || !r.config.startsWith('classic-2p+')) continue;
  const tile = per(r, 'tilesPerGame');
  const move = per(r, 'movesPerGame');
  if (tile !== undefined && baseTile !== undefined) r.perTileVsClassic = Math.round((100 * tile) / baseTile) / 100;
  if (move !== undefined && baseMove !== undefined) r.perMoveVsClassic = Math.round((100 * move) / baseMove) / 100;
}
const machine = { node: process.version, cpu: cpus()[0]?.model ?? 'unknown', cores: cpus().length };
if (values.json) {
  process.stdout.write(`${JSON.stringify({ machine, secondsPerFigure: budget / 1000, results })}\n`);
} else {
  console.log(`meeplekit bench: node ${machine.node}, ${machine.cpu}, one core`);
  for (const r of results) {
    const figure =
      r.gamesPerSecond !== undefined
        ? `${r.gamesPerSecond} games/s`
        : r.generationsPerSecond !== undefined
          ? `${r.generationsPerSecond} generations/s`
          : r.actionsPerSecond !== undefined
            ? `${r.actionsPerSecond} actions/s`
            : `${r.microsPerClone} us/clone`;
    const extra = r.movesPerGame !== undefined ? ` (${r.movesPerGame} moves/game${r.microsPerTile !== undefined ? `, ${r.microsPerTile} us/tile` : ''}${r.microsPerMove !== undefined ? `, ${r.microsPerMove} us/move` : ''}${r.perTileVsClassic !== undefined ? `, ${r.perTileVsClassic}x classic per tile, ${r.perMoveVsClassic}x per move` : ''})` : '';
    console.log(`${r.config.padEnd(40)} ${r.path.padEnd(12)} ${figure}${extra}`);
  }
  console.log('(x classic: figures measured minutes apart, which a busy machine moves by a fifth; `npm run bench:pairs` measures these ratios pair by pair)');
}
