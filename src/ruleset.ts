/**
 * `createRuleset`: the composition root that turns options into compiled rules. It lives
 * outside core/ because it knows the games; the core knows none of them.
 *
 * @example
 * ```ts
 * import { createRuleset } from 'meeplekit';
 *
 * const rules = createRuleset({ game: 'classic' });
 * if (!rules.ok) throw new Error(rules.error.message);
 * console.log(rules.value.id, rules.value.tileCount); // classic 72
 * ```
 */
import { meepleError, showValue, type MeepleError } from './core/errors.js';
import { err, ok, type Result } from './core/result.js';
import { compileRuleset, type Ruleset, type RulesetOptions } from './core/ruleset.js';
import { classicGame } from './games/classic/index.js';

/** Base games available: the values `createRuleset` accepts for `game`. */
export const GAMES = ['classic'] as const;

/**
 * Compiles the rules of a game. Validates the options: an unknown game, an unknown expansion or
 * a malformed options object returns an error (`options/unknown-game`,
 * `options/unknown-expansion`, `options/malformed`); it never throws. Compile once and share the
 * Ruleset: it is immutable and holds no per-game data.
 *
 * @example
 * ```ts
 * import { createRuleset } from 'meeplekit';
 *
 * const rules = createRuleset({ game: 'classic' });
 * if (!rules.ok) throw new Error(`${rules.error.code}: ${rules.error.message}`);
 *
 * const bad = createRuleset({ game: 'classic', expansions: ['river'] });
 * if (!bad.ok) console.log(bad.error.code); // options/unknown-expansion
 * ```
 */
export function createRuleset(options: RulesetOptions): Result<Ruleset, MeepleError> {
  const o: unknown = options;
  if (typeof o !== 'object' || o === null || Array.isArray(o)) {
    return err(meepleError('options/malformed', 'createRuleset needs an options object such as { game: "classic" }'));
  }
  const rec = o as Record<string, unknown>;
  for (const k of Object.keys(rec)) {
    if (k !== 'game' && k !== 'expansions') {
      return err(meepleError('options/malformed', `unknown ruleset option '${k}' (options: game, expansions)`));
    }
  }
  const game = rec['game'];
  if (game !== 'classic') {
    return err(meepleError('options/unknown-game', `unknown game ${showValue(game)} (available: ${GAMES.join(', ')})`));
  }
  const expansions = rec['expansions'] ?? [];
  if (!Array.isArray(expansions)) return err(meepleError('options/malformed', 'expansions must be an array of expansion ids'));
  if (expansions.length > 0) {
    return err(meepleError('options/unknown-expansion', `unknown expansion ${showValue(expansions[0])} (none are available yet)`));
  }
  return ok(compileRuleset(classicGame(), { game: 'classic', expansions: [] }, 'classic'));
}
