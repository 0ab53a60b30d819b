/**
 * The Castle's options: its board and tile data (the shipped reconstruction by default) and the
 * rule questions the digest leaves open (the Castle digest, "Open questions"),
 * validated into a normalized form whose non-default entries name the ruleset.
 */
import { meepleError, showValue, type MeepleError } from '../../core/errors.js';
import { err, ok, type Result } from '../../core/result.js';
import { canonicalJson } from '../../core/ruleset.js';
import { seedRng } from '../../core/rng.js';
import type { TileDef } from '../../core/tiles.js';
import { loadCastleLayout, loadCastleTiles, type CastleLayout, type CastleLayoutData, type CastleTileSetData } from './data.js';
import { RECONSTRUCTED_LAYOUT, RECONSTRUCTED_TILES } from './reconstruction.js';

/**
 * Options of The Castle, passed as `createRuleset({ game: castle(options) })` (`castle` from
 * `meeplekit/games/castle`). Every field is
 * optional; the defaults are the digest's.
 *
 * @example
 * ```ts
 * import { createRuleset } from 'meeplekit';
 * import { castle } from 'meeplekit/games/castle';
 *
 * // The default: reconstructed board and tiles, the digest's readings.
 * const rules = createRuleset({ game: castle() });
 * // The keep goes on any house completed with the majority, whoever placed the last tile.
 * const loose = createRuleset({ game: castle({ keep: 'majority' }) });
 * if (!rules.ok || !loose.ok) throw new Error('unexpected');
 * console.log(rules.value.id, loose.value.id); // castle castle{"keep":"majority"}
 * ```
 */
export interface CastleOptions {
  /** The board: play area, start fields, score track and towers (default: the reconstruction). */
  readonly layout?: CastleLayoutData;
  /** The 60 tiles (default: the reconstruction). */
  readonly tiles?: CastleTileSetData;
  /**
   * Who gets the keep on a completed house: `'completing-tile'` (default) only the player with
   * the squire majority who placed the completing tile; `'majority'` the majority holder,
   * whoever placed it (as some translations read the rule).
   */
  readonly keep?: 'completing-tile' | 'majority';
  /**
   * Wall token 1 (extra turn): `'free'` (default) needs no majority; `'needs-majority'` may be
   * used only at the end of a turn in which the player scored a completed feature with the
   * majority (our reading of "tokens 1 to 7 need the majority" applied to token 1).
   */
  readonly extraTurn?: 'free' | 'needs-majority';
  /** Wall token 7: `'one-court'` (default: one court of the owner's choice) or `'every-court'`. */
  readonly marketToken?: 'one-court' | 'every-court';
  /**
   * Taking tokens: `'every-lap'` (default) judges the marker's position as score mod 100 on
   * every lap; `'first-lap'` takes no token once a score has reached 100.
   */
  readonly laps?: 'every-lap' | 'first-lap';
}

/** Options validated and completed with their defaults. @internal */
export interface CastleConfig {
  readonly layout: CastleLayout;
  readonly tiles: readonly TileDef[];
  readonly keep: 'completing-tile' | 'majority';
  readonly extraTurn: 'free' | 'needs-majority';
  readonly marketToken: 'one-court' | 'every-court';
  readonly laps: 'every-lap' | 'first-lap';
  /** The options as given, minus defaults (replays and the ruleset spec keep them). */
  readonly spec: Readonly<Record<string, unknown>>;
  /** The same with the data replaced by a digest (the ruleset id, stored in every state). */
  readonly idOptions: Readonly<Record<string, unknown>>;
}

const CHOICES = {
  keep: ['completing-tile', 'majority'],
  extraTurn: ['free', 'needs-majority'],
  marketToken: ['one-court', 'every-court'],
  laps: ['every-lap', 'first-lap'],
} as const;

/** A short digest of data options, so that the ruleset id stays small. */
function digest(data: unknown): string {
  return seedRng(canonicalJson(data))
    .map((n) => n.toString(16).padStart(8, '0'))
    .join('');
}

/** Validates The Castle's options. @internal */
export function castleConfig(options: unknown): Result<CastleConfig, MeepleError> {
  const o = options ?? {};
  if (typeof o !== 'object' || Array.isArray(o)) {
    return err(meepleError('options/game-options', `The Castle's options must be an object, got ${showValue(o)}`));
  }
  const rec = o as Record<string, unknown>;
  const spec: Record<string, unknown> = {};
  const idOptions: Record<string, unknown> = {};
  const picked: Record<string, string> = {};
  for (const k of Object.keys(rec)) {
    if (k === 'layout' || k === 'tiles') continue;
    if (!Object.hasOwn(CHOICES, k)) {
      return err(meepleError('options/game-options', `unknown option '${k}' for The Castle (options: layout, tiles, ${Object.keys(CHOICES).join(', ')})`));
    }
    const allowed = CHOICES[k as keyof typeof CHOICES] as readonly string[];
    const v = rec[k];
    if (v === undefined) continue;
    if (typeof v !== 'string' || !allowed.includes(v)) {
      return err(meepleError('options/game-options', `option '${k}' must be one of ${allowed.map((a) => `'${a}'`).join(', ')}, got ${showValue(v)}`));
    }
    picked[k] = v;
    if (v !== allowed[0]) spec[k] = idOptions[k] = v;
  }
  let layout: Result<CastleLayout, MeepleError>;
  if (rec['layout'] === undefined) layout = loadCastleLayout(RECONSTRUCTED_LAYOUT);
  else {
    layout = loadCastleLayout(rec['layout']);
    if (layout.ok) {
      spec['layout'] = layout.value.data;
      idOptions['layout'] = digest(layout.value.data);
    }
  }
  if (!layout.ok) return layout;
  let tiles: Result<readonly TileDef[], MeepleError>;
  if (rec['tiles'] === undefined) tiles = loadCastleTiles(RECONSTRUCTED_TILES);
  else {
    tiles = loadCastleTiles(rec['tiles']);
    if (tiles.ok) {
      spec['tiles'] = rec['tiles'];
      idOptions['tiles'] = digest(rec['tiles']);
    }
  }
  if (!tiles.ok) return tiles;
  return ok({
    layout: layout.value,
    tiles: tiles.value,
    keep: (picked['keep'] ?? 'completing-tile') as CastleConfig['keep'],
    extraTurn: (picked['extraTurn'] ?? 'free') as CastleConfig['extraTurn'],
    marketToken: (picked['marketToken'] ?? 'one-court') as CastleConfig['marketToken'],
    laps: (picked['laps'] ?? 'every-lap') as CastleConfig['laps'],
    spec,
    idOptions,
  });
}
