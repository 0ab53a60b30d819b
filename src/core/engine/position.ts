/**
 * Positions built from a list of turns, for tests, tutorials and puzzles: each turn names the
 * tile drawn and where it goes, the game's chosen draws make that tile come, and every move is
 * validated by the same code as `applyMove`, with the same errors.
 */
import { meepleError, showValue, type MeepleError } from '../errors.js';
import { err, ok, type Result } from '../result.js';
import type { Ruleset } from '../ruleset.js';
import type { GameState, Move } from '../state.js';
import type { Rotation } from '../types.js';
import { checkGameOptions } from './apply.js';
import { cloneState } from './clone.js';
import { deepFreeze } from './sharing.js';
import { checkMove } from './legal.js';
import { ChosenDrawError, chosenDraws } from './chosen-draws.js';
import { playMove } from './play.js';
import { setupGame } from './setup.js';

// The entry file exports this module's names in one line; these two types of the API are
// declared with the functions that take them and exported from here with the rest.
export type { UndoOptions } from './serialize.js';
export type { UntrustedMove } from './apply.js';

/** Most turns a position may list (far above any game's tiles). */
const MAX_TURNS = 10_000;

/** One turn of a position: the tile drawn, where it goes, and what follows it. */
export interface PositionTurn {
  /** The tile kind drawn for this turn (`'D'`): it is the turn's chosen draw. */
  readonly tile: string;
  /** Column. */
  readonly x: number;
  /** Row. */
  readonly y: number;
  /** Quarter turns clockwise. */
  readonly rotation: Rotation;
  /** A follower onto this feature of the tile (its local id, such as `'c1'`). Absent: the player passes if asked. */
  readonly deploy?: string;
  /**
   * Further moves of the turn, after the placement and the deployment, in order: an expansion's
   * action instead of a deployment (a tower piece), The Castle's scoring order, a decision of
   * another player (the Count's). Without `deploy`, a player asked about a follower passes: before
   * these moves, unless the first of them is a move of that step (an expansion's action), else
   * after them.
   */
  readonly moves?: readonly Move[];
}

/** What {@link buildPosition} builds a position from. */
export interface PositionOptions {
  /** Number of players. */
  readonly players: number;
  /** Seed of the draws after the chosen ones (see `NewGameOptions.seed`; omitted: a fresh random seed). */
  readonly seed?: string | number | undefined;
  /** The turns, in order, starting with player 0's first turn. */
  readonly turns: readonly PositionTurn[];
  /** Tiles drawn after the turns, in order: the first is the tile the player to move holds. Then the seed draws. */
  readonly next?: readonly string[];
  /** The Castle's face-down wall tokens (see `NewGameOptions.tokens`). */
  readonly tokens?: readonly number[];
}

const OPTION_KEYS = ['players', 'seed', 'turns', 'next', 'tokens'];
const TURN_KEYS = ['tile', 'x', 'y', 'rotation', 'deploy', 'moves'];

/**
 * Builds a position by playing `turns` from a new game: each turn's tile is drawn for it (the
 * turns' tiles, then `next`, are the game's chosen draws), placed, a follower deployed on
 * `deploy`, the turn's `moves` played, and a pass when the player is asked about a follower and
 * the turn says nothing (see {@link PositionTurn.moves}). Every move is validated as `applyMove`
 * validates it. The result is an ordinary state: `parseState`,
 * replays and `undo` accept it, and play goes on from it with `applyMove`.
 *
 * Errors carry the failing turn's `index`: the move's own error (`place/edge-mismatch`,
 * `deploy/feature-occupied`, ...; the message says which move of the turn), `position/malformed`
 * (a turn that is not `{ tile, x, y, rotation, deploy?, moves? }`, or a tile kind these rules do
 * not have), `position/tile-discarded` (the turn's tile fits nowhere, so it was discarded when it
 * was drawn), `position/unfinished-turn` (the game still waits for a decision of the turn: add it
 * to the turn's `moves`), `draw/held-back` (the rules hold the next chosen tile back after this
 * turn). `options/players`, `options/seed`, `options/draws` (more copies of a tile than the game
 * has, the first tile held back, bad tokens) and `position/malformed` without an index concern
 * the options as a whole.
 *
 * @example
 * ```ts
 * import { buildPosition, createRuleset, featureAt } from 'meeplekit';
 *
 * const rules = createRuleset({ game: 'classic' });
 * if (!rules.ok) throw new Error(rules.error.message);
 * const position = buildPosition(rules.value, {
 *   players: 2,
 *   seed: 'puzzle-1',
 *   turns: [
 *     { tile: 'D', x: 1, y: 0, rotation: 0, deploy: 'c1' }, // player 0: the road goes on east; a knight in the new city
 *     { tile: 'E', x: 0, y: -1, rotation: 2 }, // player 1: closes the start tile's city from the north; no follower
 *   ],
 *   next: ['F'], // player 0 holds F now
 * });
 * if (!position.ok) throw new Error(`turn ${position.error.index}: ${position.error.message}`);
 * console.log(position.value.step); // { kind: 'place-tile', player: 0, tile: 'F' }
 * console.log(featureAt(rules.value, position.value, { x: 1, y: 0, feature: 'c1' }).ok); // true
 * ```
 */
export function buildPosition(rules: Ruleset, options: PositionOptions): Result<GameState, MeepleError> {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    return err(meepleError('position/malformed', `buildPosition needs an options object { players, seed?, turns, next?, tokens? }, got ${showValue(options)}`));
  }
  const o = options as unknown as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    if (!OPTION_KEYS.includes(k)) return err(meepleError('position/malformed', `unknown position option '${k}' (options: ${OPTION_KEYS.join(', ')})`));
  }
  const turns = o['turns'];
  if (!Array.isArray(turns) || turns.length > MAX_TURNS) {
    return err(meepleError('position/malformed', `turns must be an array of at most ${MAX_TURNS} turns, got ${showValue(turns)}`));
  }
  for (let i = 0; i < turns.length; i++) {
    const problem = turnProblem(rules, turns[i]);
    if (problem !== null) return err(meepleError('position/malformed', `turn ${i}: ${problem}`, { index: i }));
  }
  const next = o['next'] ?? [];
  if (!Array.isArray(next)) return err(meepleError('position/malformed', `next must be an array of tile kind ids, got ${showValue(next)}`));
  const list = turns as PositionTurn[];
  const game = checkGameOptions(rules, {
    players: o['players'],
    seed: o['seed'],
    draws: [...list.map((t) => t.tile), ...(next as unknown[])],
    tokens: o['tokens'],
  });
  if (!game.ok) return game;
  let s: GameState;
  try {
    s = setupGame(rules, game.value.players, game.value.seed, null, game.value.chosen);
  } catch (e) {
    if (e instanceof ChosenDrawError) return err(e.error);
    throw e;
  }
  for (let i = 0; i < list.length; i++) {
    const t = list[i]!;
    const step = s.step;
    // The turns' tiles are chosen draws 0, 1, ...: one more made than this turn's means it was discarded.
    const made = chosenDraws(s.rng, rules.tiles.length) as { readonly next: number };
    if (step.kind !== 'place-tile' || made.next !== i + 1) {
      return err(
        meepleError('position/tile-discarded', `turn ${i}: tile ${t.tile} fits nowhere on the board when it is drawn, so it was discarded (the rules then draw the next tile)`, {
          index: i,
        }),
      );
    }
    const turn = s.turn;
    const player = step.player;
    /** Plays one move of the turn, validated; its error names the turn and the move. */
    const play = (move: unknown, which: string): MeepleError | null => {
      const problem = checkMove(rules, s, move);
      if (problem !== null) return { ...problem, message: `turn ${i}, ${which}: ${problem.message}`, index: i };
      try {
        playMove(rules, s, move as Move, null);
      } catch (e) {
        if (e instanceof ChosenDrawError) return { ...e.error, message: `after turn ${i}: ${e.error.message}`, index: i };
        throw e;
      }
      return null;
    };
    // Asked about a follower with none to deploy, the player passes: before the turn's moves
    // when the next of them is legal only after a pass (not when it answers the question itself,
    // as an expansion's action does, nor when it is wrong either way: its error is shown as it
    // is), or after them.
    let asked = t.deploy === undefined;
    const passIfAsked = (next: unknown): MeepleError | null => {
      if (!asked || s.turn !== turn || s.step.kind !== 'deploy') return null;
      const pass = { type: 'pass', player: s.step.player } as const;
      if (next !== undefined && (checkMove(rules, s, next) === null || !legalAfter(rules, s, pass, next))) return null;
      asked = false;
      return play(pass, 'the pass');
    };
    let problem = play({ type: 'place', player, x: t.x, y: t.y, rotation: t.rotation }, 'the placement');
    if (problem === null && t.deploy !== undefined) problem = play({ type: 'deploy', player, feature: t.deploy }, 'the deployment');
    const extra = t.moves ?? [];
    for (let j = 0; problem === null && j < extra.length; j++) {
      problem = passIfAsked(extra[j]) ?? play(extra[j], `move ${j} of its moves`);
    }
    problem ??= passIfAsked(undefined);
    if (problem !== null) return err(problem);
    if (s.turn === turn && s.step.kind !== 'game-over') {
      const waiting = s.step;
      return err(
        meepleError(
          'position/unfinished-turn',
          `turn ${i} is not finished: the game waits for ${waiting.kind} by player ${waiting.player} (add the move to the turn's moves)`,
          { index: i },
        ),
      );
    }
  }
  return ok(deepFreeze(s));
}

/** Whether `next` is legal after `first` (played on a copy); true when `first` ends in a chosen draw held back, which playing it then reports. */
function legalAfter(rules: Ruleset, s: GameState, first: Move, next: unknown): boolean {
  const copy = cloneState(s);
  try {
    playMove(rules, copy, first, null);
  } catch (e) {
    if (e instanceof ChosenDrawError) return true;
    throw e;
  }
  return checkMove(rules, copy, next) === null;
}

/** Why a value is not a {@link PositionTurn} (its shape; the moves check the rest), or null. */
function turnProblem(rules: Ruleset, t: unknown): string | null {
  if (typeof t !== 'object' || t === null || Array.isArray(t)) return `a turn must be an object { tile, x, y, rotation, deploy?, moves? }, got ${showValue(t)}`;
  const r = t as Record<string, unknown>;
  for (const k of Object.keys(r)) if (!TURN_KEYS.includes(k)) return `a turn has no field '${k}' (fields: ${TURN_KEYS.join(', ')})`;
  const tile = r['tile'];
  if (typeof tile !== 'string' || !Object.hasOwn(rules.tileIndex, tile)) return `${showValue(tile)} is no tile kind of ${rules.id}`;
  if (r['deploy'] !== undefined && typeof r['deploy'] !== 'string') return `deploy must be a feature id such as "c1", got ${showValue(r['deploy'])}`;
  if (r['moves'] !== undefined && (!Array.isArray(r['moves']) || r['moves'].length > 100)) return `moves must be an array of at most 100 moves, got ${showValue(r['moves'])}`;
  return null;
}
