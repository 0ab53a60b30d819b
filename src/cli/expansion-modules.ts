/**
 * Expansions of one's own: `--expansion-module FILE` loads an ES module file, checks its expansion
 * and makes its factory available by the expansion's id beside the built-in ones.
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ParseArgsConfig } from 'node:util';
import type { Expansion } from '../core/expansion.js';
import { err, ok, type Result } from '../core/result.js';
import { moduleProblem } from '../module-check.js';
import { parseFlags } from './args.js';
import { EXPANSION_FACTORIES } from './built-in-expansions.js';

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
