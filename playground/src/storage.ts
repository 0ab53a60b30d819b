/**
 * The local game kept across reloads: the configuration and the state (serializeState) in
 * localStorage after every move. On reload it is checked: the configuration by `checkConfig`, the
 * state by `parseState` (which replays it from its seed and moves, so a state edited by hand does
 * not load). Anything wrong is an error message, never a crash and never a game in a bad state.
 */
import { parseState, serializeState, type GameState, type Ruleset } from 'meeplekit';
import { checkConfig, rulesFor, type Checked, type GameConfig } from './rules.js';

/** The localStorage key. */
export const STORAGE_KEY = 'meeplekit-playground';
/** The saved entry's format tag and version. */
const FORMAT = 'meeplekit-playground';
const VERSION = 1;

/** The part of `Storage` used (localStorage in the page, a map in tests). */
export interface KeyValueStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** A game restored from storage. */
export interface Restored {
  readonly config: GameConfig;
  readonly rules: Ruleset;
  readonly state: GameState;
}

/** The text saved for a game. */
export function savedText(config: GameConfig, state: GameState): string {
  return JSON.stringify({ format: FORMAT, version: VERSION, config, state: serializeState(state) });
}

/** Saves a game (errors of a full or disabled storage are ignored: the game goes on, unsaved). */
export function save(store: KeyValueStore, config: GameConfig, state: GameState): void {
  try {
    store.setItem(STORAGE_KEY, savedText(config, state));
  } catch {
    // Storage full or disabled: the game is not kept across a reload.
  }
}

/** Forgets the saved game. */
export function clear(store: KeyValueStore): void {
  try {
    store.removeItem(STORAGE_KEY);
  } catch {
    // Nothing to do.
  }
}

/** Reads a saved text: the game, or why it cannot be restored. */
export function restoreText(text: string): Checked<Restored> {
  let entry: unknown;
  try {
    entry = JSON.parse(text);
  } catch {
    return { ok: false, message: 'the saved game is not JSON' };
  }
  if (typeof entry !== 'object' || entry === null) return { ok: false, message: 'the saved game is not an object' };
  const e = entry as Record<string, unknown>;
  if (e['format'] !== FORMAT || e['version'] !== VERSION) return { ok: false, message: 'the saved game is of another format or version' };
  const config = checkConfig(e['config']);
  if (!config.ok) return { ok: false, message: `the saved game's configuration: ${config.message}` };
  const rules = rulesFor(config.value.game, config.value.expansions);
  if (!rules.ok) return rules;
  if (typeof e['state'] !== 'string') return { ok: false, message: 'the saved game has no state' };
  const state = parseState(rules.value, e['state']);
  if (!state.ok) return { ok: false, message: `the saved state was refused (${state.error.code}): ${state.error.message}` };
  if (state.value.players !== config.value.players) return { ok: false, message: 'the saved state has another number of players than its configuration' };
  return { ok: true, value: { config: config.value, rules: rules.value, state: state.value } };
}

/** The saved game: null when there is none, else the game or why it cannot be restored. */
export function restore(store: KeyValueStore): Checked<Restored> | null {
  let text: string | null;
  try {
    text = store.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
  return text === null ? null : restoreText(text);
}
