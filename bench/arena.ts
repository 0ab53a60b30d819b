/**
 * `npm run arena`: bots play each other; ratings from all games.
 *
 *   npm run arena -- [--config classic2|classic3|classic4|castle|six] [--bots level:5,greedy]
 *                    [--deals 10] [--seed arena] [--mcts-ms 1000] [--json] [--quiet]
 *
 * Bots: `random`, `greedy`, `level:N` (the search bot at level N, iteration budget),
 * `level:N@MS` (level N bounded by MS milliseconds a decision instead), `mcts@MS` (the ISMCTS of
 * examples/mcts.ts, random playouts and a win/loss reward, bounded by MS a decision: equal time).
 *
 * Each deal is one seed, played once per rotation of the seats (2 players: the lineup then the
 * same lineup with seats swapped: the same seed, so the same tile draws as long as the same tiles
 * fit, are replayed with every bot in every seat). With more bots than seats, every combination of
 * bots plays every deal. Each game is split into pairwise results (for each two bots at the table:
 * who scored more, ties half), from which a Bradley-Terry model is fitted (Elo scale, random = 0
 * when present) with 95% intervals (±1.96 standard errors from the model's information, each
 * rating alone). Also each pair's win share with a 95% Wilson interval, mean margin, and each
 * bot's milliseconds a decision (mean and slowest).
 */
import { parseArgs } from 'node:util';
import { applyMove, createRandomSource, createRuleset, greedyBot, legalMoves, newGame, observe, randomBot, type Bot, type GameState, type RandomSource, type Ruleset } from '../src/index.js';
import { actionToMove, createResearchSimulator, determinize, type ResearchSimulator } from '../src/ai/index.js';
import { searchBot } from '../src/bots/index.js';
import { castle } from '../src/games/castle/entry.js';
import { count } from '../src/expansions/count/index.js';
import { kingRobber } from '../src/expansions/king-robber/index.js';
import { princessDragon } from '../src/expansions/princess-dragon/index.js';
import { shrines } from '../src/expansions/shrines/index.js';
import { tower } from '../src/expansions/tower/index.js';

const { values: args } = parseArgs({
  options: {
    config: { type: 'string', default: 'classic2' },
    bots: { type: 'string', default: 'level:5,greedy' },
    deals: { type: 'string', default: '10' },
    seed: { type: 'string', default: 'arena' },
    json: { type: 'boolean', default: false },
    quiet: { type: 'boolean', default: false },
  },
});

const CONFIGS: Record<string, () => [Ruleset, number]> = {
  classic2: () => [must(createRuleset({ game: 'classic' })), 2],
  classic3: () => [must(createRuleset({ game: 'classic' })), 3],
  classic4: () => [must(createRuleset({ game: 'classic' })), 4],
  castle: () => [must(createRuleset({ game: castle() })), 2],
  // All six expansions that combine (the Count and the River exclude each other): with the Count.
  six: () => [must(createRuleset({ game: 'classic', expansions: [count(), kingRobber(), princessDragon(), shrines(), tower()] })), 2],
};

function must<T>(r: { ok: true; value: T } | { ok: false; error: { message: string } }): T {
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

// ---- The ISMCTS of examples/mcts.ts (the same algorithm), bounded by time instead of iterations.

interface McNode {
  visits: number;
  readonly value: number[];
  readonly children: Map<number, McNode>;
  untried: number[] | null;
}
const mcNode = (players: number): McNode => ({ visits: 0, value: new Array<number>(players).fill(0), children: new Map(), untried: null });
function mcValues(scores: readonly number[]): number[] {
  const best = Math.max(...scores);
  const winners = scores.filter((s) => s === best).length;
  return scores.map((s, p) => {
    const rival = Math.max(...scores.filter((_, q) => q !== p));
    return (s === best ? (winners === 1 ? 1 : 0.5) : 0) + (s - rival) / 1000;
  });
}
function mcSearch(sim: ResearchSimulator, node: McNode, random: RandomSource): void {
  const path: McNode[] = [node];
  for (;;) {
    if (sim.isTerminal()) break;
    if (sim.isChanceNode()) {
      const o = sim.applyRandom(random);
      let child = node.children.get(o);
      if (child === undefined) node.children.set(o, (child = mcNode(sim.state.players)));
      node = child;
      path.push(node);
      continue;
    }
    node.untried ??= [...sim.legalActions()];
    if (node.untried.length > 0) {
      const a = node.untried.splice(random(node.untried.length), 1)[0]!;
      sim.applyAction(a);
      const child = mcNode(sim.state.players);
      node.children.set(a, child);
      path.push(child);
      break;
    }
    const me = sim.currentPlayer();
    const logN = Math.log(node.visits);
    let best = -1;
    let bestScore = -Infinity;
    for (const [a, child] of node.children) {
      const score = child.value[me]! / child.visits + 0.7 * Math.sqrt(logN / child.visits);
      if (score > bestScore) [best, bestScore] = [a, score];
    }
    sim.applyAction(best);
    node = node.children.get(best)!;
    path.push(node);
  }
  const result = mcValues(sim.playout(random));
  for (const n of path) {
    n.visits++;
    for (let p = 0; p < result.length; p++) n.value[p]! += result[p]!;
  }
}
function mctsBot(ms: number, seed: string): Bot {
  const random = createRandomSource(seed);
  let decision = 0;
  return (rules, state) => {
    const moves = legalMoves(rules, state);
    if (moves.length === 1) return moves[0]!;
    const me = (state.step as { player: number }).player;
    const view = observe(rules, state, me);
    const root = mcNode(state.players);
    const end = performance.now() + ms;
    decision++;
    for (let i = 0; performance.now() < end; i++) mcSearch(createResearchSimulator(rules, determinize(rules, view, me, `${seed}/${decision}/${i}`)), root, random);
    let best = -1;
    let most = -1;
    for (const [a, child] of root.children) if (child.visits > most) [best, most] = [a, child.visits];
    return actionToMove(rules, state, best) ?? moves[0]!;
  };
}

// ---- Bots by name.

function makeBot(name: string, seed: string): Bot {
  if (name === 'random') return randomBot(createRandomSource(seed));
  if (name === 'greedy') return greedyBot(createRandomSource(seed));
  let m = /^level:([1-5])(?:@(\d+))?$/.exec(name);
  if (m) return searchBot(m[2] === undefined ? { level: Number(m[1]), seed } : { level: Number(m[1]), timeMs: Number(m[2]), seed });
  m = /^mcts@(\d+)$/.exec(name);
  if (m) return mctsBot(Number(m[1]), seed);
  throw new Error(`unknown bot '${name}' (random, greedy, level:N, level:N@MS, mcts@MS)`);
}

// ---- Games.

const [rules, players] = (CONFIGS[args.config] ?? (() => { throw new Error(`--config: one of ${Object.keys(CONFIGS).join(', ')}`); }))();
const names = args.bots.split(',').map((s) => s.trim());
if (names.length < 2) throw new Error('--bots: at least two');
const deals = Number(args.deals);

/** Every choice of `k` of `n` indices. */
function combinations(n: number, k: number): number[][] {
  if (k === 0) return [[]];
  const out: number[][] = [];
  for (let i = k - 1; i < n; i++) for (const c of combinations(i, k - 1)) out.push([...c, i]);
  return out;
}
/** With fewer bots than seats, bots repeat (a lineup of `players` drawn cyclically). */
const tables = names.length >= players ? combinations(names.length, players) : [Array.from({ length: players }, (_, i) => i % names.length)];

const time = names.map(() => ({ ms: 0, decisions: 0, slowest: 0 }));
/** pair[i][j]: results of bot i against bot j (wins count 1, ties 0.5). */
const pair = names.map(() => names.map(() => ({ score: 0, games: 0, margin: 0 })));
const games: { deal: number; seats: string[]; scores: number[] }[] = [];

const started = performance.now();
for (let d = 0; d < deals; d++) {
  for (const table of tables) {
    for (let r = 0; r < players; r++) {
      const seats = table.map((_, i) => table[(i + r) % players]!);
      const bots = seats.map((b, i) => makeBot(names[b]!, `${args.seed}/${d}/${r}/${i}`));
      let state: GameState = must(newGame(rules, { players, seed: `${args.seed}/${d}` }));
      while (state.step.kind !== 'game-over') {
        const p = state.step.player;
        const t = performance.now();
        const move = bots[p]!(rules, state);
        const dt = performance.now() - t;
        const k = time[seats[p]!]!;
        k.ms += dt;
        k.decisions++;
        k.slowest = Math.max(k.slowest, dt);
        state = must(applyMove(rules, state, move)).state;
      }
      const scores = state.scores;
      games.push({ deal: d, seats: seats.map((b) => names[b]!), scores: [...scores] });
      for (let i = 0; i < players; i++) {
        for (let j = 0; j < players; j++) {
          if (i === j || seats[i] === seats[j]) continue;
          const c = pair[seats[i]!]![seats[j]!]!;
          c.games++;
          c.score += scores[i]! > scores[j]! ? 1 : scores[i] === scores[j] ? 0.5 : 0;
          c.margin += scores[i]! - scores[j]!;
        }
      }
      if (!args.quiet && !args.json) console.log(`deal ${d}: ${seats.map((b, i) => `${names[b]} ${scores[i]}`).join(' | ')}`);
    }
  }
}

// ---- Bradley-Terry by minorization-maximization, on the Elo scale.

const n = names.length;
const strength = new Array<number>(n).fill(1);
for (let it = 0; it < 2000; it++) {
  for (let i = 0; i < n; i++) {
    let wins = 0;
    let denom = 0;
    for (let j = 0; j < n; j++) {
      if (i === j) continue;
      const g = pair[i]![j]!.games;
      if (g === 0) continue;
      // Half a win and half a loss of prior against each opponent keep all-win records finite.
      wins += pair[i]![j]!.score + 0.5;
      denom += (g + 1) / (strength[i]! + strength[j]!);
    }
    if (denom > 0) strength[i] = wins / denom;
  }
}
const elo = strength.map((s) => 400 * Math.log10(s));
const anchor = names.indexOf('random') >= 0 ? elo[names.indexOf('random')]! : Math.min(...elo);
const ratings = names.map((name, i) => {
  let info = 0;
  for (let j = 0; j < n; j++) {
    if (i === j) continue;
    const p = strength[i]! / (strength[i]! + strength[j]!);
    info += pair[i]![j]!.games * p * (1 - p);
  }
  const se = info > 0 ? (400 / Math.LN10) / Math.sqrt(info) : Infinity;
  return { bot: name, elo: Math.round(elo[i]! - anchor), low: Math.round(elo[i]! - anchor - 1.96 * se), high: Math.round(elo[i]! - anchor + 1.96 * se), msPerDecision: Math.round(time[i]!.ms / Math.max(1, time[i]!.decisions)), slowestMs: Math.round(time[i]!.slowest) };
});
function wilson(k: number, m: number): [number, number] {
  if (m === 0) return [0, 1];
  const z = 1.96;
  const p = k / m;
  const c = (p + (z * z) / (2 * m)) / (1 + (z * z) / m);
  const h = (z * Math.sqrt((p * (1 - p)) / m + (z * z) / (4 * m * m))) / (1 + (z * z) / m);
  return [Math.max(0, c - h), Math.min(1, c + h)];
}
const pairs: { bot: string; against: string; games: number; share: number; low: number; high: number; meanMargin: number }[] = [];
for (let i = 0; i < n; i++) {
  for (let j = i + 1; j < n; j++) {
    const c = pair[i]![j]!;
    if (c.games === 0) continue;
    const [low, high] = wilson(c.score, c.games);
    pairs.push({ bot: names[i]!, against: names[j]!, games: c.games, share: c.score / c.games, low, high, meanMargin: c.margin / c.games });
  }
}
const summary = { config: args.config, rules: rules.id, players, deals, games: games.length, seconds: Math.round((performance.now() - started) / 1000), ratings, pairs };
if (args.json) console.log(JSON.stringify({ ...summary, results: games }));
else {
  console.log(`arena: ${games.length} games of ${players}-player ${rules.id} (${deals} deals), ${summary.seconds} s`);
  for (const r of [...ratings].sort((a, b) => b.elo - a.elo)) console.log(`  ${r.bot.padEnd(14)} ${String(r.elo).padStart(5)} [${r.low}, ${r.high}]  ${r.msPerDecision} ms a decision (slowest ${r.slowestMs})`);
  for (const p of pairs) console.log(`  ${p.bot} vs ${p.against}: ${(100 * p.share).toFixed(1)}% [${(100 * p.low).toFixed(1)}, ${(100 * p.high).toFixed(1)}] of ${p.games}, mean margin ${p.meanMargin.toFixed(1)}`);
}
