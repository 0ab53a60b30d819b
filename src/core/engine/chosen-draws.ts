/**
 * A game's chosen draws (`newGame`'s `draws` and `tokens`): their record at the end of the
 * state's `rng`, how it is read back from untrusted input, and the error a chosen draw that
 * cannot be made raises from inside the recipe.
 */
import type { MeepleError } from '../errors.js';

/**
 * A game's chosen draws (`newGame`'s `draws` and `tokens`), as kept at the end of `GameState.rng`
 * after the generator's four words: `[next, tiles, tokens, ...tile kind indices, ...token kinds]`,
 * where `next` counts the chosen tiles drawn so far. Secret like the seed (`observe` drops `rng`),
 * copied with the state, and checked by `parseState` like everything else. @internal
 */
export interface ChosenDraws {
  /** Tile kind indices, in draw order. */
  readonly draws: readonly number[];
  /** The game's chosen face-down set-up tokens (The Castle's wall tokens, tower by tower). */
  readonly tokens: readonly number[];
}

/** No chosen draws. @internal */
export const NO_CHOSEN: ChosenDraws = Object.freeze({ draws: Object.freeze([]), tokens: Object.freeze([]) });

/** Where the record of chosen draws starts in `GameState.rng` (after the generator's four words). */
export const RECORD = 4;

/** Where the chosen tile kinds start in `GameState.rng`. */
export const RECORD_DRAWS = RECORD + 3;

/** The generator words followed by the record of chosen draws (none: the four words alone). */
export function withRecord(words: number[], chosen: ChosenDraws): number[] {
  if (chosen.draws.length === 0 && chosen.tokens.length === 0) return words;
  return [...words, 0, chosen.draws.length, chosen.tokens.length, ...chosen.draws, ...chosen.tokens];
}

/**
 * The chosen draws recorded in a state's `rng` (any value: untrusted input is checked), with how
 * many of the chosen tiles were drawn so far; null when there is no record; a message when the
 * record is malformed. @internal
 */
export function chosenDraws(rng: unknown, tileKinds: number): (ChosenDraws & { readonly next: number }) | null | string {
  if (!Array.isArray(rng) || rng.length <= RECORD) return null;
  const [next, tiles, tokens] = [rng[RECORD], rng[RECORD + 1], rng[RECORD + 2]] as unknown[];
  const count = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;
  if (!count(next) || !count(tiles) || !count(tokens) || next > tiles || rng.length !== RECORD_DRAWS + tiles + tokens) {
    return 'the record of chosen draws after the generator words is malformed';
  }
  const draws = rng.slice(RECORD_DRAWS, RECORD_DRAWS + tiles) as unknown[];
  if (!draws.every((k) => count(k) && k < tileKinds)) return 'a chosen draw names no tile kind of these rules';
  const chosenTokens = rng.slice(RECORD_DRAWS + tiles) as unknown[];
  if (!chosenTokens.every((t) => typeof t === 'number' && Number.isInteger(t))) return 'a chosen token is not an integer';
  return { draws: draws as number[], tokens: chosenTokens as number[], next };
}

/**
 * A chosen draw that cannot be made: thrown by the recipe (from deep inside a turn's end, where no
 * result is returned), caught by every entry point that runs it on a copy (`newGame`, `applyMove`,
 * replays, `buildPosition`) and returned there as its {@link MeepleError}. @internal
 */
export class ChosenDrawError extends Error {
  constructor(readonly error: MeepleError) {
    super(`${error.code}: ${error.message}`);
    this.name = 'ChosenDrawError';
  }
}
