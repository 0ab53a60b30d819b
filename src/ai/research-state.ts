/**
 * Saving and loading research states: states reached with `applyAction`, a research simulator or
 * `determinize`, which no longer replay from their seed (their draws were chance outcomes, not the
 * generator's). A research state is checked by replaying it from its own record instead: its
 * moves, its tiles in the order they were laid (each one's draw a chance outcome), its discarded
 * tiles (each drawn at the first chance node where it fits nowhere: the same state, whenever it
 * really was drawn) and what its modules' chance nodes decided; the replay must give the state.
 */
import { canPlaceAnywhere } from '../core/board.js';
import { meepleError, type MeepleError } from '../core/errors.js';
import { err, ok, type Result } from '../core/result.js';
import type { Ruleset } from '../core/ruleset.js';
import type { GameState, Move } from '../core/state.js';
import type { Immutable } from '../core/types.js';
import { checkGameOptions } from '../core/engine/apply.js';
import { firstDifference } from '../core/engine/json-diff.js';
import { checkMove } from '../core/engine/legal.js';
import { chosenDraws } from '../core/engine/chosen-draws.js';
import { ownerOf } from '../core/engine/play.js';
import { setupGame } from '../core/engine/setup.js';
import { isRecord, stateEnvelope } from '../core/engine/serialize.js';
import { assertRuleset } from '../core/engine/query.js';
import { CHANCE_STEP, backToChance, concealAll, isChanceNode, isDrawable, playChanceExplicit, playExplicit } from './chance.js';

/** The `format` tag of serialized research states. */
export const RESEARCH_STATE_FORMAT = 'meeplekit/research-state';
/** The version of the research state format; bumped on any incompatible change. */
export const RESEARCH_STATE_VERSION = 2;

/** Most moves a research state may hold (far above any real game), as for app states. */
const MAX_MOVES = 100_000;
/** Longest text `deserializeResearchState` reads (a finished game with every expansion is far below). */
const MAX_TEXT = 16 * 1024 * 1024;

/**
 * A research state as versioned JSON text: `{ "format": "meeplekit/research-state", "version": 1,
 * "state": ... }`. Same state, same text, byte for byte. It holds everything the state holds, the
 * seed and the generator too: keep it where the players cannot read it when it matters.
 *
 * @throws TypeError for a state of other rules.
 *
 * @example
 * ```ts
 * import { createRandomSource, createRuleset } from 'meeplekit';
 * import { createResearchSimulator, deserializeResearchState, newInitialState, serializeResearchState } from 'meeplekit/ai';
 *
 * const rules = createRuleset({ game: 'classic' });
 * if (!rules.ok) throw new Error(rules.error.message);
 * const sim = createResearchSimulator(rules.value, newInitialState(rules.value, { players: 2, seed: 'saved' }));
 * const random = createRandomSource('moves');
 * for (let i = 0; i < 30; i++) sim.applyRandom(random);
 *
 * const text = serializeResearchState(rules.value, sim.state); // or sim.serialize()
 * const loaded = deserializeResearchState(rules.value, text);
 * if (loaded.ok) console.log(serializeResearchState(rules.value, loaded.value) === text); // true
 * ```
 */
export function serializeResearchState(rules: Ruleset, state: Immutable<GameState>): string {
  assertRuleset(rules, state);
  return JSON.stringify({ format: RESEARCH_STATE_FORMAT, version: RESEARCH_STATE_VERSION, state });
}

/**
 * Loads a research state (text or already parsed JSON) and checks it completely: format, version,
 * ruleset, then a replay from its own record (set-up from its seed; its moves, each checked as
 * `applyMove` checks it; its tiles drawn as chance outcomes in the order they lie; its discarded
 * tiles; its modules' decided chance outcomes), which must give the state exactly; only the
 * generator words are taken as they are (any generator is a possible future), and the seed names
 * an origin without deciding anything (what set-up drew from it, The Castle's wall, is read from
 * the state), so any seed is as good. Returns a new plain
 * state; never throws. Errors: `state/json`, `state/malformed`, `state/version`,
 * `state/ruleset-mismatch`, and `state/tampered` with the `path` of the first field that
 * disagrees with the replay. App states (`newGame`, `applyMove`) load too.
 */
export function deserializeResearchState(rules: Ruleset, input: unknown): Result<GameState, MeepleError> {
  if (typeof input === 'string' && input.length > MAX_TEXT) {
    return err(meepleError('state/malformed', `a research state is at most ${MAX_TEXT} characters of text, got ${input.length}`, { path: '$' }));
  }
  const envelope = stateEnvelope(rules, input, RESEARCH_STATE_FORMAT, RESEARCH_STATE_VERSION, 'research state');
  if (!envelope.ok) return envelope;
  const st = envelope.value;
  const record = readRecord(rules, st);
  if (!record.ok) return record;
  const replayed = replayRecord(rules, st, record.value);
  if (!replayed.ok) return replayed;
  const s = replayed.value;
  s.rng = [...(st['rng'] as number[])];
  const diff = firstDifference(s, st, '$.state');
  if (diff !== null) {
    return err(meepleError('state/tampered', `the state does not match what its own record (seed, moves, tiles drawn) gives at ${diff}`, { path: diff }));
  }
  return ok(s);
}

/** What a research state's replay starts from: its definition and the record of what it drew. */
interface ResearchRecord {
  readonly players: number;
  readonly seed: string;
  readonly moves: readonly unknown[];
  /** The tile kinds laid after set-up, in order, then the tile held, if any: the draws to make. */
  readonly laid: readonly number[];
  /** Discarded copies per tile kind. */
  readonly discarded: readonly number[];
}

/** The record of an untrusted research state, or why it has none (`state/malformed`). */
function readRecord(rules: Ruleset, st: Readonly<Record<string, unknown>>): Result<ResearchRecord, MeepleError> {
  const bad = (path: string, message: string): Result<never, MeepleError> => err(meepleError('state/malformed', message, { path: `$.state.${path}` }));
  const opts = checkGameOptions(rules, { players: st['players'], seed: st['seed'] }, true);
  if (!opts.ok || typeof st['seed'] !== 'string') return bad('seed', `players or seed invalid: ${opts.ok ? 'seed must be a string' : opts.error.message}`);
  const rng = st['rng'];
  if (!Array.isArray(rng) || rng.length < 4 || !rng.slice(0, 4).every((w) => typeof w === 'number' && Number.isInteger(w) && w >= 0 && w <= 0xffffffff)) {
    return bad('rng', 'rng must start with the four words of the generator (integers from 0 to 2^32 - 1)');
  }
  if ((rng[0] | rng[1] | rng[2] | rng[3]) === 0) return bad('rng', 'the generator words cannot all be 0');
  const chosen = chosenDraws(rng, rules.tiles.length);
  if (typeof chosen === 'string') return bad('rng', chosen);
  const moves = st['moves'];
  if (!Array.isArray(moves) || moves.length > MAX_MOVES) return bad('moves', `moves must be an array of at most ${MAX_MOVES} moves`);
  const tiles = st['tiles'];
  if (!Array.isArray(tiles) || tiles.length > MAX_MOVES) return bad('tiles', 'tiles must be an array');
  const laid: number[] = [];
  for (let i = 0; i < tiles.length; i++) {
    const t: unknown = tiles[i];
    const id = isRecord(t) ? t['id'] : undefined;
    if (typeof id !== 'string' || !Object.hasOwn(rules.tileIndex, id)) return bad(`tiles[${i}].id`, `tiles[${i}] names no tile kind of ${rules.id}`);
    laid.push(rules.tileIndex[id]!);
  }
  const step = st['step'];
  if (isRecord(step) && step['kind'] === 'place-tile') {
    const id = step['tile'];
    if (typeof id !== 'string' || !Object.hasOwn(rules.tileIndex, id)) return bad('step.tile', `the tile held names no tile kind of ${rules.id}`);
    laid.push(rules.tileIndex[id]!);
  }
  const discarded = st['discarded'];
  if (!Array.isArray(discarded) || discarded.length !== rules.tiles.length || !discarded.every((n) => typeof n === 'number' && Number.isInteger(n) && n >= 0 && n <= 1000)) {
    return bad('discarded', `discarded must hold a count per tile kind (${rules.tiles.length})`);
  }
  return ok({ players: opts.value.players, seed: st['seed'], moves, laid, discarded: discarded as number[] });
}

/**
 * Replays a research state's record with explicit chance: set-up from the seed (what set-up drew
 * concealed, the first draw a chance node), then moves and chance outcomes in turn, until the
 * record is used up. The modules then fill in what the state decided and the replay left
 * concealed. Errors: `state/tampered` at the first thing that cannot be played.
 */
function replayRecord(rules: Ruleset, stored: Readonly<Record<string, unknown>>, record: ResearchRecord): Result<GameState, MeepleError> {
  const tampered = (path: string, message: string): Result<never, MeepleError> => err(meepleError('state/tampered', message, { path: `$.state.${path}` }));
  const s = setupGame(rules, record.players, record.seed, null);
  concealAll(rules, s);
  const start = s.tiles.length;
  const laid = record.laid.slice(start);
  for (let i = 0; i < start; i++) {
    if (record.laid[i] !== rules.tileIndex[s.tiles[i]!.id]) return tampered(`tiles[${i}]`, `tile ${i} is not the start tile set-up lays`);
  }
  backToChance(rules, s, new Array<number>(s.discarded.length).fill(0));
  const discardedBefore: number[] = [];
  const moves = record.moves;
  let m = 0;
  let next = 0;
  for (;;) {
    if (s.step.kind === 'game-over') break;
    if (isChanceNode(s)) {
      let k: number;
      if (s.step.kind === CHANCE_STEP) {
        k = discardNow(rules, s, record.discarded);
        if (k < 0) {
          if (next >= laid.length) break;
          k = laid[next++]!;
          if (!isDrawable(rules, s, k)) return tampered(`tiles[${start + next - 1}]`, `tile ${rules.tiles[k]!.def.id} cannot be drawn at this point of the game`);
        }
      } else {
        const decided = ownerOf(rules, s.step.kind)?.chance?.recorded?.(rules, s, stored) ?? null;
        if (decided === null) break;
        if (!isDrawable(rules, s, decided)) return tampered('ext', `the outcome ${decided} of chance node ${s.step.kind} is not possible here`);
        k = decided;
      }
      playChanceExplicit(rules, s, k, discardedBefore);
      continue;
    }
    if (m >= moves.length) break;
    const problem = checkMove(rules, s, moves[m]);
    if (problem !== null) return tampered(`moves[${m}]`, `move ${m} cannot be played: ${problem.message}`);
    playExplicit(rules, s, moves[m] as Move, discardedBefore);
    m++;
  }
  if (m < moves.length) return tampered(`moves[${m}]`, `move ${m} comes where no player decides`);
  if (next < laid.length) return tampered(`tiles[${start + next}]`, `tile ${start + next} is never drawn by the record`);
  for (const e of rules.expansions) {
    const problem = e.chance?.restore?.(rules, s, stored) ?? null;
    if (problem !== null) return tampered(`ext.${e.id}`, problem);
  }
  return ok(s);
}

/**
 * A tile kind the state discarded that the replay has not yet, which may be drawn now and fits
 * nowhere: it is drawn (and discarded) here. The state does not say when it was drawn; any
 * moment at which it fit nowhere gives the same game, since a discard changes nothing but the
 * bag. -1 when there is none.
 */
function discardNow(rules: Ruleset, s: GameState, discarded: readonly number[]): number {
  for (let k = 0; k < discarded.length; k++) {
    if (s.discarded[k]! < discarded[k]! && isDrawable(rules, s, k) && !canPlaceAnywhere(rules, s, rules.tiles[k]!)) return k;
  }
  return -1;
}
