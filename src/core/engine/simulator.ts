/**
 * The Simulator: a mutable copy of a state that runs the very same rules recipe as
 * `applyMove`, without immer, for playouts and search. Clone it to branch.
 */
import { meepleError, type MeepleError } from '../errors.js';
import type { Emit, GameEvent } from '../events.js';
import { err, ok, type Result } from '../result.js';
import type { RandomSource } from '../rng.js';
import type { Ruleset } from '../ruleset.js';
import type { GameState, Move, Step } from '../state.js';
import type { Immutable } from '../types.js';
import { cloneState } from './clone.js';
import { deepFreeze } from './sharing.js';
import { checkMove, countMoves, listMoves, nthMove, randomMove } from './legal.js';
import { playMove } from './play.js';

/** Options of {@link createSimulator}. */
export interface SimulatorOptions {
  /** Collect events (read them with `takeEvents`). Off by default: playouts are faster without. */
  readonly events?: boolean;
}

/**
 * A mutable game for playouts. Every method runs the same rule code as `applyMove`; a property
 * test proves the two paths reach byte-identical states.
 *
 * @example
 * ```ts
 * import { createRandomSource, createRuleset, createSimulator, newGame } from 'meeplekit';
 *
 * const rules = createRuleset({ game: 'classic' });
 * if (!rules.ok) throw new Error(rules.error.message);
 * const game = newGame(rules.value, { players: 2, seed: 'research' });
 * if (!game.ok) throw new Error(game.error.message);
 *
 * const sim = createSimulator(rules.value, game.value);
 * if (!sim.ok) throw new Error(sim.error.message);
 * const random = createRandomSource('playout-1');
 * while (!sim.value.isOver()) sim.value.playRandom(random);
 * console.log(sim.value.scores());
 * ```
 */
export interface Simulator {
  /** The rules the simulator runs. */
  readonly rules: Ruleset;
  /** The live state. Read it, never write it; use {@link Simulator.snapshot} to keep a copy. */
  readonly state: Immutable<GameState>;
  /** The current step. */
  step(): Step;
  /** Whether the game is over. */
  isOver(): boolean;
  /** Scores per player (a copy). */
  scores(): number[];
  /** Legal moves in canonical order (same list as `legalMoves`). */
  legalMoves(): Move[];
  /** Number of legal moves, without building them. */
  countMoves(): number;
  /** The n-th legal move in canonical order, without building the others. */
  nthMove(n: number): Move;
  /** Whether a move is legal now. */
  isLegal(move: unknown): boolean;
  /** Validates and plays a move; on error nothing changes. */
  play(move: unknown): Result<void, MeepleError>;
  /** Plays the move drawn uniformly from the legal moves with `random`, and returns it. */
  playRandom(random: RandomSource): Move;
  /**
   * Plays to the end, choosing each move with `choose(sim, count)` (an index in `[0, count)`
   * into the canonical move order), or uniformly at random with `random`. Returns final scores.
   * Without `choose`, the moves of a place-tile step are drawn by rejection (a random frontier
   * cell and rotation, kept when the tile fits there and the rules allow it, or a move of the
   * whole turn such as the Tower's ransom), and a module's moves at the deploy step are counted
   * and numbered its own way when it can count them (`Expansion.countDeployMoves`: The Princess
   * and the Dragon's portal and fairy): uniform over the legal moves as `playRandom`'s are, and
   * deterministic for a given `random`, but not the moves `playRandom` would pick from the same
   * stream.
   */
  playout(random: RandomSource, choose?: (sim: Simulator, count: number) => number): number[];
  /**
   * An independent copy (same state, same event setting) for branching a search: moves played on
   * either never affect the other. Only records that are never changed are shared.
   */
  clone(): Simulator;
  /** A frozen deep copy of the current state, usable with the immutable API. */
  snapshot(): GameState;
  /** Events collected since the last call (empty unless created with `events: true`). */
  takeEvents(): GameEvent[];
}

class SimulatorImpl implements Simulator {
  readonly rules: Ruleset;
  readonly #s: GameState;
  readonly #collect: boolean;
  #events: GameEvent[] = [];
  readonly #emit: Emit;

  constructor(rules: Ruleset, s: GameState, collect: boolean) {
    this.rules = rules;
    this.#s = s;
    this.#collect = collect;
    this.#emit = collect ? (e) => this.#events.push(e) : null;
  }

  get state(): Immutable<GameState> {
    return this.#s;
  }
  step(): Step {
    return this.#s.step;
  }
  isOver(): boolean {
    return this.#s.step.kind === 'game-over';
  }
  scores(): number[] {
    return this.#s.scores.slice();
  }
  legalMoves(): Move[] {
    return listMoves(this.rules, this.#s);
  }
  countMoves(): number {
    return countMoves(this.rules, this.#s);
  }
  nthMove(n: number): Move {
    return nthMove(this.rules, this.#s, n);
  }
  isLegal(move: unknown): boolean {
    return checkMove(this.rules, this.#s, move) === null;
  }
  play(move: unknown): Result<void, MeepleError> {
    const problem = checkMove(this.rules, this.#s, move);
    if (problem !== null) return err(problem);
    playMove(this.rules, this.#s, move as Move, this.#emit);
    return ok(undefined);
  }
  playRandom(random: RandomSource): Move {
    if (this.#s.step.kind === 'game-over') throw new Error('playRandom: the game is over');
    const move = randomMove(this.rules, this.#s, random, false);
    playMove(this.rules, this.#s, move, this.#emit);
    return move;
  }
  playout(random: RandomSource, choose?: (sim: Simulator, count: number) => number): number[] {
    const s = this.#s;
    while (s.step.kind !== 'game-over') {
      let move: Move;
      if (choose === undefined) move = randomMove(this.rules, s, random, true);
      else {
        const n = countMoves(this.rules, s);
        const i = choose(this, n);
        if (!Number.isInteger(i) || i < 0 || i >= n) throw new RangeError(`playout: choice ${i} is not in [0, ${n})`);
        move = nthMove(this.rules, s, i);
      }
      // The move was made here and is seen by nobody else: the history keeps it as it is.
      playMove(this.rules, s, move, this.#emit, true);
    }
    return s.scores.slice();
  }
  clone(): Simulator {
    return new SimulatorImpl(this.rules, cloneState(this.#s), this.#collect);
  }
  snapshot(): GameState {
    return deepFreeze(cloneState(this.#s));
  }
  takeEvents(): GameEvent[] {
    const out = this.#events;
    this.#events = [];
    return out;
  }
}

/**
 * Creates a {@link Simulator} from a state (which is copied, never changed). Fails with
 * `state/ruleset-mismatch` if the state was made with other rules.
 */
export function createSimulator(
  rules: Ruleset,
  state: Immutable<GameState>,
  options: SimulatorOptions = {},
): Result<Simulator, MeepleError> {
  if (state.ruleset !== rules.id) {
    return err(meepleError('state/ruleset-mismatch', `state belongs to ruleset '${state.ruleset}', not '${rules.id}'`));
  }
  return ok(new SimulatorImpl(rules, cloneState(state), options.events === true));
}
