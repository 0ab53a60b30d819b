/**
 * What the renderer checks of a state before drawing it: that it belongs to the ruleset and that
 * every part the picture reads is well formed, so that a tampered or truncated state is a clear
 * error, never a crash or a broken picture.
 */
import { meepleError, type MeepleError } from '../core/errors.js';
import { err, ok, type Result } from '../core/result.js';
import type { Ruleset } from '../core/ruleset.js';

function malformed(message: string, path: string): Result<never, MeepleError> {
  return err(meepleError('render/malformed-state', message, { path }));
}

const isInt = (v: unknown, lo: number, hi: number): boolean => Number.isInteger(v) && (v as number) >= lo && (v as number) <= hi;

/** Checks the parts of a state or view that a board picture reads. */
export function checkState(rules: Ruleset, state: unknown): Result<true, MeepleError> {
  if (typeof state !== 'object' || state === null) return malformed('a state must be an object', '$');
  const s = state as Record<string, unknown>;
  if (s['ruleset'] !== rules.id) {
    return err(meepleError('state/ruleset-mismatch', `state belongs to ruleset ${JSON.stringify(String(s['ruleset']).slice(0, 80))}, not '${rules.id}'`));
  }
  const players = s['players'];
  if (!isInt(players, 1, 64)) return malformed('players must be an integer', '$.players');
  for (const key of ['scores', 'supply'] as const) {
    const v = s[key];
    if (!Array.isArray(v) || v.length !== players || !v.every((n) => Number.isSafeInteger(n))) return malformed(`${key} must hold one integer per player`, `$.${key}`);
  }
  const tiles = s['tiles'];
  if (!Array.isArray(tiles) || tiles.length > 10_000) return malformed('tiles must be a list', '$.tiles');
  for (let i = 0; i < tiles.length; i++) {
    const t = tiles[i] as Record<string, unknown> | null;
    if (typeof t !== 'object' || t === null || typeof t['id'] !== 'string' || !rules.tileById.has(t['id'])) return malformed('a placed tile names a tile kind of this ruleset', `$.tiles[${i}].id`);
    if (!isInt(t['x'], -600, 600) || !isInt(t['y'], -600, 600) || !isInt(t['rotation'], 0, 3) || !isInt(t['player'], -1, 63) || !isInt(t['node'], 0, 1e7)) {
      return malformed('a placed tile has integer x, y, rotation 0..3, player and node', `$.tiles[${i}]`);
    }
  }
  const followers = s['followers'];
  if (!Array.isArray(followers)) return malformed('followers must be a list', '$.followers');
  for (let i = 0; i < followers.length; i++) {
    const f = followers[i] as Record<string, unknown> | null;
    if (typeof f !== 'object' || f === null || !isInt(f['tile'], 0, tiles.length - 1) || !isInt(f['player'], 0, (players as number) - 1)) {
      return malformed('a follower stands on a placed tile and belongs to a player', `$.followers[${i}]`);
    }
    const tile = rules.tileById.get((tiles[f['tile'] as number] as { id: string }).id)!;
    if (!isInt(f['local'], 0, tile.def.features.length - 1)) return malformed('a follower stands on a feature of its tile', `$.followers[${i}].local`);
  }
  const g = s['features'] as Record<string, unknown> | null;
  if (typeof g !== 'object' || g === null || !Array.isArray(g['parent']) || !Array.isArray(g['tile'])) return malformed('features must be a feature graph', '$.features');
  const parent = g['parent'] as unknown[];
  if (!parent.every((v) => isInt(v, 0, parent.length - 1)) || (g['tile'] as unknown[]).length !== parent.length) {
    return malformed('the feature graph is inconsistent', '$.features');
  }
  const step = s['step'] as Record<string, unknown> | null;
  if (typeof step !== 'object' || step === null || typeof step['kind'] !== 'string') return malformed('step must be an object with a kind', '$.step');
  if (typeof s['ext'] !== 'object' || s['ext'] === null) return malformed('ext must be an object', '$.ext');
  return ok(true);
}
