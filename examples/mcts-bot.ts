/**
 * An information-set MCTS bot on `meeplekit/ai`, bounded by a number of searches a decision or by
 * the clock. examples/mcts.ts plays it against uniformly random play; `npm run arena -- --bots
 * mcts@400,level:5` (bench/arena.ts) rates it against the bots of `meeplekit/bots`.
 *
 * Each search starts from a fresh determinization of what the bot's player can see (`observe` +
 * `determinize`: in classic only the draw order is unknown, and chance nodes redraw it anyway; in
 * The Castle each search also guesses the face-down wall tokens anew), descends the tree by UCB1
 * for the player to move, samples chance nodes (tile draws) by their probabilities, adds one
 * node, finishes the game with random play and backs up each player's value: 1 for a sole win,
 * 0.5 for a shared one, 0 for a loss, plus the score margin over the best opponent / 1000 (a
 * tie-breaker that prefers larger wins). The move played is the most visited. Seeded: with an
 * iteration budget, the same seed and game give the same moves.
 */
import { createRandomSource, legalMoves, observe, type Bot, type RandomSource } from 'meeplekit';
import { actionToMove, createResearchSimulator, determinize, type ResearchSimulator } from 'meeplekit/ai';

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
function search(sim: ResearchSimulator, node: TreeNode, random: RandomSource): void {
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
}

/** Options of {@link mctsBot}: a budget (searches, milliseconds, or both: whichever ends first) and a seed. */
export interface MctsOptions {
  /** Searches a decision. */
  readonly iterations?: number;
  /** Milliseconds a decision (not deterministic: a faster machine searches more). */
  readonly timeMs?: number;
  /** Seed of the searches' random choices and determinizations. */
  readonly seed: string;
}

/**
 * The bot: for a decision with more than one legal move, searches from determinizations of its
 * player's view until the budget is spent and plays the most visited action.
 */
export function mctsBot(options: MctsOptions): Bot {
  const { iterations = Infinity, timeMs, seed } = options;
  if (iterations === Infinity && timeMs === undefined) throw new Error('mctsBot: give iterations or timeMs');
  const random = createRandomSource(seed);
  let decision = 0;
  return (rules, state) => {
    const moves = legalMoves(rules, state);
    if (moves.length === 1) return moves[0]!;
    const me = (state.step as { player: number }).player;
    const view = observe(rules, state, me);
    const root = newNode(state.players);
    const end = timeMs === undefined ? Infinity : performance.now() + timeMs;
    decision++;
    for (let i = 0; i < iterations && (timeMs === undefined || performance.now() < end); i++) {
      search(createResearchSimulator(rules, determinize(rules, view, me, `${seed}/${decision}/${i}`)), root, random);
    }
    let best = -1;
    let most = -1;
    for (const [a, child] of root.children) if (child.visits > most) [best, most] = [a, child.visits];
    return actionToMove(rules, state, best) ?? moves[0]!;
  };
}
