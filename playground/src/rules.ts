/**
 * Game configurations and the rulesets they make: what the setup form chooses (a game, the
 * expansions, the players and who plays each seat, a seed), checked, and the ruleset built by name
 * from the bot worker's tables (examples/bot-messages.ts), so that the page, the worker and the
 * reference server all build the same rules. An online view names its ruleset by id only:
 * `rulesFromId` rebuilds the rules from that id.
 */
import { createRuleset, type Ruleset } from 'meeplekit';
import { EXPANSIONS, GAMES } from '../../examples/bot-messages.js';

/** The games the page offers. */
export const GAME_IDS = ['classic', 'castle'] as const;
/** One of {@link GAME_IDS}. */
export type GameId = (typeof GAME_IDS)[number];
/** The expansions, in the order the form lists them. */
export const EXPANSION_IDS = ['river', 'king-robber', 'tower', 'princess-dragon', 'count', 'shrines'] as const;
/** Readable names of the expansions. */
export const EXPANSION_NAMES: Readonly<Record<(typeof EXPANSION_IDS)[number], string>> = {
  river: 'The River',
  'king-robber': 'King and Robber Baron',
  tower: 'The Tower',
  'princess-dragon': 'The Princess and the Dragon',
  count: 'The Count of Carcassonne',
  shrines: 'Cult Places (shrines)',
};

/** Who plays a seat: a person at this page, or a bot of `meeplekit/bots` at a level from 1 to 5. */
export type SeatKind = 'human' | { readonly bot: number };

/** A game as the setup form chooses it. */
export interface GameConfig {
  readonly game: GameId;
  /** Expansion ids (classic only), in {@link EXPANSION_IDS} order. */
  readonly expansions: readonly string[];
  /** 2 to 5 (The Castle: 2). */
  readonly players: number;
  /** One per player. */
  readonly seats: readonly SeatKind[];
  /** The game's seed (also the bots' seeds are derived from it). */
  readonly seed: string;
}

/** A checked value, or why not. */
export type Checked<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly message: string };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Checks a configuration read from the form, storage or a URL. */
export function checkConfig(input: unknown): Checked<GameConfig> {
  if (!isRecord(input)) return { ok: false, message: 'the game configuration is not an object' };
  const { game, expansions, players, seats, seed } = input;
  if (game !== 'classic' && game !== 'castle') return { ok: false, message: "the game is 'classic' or 'castle'" };
  if (!Array.isArray(expansions) || !expansions.every((e) => typeof e === 'string' && (EXPANSION_IDS as readonly string[]).includes(e))) {
    return { ok: false, message: `the expansions are a list of ${EXPANSION_IDS.join(', ')}` };
  }
  if (new Set(expansions).size !== expansions.length) return { ok: false, message: 'an expansion is listed twice' };
  if (game === 'castle' && expansions.length > 0) return { ok: false, message: 'The Castle is played without expansions' };
  if (typeof players !== 'number' || !Number.isInteger(players) || players < 2 || players > 5) return { ok: false, message: 'players: 2 to 5' };
  if (game === 'castle' && players !== 2) return { ok: false, message: 'The Castle is for 2 players' };
  if (!Array.isArray(seats) || seats.length !== players) return { ok: false, message: 'one seat per player' };
  const checkedSeats: SeatKind[] = [];
  for (const s of seats) {
    if (s === 'human') checkedSeats.push('human');
    else if (isRecord(s) && typeof s['bot'] === 'number' && Number.isInteger(s['bot']) && s['bot'] >= 1 && s['bot'] <= 5) checkedSeats.push({ bot: s['bot'] });
    else return { ok: false, message: "a seat is 'human' or { bot: 1..5 }" };
  }
  if (typeof seed !== 'string' || seed.length > 200) return { ok: false, message: 'the seed is a text of at most 200 characters' };
  const ordered = EXPANSION_IDS.filter((e) => expansions.includes(e));
  return { ok: true, value: { game, expansions: ordered, players, seats: checkedSeats, seed } };
}

const cache = new Map<string, Ruleset>();

/** The ruleset of a game and expansions (default options), built once per page. */
export function rulesFor(game: GameId, expansions: readonly string[]): Checked<Ruleset> {
  const key = JSON.stringify([game, expansions]);
  const known = cache.get(key);
  if (known !== undefined) return { ok: true, value: known };
  const modules = [];
  for (const id of expansions) {
    const make = EXPANSIONS[id];
    if (make === undefined) return { ok: false, message: `unknown expansion '${id}'` };
    modules.push(make({}));
  }
  const created = createRuleset({ game: GAMES[game]({}), expansions: modules });
  if (!created.ok) return { ok: false, message: `${created.error.code}: ${created.error.message}` };
  cache.set(key, created.value);
  return { ok: true, value: created.value };
}

/**
 * The rules a view's `ruleset` id names (`classic+river{"set":"I"}+tower#digest`, `castle`): the
 * game and expansion ids are read from the id's readable part and the rules built with their
 * default options; the id of the rules built must equal the one given, or it is refused.
 */
export function rulesFromId(id: string): Checked<{ readonly rules: Ruleset; readonly game: GameId; readonly expansions: readonly string[] }> {
  if (typeof id !== 'string' || id.length > 400) return { ok: false, message: 'a ruleset id is a short text' };
  const names = (id.split('#')[0] ?? '').split('+').map((part) => part.replace(/\{.*$/, ''));
  const game = names[0];
  if (game !== 'classic' && game !== 'castle') return { ok: false, message: `this page plays classic and The Castle, not '${String(game).slice(0, 40)}'` };
  const expansions = EXPANSION_IDS.filter((e) => names.slice(1).includes(e));
  if (expansions.length !== names.length - 1) return { ok: false, message: `unknown expansion in ruleset '${id.slice(0, 80)}'` };
  const rules = rulesFor(game, expansions);
  if (!rules.ok) return rules;
  if (rules.value.id !== id) return { ok: false, message: `the server's ruleset '${id.slice(0, 80)}' has options this page does not build` };
  return { ok: true, value: { rules: rules.value, game, expansions } };
}

/** A seat's readable name. */
export function seatName(seat: number, kind?: SeatKind): string {
  return `Player ${seat + 1}${kind === undefined ? '' : kind === 'human' ? '' : ` (bot ${kind.bot})`}`;
}
