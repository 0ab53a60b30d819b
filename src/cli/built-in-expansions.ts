/**
 * The games and expansions built into the command line, with the options `--option` sets: the
 * CLI is the one place that imports every expansion (the library's entry point imports none; each
 * has its own subpath). The top-level help is generated from these tables.
 */
import type { Expansion } from '../core/expansion.js';
import type { RulesetOptions } from '../core/ruleset.js';
import { castle } from '../games/castle/entry.js';
import type { CastleOptions } from '../games/castle/options.js';
import { count, type CountOptions } from '../expansions/count/index.js';
import { kingRobber } from '../expansions/king-robber/index.js';
import { princessDragon, type PrincessDragonOptions } from '../expansions/princess-dragon/index.js';
import { river, RIVER_SETS, type RiverOptions } from '../expansions/river/index.js';
import { shrines } from '../expansions/shrines/index.js';
import { tower, type TowerOptions } from '../expansions/tower/index.js';

/** One option of a game or an expansion, as `--option <id>.<key>=<value>` sets it. */
export interface CliOption {
  /** The option's name in the factory's options object. */
  readonly key: string;
  /** Its values, the default first; null: JSON data, given as `@file.json`. */
  readonly values: readonly (string | number | boolean)[] | null;
  /** What it does, in a few words. */
  readonly about: string;
}

/** A game or an expansion on the command line: what it is and its options. */
export interface CliModule {
  /** In a few words, for the help. */
  readonly about: string;
  /** Its options (none for most). */
  readonly options: readonly CliOption[];
}

/** The base games `--game` names. */
export const CLI_GAMES: Readonly<Record<string, CliModule & { readonly make: (options: Readonly<Record<string, unknown>>) => RulesetOptions['game'] }>> = {
  classic: { about: 'the base game (2nd edition), 72 tiles', options: [], make: () => 'classic' },
  castle: {
    about: "The Castle, Knizia's game on a reconstructed board, without expansions",
    options: [
      { key: 'keep', values: ['completing-tile', 'majority'], about: 'who gets the keep on a completed house' },
      { key: 'extraTurn', values: ['free', 'needs-majority'], about: 'wall token 1 (extra turn)' },
      { key: 'marketToken', values: ['one-court', 'every-court'], about: 'wall token 7' },
      { key: 'laps', values: ['every-lap', 'first-lap'], about: 'tokens after a score of 100' },
      { key: 'layout', values: null, about: 'the board (docs/rules/castle.md)' },
      { key: 'tiles', values: null, about: 'the 60 tiles (docs/rules/castle.md)' },
    ],
    make: (o) => castle(o as CastleOptions),
  },
};

/**
 * Expansion factories by id, called with an options object (from `--option`, or stored in a
 * replay): the expansion checks the options itself (`options/expansion-options`).
 */
export const EXPANSION_FACTORIES: Readonly<Record<string, (options: Readonly<Record<string, unknown>>) => Expansion>> = {
  count: (o) => count(o as CountOptions),
  // No options: anything given makes the ruleset differ from a replay's, which `replay()` reports.
  'king-robber': () => kingRobber(),
  'princess-dragon': (o) => princessDragon(o as PrincessDragonOptions),
  river: (o) => river(o as RiverOptions),
  // Options given to shrines() are refused by createRuleset (its `validate`).
  shrines: (o) => (Object.keys(o).length === 0 ? shrines() : (shrines as (options: unknown) => Expansion)(o)),
  tower: (o) => tower(o as TowerOptions),
};

/** The expansions `--expansions` names, with their options (the keys of {@link EXPANSION_FACTORIES}). */
export const CLI_EXPANSION_INFO: Readonly<Record<string, CliModule>> = {
  count: {
    about: 'the City of Carcassonne as the start (with river: the spring is laid beside it)',
    options: [
      { key: 'edition', values: [2, 1], about: "which rules sheet's end of the game" },
      { key: 'countMoves', values: ['free', 'clockwise', 'entered'], about: 'how the Count moves' },
    ],
  },
  'king-robber': { about: 'the King and the Robber Baron, 5 tiles', options: [] },
  'princess-dragon': {
    about: 'the dragon, the fairy, portals and princesses, 30 tiles',
    options: [{ key: 'princess', values: ['forced', 'optional'], about: "whether the princess's removal is forced" }],
  },
  river: { about: 'River I, II or both, laid first', options: [{ key: 'set', values: RIVER_SETS, about: 'which river set' }] },
  shrines: { about: 'shrines, heretics and their challenges, 5 tiles', options: [] },
  tower: {
    about: 'tower pieces, captures and ransoms, 18 tiles',
    options: [{ key: 'ransomDebt', values: [false, true], about: 'whether a player with fewer than 3 points may pay a ransom' }],
  },
};

/** Command-line options that expansions read: `--river-set`, and the options of `--option`. */
export interface ExpansionFlags {
  readonly riverSet?: string;
  /** The expansion's options object, as `--option <id>.<key>=<value>` builds it. */
  readonly options?: Readonly<Record<string, unknown>>;
}

/** Factories by expansion id, from command-line flags. */
export const CLI_EXPANSIONS: Readonly<Record<string, (flags: ExpansionFlags) => Expansion>> = Object.fromEntries(
  Object.entries(EXPANSION_FACTORIES).map(([id, make]) => [
    id,
    (f: ExpansionFlags) => make({ ...(id === 'river' && f.riverSet !== undefined ? { set: f.riverSet } : {}), ...f.options }),
  ]),
);
