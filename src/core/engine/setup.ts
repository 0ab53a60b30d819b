/**
 * Setting up a game: the initial state (modules' slices, start tiles, the first draw), with the
 * game's chosen draws and tokens when it has any.
 */
import { emptyCellTable, layTile } from '../board.js';
import type { Emit } from '../events.js';
import type { Expansion } from '../expansion.js';
import { meepleError } from '../errors.js';
import type { Ruleset } from '../ruleset.js';
import { randomBelow, seedRng } from '../rng.js';
import { filledArray, type GameState } from '../state.js';
import { ChosenDrawError, NO_CHOSEN, withRecord, type ChosenDraws } from './chosen-draws.js';
import { drawTile } from './draw.js';

/**
 * What the game's own rules module may offer besides the module interface, so that a game's
 * definition can choose the outcomes of its set-up chance (The Castle: which face-down token lies
 * on each wall tower). Internal until a second module needs it. @internal
 */
export interface ChoosableSetup {
  /**
   * The module's state slice with the first outcomes of its set-up chance chosen (in its own
   * documented order) and the rest drawn with `random` as `setup` draws them, or why `chosen`
   * cannot be its set-up (a message).
   */
  setupChosen(rules: Ruleset, players: number, random: (n: number) => number, chosen: readonly number[]): { readonly slice: unknown } | string;
}

/**
 * Builds the initial state: start tile laid, first tile drawn (the first chosen draw, if any).
 * Players, seed and the ids of the chosen draws are validated by the caller; what only set-up can
 * tell (copies left in the bag, the tokens, the first draw held back) throws a
 * {@link ChosenDrawError} with code `options/draws`. @internal
 */
export function setupGame(rules: Ruleset, players: number, seed: string, emit: Emit, chosen: ChosenDraws = NO_CHOSEN): GameState {
  const n = rules.tiles.length;
  const s: GameState = {
    ruleset: rules.id,
    players,
    seed,
    rng: withRecord(seedRng(seed), chosen),
    bag: rules.tiles.map((t) => t.def.count),
    bagSize: 0,
    discarded: filledArray(n, 0),
    step: { kind: 'game-over', winners: [] },
    active: 0,
    turn: 0,
    scores: filledArray(players, 0),
    supply: filledArray(players, rules.followers),
    tiles: [],
    cells: emptyCellTable(),
    frontier: [],
    demand: [],
    features: { parent: [], kind: [], tile: [], open: [], pennants: [], followers: [], size: [], twins: [] },
    areas: [],
    followers: [],
    moves: [],
    flow: null,
    ext: {},
  };
  // A replaced start tile left in the box (the Count's City) is out of the game.
  for (const id of rules.boxed) if (s.bag[rules.tileIndex[id]!]! > 0) s.bag[rules.tileIndex[id]!]!--;
  const random = (n: number): number => randomBelow(s.rng, n);
  const own = rules.game.rules as (Expansion & Partial<ChoosableSetup>) | undefined;
  if (chosen.tokens.length > 0 && own?.setupChosen === undefined) {
    throw new ChosenDrawError(meepleError('options/draws', `${rules.game.game} has no face-down tokens to choose (tokens are The Castle's wall tokens)`));
  }
  for (const e of rules.expansions) {
    if (e === own && chosen.tokens.length > 0) {
      const made = own.setupChosen!(rules, players, random, chosen.tokens);
      if (typeof made === 'string') throw new ChosenDrawError(meepleError('options/draws', `tokens: ${made}`));
      s.ext[e.id] = made.slice;
    } else if (e.setup !== undefined) s.ext[e.id] = e.setup(rules, players, random);
  }
  const afterPlace = rules.hooks.afterPlace;
  for (const start of rules.start) {
    const k = rules.tileIndex[start.tile]!;
    // A start tile of the set leaves the bag; a virtual one (The Castle's start fields) was never in it.
    if (s.bag[k]! > 0) s.bag[k]!--;
    const index = layTile(rules, s, rules.tiles[k]!, start.x, start.y, start.rotation, -1);
    for (let i = 0; i < afterPlace.length; i++) afterPlace[i]!({ rules, state: s, emit }, index);
  }
  for (let k = 0; k < n; k++) s.bagSize += s.bag[k]!;
  // Chosen draws come out of the bag as it is now (start tiles out): more copies of a kind than
  // it holds can be refused here, before anything is drawn. Whether a tile is held back or fits
  // depends on the board, and is known only when it is drawn.
  if (chosen.draws.length > 0) {
    const wanted = new Array<number>(n).fill(0);
    for (const k of chosen.draws) wanted[k]!++;
    for (let k = 0; k < n; k++) {
      if (wanted[k]! > s.bag[k]!) {
        const id = rules.tiles[k]!.def.id;
        throw new ChosenDrawError(
          meepleError('options/draws', `draws: ${wanted[k]} copies of tile ${id}, but the bag holds ${s.bag[k]} at the start of the game`),
        );
      }
    }
  }
  try {
    drawTile(rules, s, emit);
  } catch (e) {
    // The first draw is part of newGame: a chosen tile held back there is an error of its options.
    if (e instanceof ChosenDrawError) throw new ChosenDrawError(meepleError('options/draws', e.error.message));
    throw e;
  }
  return s;
}
