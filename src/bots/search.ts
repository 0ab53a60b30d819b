/**
 * Information-set Monte Carlo tree search over determinizations of what the deciding player can
 * see, and the search bot built on it.
 */
import { createRandomSource, type RandomSource } from '../core/rng.js';
import type { Ruleset } from '../core/ruleset.js';
import type { GameState, Move } from '../core/state.js';
import type { Immutable } from '../core/types.js';
import { isLegal, legalMoves } from '../core/engine/apply.js';
import { err, ok, type Result } from '../core/result.js';
import { actionToMove, placementKey } from '../ai/actions.js';
import { determinize } from '../ai/determinize.js';
import { createResearchSimulator, type ResearchSimulator } from '../ai/simulator.js';
import type { Bot } from '../bots.js';
import { botError, botFailure, type BotError } from './errors.js';
import { resolveOptions, type Budget, type SearchOptions } from './levels.js';
import { newNode, type TreeNode } from './tree.js';
import { featuresClosed, newClosingScratch, type ClosingScratch } from '../core/closing.js';
import { actionLayout } from '../ai/layout.js';
import { newRolloutScratch, priorRollout, type RolloutScratch } from './rollout.js';

/** Determinizations kept per decision at most: search `i` runs in world `i % worlds`. */
const WORLDS = 32;
/**
 * Searches per determinization at least: a small budget makes fewer worlds, since making one
 * costs as much as dozens of searches (level 1 in all six expansions took 40 ms a decision with a
 * world per search, bench:bots).
 */
const SEARCHES_PER_WORLD = 64;
/** Score difference at which a reward is 0.73 (a logistic curve over the difference). */
const MARGIN_SCALE = 10;
/** A level's searches per candidate move at most. */
const PER_CANDIDATE = 200;

/** A search in progress for one decision. @internal */
export interface Search {
  readonly rules: Ruleset;
  readonly state: Immutable<GameState>;
  /** The deciding player. */
  readonly player: number;
  readonly budget: Budget;
  readonly root: TreeNode;
  readonly random: RandomSource;
  /** Determinized roots, made as the searches first need them. */
  readonly worlds: ResearchSimulator[];
  /** Whether a module hides information, so actions of the tree may be illegal in a world. */
  readonly hidden: boolean;
  /** Determinizations used (1 without hidden information: chance nodes redraw the tiles). */
  readonly worldCount: number;
  /** Nodes in the tree. */
  nodes: number;
  /** Searches run. */
  iterations: number;
  /** Scratch: each player's value of their followers in supply at a rollout's end. */
  readonly held: number[];
  /** Scratch of the completion test. */
  readonly closing: ClosingScratch;
  /** Scratch of the rollouts by the placement prior (null: uniform rollouts). */
  readonly rolloutScratch: RolloutScratch | null;
}

/** Why a state cannot be searched, or null. @internal */
export function stateError(rules: Ruleset, state: Immutable<GameState>): BotError | null {
  if (typeof state !== 'object' || state === null || typeof state.step !== 'object') return botError('bots/bad-options', 'the state is not a game state');
  if (state.ruleset !== rules.id) return botError('bots/ruleset-mismatch', `the state belongs to ruleset '${String(state.ruleset)}', not '${rules.id}'`);
  if (state.step.kind === 'game-over') return botError('bots/game-over', 'the game is over: nobody has a move to choose');
  return null;
}

/** Starts a search of `state`'s decision, or explains why it cannot. @internal */
export function createSearch(rules: Ruleset, state: Immutable<GameState>, options: unknown): Result<Search, BotError> {
  const bad = stateError(rules, state);
  // Bad options are reported first; the table's shape is read only from a state that passed.
  const budget = resolveOptions(options, rules.game.game, bad === null ? { players: state.players, expansions: rules.expansions.length } : undefined);
  if (!budget.ok) return budget;
  if (bad !== null) return err(bad);
  const player = (state.step as { player: number }).player;
  // Same seed and state, same searches: the random stream is seeded from both.
  const key = `${budget.value.seed}|${state.turn}|${state.tiles.length}|${state.step.kind}|${player}|${state.scores.join(',')}|${state.bagSize}`;
  // A level's budget is its most: a decision with few candidates (most follower decisions) needs
  // fewer searches to rank them, at most PER_CANDIDATE each.
  let b = budget.value;
  if (b.fromLevel) b = { ...b, iterations: Math.min(b.iterations, PER_CANDIDATE * Math.max(2, legalMoves(rules, state).length)) };
  const hidden = rules.expansions.some((e) => e.observe !== undefined);
  return ok({
    rules,
    state,
    player,
    budget: b,
    root: newNode(state.players),
    random: createRandomSource(key),
    worlds: [],
    hidden,
    worldCount: hidden ? Math.max(1, Math.min(WORLDS, Math.ceil(b.iterations / SEARCHES_PER_WORLD))) : 1,
    nodes: 1,
    iterations: 0,
    held: new Array<number>(state.players).fill(0),
    closing: newClosingScratch(),
    rolloutScratch: b.priorRollouts === null ? null : newRolloutScratch(rules, b.priorRollouts.candidates),
  });
}

/**
 * Each player's reward and score difference to their best opponent, for `scores` (the final ones,
 * or projected ones with `held[p]` points more for player p's followers in supply).
 */
function outcome(scores: readonly number[], held: readonly number[] | null, reward: number[], margin: number[]): void {
  for (let p = 0; p < scores.length; p++) {
    let rival = -Infinity;
    for (let q = 0; q < scores.length; q++) {
      const v = scores[q]! + (held === null ? 0 : held[q]!);
      if (q !== p && v > rival) rival = v;
    }
    const m = scores[p]! + (held === null ? 0 : held[p]!) - rival;
    margin[p] = m;
    reward[p] = 1 / (1 + Math.exp(-m / MARGIN_SCALE));
  }
}

/** The world of search `i`: a determinization of the deciding player's view. */
function world(search: Search, i: number): ResearchSimulator {
  // Without hidden modules the worlds differ only by their draw order, which explicit chance
  // redraws at every chance node anyway: one world serves.
  const k = i % search.worldCount;
  let w = search.worlds[k];
  if (w === undefined) {
    w = createResearchSimulator(search.rules, determinize(search.rules, search.state, search.player, `${search.budget.seed}/${k}`));
    search.worlds[k] = w;
  }
  return w.clone();
}

/** Progressive widening below the root: a node searched n times has at most 2 + sqrt(n) children. */
function widen(visits: number): number {
  return 2 + Math.sqrt(visits);
}

/**
 * Writes into `out` what each player's followers in supply are worth to the evaluation of `s`:
 * `points` each (a level's `followerValue`), times the share of the game's tiles still in the bag.
 * Projected scores alone count a follower put on a one-tile road as a point gained and one kept
 * in hand as nothing. Measured head to head (docs/design.md, "Bots"): 2 points won 60.5% of 100
 * games against the same search without it. @internal
 */
export function heldValues(s: Immutable<GameState>, out: number[], points: number): number[] {
  const left = s.bagSize / Math.max(1, s.bagSize + s.tiles.length);
  for (let p = 0; p < s.players; p++) out[p] = points * left * s.supply[p]!;
  return out;
}

/**
 * The projected scores (as `projectedScores`: the final scoring now), computed on the search's
 * own throwaway copy instead of a fresh clone.
 */
function scoreNow(rules: Ruleset, s: GameState): readonly number[] {
  const ctx = { rules, state: s, emit: null };
  rules.game.finalScoring(ctx);
  for (const h of rules.hooks.finalScoring) h(ctx);
  return s.scores;
}

/**
 * Moves the placements of `list` (the legal actions of a place-tile decision) that would complete
 * a feature to its front and returns how many they are; 0 at other decisions.
 */
function completingFirst(search: Search, s: Immutable<GameState>, list: number[]): number {
  const step = s.step;
  if (step.kind !== 'place-tile') return 0;
  const rules = search.rules;
  const layout = actionLayout(rules);
  const tile = rules.tileById.get(step.tile)!;
  let front = 0;
  for (let i = 0; i < list.length; i++) {
    const a = list[i]!;
    if (a >= layout.placements) continue;
    if (featuresClosed(rules, s, tile, placementKey(layout, a), a & 3, search.closing) > 0) {
      list[i] = list[front]!;
      list[front++] = a;
    }
  }
  return front;
}

/** Runs one search: select by UCB1 for the player to move, expand one node, roll out, back up. */
function iterateOnce(search: Search, reward: number[], margin: number[]): void {
  const sim = world(search, search.iterations);
  const random = search.random;
  const players = search.state.players;
  const explore = search.budget.explore;
  const path: TreeNode[] = [search.root];
  let node = search.root;
  for (;;) {
    if (sim.isTerminal()) break;
    if (sim.isChanceNode()) {
      const o = sim.applyRandom(random);
      let child = node.children.get(o);
      if (child === undefined) {
        if (search.nodes >= search.budget.maxNodes) break;
        node.children.set(o, (child = newNode(players)));
        search.nodes++;
      }
      node = child;
      path.push(node);
      continue;
    }
    const legal = search.hidden ? sim.legalActions() : null;
    if (node.untried === null) {
      node.untried = [...sim.legalActions()];
      if (search.budget.completeFirst) node.first = completingFirst(search, sim.state, node.untried);
    }
    const untried = node.untried;
    if (untried.length > 0 && search.nodes < search.budget.maxNodes && (node === search.root || node.children.size < widen(node.visits))) {
      let a: number;
      if (node.first > 0) {
        // A completing placement first: take it out, keeping the rest of the front together.
        const j = random(node.first);
        a = untried[j]!;
        untried[j] = untried[node.first - 1]!;
        untried[node.first - 1] = untried[untried.length - 1]!;
        node.first--;
      } else {
        const j = random(untried.length);
        a = untried[j]!;
        untried[j] = untried[untried.length - 1]!;
      }
      untried.pop();
      if (legal !== null && !legal.includes(a)) break;
      sim.applyAction(a);
      const child = newNode(players);
      node.children.set(a, child);
      search.nodes++;
      path.push(child);
      break;
    }
    // UCB1 for the player who decides here (the Count's or the dragon's mover too).
    const me = sim.currentPlayer();
    const logN = Math.log(Math.max(1, node.visits));
    let best = -1;
    let bestScore = -Infinity;
    for (const [a, child] of node.children) {
      if (legal !== null && !legal.includes(a)) continue;
      const score = child.visits === 0 ? Infinity : child.reward[me]! / child.visits + explore * Math.sqrt(logN / child.visits);
      if (score > bestScore) [best, bestScore] = [a, score];
    }
    if (best === -1) break;
    sim.applyAction(best);
    node = node.children.get(best)!;
    path.push(node);
  }
  // Rollout: a few random decisions, then the projected scores (what a game ending now would give)
  // and the followers still in hand; or, to the end (The Castle), the simulator's own playout.
  // Both draw the same random game as `applyRandom` a decision at a time would, without listing
  // every placement at each one: a 12-decision rollout made level 5 search about 1.3 times as
  // many times a second in 2-player classic (docs/design.md, "Bots", thirteenth round).
  // Level 5 in 2-player classic chooses the rollout's placements by the placement prior instead,
  // and its follower decisions by the follower prior (docs/design.md, "Bots", twenty-second and
  // twenty-sixth rounds).
  const prior = search.budget.priorRollouts;
  if (search.budget.rollout === Infinity) sim.playout(random);
  else if (prior !== null) priorRollout(search.rules, sim, random, search.budget.rollout, prior, search.rolloutScratch!);
  else sim.rollout(random, search.budget.rollout);
  if (sim.isTerminal()) outcome(sim.state.scores, null, reward, margin);
  else {
    // Followers in hand first: the projected final scoring returns the followers on the board.
    const s = sim.state as GameState;
    const points = search.budget.followerValue;
    const held = points === 0 ? null : heldValues(s, search.held, points);
    outcome(scoreNow(search.rules, s), held, reward, margin);
  }
  for (const n of path) {
    n.visits++;
    for (let p = 0; p < players; p++) {
      n.reward[p]! += reward[p]!;
      n.margin[p]! += margin[p]!;
    }
  }
  search.iterations++;
}

/** Runs up to `n` searches, stopping early at `deadline` (a `performance.now()` time) when finite. @internal */
export function iterate(search: Search, n: number, deadline = Infinity): void {
  const reward = new Array<number>(search.state.players).fill(0);
  const margin = new Array<number>(search.state.players).fill(0);
  const timed = Number.isFinite(deadline);
  for (let i = 0; i < n; i++) {
    // The clock is read only for a timed search, every 16 searches.
    if (timed && (i & 15) === 0 && performance.now() >= deadline) return;
    iterateOnce(search, reward, margin);
  }
}

/** The root's candidates, most searched first (ties: better mean reward, then lower action). @internal */
export function ranked(search: Search): [number, TreeNode][] {
  const me = search.player;
  return [...search.root.children].sort(([a, x], [b, y]) => y.visits - x.visits || (y.visits === 0 ? 0 : y.reward[me]! / y.visits - x.reward[me]! / x.visits) || a - b);
}

/** The move the search recommends: the most searched; a legal move even before any search. @internal */
export function bestMove(search: Search): Move {
  const [top] = ranked(search);
  if (top !== undefined) {
    const move = actionToMove(search.rules, search.state, top[0]);
    if (move !== null && isLegal(search.rules, search.state, move)) return move;
  }
  return legalMoves(search.rules, search.state)[0]!;
}

/** Runs a whole search within its budget. @internal */
export function runSearch(search: Search): void {
  const deadline = Number.isFinite(search.budget.timeMs) ? performance.now() + search.budget.timeMs : Infinity;
  // A single legal move needs no search.
  if (legalMoves(search.rules, search.state).length <= 1) return;
  iterate(search, search.budget.iterations, deadline);
}

/**
 * A bot that searches each decision by information-set Monte Carlo tree search (MCTS): every
 * search runs in a determinization of what the deciding player can see (the unseen tiles'
 * order, and in The Castle the face-down tokens, made up anew; never the real ones), descends
 * the tree by UCB1 for whoever decides at each node (the Count's and the dragon's decisions,
 * captures and ransoms too), samples tile draws by their probabilities, adds one node (at level 5
 * in classic, placements that complete a feature before the others), plays a
 * few random decisions (at level 5 in 2-player classic, with placements and follower decisions
 * chosen by priors fitted to its own searches; in The Castle, from level 3 up, a random game to
 * the end) and scores the
 * position by its projected scores, with each follower still
 * in supply worth up to 2 points (falling with the tiles left). Each player's reward is
 * a logistic curve of their score difference to their best opponent (0.5 when level, 0.73 ten
 * points ahead): it maximises its own result in games of 2 to 5 players alike. It plays the most
 * searched move.
 *
 * Deterministic for an iteration budget: same options and state, same move (no `Math.random`, no
 * clock). Memory: the tree stops growing at `maxNodes` nodes. docs/bots.md has the levels.
 *
 * @throws An `Error` named `BotError` with a `code` from {@link BOT_ERROR_CODES}: at once for bad
 * options (`bots/unknown-level`, `bots/bad-budget`, `bots/bad-options`); when asked for a move
 * once the game is over (`bots/game-over`) or for a state of other rules (`bots/ruleset-mismatch`).
 *
 * @example
 * ```ts
 * import { applyMove, createRuleset, newGame } from 'meeplekit';
 * import { greedyBot, searchBot } from 'meeplekit/bots';
 * import { createRandomSource } from 'meeplekit';
 *
 * const rules = createRuleset({ game: 'classic' });
 * if (!rules.ok) throw new Error(rules.error.message);
 * const game = newGame(rules.value, { players: 2, seed: 'search' });
 * if (!game.ok) throw new Error(game.error.message);
 *
 * const bots = [searchBot({ iterations: 30, seed: 'a' }), greedyBot(createRandomSource('b'))];
 * let state = game.value;
 * for (let i = 0; i < 6 && state.step.kind !== 'game-over'; i++) {
 *   const next = applyMove(rules.value, state, bots[state.step.player]!(rules.value, state));
 *   if (!next.ok) throw new Error(next.error.message);
 *   state = next.value.state;
 * }
 * console.log(state.scores);
 * ```
 */
export function searchBot(options: SearchOptions = {}): Bot {
  const checked = resolveOptions(options);
  if (!checked.ok) throw botFailure(checked.error);
  return (rules, state) => {
    const search = createSearch(rules, state, options);
    if (!search.ok) throw botFailure(search.error);
    runSearch(search.value);
    return bestMove(search.value);
  };
}
