/**
 * An information-set MCTS bot on `meeplekit/ai`, played against uniformly random play.
 *
 *   npm run build && npm run example:mcts -- --games 200 --iterations 200 [--game classic|castle]
 *
 * Each decision runs `--iterations` searches. Every search starts from a fresh determinization of
 * what the bot's player can see (`observe` + `determinize`: in classic only the draw order is
 * unknown, and chance nodes redraw it anyway; in The Castle each search also guesses the
 * face-down wall tokens anew), descends the tree by UCB1 for the player to move, samples chance nodes (tile draws) by
 * their probabilities, adds one node, finishes the game with random play and backs up each
 * player's value: 1 for a sole win, 0.5 for a shared one, 0 for a loss, plus the score margin
 * over the best opponent / 1000 (a tie-breaker that prefers larger wins). The move played is
 * the most visited. Games alternate seats; everything is seeded.
 *
 * Prints one line per game and a JSON summary; exits 1 if the bot won less than `--min` of the games.
 */
import { parseArgs } from 'node:util';
import { applyMove, createRandomSource, createRuleset, legalMoves, newGame, observe, type GameState, type RandomSource, type Ruleset } from 'meeplekit';
import { actionToMove, createResearchSimulator, determinize, gameInfo, type ResearchSimulator } from 'meeplekit/ai';
import { castle } from 'meeplekit/games/castle';

/** A decision or chance node of the search tree, reached by a sequence of actions. */
interface TreeNode {
  visits: number;
  /** Sum of each player's values over the searches through this node. */
  readonly value: number[];
  /** Children by action (chance outcome at chance nodes). */
  readonly children: Map<number, TreeNode>;
  /** Legal actions not tried yet (decision nodes). */
  untried: number[] | null;
}

function newNode(players: number): TreeNode {
  return { visits: 0, value: new Array<number>(players).fill(0), children: new Map(), untried: null };
}

/** Each player's value of a finished game. */
function values(scores: readonly number[]): number[] {
  const best = Math.max(...scores);
  const winners = scores.filter((s) => s === best).length;
  return scores.map((s, p) => {
    const rival = Math.max(...scores.filter((_, q) => q !== p));
    return (s === best ? (winners === 1 ? 1 : 0.5) : 0) + (s - rival) / 1000;
  });
}

/** One search from `sim` (consumed) through the tree rooted at `node`. */
function search(sim: ResearchSimulator, node: TreeNode, random: RandomSource): number[] {
  const path: TreeNode[] = [node];
  for (;;) {
    if (sim.isTerminal()) break;
    if (sim.isChanceNode()) {
      const outcome = sim.applyRandom(random);
      let child = node.children.get(outcome);
      if (child === undefined) node.children.set(outcome, (child = newNode(sim.state.players)));
      node = child;
      path.push(node);
      continue;
    }
    node.untried ??= [...sim.legalActions()];
    if (node.untried.length > 0) {
      // Expand one untried action, then play the game out at random.
      const a = node.untried.splice(random(node.untried.length), 1)[0]!;
      sim.applyAction(a);
      const child = newNode(sim.state.players);
      node.children.set(a, child);
      path.push(child);
      break;
    }
    // UCB1 for the player to move.
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
  const result = values(sim.playout(random));
  for (const n of path) {
    n.visits++;
    for (let p = 0; p < result.length; p++) n.value[p]! += result[p]!;
  }
  return result;
}

/** The bot's move: the most visited action after `iterations` searches from determinizations of its view. */
function mctsMove(rules: Ruleset, state: GameState, iterations: number, random: RandomSource, tag: string): number {
  const me = (state.step as { player: number }).player;
  const view = observe(rules, state, me);
  const root = newNode(state.players);
  for (let i = 0; i < iterations; i++) {
    const guess = determinize(rules, view, me, `${tag}/${i}`);
    search(createResearchSimulator(rules, guess), root, random);
  }
  let best = -1;
  let most = -1;
  for (const [a, child] of root.children) if (child.visits > most) [best, most] = [a, child.visits];
  return best;
}

const { values: args } = parseArgs({
  options: {
    game: { type: 'string', default: 'classic' },
    games: { type: 'string', default: '200' },
    iterations: { type: 'string', default: '200' },
    from: { type: 'string', default: '0' },
    seed: { type: 'string', default: 'mcts' },
    min: { type: 'string', default: '0.9' },
    quiet: { type: 'boolean', default: false },
  },
});
const games = Number(args.games);
const iterations = Number(args.iterations);
const from = Number(args.from);

if (args.game !== 'classic' && args.game !== 'castle') throw new Error(`--game: classic or castle, not ${args.game}`);
const created = createRuleset({ game: args.game === 'castle' ? castle() : 'classic' });
if (!created.ok) throw new Error(created.error.message);
const rules = created.value;
console.log(`mcts: ${iterations} iterations per decision against uniform random, ${games} two-player games of ${rules.id} (${gameInfo(rules, 2).numDistinctActions.split} actions)`);

let wins = 0;
let margin = 0;
const started = performance.now();
for (let g = from; g < from + games; g++) {
  const seat = g % 2; // the bot plays first in even games, second in odd ones
  const game = newGame(rules, { players: 2, seed: `${args.seed}/${g}` });
  if (!game.ok) throw new Error(game.error.message);
  let state = game.value;
  const random = createRandomSource(`${args.seed}/${g}/bots`);
  let decisions = 0;
  while (state.step.kind !== 'game-over') {
    const moves = legalMoves(rules, state);
    let move = moves[random(moves.length)]!;
    if (state.step.player === seat && moves.length > 1) {
      const a = mctsMove(rules, state, iterations, random, `${args.seed}/${g}/${decisions++}`);
      move = actionToMove(rules, state, a)!;
    }
    const next = applyMove(rules, state, move);
    if (!next.ok) throw new Error(next.error.message);
    state = next.value.state;
  }
  const mine = state.scores[seat]!;
  const theirs = state.scores[1 - seat]!;
  if (mine > theirs) wins++;
  margin += mine - theirs;
  if (!args.quiet) console.log(`game ${g}: bot (P${seat}) ${mine} - random ${theirs}${mine > theirs ? '  win' : ''}`);
}
const seconds = (performance.now() - started) / 1000;
const summary = { games, iterations, wins, winRate: games === 0 ? 0 : wins / games, meanMargin: games === 0 ? 0 : margin / games, seconds: Math.round(seconds) };
console.log(JSON.stringify(summary));
if (summary.winRate < Number(args.min)) {
  console.error(`mcts: won ${wins} of ${games} games, below ${args.min}`);
  process.exitCode = 1;
}
