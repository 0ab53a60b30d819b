/**
 * The games and expansions the command line knows, and the flags `play`, `simulate` and `render`
 * share to choose one (`--game`, `--expansions`, `--option`, `--river-set`, `--players`, `--seed`,
 * `--bots`): the CLI is the one place that imports every expansion (the library's entry point
 * imports none; each has its own subpath). The top-level help is generated from these tables.
 */
import { greedyBot, randomBot, type Bot } from '../bots.js';
import { searchBot } from '../bots/index.js';
import { err, ok, type Result } from '../core/result.js';
import type { Ruleset, RulesetOptions } from '../core/ruleset.js';
import { castle } from '../games/castle/entry.js';
import { createRuleset } from '../ruleset.js';
import type { Expansion } from '../core/expansion.js';
import type { CastleOptions } from '../games/castle/options.js';
import { RIVER_SETS } from '../expansions/river/index.js';
import { readFileSync } from 'node:fs';
import { isRecord, range, splitList, wholeNumber } from './args.js';
import { CLI_EXPANSION_INFO, CLI_GAMES, type CliModule, type CliOption } from './built-in-expansions.js';
import { expansionFactories, NO_MODULES, type ExpansionModules } from './expansion-modules.js';

// The tables and the module loading live in their own files; their names stay importable from here.
export * from './built-in-expansions.js';
export * from './expansion-modules.js';
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
