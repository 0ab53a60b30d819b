/**
 * `npm run bench [-- --json] [-- --seconds S]`: random full-game playouts per second through the
 * Simulator and through applyMove, legal-move generations per second, and for the research
 * interface (`meeplekit/ai`) random playouts per second with explicit chance, actions per second
 * through legalActions + applyAction and the cost of a clone, per configuration.
 * One core; each configuration in its own process; each figure is the best of three timed rounds
 * after a warm-up.
 */
import { execFileSync } from 'node:child_process';
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
import { CLI_EXPANSIONS } from '../src/cli/expansions.js';
import { createResearchSimulator as createResearch, type ResearchSimulator } from '../src/ai/index.js';
import { castle as castleModule } from '../src/games/castle/entry.js';

const { values } = parseArgs({
  options: {
    json: { type: 'boolean', default: false },
    seconds: { type: 'string', default: '2' },
    // Internal: measure one configuration only (each runs in its own process, see below).
    only: { type: 'string' },
    // Internal: which group of paths (the engine's, or the research interface's).
    group: { type: 'string', default: 'engine' },
  },
});
const budget = Number(values.seconds) * 1000;

interface Row {
  config: string;
  path: 'simulator' | 'applyMove' | 'legalMoves' | 'research' | 'actions' | 'clone';
  gamesPerSecond?: number;
  generationsPerSecond?: number;
  /** Research path: actions (decisions and chance outcomes) per second through legalActions + applyAction. */
  actionsPerSecond?: number;
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
  // into the simulator's buffer and one is applied; chance nodes are sampled (applyRandom).
  const starts = Array.from({ length: 64 }, (_, i) => must(newGame(rules, { players, seed: `bench-${i}` })));
  const r = measure((i) => {
    const sim = createResearch(rules, starts[i % starts.length]!);
    const random = createRandomSource(`bots-${i}`);
    let actions = 0;
    while (!sim.isTerminal()) {
      if (sim.isChanceNode()) sim.applyRandom(random);
      else {
        const legal = sim.legalActions();
        sim.applyAction(legal[random(legal.length)]!);
      }
      actions++;
    }
    return actions;
  });
  return { config: name, path: 'actions', actionsPerSecond: round(r.perSecond), runs: r.runs };
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
// when some cannot be combined (River and the Count), the first in id order is left out until the
// rest can.
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
// The expansions left out above, with every other one they combine with (the Count without River).
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
  if (group === 'research') return [researchGames(c), researchActions(c), cloneCost(c)];
  return [simulatorGames(c), applyMoveGames(c), generations(c)];
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
for (const c of configs) {
  for (const group of GROUPS) {
    const out = execFileSync(process.execPath, [...process.execArgv, process.argv[1]!, '--only', c.name, '--group', group, '--seconds', values.seconds], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    results = results.concat(JSON.parse(out) as Row[]);
  }
}
// Expansions are judged by their cost per tile placed against classic's (one figure from each process).
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
    console.log(`${r.config.padEnd(40)} ${r.path.padEnd(11)} ${figure}${extra}`);
  }
}
