/**
 * `createRuleset`: the composition root that turns options into compiled rules. It lives
 * outside core/ because it knows the base games; it knows no expansion (they arrive as module
 * objects from their own subpaths), so adding one changes nothing here.
 */
import { meepleError, showValue, type MeepleError } from './core/errors.js';
import type { Expansion } from './core/expansion.js';
import { err, ok, type Result } from './core/result.js';
import { compileRuleset, type Ruleset, type RulesetMoves, type RulesetOptions } from './core/ruleset.js';
import { boardLimitProblem } from './core/board.js';
import { classicGame } from './games/classic/index.js';
import type { BaseGame, GameModule } from './core/game.js';
import { isModule, moduleProblem } from './module-check.js';

/**
 * The base games: `'classic'` by name, The Castle as the module `castle()` from
 * `meeplekit/games/castle` (games are modules, so an app bundles only those it imports).
 */
export const GAMES = ['classic', 'castle'] as const;

/** Whether `v` is a base game made by a game factory (`castle()`, `classic()`). */
function isBaseGame(v: unknown): v is BaseGame {
  if (typeof v !== 'object' || v === null) return false;
  const g = v as Record<string, unknown>;
  return typeof g['game'] === 'string' && typeof g['build'] === 'function';
}


/**
 * Compiles the rules of a game with any combination of expansions. Validates everything: an
 * unknown game, something that is not an expansion module (`options/unknown-expansion`), an
 * expansion given twice (`options/duplicate-expansion`), one that needs another that is missing
 * (`options/missing-requirement`), two that cannot be combined (`options/conflicting-expansions`),
 * invalid expansion options (`options/expansion-options`), modules whose tiles would make a game
 * of more than 400 tiles (`options/too-many-tiles`), or a malformed options object.
 *
 * @example
 * ```ts
 * import { createRuleset } from 'meeplekit';
 * import { river } from 'meeplekit/expansions/river';
 * import { kingRobber } from 'meeplekit/expansions/king-robber';
 *
 * const rules = createRuleset({ game: 'classic', expansions: [river(), kingRobber()] });
 * if (!rules.ok) throw new Error(`${rules.error.code}: ${rules.error.message}`);
 * ```
 */
export function createRuleset<const O extends RulesetOptions>(options: O): Result<Ruleset<RulesetMoves<O>>, MeepleError> {
  const o: unknown = options;
  if (typeof o !== 'object' || o === null || Array.isArray(o)) {
    return err(meepleError('options/malformed', 'createRuleset needs an options object such as { game: "classic" }'));
  }
  const rec = o as Record<string, unknown>;
  for (const k of Object.keys(rec)) {
    if (k !== 'game' && k !== 'expansions' && k !== 'options') {
      return err(meepleError('options/malformed', `unknown ruleset option '${k}' (options: game, options, expansions)`));
    }
  }
  const game = rec['game'];
  const given = rec['options'];
  let module: GameModule;
  if (game === 'classic') {
    if (given !== undefined && (typeof given !== 'object' || given === null || Array.isArray(given) || Object.keys(given).length > 0)) {
      return err(meepleError('options/game-options', `classic Carcassonne has no game options, got ${showValue(given)}`));
    }
    module = classicGame();
  } else if (isBaseGame(game)) {
    // A game module from its own subpath (castle(options) from 'meeplekit/games/castle'): its
    // options travel with it.
    if (given !== undefined) {
      return err(meepleError('options/game-options', `pass ${game.game}'s options to its factory (${game.game}({ ... })), not beside it`));
    }
    const built = game.build();
    if (!built.ok) return built;
    module = built.value;
  } else if (game === 'castle') {
    return err(
      meepleError('options/unknown-game', "The Castle is a module of its own: import { castle } from 'meeplekit/games/castle' and pass { game: castle(options) }"),
    );
  } else {
    return err(meepleError('options/unknown-game', `unknown game ${showValue(game)} (available: ${GAMES.join(', ')}); The Castle is passed as castle() from 'meeplekit/games/castle'`));
  }
  const list = rec['expansions'] ?? [];
  if (!Array.isArray(list)) return err(meepleError('options/malformed', 'expansions must be an array of expansion modules'));
  if (module.game === 'castle' && list.length > 0) {
    return err(meepleError('options/conflicting-expansions', 'The Castle is a game of its own: it takes none of the classic expansions'));
  }
  const expansions: Expansion[] = [];
  for (const e of list as unknown[]) {
    const problem = moduleProblem(e);
    if (problem !== null || !isModule(e)) {
      const hint = typeof e === 'string' ? ` (pass the module, such as ${e.replace(/-(\w)/g, (_, c: string) => c.toUpperCase())}() from 'meeplekit/expansions/${e}')` : `: ${problem}`;
      return err(meepleError('options/unknown-expansion', `unknown expansion ${showValue(e)}${hint}`));
    }
    if (expansions.some((x) => x.id === e.id)) {
      return err(meepleError('options/duplicate-expansion', `expansion '${e.id}' is given twice`));
    }
    const invalid = e.validate?.() ?? null;
    if (invalid !== null) return err(meepleError('options/expansion-options', `${e.id}: ${typeof invalid === 'string' ? invalid.slice(0, 300) : 'invalid options'}`));
    expansions.push(e);
  }
  for (const e of expansions) {
    for (const r of e.requires ?? []) {
      if (!expansions.some((x) => x.id === r)) {
        return err(meepleError('options/missing-requirement', `expansion '${e.id}' requires '${r}', which is not switched on`));
      }
    }
    for (const c of e.conflictsWith ?? []) {
      if (expansions.some((x) => x.id === c)) {
        const why = e.conflictReasons !== undefined && Object.hasOwn(e.conflictReasons, c) ? `: ${e.conflictReasons[c]}` : '';
        return err(meepleError('options/conflicting-expansions', `expansions '${e.id}' and '${c}' cannot be combined${why}`));
      }
    }
  }
  // Two expansions that each replace the start tile cannot both have their way, unless one gives
  // way to the other (the River's spring, laid beside the Count's City: Expansion.startYields).
  const starters = expansions.filter((e) => e.start !== undefined);
  const firm = starters.filter((e) => e.startYields !== true);
  if (starters.length > 1 && (firm.length !== 1 || starters.length > 2)) {
    const [a, b] = firm.length > 1 ? firm : starters.filter((e) => e !== firm[0]);
    return err(meepleError('options/conflicting-expansions', `expansions '${a!.id}' and '${b!.id}' both replace the start tile${firm.length > 1 ? '' : ' (one start may give way, to one that stands)'}`));
  }
  // Hook order is the expansions' own fixed order, whatever order they were listed in.
  expansions.sort((a, b) => a.order - b.order || (a.id < b.id ? -1 : 1));
  const rules = compileRuleset(module, expansions);
  const tooMany = boardLimitProblem(rules);
  if (tooMany !== null) return err(meepleError('options/too-many-tiles', tooMany));
  // The modules' move types are type-only: the compiled ruleset is the same whatever they are.
  return ok(rules as Ruleset as Ruleset<RulesetMoves<O>>);
}
