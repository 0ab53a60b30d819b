/**
 * The games and expansions the command line knows, and the flags `play`, `simulate` and `render`
 * share to choose one (`--game`, `--expansions`, `--option`, `--river-set`, `--players`, `--seed`,
 * `--bots`): the CLI is the one place that imports every expansion (the library's entry point
 * imports none; each has its own subpath). The top-level help is generated from these tables.
 */
import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { greedyBot, randomBot, type Bot } from '../bots.js';
import { searchBot } from '../bots/index.js';
import type { Expansion } from '../core/expansion.js';
import { err, ok, type Result } from '../core/result.js';
import type { Ruleset, RulesetOptions } from '../core/ruleset.js';
import { castle } from '../games/castle/entry.js';
import type { CastleOptions } from '../games/castle/options.js';
import { count, type CountOptions } from '../expansions/count/index.js';
import { kingRobber } from '../expansions/king-robber/index.js';
import { princessDragon, type PrincessDragonOptions } from '../expansions/princess-dragon/index.js';
import { river, RIVER_SETS, type RiverOptions } from '../expansions/river/index.js';
import { shrines } from '../expansions/shrines/index.js';
import { tower, type TowerOptions } from '../expansions/tower/index.js';
import { moduleProblem } from '../module-check.js';
import { createRuleset } from '../ruleset.js';
import type { ParseArgsConfig } from 'node:util';
import { isRecord, parseFlags, range, splitList, wholeNumber } from './args.js';

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

// ---------------------------------------------------------------------------------------------
// Expansions of one's own: --expansion-module FILE

/** A factory of an expansion module file: the expansion's options (`{}` when none) in, the expansion out. */
export type ExpansionFactory = (options: Readonly<Record<string, unknown>>) => Expansion;

/**
 * An expansion loaded from a file named by `--expansion-module` ({@link loadExpansionModules}):
 * known by its id next to the built-in expansions, to `--expansions`, `--option`, replays,
 * `simulate`'s worker threads and `serve`'s `make_game`.
 */
export interface ExpansionModule {
  /** The expansion's id (the one its export has when made with no options). */
  readonly id: string;
  /** The file as the command line gave it, for messages. */
  readonly file: string;
  /** The file's resolved `file:` URL: what `simulate`'s worker threads load. */
  readonly url: string;
  /** Whether the file exports a factory (which takes options) rather than an expansion object (which takes none). */
  readonly takesOptions: boolean;
  /**
   * The expansion with these options. Never throws: a factory that throws, returns no expansion
   * or an expansion with another id, or options given to an exported object, give an expansion
   * whose `validate` says so, refused by `createRuleset` with `options/expansion-options`.
   */
  readonly make: ExpansionFactory;
}

/** Loaded expansion modules by id. */
export type ExpansionModules = Readonly<Record<string, ExpansionModule>>;

/** No expansion module: the built-in expansions alone. */
export const NO_MODULES: ExpansionModules = Object.freeze({});

/** Why an `--expansion-module` file was refused: a stable code, the file as given and a message. */
export interface ModuleLoadError {
  /**
   * `expansion-module/not-found` (no such file), `expansion-module/import-failed` (importing it
   * threw: a syntax error, a missing import, an exception at its top level),
   * `expansion-module/no-expansion` (neither a default export nor an export named `expansion`),
   * `expansion-module/invalid` (what it exports fails the module check, or its factory throws or
   * returns no expansion when called with no options), `expansion-module/id-taken` (its id is a
   * built-in expansion's or another loaded module's, or the file is given twice).
   */
  readonly code: 'expansion-module/not-found' | 'expansion-module/import-failed' | 'expansion-module/no-expansion' | 'expansion-module/invalid' | 'expansion-module/id-taken';
  /** The file as given. */
  readonly file: string;
  /** What is wrong, in a sentence. */
  readonly message: string;
}

/** A module load error as the commands print it: `--expansion-module FILE: code: message`. */
export function moduleLoadMessage(e: ModuleLoadError): string {
  return `--expansion-module ${e.file}: ${e.code}: ${e.message}`;
}

/** What an error was, in one line. */
function oneLine(e: unknown): string {
  const text = e instanceof Error ? `${e.name === 'Error' ? '' : `${e.name}: `}${e.message}` : String(e);
  const line = text.split('\n')[0]!;
  return line.length > 400 ? `${line.slice(0, 400)}...` : line;
}

/** The expansion of a loaded module file, checked, with its `make` that never throws. */
function moduleEntry(file: string, url: string, sample: Expansion, factory: ExpansionFactory | null): ExpansionModule {
  const { id, order } = sample;
  // An expansion that createRuleset refuses with `why` (options/expansion-options), compiling nothing.
  const refusal = (options: Readonly<Record<string, unknown>>, why: string): Expansion => ({ id, order, options, validate: () => why });
  const make: ExpansionFactory = (options) => {
    if (factory === null) {
      return Object.keys(options).length === 0 ? sample : refusal(options, `takes no options: ${file} exports an expansion object, not a factory that takes options`);
    }
    let made: unknown;
    try {
      made = factory(options);
    } catch (e) {
      return refusal(options, `the factory of ${file} threw: ${oneLine(e)}`);
    }
    const problem = moduleProblem(made);
    if (problem !== null) return refusal(options, `the factory of ${file} returned no expansion for these options: ${problem}`);
    const madeId = (made as Expansion).id;
    if (madeId !== id) return refusal(options, `the factory of ${file} returned the expansion '${madeId}' for these options, '${id}' for none: an expansion keeps its id`);
    return made as Expansion;
  };
  return { id, file, url, takesOptions: factory !== null, make };
}

/**
 * Loads one expansion module file (a path, relative to `base`, or a `file:` URL): its default
 * export, or else its export named `expansion`, either an {@link Expansion} object or a factory
 * taking the options record (called here with `{}` to learn its id and check what it returns).
 * Importing the file runs its code with the user's rights, as `node` running it would.
 */
export async function loadExpansionModule(file: string, base: string = process.cwd()): Promise<Result<ExpansionModule, ModuleLoadError>> {
  const fail = (code: ModuleLoadError['code'], message: string): Result<never, ModuleLoadError> => err({ code, file, message });
  let url: URL;
  let path: string;
  try {
    url = file.startsWith('file:') ? new URL(file) : pathToFileURL(resolve(base, file));
    path = fileURLToPath(url);
  } catch (e) {
    return fail('expansion-module/not-found', `not a file path: ${oneLine(e)}`);
  }
  let isFile = false;
  try {
    isFile = statSync(path).isFile();
  } catch {
    // Missing, or not readable: not found either way.
  }
  if (!isFile) return fail('expansion-module/not-found', `no such file: ${path}`);
  let namespace: Record<string, unknown>;
  try {
    namespace = (await import(url.href)) as Record<string, unknown>;
  } catch (e) {
    return fail('expansion-module/import-failed', `importing it threw: ${oneLine(e)}`);
  }
  const fromDefault = namespace['default'] !== undefined;
  const exported = fromDefault ? namespace['default'] : namespace['expansion'];
  const name = fromDefault ? 'default export' : "export 'expansion'";
  if (exported === undefined) {
    return fail('expansion-module/no-expansion', "it exports no expansion: give it a default export (or an export named 'expansion'), an Expansion object or a factory that takes the options and returns one");
  }
  if (typeof exported === 'function') {
    let made: unknown;
    try {
      made = (exported as ExpansionFactory)({});
    } catch (e) {
      return fail('expansion-module/invalid', `its ${name}, a factory, threw when called with no options ({}): ${oneLine(e)}`);
    }
    const problem = moduleProblem(made);
    if (problem !== null) return fail('expansion-module/invalid', `its ${name}, a factory, returned no expansion when called with no options ({}): ${problem}`);
    return ok(moduleEntry(file, url.href, made as Expansion, exported as ExpansionFactory));
  }
  const problem = moduleProblem(exported);
  if (problem !== null) return fail('expansion-module/invalid', `its ${name} is not an expansion: ${problem}`);
  return ok(moduleEntry(file, url.href, exported as Expansion, null));
}

/**
 * Loads the files of `--expansion-module` flags, in order ({@link loadExpansionModule}); refuses
 * an id that is a built-in expansion's or another file's, and a file given twice. Nothing is
 * returned unless every file loads.
 */
export async function loadExpansionModules(files: readonly string[], base: string = process.cwd()): Promise<Result<ExpansionModules, ModuleLoadError>> {
  if (files.length === 0) return ok(NO_MODULES);
  const out: Record<string, ExpansionModule> = {};
  for (const file of files) {
    const loaded = await loadExpansionModule(file, base);
    if (!loaded.ok) return loaded;
    const m = loaded.value;
    if (Object.hasOwn(EXPANSION_FACTORIES, m.id)) {
      return err({ code: 'expansion-module/id-taken', file, message: `its expansion's id '${m.id}' is the id of a built-in expansion: give yours an id of its own` });
    }
    const before = Object.hasOwn(out, m.id) ? out[m.id]! : undefined;
    if (before !== undefined) {
      const message = before.url === m.url ? 'the file is given twice' : `its expansion's id '${m.id}' is already the id of the expansion of ${before.file}`;
      return err({ code: 'expansion-module/id-taken', file, message });
    }
    out[m.id] = m;
  }
  return ok(out);
}

/**
 * The `--expansion-module` files of a command's arguments, loaded; {@link NO_MODULES} when there
 * are none or the arguments do not parse (the command then reports them); the message of a file
 * that does not load.
 */
export async function modulesFromArgs(args: readonly string[], options: NonNullable<ParseArgsConfig['options']>): Promise<ExpansionModules | string> {
  const parsed = parseFlags(args, options, true);
  if (typeof parsed === 'string') return NO_MODULES;
  const files = parsed.values['expansion-module'];
  if (!Array.isArray(files) || files.length === 0) return NO_MODULES;
  const loaded = await loadExpansionModules(files as string[]);
  return loaded.ok ? loaded.value : moduleLoadMessage(loaded.error);
}

/** The factories of the built-in expansions and of `modules`, by id. */
export function expansionFactories(modules: ExpansionModules): Readonly<Record<string, ExpansionFactory>> {
  const own = Object.values(modules);
  if (own.length === 0) return EXPANSION_FACTORIES;
  return { ...EXPANSION_FACTORIES, ...Object.fromEntries(own.map((m) => [m.id, m.make])) };
}

/**
 * The first `--expansion-module` file of `files` that `modules` does not hold, as a message, or
 * null: a command run with modules loaded for other arguments (or none) refuses to go on.
 */
export function unloadedModule(files: readonly string[] | undefined, modules: ExpansionModules): string | null {
  const held = new Set(Object.values(modules).map((m) => m.file));
  const missing = (files ?? []).find((f) => !held.has(f));
  return missing === undefined ? null : `--expansion-module ${missing} was not loaded: load the files with loadExpansionModules and pass them in`;
}

/** What `--option` knows of a loaded module's options: nothing (its factory checks them). */
const MODULE_INFO: CliModule = { about: 'an expansion of your own (--expansion-module)', options: [] };

/** The bots `--bots` names. */
export const BOTS = ['random', 'greedy'] as const;

/** The `parseArgs` options `play`, `simulate` and `render game` share: the game, its expansions and options, players, seed and bots. */
export const GAME_OPTIONS = {
  game: { type: 'string', default: 'classic' },
  expansions: { type: 'string', default: '' },
  option: { type: 'string', multiple: true, default: [] as string[] },
  'river-set': { type: 'string' },
  'expansion-module': { type: 'string', multiple: true, default: [] as string[] },
  players: { type: 'string', default: '2' },
  seed: { type: 'string', default: '1' },
  bots: { type: 'string', default: 'random' },
} as const;

/** The flags that choose a ruleset (`render tile` takes these alone). */
export const RULESET_OPTIONS = {
  game: GAME_OPTIONS.game,
  expansions: GAME_OPTIONS.expansions,
  option: GAME_OPTIONS.option,
  'river-set': GAME_OPTIONS['river-set'],
  'expansion-module': GAME_OPTIONS['expansion-module'],
} as const;

/** The help lines of the game flags, for each command's `--help`. */
export const GAME_FLAGS_HELP = `  --game G              ${Object.keys(CLI_GAMES).join(' or ')} (default classic)
  --expansions LIST     expansion ids, comma-separated: ${Object.keys(CLI_EXPANSION_INFO).join(', ')}
  --option ID.KEY=VALUE an option of the game or of an expansion, repeatable: --option river.set=II
                        (meeplekit --help lists them; VALUE @file.json reads JSON from a file)
  --river-set SET       the same as --option river.set=SET: ${RIVER_SETS.join(', ')}
  --expansion-module FILE
                        load an expansion of your own from an ES module file, repeatable; then name
                        its id in --expansions (docs/cli.md: the file's contract; it runs as your code)`;

/** The parsed ruleset flags, as `parseArgs` returns them. */
export interface RulesetFlags {
  readonly game: string;
  /** The files of `--expansion-module` (loaded before: {@link loadExpansionModules}). */
  readonly 'expansion-module'?: readonly string[] | undefined;
  readonly expansions: string;
  readonly option?: readonly string[] | undefined;
  readonly 'river-set'?: string | undefined;
}

/** A ruleset chosen on the command line: the rules, and each module's options as given. */
export interface ChosenRuleset {
  readonly rules: Ruleset;
  /**
   * Each module's options by module id (the game's, then the expansions' in hook order): the
   * ruleset's own, defaults left out, with data read from a file named by its `@file`.
   */
  readonly options: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
}

/** The text of `--option` turned into the option's value: one of its values, JSON from `@file`, or as given. */
function optionValue(option: CliOption | undefined, text: string): { value: unknown } | string {
  if (text.startsWith('@')) {
    const file = text.slice(1);
    let data;
    try {
      data = readFileSync(file, 'utf8');
    } catch (e) {
      return `cannot read ${file}: ${(e as Error).message}`;
    }
    try {
      return { value: JSON.parse(data) as unknown };
    } catch (e) {
      return `${file} is not JSON: ${(e as Error).message}`;
    }
  }
  const known = option?.values?.find((v) => String(v) === text);
  if (known !== undefined) return { value: known };
  // Anything else goes to the factory as it looks, to be refused there with its own message.
  if (text === 'true' || text === 'false') return { value: text === 'true' };
  if (/^-?\d+$/.test(text)) return { value: Number(text) };
  return { value: text };
}

/**
 * The ruleset the flags name: `--game`, `--expansions` (ids, trimmed), `--option` and
 * `--river-set`, built by the factories and `createRuleset`; or the message for a bad flag (the
 * library's own message for options it refuses).
 */
export function rulesetFromFlags(flags: RulesetFlags, modules: ExpansionModules = NO_MODULES): ChosenRuleset | string {
  const game = flags.game.trim();
  const gameInfo = Object.hasOwn(CLI_GAMES, game) ? CLI_GAMES[game]! : undefined;
  if (gameInfo === undefined) return `unknown game '${flags.game}' (games: ${Object.keys(CLI_GAMES).join(', ')})`;
  const factories = expansionFactories(modules);
  const ids = expansionIds(flags.expansions, flags['river-set'], modules);
  if (typeof ids === 'string') return ids;
  const given: Record<string, Record<string, unknown>> = {};
  const files: Record<string, Record<string, string>> = {};
  if (flags['river-set'] !== undefined) given['river'] = { set: flags['river-set'].trim() };
  for (const text of flags.option ?? []) {
    const m = /^\s*([a-z][\w-]*)\.([A-Za-z]\w*)=(.*)$/s.exec(text);
    if (m === null) return `--option must look like id.key=value, such as river.set=II, got '${text}'`;
    const [, id, key, raw] = m as unknown as [string, string, string, string];
    const isGame = Object.hasOwn(CLI_GAMES, id);
    // A module's options are its factory's business: any key, checked by its `validate`.
    const info = isGame ? CLI_GAMES[id]! : Object.hasOwn(CLI_EXPANSION_INFO, id) ? CLI_EXPANSION_INFO[id]! : Object.hasOwn(modules, id) ? MODULE_INFO : undefined;
    if (info === undefined) return `--option ${id}.${key}: unknown game or expansion '${id}' (games: ${Object.keys(CLI_GAMES).join(', ')}; expansions: ${Object.keys(factories).join(', ')})`;
    if (isGame && id !== game) return `--option ${id}.${key} needs --game ${id}`;
    if (!isGame && !ids.includes(id)) return `--option ${id}.${key} needs --expansions ${id}`;
    if (info.options.length === 0 && info !== MODULE_INFO) return `--option ${id}.${key}: ${id} has no options`;
    if (given[id] !== undefined && Object.hasOwn(given[id], key)) {
      return id === 'river' && key === 'set' && flags['river-set'] !== undefined ? '--river-set and --option river.set both given: give one' : `--option ${id}.${key} is given twice`;
    }
    const value = optionValue(
      info.options.find((o) => o.key === key),
      raw.trim(),
    );
    if (typeof value === 'string') return `--option ${id}.${key}: ${value}`;
    (given[id] ??= {})[key] = value.value;
    if (raw.trim().startsWith('@')) (files[id] ??= {})[key] = raw.trim();
  }
  const expansions = ids.map((id) => factories[id]!(given[id] ?? {}));
  const created = createRuleset({ game: gameInfo.make(given[game] ?? {}), expansions });
  if (!created.ok) return created.error.message;
  const rules = created.value;
  // The ruleset's own options (defaults left out, so `river.set=I` is no option at all); data
  // read from a file named as it was given rather than copied out in full.
  const options: Record<string, Readonly<Record<string, unknown>>> = {};
  const chosen: [string, Readonly<Record<string, unknown>> | undefined][] = [[game, rules.options.options], ...rules.options.expansions.map((e) => [e.id, e.options] as [string, Readonly<Record<string, unknown>>])];
  for (const [id, o] of chosen) {
    if (o === undefined || Object.keys(o).length === 0) continue;
    options[id] = Object.fromEntries(Object.entries(o).map(([k, v]) => [k, files[id]?.[k] ?? v]));
  }
  return { rules, options };
}

/**
 * The expansion ids of `--expansions` (trimmed and checked, with `--river-set`; the ids of
 * `modules` are known too), or the message for a bad one.
 */
export function expansionIds(list: string, riverSet: string | undefined, modules: ExpansionModules = NO_MODULES): string[] | string {
  const ids = splitList(list);
  const known = expansionFactories(modules);
  for (const id of ids) if (!Object.hasOwn(known, id)) return `unknown expansion '${id}' (expansions: ${Object.keys(known).join(', ')}${Object.keys(modules).length === 0 ? '; --expansion-module FILE loads one of your own' : ''})`;
  const twice = ids.find((id, i) => ids.indexOf(id) !== i);
  if (twice !== undefined) return `--expansions names ${twice} twice`;
  if (riverSet !== undefined && !ids.includes('river')) return '--river-set needs --expansions river';
  return ids;
}

/** `--players` checked against the ruleset's range: the number, or the message. */
export function playersFor(text: string, rules: Ruleset): number | string {
  // A negative number is out of range, not malformed.
  const n = /^-\d+$/.test(text.trim()) ? Number(text) : wholeNumber(text);
  const ids = rules.options.expansions.map((e) => e.id);
  const name = `${rules.options.game}${ids.length === 0 ? '' : ` with ${ids.join(', ')}`}`;
  if (n === null || n < rules.minPlayers || n > rules.maxPlayers) {
    return `--players must be ${n === null ? 'a whole number ' : ''}${range(rules.minPlayers, rules.maxPlayers)} for ${name}, got ${n === null ? `'${text}'` : text.trim()}`;
  }
  return n;
}

/** `--bots` (trimmed) checked and assigned to the seats in turn: a name per player, or the message. */
export function botsFor(text: string, players: number): string[] | string {
  const names = text.split(',').map((s) => s.trim());
  for (const b of names) if (!(BOTS as readonly string[]).includes(b) && !SEARCH_BOT.test(b)) return `unknown bot '${b}' (bots: ${BOTS.join(', ')}) or search:LEVEL, a level from 1 to 5 (meeplekit/bots)`;
  if (names.length > players) return `${names.length} bots for ${players} players: give at most one bot per player`;
  return Array.from({ length: players }, (_, p) => names[p % names.length]!);
}

/** The flags of a game between bots: the ruleset's, `--players` and `--bots`. */
export interface BotGameFlags extends RulesetFlags {
  readonly players: string;
  readonly bots: string;
}

/** What the flags of a game between bots name: the ruleset, the number of players and each seat's bot; or the message. */
export function botGameFromFlags(values: BotGameFlags, modules: ExpansionModules = NO_MODULES): { readonly chosen: ChosenRuleset; readonly players: number; readonly bots: string[] } | string {
  const chosen = rulesetFromFlags(values, modules);
  if (typeof chosen === 'string') return chosen;
  const players = playersFor(values.players, chosen.rules);
  if (typeof players === 'string') return players;
  const bots = botsFor(values.bots, players);
  if (typeof bots === 'string') return bots;
  return { chosen, players, bots };
}

/** `search:LEVEL`: the search bot of meeplekit/bots at that level. */
const SEARCH_BOT = /^search:([1-5])$/;

/** The bots of the seats, drawing from one random source (a search bot's seed is drawn from it). */
export function makeBots(names: readonly string[], random: (n: number) => number): Bot[] {
  return names.map((n) => {
    const search = SEARCH_BOT.exec(n);
    if (search !== null) return searchBot({ level: Number(search[1]), seed: `cli/${random(0x100000000)}` });
    return n === 'greedy' ? greedyBot(random) : randomBot(random);
  });
}

/** `--seed` checked: at most 256 characters once `suffix` (such as `/99`, a game's) is added. */
export function seedProblem(seed: string, suffix = ''): string | null {
  if (seed.length + suffix.length <= 256) return null;
  if (suffix === '') return `--seed must be at most 256 characters, got ${seed.length}`;
  return `--seed is too long: game seeds are <seed>${suffix.replace(/\d+$/, '<i>')} and at most 256 characters, so with these games the seed may have at most ${256 - suffix.length} characters, got ${seed.length}`;
}

/**
 * The base game a replay's `ruleset.game` names, as `createRuleset` takes it: `'classic'` by
 * name, The Castle as its module with `options`. Any other name is passed on, for
 * `createRuleset` to refuse with its own message.
 */
export function gameByName(name: string, options?: unknown): RulesetOptions['game'] {
  if (name === 'castle') return castle(options as CastleOptions | undefined);
  return name as 'classic';
}

/**
 * The ruleset a ruleset spec names (`rules.options`: a replay's `ruleset` field, or what
 * `simulate` sends its worker threads), built by the factories (the built-in ones and those of
 * `modules`); or why there is none, as `code: message`.
 */
export function rulesetFromSpec(spec: unknown, modules: ExpansionModules = NO_MODULES): Result<Ruleset, string> {
  const factories = expansionFactories(modules);
  if (!isRecord(spec)) return err('replay/malformed: $.ruleset must be an object such as {"game":"classic","expansions":[]}');
  if (typeof spec['game'] !== 'string') return err('replay/malformed: $.ruleset.game must be a string');
  const refs = spec['expansions'] ?? [];
  if (!Array.isArray(refs)) return err('replay/malformed: $.ruleset.expansions must be an array');
  const expansions: Expansion[] = [];
  for (const [i, ref] of refs.entries()) {
    if (!isRecord(ref) || typeof ref['id'] !== 'string') return err(`replay/malformed: $.ruleset.expansions[${i}] must be an object with an id`);
    const options = ref['options'] ?? {};
    if (!isRecord(options)) return err(`replay/malformed: $.ruleset.expansions[${i}].options must be an object`);
    const make = Object.hasOwn(factories, ref['id']) ? factories[ref['id']] : undefined;
    if (make === undefined) {
      const hint = Object.keys(modules).length === 0 ? '; an expansion of your own is loaded with --expansion-module FILE' : '';
      return err(`options/unknown-expansion: unknown expansion '${ref['id']}' (expansions: ${Object.keys(factories).join(', ')}${hint})`);
    }
    expansions.push(make(options));
  }
  // Classic takes no options: a spec that gives some is refused by createRuleset.
  const options: Record<string, unknown> = { game: gameByName(spec['game'], spec['options']), expansions };
  if (spec['options'] !== undefined && spec['game'] !== 'castle') options['options'] = spec['options'];
  const rules = createRuleset(options as unknown as RulesetOptions);
  return rules.ok ? ok(rules.value) : err(`${rules.error.code}: ${rules.error.message}`);
}

/** The games, the expansions and their options, for the top-level help. */
export function modulesHelp(): string {
  const spec = (id: string, o: CliOption): string => `${id}.${o.key}=${o.values === null ? '@file.json' : o.values.map(String).join('|')}`;
  const all = [...Object.entries(CLI_GAMES), ...Object.entries(CLI_EXPANSION_INFO)];
  const width = Math.max(...all.flatMap(([id, m]) => m.options.map((o) => spec(id, o).length))) + 2;
  const optionLines = (id: string, m: CliModule): string[] => m.options.map((o) => `${' '.repeat(18)}${spec(id, o).padEnd(width)}${o.about}`);
  const lines: string[] = ['games (--game), with their options (--option id.key=value; the first value is the default):'];
  for (const [id, g] of Object.entries(CLI_GAMES)) {
    const rules = createRuleset({ game: g.make({}) });
    const players = rules.ok ? `; ${rules.value.minPlayers === rules.value.maxPlayers ? rules.value.minPlayers : `${rules.value.minPlayers} to ${rules.value.maxPlayers}`} players` : '';
    lines.push(`  ${id.padEnd(16)}${g.about}${players}`, ...optionLines(id, g));
  }
  lines.push('expansions of classic (--expansions id,id,...), with their options:');
  for (const [id, e] of Object.entries(CLI_EXPANSION_INFO)) lines.push(`  ${id.padEnd(16)}${e.about}`, ...optionLines(id, e));
  return `${lines.join('\n')}\n`;
}
