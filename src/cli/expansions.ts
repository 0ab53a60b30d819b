/**
 * The expansions the command line knows, by id: the CLI is the one place that imports them all
 * (the library's entry point imports none; each has its own subpath).
 */
import type { Expansion } from '../core/expansion.js';
import type { RulesetOptions } from '../core/ruleset.js';
import { castle } from '../games/castle/entry.js';
import type { CastleOptions } from '../games/castle/options.js';
import { count } from '../expansions/count/index.js';
import { kingRobber } from '../expansions/king-robber/index.js';
import { princessDragon } from '../expansions/princess-dragon/index.js';
import { river, type RiverSet } from '../expansions/river/index.js';
import { shrines } from '../expansions/shrines/index.js';
import { tower } from '../expansions/tower/index.js';

/** Command-line options that expansions read (`--river-set`). */
export interface ExpansionFlags {
  readonly riverSet?: string;
}

/** Factories by expansion id. */
export const CLI_EXPANSIONS: Readonly<Record<string, (flags: ExpansionFlags) => Expansion>> = {
  count: () => count(),
  'king-robber': () => kingRobber(),
  'princess-dragon': () => princessDragon(),
  river: (f) => river(f.riverSet === undefined ? {} : { set: f.riverSet as RiverSet }),
  shrines: () => shrines(),
  tower: () => tower(),
};

/** The `parseArgs` options `play` and `simulate` share: the game, its expansions, players, seed and bots. */
export const GAME_OPTIONS = {
  game: { type: 'string', default: 'classic' },
  expansions: { type: 'string', default: '' },
  'river-set': { type: 'string' },
  players: { type: 'string', default: '2' },
  seed: { type: 'string', default: '1' },
  bots: { type: 'string', default: 'random' },
} as const;

/** The expansion ids of `--expansions` (checked, with `--river-set`), or the message for a bad one. */
export function expansionIds(list: string, riverSet: string | undefined): string[] | string {
  const ids = list === '' ? [] : list.split(',');
  for (const id of ids) if (!Object.hasOwn(CLI_EXPANSIONS, id)) return `unknown expansion '${id}' (expansions: ${Object.keys(CLI_EXPANSIONS).join(', ')})`;
  if (riverSet !== undefined && !ids.includes('river')) return '--river-set needs --expansions river';
  return ids;
}

/**
 * The base game a `--game` flag (or a replay's `ruleset.game`) names, as `createRuleset` takes it:
 * `'classic'` by name, The Castle as its module with `options`. Any other name is passed on, for
 * `createRuleset` to refuse with its own message.
 */
export function gameByName(name: string, options?: unknown): RulesetOptions['game'] {
  if (name === 'castle') return castle(options as CastleOptions | undefined);
  return name as 'classic';
}
