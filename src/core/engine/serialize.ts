/**
 * Versioned JSON for states, replays and undo. A state carries its definition (its seed and its
 * chosen draws, if any) and every move, which together determine it; `parseState` replays them
 * and requires the result to equal the given state exactly, so a malformed or tampered state is
 * refused with the first differing path.
 */
import { meepleError, showValue, type MeepleError } from '../errors.js';
import { firstDifference } from './json-diff.js';
import type { Emit, GameEvent, UndoneEvent } from '../events.js';
import { err, ok, type Result } from '../result.js';
import type { Ruleset, RulesetSpec } from '../ruleset.js';
import type { GameState, Move } from '../state.js';
import type { Immutable } from '../types.js';
import { checkGameOptions, type GameOptions, type Transition } from './apply.js';
import { cloneJson, cloneState } from './clone.js';
import { deepFreeze } from './sharing.js';
import { checkMove } from './legal.js';
import { ChosenDrawError, chosenDraws, NO_CHOSEN } from './chosen-draws.js';
import { playMove } from './play.js';
import { setupGame } from './setup.js';

/** The `format` tag of serialized states. */
export const STATE_FORMAT = 'meeplekit/state';
/** The version of the serialized state format; bumped on any incompatible change. */
export const STATE_VERSION = 2;
/** The `format` tag of replays. */
export const REPLAY_FORMAT = 'meeplekit/replay';
/** The version of the replay format. */
export const REPLAY_VERSION = 1;

/** Most moves a state or replay may hold (far above any real game). */
const MAX_MOVES = 100_000;

/** A replay: everything needed to rebuild a game, rules included. Plain JSON. */
export interface Replay {
  /** Always {@link REPLAY_FORMAT}. */
  readonly format: typeof REPLAY_FORMAT;
  /** Always {@link REPLAY_VERSION} for replays written by this version. */
  readonly version: typeof REPLAY_VERSION;
  /** The ruleset options (as given to `createRuleset`). */
  readonly ruleset: RulesetSpec;
  /** Number of players. */
  readonly players: number;
  /** The game's seed. */
  readonly seed: string;
  /** The game's chosen draws (tile kind ids), when it has any (see `NewGameOptions.draws`). */
  readonly draws?: readonly string[];
  /** The Castle's chosen face-down wall tokens, when the game has any (see `NewGameOptions.tokens`). */
  readonly tokens?: readonly number[];
  /** Every move, in order. */
  readonly moves: readonly Move[];
}

/**
 * Serializes a state to versioned JSON text: `{ "format": "meeplekit/state", "version": 1,
 * "state": ... }`. Same state, same text, byte for byte. The text includes the seed and the chosen
 * draws, which fix every future draw: store it on the server, and send players {@link observe}
 * views instead.
 *
 * @example
 * ```ts
 * import { createRuleset, newGame, parseState, serializeState } from 'meeplekit';
 *
 * const rules = createRuleset({ game: 'classic' });
 * if (!rules.ok) throw new Error(rules.error.message);
 * const game = newGame(rules.value, { players: 2, seed: 'saved-game' });
 * if (!game.ok) throw new Error(game.error.message);
 *
 * const text = serializeState(game.value); // store it anywhere
 * const loaded = parseState(rules.value, text);
 * if (loaded.ok) console.log(serializeState(loaded.value) === text); // true
 * ```
 */
export function serializeState(state: Immutable<GameState>): string {
  return JSON.stringify({ format: STATE_FORMAT, version: STATE_VERSION, state });
}

/**
 * Replays `moves` from a new game of the given definition; the rebuilt state, or the first bad
 * move (`replay/illegal-move` with its `index`), or a chosen draw that cannot be made: at set-up
 * (`options/draws`, no `index`) or after move `index` (`draw/held-back`). @internal
 */
export function rebuild(rules: Ruleset, game: GameOptions, moves: readonly unknown[], emit: Emit): Result<GameState, MeepleError> {
  let s: GameState;
  try {
    s = setupGame(rules, game.players, game.seed, emit, game.chosen);
  } catch (e) {
    if (e instanceof ChosenDrawError) return err(e.error);
    throw e;
  }
  for (let i = 0; i < moves.length; i++) {
    const problem = checkMove(rules, s, moves[i]);
    if (problem !== null) {
      return err(meepleError('replay/illegal-move', `move ${i} cannot be played: ${problem.message}`, { index: i, cause: problem }));
    }
    try {
      playMove(rules, s, moves[i] as Move, emit);
    } catch (e) {
      if (e instanceof ChosenDrawError) return err({ ...e.error, message: `after move ${i}: ${e.error.message}`, index: i });
      throw e;
    }
  }
  return ok(s);
}

/** The definition of a state's game (players, seed, chosen draws), or why it has none (`state/malformed`). */
function definitionOf(rules: Ruleset, st: Readonly<Record<string, unknown>>): Result<GameOptions, MeepleError> {
  const opts = checkGameOptions(rules, { players: st['players'], seed: st['seed'] }, true);
  if (!opts.ok || typeof st['seed'] !== 'string') {
    return err(meepleError('state/malformed', `players or seed invalid: ${opts.ok ? 'seed must be a string' : opts.error.message}`, { path: '$.state' }));
  }
  const chosen = chosenDraws(st['rng'], rules.tiles.length);
  if (typeof chosen === 'string') return err(meepleError('state/malformed', chosen, { path: '$.state.rng' }));
  return ok({ ...opts.value, chosen: chosen ?? NO_CHOSEN });
}

/**
 * Parses a serialized state (text or an already parsed object) and validates it completely:
 * format and version, ruleset, then a replay of its moves from its definition (its seed and
 * chosen draws), which must reproduce the state exactly. The definition also fixes what has not
 * happened yet, which a replay cannot check: whoever may write a saved state can rewrite the
 * chosen draws still to come, as they can read every future draw from it. With `{ trusted: true }`
 * (a server reading back what it stored itself) the replay is skipped: see
 * {@link ParseStateOptions.trusted}. Returns a frozen state; never throws. Errors: `state/json`,
 * `state/malformed`, `state/version`, `state/ruleset-mismatch`, and `state/tampered` (with the
 * `path` of the first field that disagrees with the replay) for anything edited by hand.
 *
 * @example
 * ```ts
 * import { createRuleset, newGame, parseState, serializeState } from 'meeplekit';
 *
 * const rules = createRuleset({ game: 'classic' });
 * if (!rules.ok) throw new Error(rules.error.message);
 * const game = newGame(rules.value, { players: 2, seed: 'saved-game' });
 * if (!game.ok) throw new Error(game.error.message);
 *
 * const data = JSON.parse(serializeState(game.value));
 * data.state.scores[0] = 99; // a player edits the saved game
 * const loaded = parseState(rules.value, data);
 * if (!loaded.ok) console.log(loaded.error.code, loaded.error.path); // state/tampered $.state.scores[0]
 * ```
 */
export function parseState(rules: Ruleset, input: unknown, options: ParseStateOptions = {}): Result<GameState, MeepleError> {
  if (typeof options !== 'object' || options === null || Object.keys(options).some((k) => k !== 'trusted') || (options.trusted !== undefined && typeof options.trusted !== 'boolean')) {
    return err(meepleError('options/malformed', 'parseState options are { trusted?: boolean }'));
  }
  const envelope = stateEnvelope(rules, input, STATE_FORMAT, STATE_VERSION, 'state');
  if (!envelope.ok) return envelope;
  const st = envelope.value;
  if (options.trusted === true) return trustedState(typeof input === 'string' ? st : (cloneJson(st) as Record<string, unknown>));
  const game = definitionOf(rules, st);
  if (!game.ok) return game;
  const moves = st['moves'];
  if (!Array.isArray(moves) || moves.length > MAX_MOVES) {
    return err(meepleError('state/malformed', `moves must be an array of at most ${MAX_MOVES} moves`, { path: '$.state.moves' }));
  }
  const rebuilt = rebuild(rules, game.value, moves, null);
  if (!rebuilt.ok) {
    const index = rebuilt.error.index;
    // No game could ever reach such a state: its chosen draws are impossible, or its history is.
    return err(
      meepleError('state/tampered', `${index === undefined ? 'its chosen draws cannot start a game' : 'its move history does not replay'}: ${rebuilt.error.message}`, {
        path: index === undefined ? '$.state.rng' : `$.state.moves[${index}]`,
        cause: rebuilt.error,
      }),
    );
  }
  const diff = firstDifference(rebuilt.value, st, '$.state');
  if (diff !== null) {
    return err(meepleError('state/tampered', `the state does not match what its own definition (seed, chosen draws) and moves give at ${diff}`, { path: diff }));
  }
  return ok(deepFreeze(rebuilt.value));
}

/** Options of {@link parseState}. */
export interface ParseStateOptions {
  /**
   * `true`: skip the replay, for a server loading states it wrote itself to storage nobody else
   * can write. The envelope (format, version, ruleset) and the state's fields and their types are
   * still checked, but a state edited by hand is **not** detected, and one edited inside a field
   * (a frontier, the feature graph) may make later calls throw or misbehave. About five times
   * faster for a finished classic game (docs/benchmarks.md). Never for input a player can write.
   */
  readonly trusted?: boolean;
}

/** The fields of a `GameState` and what each must be (`a`: array, `s`: string, `n`: integer, `o`: object, `f`: object or null). */
const STATE_FIELDS: Readonly<Record<string, 'a' | 's' | 'n' | 'o' | 'f'>> = {
  ruleset: 's',
  players: 'n',
  seed: 's',
  rng: 'a',
  bag: 'a',
  bagSize: 'n',
  discarded: 'a',
  step: 'o',
  active: 'n',
  turn: 'n',
  scores: 'a',
  supply: 'a',
  tiles: 'a',
  cells: 'a',
  frontier: 'a',
  demand: 'a',
  features: 'o',
  areas: 'a',
  followers: 'a',
  moves: 'a',
  flow: 'f',
  ext: 'o',
};

/** A state from trusted storage: its fields and their types checked, no replay. */
function trustedState(st: Record<string, unknown>): Result<GameState, MeepleError> {
  const keys = Object.keys(st);
  for (const [k, type] of Object.entries(STATE_FIELDS)) {
    const v = st[k];
    const fine =
      type === 'a' ? Array.isArray(v) : type === 's' ? typeof v === 'string' : type === 'n' ? Number.isInteger(v) : type === 'o' ? isRecord(v) : v === null || isRecord(v);
    if (!fine) return err(meepleError('state/malformed', `a trusted state needs the field ${k} (${{ a: 'an array', s: 'a string', n: 'an integer', o: 'an object', f: 'an object or null' }[type]})`, { path: `$.state.${k}` }));
  }
  if (keys.length !== Object.keys(STATE_FIELDS).length) {
    const extra = keys.find((k) => !Object.hasOwn(STATE_FIELDS, k))!;
    return err(meepleError('state/malformed', `a state has no field ${extra}`, { path: `$.state.${extra}` }));
  }
  // The kept bag size decides every draw: it must be the bag's sum, whatever the storage holds.
  const bag = st['bag'] as unknown[];
  let size = 0;
  for (const n of bag) {
    if (!Number.isInteger(n) || (n as number) < 0) return err(meepleError('state/malformed', 'a trusted state\'s bag holds counts (integers of at least 0)', { path: '$.state.bag' }));
    size += n as number;
  }
  if (st['bagSize'] !== size) return err(meepleError('state/malformed', `a trusted state's bagSize (${String(st['bagSize'])}) is not the sum of its bag (${size})`, { path: '$.state.bagSize' }));
  return ok(deepFreeze(st as unknown as GameState));
}

/**
 * A replay of the game so far: ruleset options, players, seed, chosen draws (when the game has
 * any) and moves. Plain JSON: store it or send it with `JSON.stringify`, and rebuild the game with
 * {@link replay}. Like a serialized state it holds the seed and the chosen draws, which fix every
 * future draw: keep replays of running games on the server.
 *
 * @example
 * ```ts
 * import { applyMove, createRuleset, legalMoves, makeReplay, newGame, replay } from 'meeplekit';
 *
 * const rules = createRuleset({ game: 'classic' });
 * if (!rules.ok) throw new Error(rules.error.message);
 * const game = newGame(rules.value, { players: 2, seed: 'replayed' });
 * if (!game.ok) throw new Error(game.error.message);
 * const next = applyMove(rules.value, game.value, legalMoves(rules.value, game.value)[0]);
 * if (!next.ok) throw new Error(next.error.message);
 *
 * const text = JSON.stringify(makeReplay(rules.value, next.value.state));
 * const again = replay(rules.value, text);
 * if (again.ok) console.log(again.value.events.map((e) => e.type)); // [ 'tile-placed' ]
 * ```
 */
export function makeReplay(rules: Ruleset, state: Immutable<GameState>): Replay {
  const chosen = chosenDraws(state.rng, rules.tiles.length);
  const record = typeof chosen === 'object' && chosen !== null ? chosen : NO_CHOSEN;
  return {
    format: REPLAY_FORMAT,
    version: REPLAY_VERSION,
    ruleset: rules.options,
    players: state.players,
    seed: state.seed,
    ...(record.draws.length > 0 ? { draws: record.draws.map((k) => rules.tiles[k]!.def.id) } : {}),
    ...(record.tokens.length > 0 ? { tokens: [...record.tokens] } : {}),
    moves: state.moves.map((m) => ({ ...m }) as Move),
  };
}

/** What {@link replay} returns. */
export interface ReplayResult {
  /** The final state of the replay (frozen). */
  readonly state: GameState;
  /** Every event from the start of the game (the set-up's first draw excluded). */
  readonly events: readonly GameEvent[];
}

/**
 * Rebuilds a game from a replay (text or object) with the given rules, which must match the
 * replay's ruleset options. Every move is validated; the first illegal one is reported as
 * `replay/illegal-move` with its `index` and the move's own error as `cause`; a chosen draw the
 * rules hold back after move `index` as `draw/held-back`; chosen draws or tokens that cannot
 * start a game as `replay/malformed` with their `options/draws` error as `cause`. See
 * {@link makeReplay} for an example.
 */
export function replay(rules: Ruleset, input: unknown): Result<ReplayResult, MeepleError> {
  const parsed = parseJsonText(input, 'replay/json');
  if (!parsed.ok) return parsed;
  const data = parsed.value;
  if (!isRecord(data) || data['format'] !== REPLAY_FORMAT) {
    return err(meepleError('replay/malformed', `a replay must be an object with format '${REPLAY_FORMAT}'`, { path: '$.format' }));
  }
  if (data['version'] !== REPLAY_VERSION) {
    return err(meepleError('replay/version', `unsupported replay version ${showValue(data['version'])}`, { path: '$.version' }));
  }
  // `expansions` is optional in the options (createRuleset({ game: 'classic' })): absent means none.
  const given = isRecord(data['ruleset']) && !Object.hasOwn(data['ruleset'], 'expansions') ? { ...data['ruleset'], expansions: [] } : data['ruleset'];
  if (firstDifference(rules.options, given, '$.ruleset') !== null) {
    return err(meepleError('state/ruleset-mismatch', `the replay's ruleset ${showValue(data['ruleset'])} is not '${rules.id}'`, { path: '$.ruleset' }));
  }
  const opts = checkGameOptions(rules, { players: data['players'], seed: data['seed'], draws: data['draws'], tokens: data['tokens'] }, true);
  if (!opts.ok || typeof data['seed'] !== 'string') {
    return err(meepleError('replay/malformed', opts.ok ? 'seed must be a string' : opts.error.message, opts.ok ? { path: '$' } : { path: '$', cause: opts.error }));
  }
  const moves = data['moves'];
  if (!Array.isArray(moves) || moves.length > MAX_MOVES) {
    return err(meepleError('replay/malformed', `moves must be an array of at most ${MAX_MOVES} moves`, { path: '$.moves' }));
  }
  const events: GameEvent[] = [];
  const rebuilt = rebuild(rules, opts.value, moves, (e) => events.push(e));
  if (!rebuilt.ok) {
    if (rebuilt.error.code !== 'options/draws') return rebuilt;
    return err(meepleError('replay/malformed', rebuilt.error.message, { path: '$', cause: rebuilt.error }));
  }
  // The set-up's own draw is part of newGame, not of any move: drop events before the first move.
  return ok({ state: deepFreeze(rebuilt.value), events: events.slice(firstMoveEvent(events)) });
}

function firstMoveEvent(events: readonly GameEvent[]): number {
  const i = events.findIndex((e) => e.type !== 'tile-drawn' && e.type !== 'tile-discarded');
  return i < 0 ? events.length : i;
}

/** Options of {@link undo}. */
export interface UndoOptions {
  /**
   * `'any'` (the default): any number of moves may be taken back. `'before-draw'`: only moves
   * after which nothing left to chance came to light: no tile was drawn (a move that ends a turn
   * draws the next player's tile) and nothing a module hides was shown (a value its `observe`
   * hook masks is no longer masked: The Castle's face-down token taken off the wall; also, to be
   * safe, the tokens cleared unseen at the end of the game). Anything else is refused as
   * `undo/draw-seen`. Use it for served games: the draw order does not depend on the moves, so a
   * player who takes back a turn after seeing the next tile would choose again knowing it.
   */
  readonly policy?: 'any' | 'before-draw';
  /**
   * `true`: return a {@link Transition} (the state, and the undo's one event, an
   * {@link UndoneEvent}) instead of the state alone, so that the undo reaches clients like a move
   * (`viewDelta(before, after, { events })`). Default false.
   */
  readonly events?: boolean;
}

/**
 * Takes back the last `count` moves (default 1) by replaying the others from the game's
 * definition (seed and chosen draws). The draw order is fixed by it, so the same tiles come again.
 * A turn is one move (a placement with nothing to deploy on) or two (a placement, then a
 * deployment or a pass), more with an expansion's decisions. Fails with `undo/nothing-to-undo`
 * when fewer than `count` moves have been played, and under the `'before-draw'` policy (see
 * {@link UndoOptions.policy}) with `undo/draw-seen` (its `index` the move after which the draw or
 * the reveal happened) when one of them revealed chance.
 *
 * @example
 * ```ts
 * import { applyMove, createRuleset, legalMoves, newGame, undo } from 'meeplekit';
 *
 * const rules = createRuleset({ game: 'classic' });
 * if (!rules.ok) throw new Error(rules.error.message);
 * const game = newGame(rules.value, { players: 2, seed: 'oops' });
 * if (!game.ok) throw new Error(game.error.message);
 * const next = applyMove(rules.value, game.value, legalMoves(rules.value, game.value)[0]);
 * if (!next.ok) throw new Error(next.error.message);
 *
 * const back = undo(rules.value, next.value.state);
 * if (back.ok) console.log(back.value.step); // the same step as game.value.step: same tile again
 *
 * // A served game: the placement may be taken back, but not once the next tile is drawn.
 * const served = undo(rules.value, next.value.state, 1, { policy: 'before-draw' });
 * console.log(served.ok || served.error.code); // true, or undo/draw-seen if that move ended the turn
 *
 * // With its event, to animate it or send it in a view delta like a move's events.
 * const told = undo(rules.value, next.value.state, 1, { events: true });
 * if (told.ok) console.log(told.value.events[0]?.type); // undone
 * ```
 */
export function undo(rules: Ruleset, state: Immutable<GameState>, count?: number, options?: UndoOptions & { readonly events?: false }): Result<GameState, MeepleError>;
/**
 * Takes back the last `count` moves, as the overload above, and returns the state with the
 * undo's event (`{ events: true }`): one {@link UndoneEvent} naming the moves taken back, the
 * number of moves before and after (a view's `seq`) and the turns taken back. Deliver it like a
 * move's events: to a UI, or to clients in `viewDelta(before, after, { events })`.
 */
export function undo(rules: Ruleset, state: Immutable<GameState>, count: number, options: UndoOptions & { readonly events: true }): Result<Transition, MeepleError>;
/**
 * Takes back the last `count` moves with options whose `events` is not known when compiling: the
 * state alone, or a {@link Transition} when `options.events` is true.
 */
export function undo(rules: Ruleset, state: Immutable<GameState>, count?: number, options?: UndoOptions): Result<GameState | Transition, MeepleError>;
export function undo(rules: Ruleset, state: Immutable<GameState>, count = 1, options: UndoOptions = {}): Result<GameState | Transition, MeepleError> {
  if (state.ruleset !== rules.id) {
    return err(meepleError('state/ruleset-mismatch', `state belongs to ruleset '${state.ruleset}', not '${rules.id}'`));
  }
  if (!Number.isInteger(count) || count < 1 || count > state.moves.length) {
    return err(meepleError('undo/nothing-to-undo', `cannot undo ${showValue(count)} move(s): ${state.moves.length} have been played`));
  }
  const policy = (options as { policy?: unknown } | null)?.policy ?? 'any';
  if (policy !== 'any' && policy !== 'before-draw') {
    return err(meepleError('options/malformed', `undo policy must be 'any' or 'before-draw', got ${showValue(policy)}`));
  }
  const game = definitionOf(rules, state as unknown as Readonly<Record<string, unknown>>);
  if (!game.ok) return game;
  const kept = state.moves.length - count;
  const rebuilt = rebuild(rules, game.value, state.moves.slice(0, kept), null);
  if (!rebuilt.ok) return rebuilt;
  if (policy === 'before-draw') {
    const seen = lastReveal(rules, rebuilt.value, state.moves, kept);
    if (typeof seen !== 'number') return err(seen);
    if (seen >= 0) {
      const allowed = state.moves.length - 1 - seen;
      return err(
        meepleError(
          'undo/draw-seen',
          `cannot take back move ${seen}: chance came to light after it (a tile drawn or a hidden token shown), and undo policy 'before-draw' keeps what the players have seen; ${allowed === 0 ? 'no move' : `only the last ${allowed} move(s)`} can be taken back now`,
          { index: seen },
        ),
      );
    }
  }
  const back = deepFreeze(rebuilt.value);
  if ((options as { events?: unknown } | null)?.events !== true) return ok(back);
  const step = back.step;
  const event: UndoneEvent = {
    type: 'undone',
    moves: cloneJson(state.moves.slice(kept)) as Move[],
    from: state.moves.length,
    to: kept,
    turns: state.turn - back.turn,
    player: step.kind === 'game-over' ? -1 : step.player,
  };
  return ok({ state: back, events: [event] });
}

/**
 * The index of the last of `moves[from...]` after which a tile was drawn or something a module
 * hides came to light, played on a copy of `before` (the state before `moves[from]`); -1 when
 * none; the error of a move that does not replay (a forged history).
 */
function lastReveal(rules: Ruleset, before: GameState, moves: readonly Move[], from: number): number | MeepleError {
  const s = cloneState(before);
  let drew = false;
  const emit = (e: GameEvent): void => {
    if (e.type === 'tile-drawn') drew = true;
  };
  let last = -1;
  for (let i = from; i < moves.length; i++) {
    const hidden = hiddenLeaves(rules, s);
    drew = false;
    const problem = checkMove(rules, s, moves[i]);
    if (problem !== null) return meepleError('replay/illegal-move', `move ${i} cannot be played: ${problem.message}`, { index: i, cause: problem });
    try {
      playMove(rules, s, moves[i]!, emit);
    } catch (e) {
      if (e instanceof ChosenDrawError) return { ...e.error, index: i };
      throw e;
    }
    if (drew) last = i;
    else {
      const now = hiddenLeaves(rules, s);
      for (const path of hidden) {
        if (!now.has(path)) {
          last = i;
          break;
        }
      }
    }
  }
  return last;
}

/**
 * Where the modules' slices hold something a spectator's view masks (the paths at which their
 * `observe` hook changes a value): what is still secret. A move after which one of these is no
 * longer masked has shown it (conservatively: also when the secret is removed unseen, as The
 * Castle's wall at the end of the game).
 */
function hiddenLeaves(rules: Ruleset, s: Immutable<GameState>): Set<string> {
  const out = new Set<string>();
  for (const e of rules.expansions) {
    if (e.observe === undefined || !Object.hasOwn(s.ext, e.id)) continue;
    const slice = s.ext[e.id];
    differingLeaves(slice, e.observe(cloneJson(slice), null), e.id, out);
  }
  return out;
}

/** Adds the paths of the leaves where two JSON values differ. */
function differingLeaves(a: unknown, b: unknown, path: string, out: Set<string>): void {
  if (a === b) return;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) {
    out.add(path);
    return;
  }
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  for (const k of new Set([...Object.keys(ra), ...Object.keys(rb)])) differingLeaves(ra[k], rb[k], `${path}.${k}`, out);
}

/** `JSON.parse` for text input (other input is passed through), as a Result. */
/**
 * The state inside a saved state's envelope (text or parsed JSON), checked: JSON, an object of
 * `format` and `version`, whose `state` is an object of these rules. `noun` names the kind of
 * state in messages (`state`, `research state`). @internal
 */
export function stateEnvelope(rules: Ruleset, input: unknown, format: string, version: number, noun: string): Result<Record<string, unknown>, MeepleError> {
  const parsed = parseJsonText(input, 'state/json');
  if (!parsed.ok) return parsed;
  const data = parsed.value;
  if (!isRecord(data)) return err(meepleError('state/malformed', `a serialized ${noun} must be an object`, { path: '$' }));
  if (data['format'] !== format) {
    return err(meepleError('state/malformed', `format must be '${format}', got ${showValue(data['format'])}`, { path: '$.format' }));
  }
  if (data['version'] !== version) {
    return err(meepleError('state/version', `unsupported ${noun} version ${showValue(data['version'])} (this library reads version ${version})`, { path: '$.version' }));
  }
  const st = data['state'];
  if (!isRecord(st)) return err(meepleError('state/malformed', 'state must be an object', { path: '$.state' }));
  if (st['ruleset'] !== rules.id) {
    return err(meepleError('state/ruleset-mismatch', `state belongs to ruleset ${showValue(st['ruleset'])}, not '${rules.id}'`, { path: '$.state.ruleset' }));
  }
  return ok(st);
}

/** Parses JSON text (anything else is taken as already parsed); `code` for text that is not JSON. @internal */
export function parseJsonText(input: unknown, code: 'state/json' | 'replay/json'): Result<unknown, MeepleError> {
  if (typeof input !== 'string') return ok(input);
  try {
    return ok(JSON.parse(input) as unknown);
  } catch (e) {
    return err(meepleError(code, `not JSON: ${(e as Error).message}`));
  }
}

/** Whether a JSON value is an object (not an array, not null). @internal */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

