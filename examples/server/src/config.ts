/**
 * Game configurations: what a client may ask for when it creates a game, checked here and then by
 * the library. The rules are named, never sent: the game ('classic' or 'castle'), the expansions
 * by id and their options by id, the same names the bot worker's messages use
 * (examples/bot-messages.ts), so that a stored configuration rebuilds the same ruleset.
 */
import { createRuleset, type Ruleset } from 'meeplekit';
import { EXPANSIONS, GAMES } from '../../bot-messages.js';
import { refusal, type Refusal } from './protocol.js';

type Options = Readonly<Record<string, unknown>>;

/** A game's rules and players, as stored and as the bot worker takes them. Plain JSON. */
export interface GameConfig {
  readonly game: 'classic' | 'castle';
  readonly expansions: readonly string[];
  readonly options: Readonly<Record<string, Options>>;
  readonly players: number;
}

/** Bot levels of `meeplekit/bots`. */
export const BOT_LEVELS = [1, 2, 3, 4, 5] as const;

const rulesets = new Map<string, Ruleset>();

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Checks a configuration from a client and builds its ruleset (cached by configuration). Refusals:
 * `server/bad-config` for the shape, the library's `options/...` codes for what it refuses.
 */
export function checkConfig(input: unknown): { ok: true; config: GameConfig; rules: Ruleset } | { ok: false; refusal: Refusal } {
  const bad = (message: string) => ({ ok: false as const, refusal: refusal('server/bad-config', message) });
  if (!isRecord(input)) return bad('config is an object { game, expansions, options, players }');
  const { game = 'classic', expansions = [], options = {}, players = 2 } = input;
  for (const key of Object.keys(input)) {
    if (!['game', 'expansions', 'options', 'players'].includes(key)) return bad(`config has no field '${key.slice(0, 40)}'`);
  }
  if (game !== 'classic' && game !== 'castle') return bad("config.game is 'classic' or 'castle'");
  if (!Array.isArray(expansions) || expansions.length > Object.keys(EXPANSIONS).length || !expansions.every((e) => typeof e === 'string' && Object.hasOwn(EXPANSIONS, e))) {
    return bad(`config.expansions lists expansion ids among ${Object.keys(EXPANSIONS).join(', ')}`);
  }
  if (!isRecord(options) || !Object.entries(options).every(([id, o]) => (id === game || expansions.includes(id)) && isRecord(o))) {
    return bad('config.options holds an object of options per game or expansion id of this config');
  }
  if (!Number.isInteger(players) || (players as number) < 2 || (players as number) > 5) return bad('config.players is an integer from 2 to 5');
  const config: GameConfig = { game, expansions: expansions as string[], options: options as Record<string, Options>, players: players as number };
  const rules = rulesFor(config);
  if (!rules.ok) return { ok: false, refusal: rules.refusal };
  return { ok: true, config, rules: rules.rules };
}

/** The ruleset of a configuration (stored ones were checked when the game was created). */
export function rulesFor(config: GameConfig): { ok: true; rules: Ruleset } | { ok: false; refusal: Refusal } {
  const key = JSON.stringify([config.game, config.expansions, config.options]);
  let rules = rulesets.get(key);
  if (rules === undefined) {
    let created: ReturnType<typeof createRuleset>;
    try {
      const modules = config.expansions.map((id) => EXPANSIONS[id]!(config.options[id] ?? {}));
      created = createRuleset({ game: GAMES[config.game](config.options[config.game] ?? {}), expansions: modules });
    } catch (e) {
      return { ok: false, refusal: refusal('server/bad-config', `the rules could not be built: ${String(e).slice(0, 200)}`) };
    }
    if (!created.ok) return { ok: false, refusal: refusal(created.error.code, created.error.message) };
    rules = created.value;
    if (rulesets.size > 256) rulesets.clear();
    rulesets.set(key, rules);
  }
  return { ok: true, rules };
}
