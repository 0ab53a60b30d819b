/**
 * The expansions the command line knows, by id: the CLI is the one place that imports them all
 * (the library's entry point imports none; each has its own subpath).
 */
import type { Expansion } from '../core/expansion.js';
import { count } from '../expansions/count/index.js';
import { kingRobber } from '../expansions/king-robber/index.js';
import { river, type RiverSet } from '../expansions/river/index.js';
import { shrines } from '../expansions/shrines/index.js';

/** Command-line options that expansions read (`--river-set`). */
export interface ExpansionFlags {
  readonly riverSet?: string;
}

/** Factories by expansion id. */
export const CLI_EXPANSIONS: Readonly<Record<string, (flags: ExpansionFlags) => Expansion>> = {
  count: () => count(),
  'king-robber': () => kingRobber(),
  river: (f) => river(f.riverSet === undefined ? {} : { set: f.riverSet as RiverSet }),
  shrines: () => shrines(),
};
