/**
 * Games of the serve protocol: `info`, and `make_game`, which builds a ruleset from a game name,
 * expansion ids and per-module options (handed to the modules' own factories, which
 * `createRuleset` then checks) for a number of players.
 */
import { createRuleset } from '../ruleset.js';
import { newGame } from '../core/engine/apply.js';
import type { Expansion } from '../core/expansion.js';
import type { Ruleset, RulesetOptions } from '../core/ruleset.js';
import { err, ok } from '../core/result.js';
import { entitySpec, gameInfo, observationSpec, type GameInfo, type ObservationSpec } from '../ai/index.js';
import type { Op } from './registry.js';
import { intField, LIMITS, MEMORY_ESTIMATE, PROTOCOL_VERSION, refuse, SERVE_CAPABILITIES, show, stringField, type Checked, type Request, type ServeLimits } from './request.js';

/** Options of one module (a game or an expansion), as a request gives them. */
export type ModuleOptions = Readonly<Record<string, unknown>>;

/**
 * What a server is started with: its version, and the games and expansions `make_game` may name,
 * as factories that take each module's options (the command line's tables: the server imports no
 * expansion itself). Factories hand the options on unchecked; `createRuleset` checks them.
 */
export interface ServeConfig {
  /** The package version, for the hello line and `info`. */
  readonly version: string;
  /** Base games by name: the `game` of `createRuleset` made with the game's options (`{}` when none). */
  readonly games: Readonly<Record<string, (options: ModuleOptions) => RulesetOptions['game']>>;
  /** Expansion factories by id, called with the expansion's options (`{}` when none). */
  readonly expansions: Readonly<Record<string, (options: ModuleOptions) => Expansion>>;
  /** Limits other than {@link LIMITS}' defaults (the command line's `--max-...` flags). */
  readonly limits?: Partial<ServeLimits>;
}

/** The limits of a server started with `config`: {@link LIMITS}, with the config's own over them. */
export function serveLimits(config: ServeConfig): ServeLimits {
  return { ...LIMITS, ...config.limits };
}

/** A game handle: compiled rules for a number of players, and what the protocol reports about them. */
export interface GameEntry {
  /** Always `'game'`. */
  readonly kind: 'game';
  /** Counts as one handle. */
  readonly weight: 1;
  /** {@link MEMORY_ESTIMATE}.gameHandle. */
  readonly bytes: number;
  /** The compiled rules. */
  readonly rules: Ruleset;
  /** Number of players. */
  readonly players: number;
  /** `gameInfo(rules, players)`. */
  readonly info: GameInfo;
  /** `observationSpec(rules, players)`. */
  readonly spec: ObservationSpec;
  /** Split actions: ids `0 .. actions - 1`. */
  readonly actions: number;
  /** Chance outcome ids: `0 .. chanceOutcomes - 1`. */
  readonly chanceOutcomes: number;
}

/** The `info` response: protocol and package versions, the games and expansions, the limits. */
export function infoResponse(config: ServeConfig, ops: readonly string[]): Record<string, unknown> {
  return { protocol: PROTOCOL_VERSION, version: config.version, capabilities: SERVE_CAPABILITIES, games: Object.keys(config.games), expansions: Object.keys(config.expansions), ops, limits: serveLimits(config) };
}

function isOptions(v: unknown): v is ModuleOptions {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Builds each expansion with its options, or refuses (`options/unknown-expansion`, `protocol/request`). */
function buildExpansions(config: ServeConfig, ids: readonly unknown[], options: Readonly<Record<string, ModuleOptions>>): Checked<Expansion[]> {
  const out: Expansion[] = [];
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i];
    if (typeof id !== 'string') return refuse('protocol/request', `'expansions'[${i}] must be an expansion id string, got ${show(id)}`);
    if (!Object.hasOwn(config.expansions, id)) {
      return err({ code: 'options/unknown-expansion', message: `unknown expansion ${show(id)} (expansions: ${Object.keys(config.expansions).join(', ')})` });
    }
    out.push(config.expansions[id]!(options[id] ?? {}));
  }
  return ok(out);
}

/**
 * `make_game {game?, expansions?, options?, players?}`: the rules, checked by `createRuleset`
 * (whose codes pass through: an unknown game, bad options, conflicting expansions), and the
 * player count, checked as `newGame` checks it.
 */
export function makeGame(config: ServeConfig, req: Request): Checked<GameEntry> {
  const name = stringField(req, 'game', 64, 'classic');
  if (!name.ok) return name;
  const ids = req['expansions'] ?? [];
  if (!Array.isArray(ids)) return refuse('protocol/request', `'expansions' must be an array of expansion ids, got ${show(ids)}`);
  const given = req['options'] ?? {};
  if (!isOptions(given)) return refuse('protocol/request', `'options' must be an object of options by module id, got ${show(given)}`);
  for (const [k, v] of Object.entries(given)) {
    if (k !== name.value && !ids.includes(k)) return refuse('protocol/request', `'options' has options for '${k}', which is neither the game nor one of its expansions`);
    if (!isOptions(v)) return refuse('protocol/request', `'options'.${k} must be an object of options, got ${show(v)}`);
  }
  const options = given as Readonly<Record<string, ModuleOptions>>;
  const expansions = buildExpansions(config, ids, options);
  if (!expansions.ok) return expansions;
  const players = intField(req, 'players', -Infinity, Infinity, 2);
  if (!players.ok) return players;
  // An unknown game goes to createRuleset by name, to be refused with its own code.
  const make = Object.hasOwn(config.games, name.value) ? config.games[name.value]! : () => name.value as 'classic';
  const gameOptions = options[name.value];
  const game = make(gameOptions ?? {});
  // A game named by a string takes its options beside it (classic refuses any); a module carries its own.
  const rules = createRuleset(typeof game === 'string' && gameOptions !== undefined ? { game, options: gameOptions as NonNullable<RulesetOptions['options']>, expansions: expansions.value } : { game, expansions: expansions.value });
  if (!rules.ok) return rules;
  // The library's own check of the player count (and its message): a game set up and dropped.
  const trial = newGame(rules.value, { players: players.value, seed: 0 });
  if (!trial.ok) return trial;
  const info = gameInfo(rules.value, players.value);
  return ok({
    kind: 'game',
    weight: 1,
    bytes: MEMORY_ESTIMATE.gameHandle,
    rules: rules.value,
    players: players.value,
    info,
    spec: observationSpec(rules.value, players.value),
    actions: info.numDistinctActions.split,
    chanceOutcomes: info.maxChanceOutcomes,
  });
}

/** The `make_game` response of a game handle. */
export function gameResponse(id: string, g: GameEntry): Record<string, unknown> {
  const { version, planes, vector, size, channels, features, compact } = g.spec;
  const entity = entitySpec(g.rules, g.players);
  return {
    game_id: id,
    ruleset: g.rules.id,
    players: g.players,
    info: g.info,
    observation_shape: [size],
    observation_spec: {
      version,
      planes,
      vector,
      size,
      channels,
      features,
      compact: { version: compact.version, bit_channels: compact.bitChannels, count_channels: compact.countChannels, bit_bytes: compact.bitBytes, count_bytes: compact.countBytes, vector: compact.vector },
      entity: { version: entity.version, max_rows: entity.maxRows, columns: entity.columns },
    },
    num_distinct_actions: g.actions,
    max_chance_outcomes: g.chanceOutcomes,
  };
}

/** `make_game` with the games and expansions of `config`. */
export function gameOps(config: ServeConfig): Readonly<Record<string, Op>> {
  return {
    make_game: {
      fields: ['game', 'expansions', 'options', 'players'],
      run(req, handles) {
        const g = makeGame(config, req);
        if (!g.ok) return g;
        const id = handles.add('g', g.value);
        return id.ok ? ok(gameResponse(id.value, g.value)) : id;
      },
    },
  };
}
