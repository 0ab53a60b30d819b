/**
 * Every expected failure of the library, as a string-literal code. Codes are namespaced by
 * what failed: `options/...` (ruleset or game options), `move/...` (any move), `place/...`
 * (tile placement), `deploy/...` (follower deployment), `state/...` (serialized states),
 * `replay/...` (replays), `undo/...` (undo), `query/...` (UI helpers), `view/...` (public views and their deltas), `render/...` (pictures). Codes are stable API:
 * branch on them; messages are for people and may change. Also `draw/...` (a game's chosen draws)
 * and `position/...` (`buildPosition`).
 *
 * @example
 * ```ts
 * import { applyMove, createRuleset, newGame } from 'meeplekit';
 *
 * const rules = createRuleset({ game: 'classic' });
 * if (!rules.ok) throw new Error(rules.error.message);
 * const game = newGame(rules.value, { players: 2, seed: 'errors' });
 * if (!game.ok) throw new Error(game.error.message);
 *
 * const result = applyMove(rules.value, game.value, { type: 'pass', player: 1 });
 * if (!result.ok) {
 *   switch (result.error.code) {
 *     case 'move/not-your-turn':
 *       console.log('wait for your turn'); // this one
 *       break;
 *     default:
 *       console.log(result.error.message);
 *   }
 * }
 * ```
 */
export const ERROR_CODES = [
  'options/malformed',
  'options/unknown-game',
  'options/unknown-expansion',
  'options/players',
  'options/duplicate-expansion',
  'options/missing-requirement',
  'options/conflicting-expansions',
  'options/expansion-options',
  'options/seed',
  'options/game-options',
  'options/castle-layout',
  'options/castle-tiles',
  'options/draws',
  'options/too-many-tiles',
  'move/malformed',
  'move/unknown-type',
  'move/wrong-step',
  'move/not-your-turn',
  'move/game-over',
  'move/not-offered',
  'place/wrong-tile',
  'place/bad-rotation',
  'place/occupied',
  'place/off-board',
  'place/not-adjacent',
  'place/edge-mismatch',
  'place/forbidden',
  'deploy/unknown-feature',
  'deploy/feature-occupied',
  'deploy/no-followers',
  'deploy/not-allowed',
  'draw/held-back',
  'state/json',
  'state/malformed',
  'state/version',
  'state/ruleset-mismatch',
  'state/tampered',
  'replay/json',
  'replay/malformed',
  'replay/version',
  'replay/illegal-move',
  'undo/nothing-to-undo',
  'undo/draw-seen',
  'query/no-tile',
  'query/no-feature',
  'position/malformed',
  'position/tile-discarded',
  'position/unfinished-turn',
  'view/bad-viewer',
  'view/malformed',
  'view/version',
  'view/mismatch',
  'render/malformed-state',
  'render/unknown-tile',
  'render/bad-rotation',
  'render/bad-options',
] as const;

/** One of {@link ERROR_CODES}. */
export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * An expansion's own error code, namespaced by its id (`'<expansion id>/<name>'`): why one of its
 * rules refuses a placement or one of its moves. Each expansion's guide lists its codes.
 */
// `& {}` keeps the library's own codes as distinct literals next to the template type.
// eslint-disable-next-line @typescript-eslint/ban-types
export type ExpansionErrorCode = `${string}/${string}` & {};

/** What an expansion answers when it refuses something: its own code and a message. */
export interface ExpansionError {
  /** `'<expansion id>/<name>'`. */
  readonly code: ExpansionErrorCode;
  /** For people. */
  readonly message: string;
}

/**
 * An expected failure: a precise `code` to branch on, and a `message` for people. Some errors
 * carry extra context (`path` for a malformed or tampered state, `index` for a replay move).
 */
export interface MeepleError {
  /** What failed, as a stable string code: one of {@link ERROR_CODES}, or an expansion's own. */
  readonly code: ErrorCode | ExpansionErrorCode;
  /** A human-readable explanation, naming the offending value where possible. */
  readonly message: string;
  /** Where in a JSON input the problem is (`state.scores[1]`), when it applies. */
  readonly path?: string;
  /** The index of the offending move in a replay or move history, when it applies. */
  readonly index?: number;
  /** The underlying error, when this one wraps another (a bad move inside a replay). */
  readonly cause?: MeepleError;
}

/**
 * A short description of an untrusted value for an error message. Never throws: `String()` throws
 * on null-prototype objects and symbols in templates, `JSON.stringify()` on BigInt and cycles,
 * and either would do on values too deep to print. @internal
 */
export function showValue(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v.length > 60 ? `${v.slice(0, 60)}...` : v);
  if (typeof v === 'function') return 'a function';
  if (typeof v !== 'object' || v === null) return String(v);
  try {
    const text = JSON.stringify(v);
    if (text !== undefined) return text.length > 80 ? `${text.slice(0, 80)}...` : text;
  } catch {
    // BigInt inside, a cycle, or too deep: describe it by shape below.
  }
  return Array.isArray(v) ? 'an array' : 'an object';
}

/** Builds a {@link MeepleError}; `extra` adds `path`, `index` or `cause`. */
export function meepleError(
  code: ErrorCode | ExpansionErrorCode,
  message: string,
  extra?: { path?: string; index?: number; cause?: MeepleError },
): MeepleError {
  return extra === undefined ? { code, message } : { code, message, ...extra };
}

/**
 * Why an expansion's move has the wrong shape, or null: `fields` lists its fields by move type
 * (`type` and `player` first), each an integer but `feature` (a string, described by
 * `featureHint`). The refusal's code is `'<id>/malformed'` (or `'<id>/unknown-move'` for a type
 * not in `fields`); `name` is how messages call the expansion. For expansions' `moveError`.
 */
export function moveShapeError(
  id: string,
  name: string,
  fields: Readonly<Record<string, readonly string[]>>,
  move: Readonly<Record<string, unknown>>,
  featureHint = 'a local feature id such as "c1"',
): ExpansionError | null {
  const type = move['type'] as string;
  if (!Object.hasOwn(fields, type)) return { code: `${id}/unknown-move` as ExpansionErrorCode, message: `${name} has no move '${type}' (moves: ${Object.keys(fields).join(', ')})` };
  const list = fields[type]!;
  for (const k of Object.keys(move)) {
    if (!list.includes(k)) return { code: `${id}/malformed` as ExpansionErrorCode, message: `a ${type} move has no field '${k}' (fields: ${list.join(', ')})` };
  }
  for (const k of list.slice(1)) {
    const v = move[k];
    if (k === 'feature' ? typeof v !== 'string' : typeof v !== 'number' || !Number.isInteger(v)) {
      return { code: `${id}/malformed` as ExpansionErrorCode, message: `a ${type} move needs ${k === 'feature' ? `a string "feature" (${featureHint})` : `an integer "${k}"`}, got ${showValue(v)}` };
    }
  }
  return null;
}
