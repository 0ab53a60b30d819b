/**
 * Whether a patched object is a view: the shape `applyViewDelta` checks a delta's result against
 * (each field's documented type, and the same ruleset, viewer and players as the view it was
 * applied to), so that a delta can never hand back an object that is not a view.
 */
import { showValue } from '../errors.js';
import { PUBLIC_VIEW_VERSION } from './view.js';

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}


/** Where a patched view is not a view (`path` from `view`), and why. */
export interface ShapeProblem {
  readonly path: string;
  readonly message: string;
}

function problem(path: string, message: string): ShapeProblem {
  return { path, message };
}

function isInt(v: unknown, min = -Infinity, below = Infinity): v is number {
  return Number.isInteger(v) && (v as number) >= min && (v as number) < below;
}

/** A list of `players` integers of at least `min`, or what is wrong with it. */
function perPlayer(v: unknown, path: string, players: number, min: number): ShapeProblem | null {
  if (!Array.isArray(v) || v.length !== players) return problem(path, `is not a list of ${players} numbers`);
  for (let i = 0; i < v.length; i++) if (!isInt(v[i], min)) return problem(`${path}[${i}]`, `is not an integer${min === 0 ? ' of at least 0' : ''}`);
  return null;
}

/** Counts per tile kind: a record of positive integers; their sum, or what is wrong. */
function counts(v: unknown, path: string): number | ShapeProblem {
  if (!isRecord(v)) return problem(path, 'is not a record of counts');
  let total = 0;
  for (const k of Object.keys(v)) {
    if (!isInt(v[k], 1)) return problem(`${path}.${k}`, 'is not a positive integer');
    total += v[k] as number;
  }
  return total;
}

/**
 * What makes `v` not a {@link PublicView} of the same game and viewer as `input` (the view the
 * delta was applied to), or null. It checks every field a UI reads by its documented type; it
 * does not check that the view is one the rules could reach (the fingerprint does that).
 * Linear in the view's tiles and followers: cheap next to the fingerprint's JSON text.
 */
export function viewProblem(v: Record<string, unknown>, input: Record<string, unknown>): ShapeProblem | null {
  if (v['version'] !== PUBLIC_VIEW_VERSION) return problem('view.version', `is not ${PUBLIC_VIEW_VERSION}`);
  // A delta goes between two views of one game and one viewer (viewDelta refuses anything else).
  for (const key of ['ruleset', 'viewer', 'players'] as const) {
    if (v[key] !== input[key]) return problem(`view.${key}`, `changed (${showValue(input[key])} before, ${showValue(v[key])} after)`);
  }
  const players = v['players'];
  if (typeof v['ruleset'] !== 'string') return problem('view.ruleset', 'is not a string');
  if (!isInt(players, 1)) return problem('view.players', 'is not a positive integer');
  if (v['viewer'] !== null && !isInt(v['viewer'], 0, players)) return problem('view.viewer', `is neither null nor a player from 0 to ${players - 1}`);
  if (!isInt(v['turn'], 0)) return problem('view.turn', 'is not an integer of at least 0');
  if (!isInt(v['active'], 0, players)) return problem('view.active', `is not a player from 0 to ${players - 1}`);
  const step = v['step'];
  if (!isRecord(step) || typeof step['kind'] !== 'string') return problem('view.step', 'is not a step { kind, ... }');
  if (step['kind'] === 'game-over') {
    const w = step['winners'];
    if (!Array.isArray(w) || !w.every((p) => isInt(p, 0, players))) return problem('view.step.winners', 'is not a list of players');
  } else if (step['kind'] === 'place-tile' || step['kind'] === 'deploy') {
    if (!isInt(step['player'], 0, players)) return problem('view.step.player', `is not a player from 0 to ${players - 1}`);
    if (typeof step['tile'] !== 'string') return problem('view.step.tile', 'is not a tile id');
    if (step['kind'] === 'deploy' && (!isInt(step['x']) || !isInt(step['y']))) return problem('view.step', 'has no integer x and y');
  } else {
    // A module's step, as the module sets it (the draw still to come of a preview made with
    // explicit chance is `chance/draw`, decided by no player: -1).
    if (!step['kind'].includes('/')) return problem('view.step.kind', `is not a step kind: ${showValue(step['kind'])}`);
    if (!isInt(step['player'], -1, players)) return problem('view.step.player', `is not a player from 0 to ${players - 1} (or -1)`);
  }
  const lists = perPlayer(v['scores'], 'view.scores', players, -Infinity) ?? perPlayer(v['supply'], 'view.supply', players, 0) ?? perPlayer(v['held'], 'view.held', players, 0);
  if (lists !== null) return lists;
  const tiles = v['tiles'];
  if (!Array.isArray(tiles)) return problem('view.tiles', 'is not a list of tiles');
  for (let i = 0; i < tiles.length; i++) {
    const t: unknown = tiles[i];
    if (!isRecord(t) || !isInt(t['x']) || !isInt(t['y']) || typeof t['tile'] !== 'string' || !isInt(t['rotation'], 0, 4)) {
      return problem(`view.tiles[${i}]`, 'is not a tile { x, y, tile, rotation }');
    }
  }
  const followers = v['followers'];
  if (!Array.isArray(followers)) return problem('view.followers', 'is not a list of followers');
  for (let i = 0; i < followers.length; i++) {
    const f: unknown = followers[i];
    if (!isRecord(f) || !isInt(f['player'], 0, players) || !isInt(f['x']) || !isInt(f['y']) || typeof f['feature'] !== 'string') {
      return problem(`view.followers[${i}]`, 'is not a follower { player, x, y, feature }');
    }
  }
  const bag = v['bag'];
  if (!isRecord(bag)) return problem('view.bag', 'is not a bag { total, counts }');
  const inBag = counts(bag['counts'], 'view.bag.counts');
  if (typeof inBag !== 'number') return inBag;
  if (bag['total'] !== inBag) return problem('view.bag.total', `is not the sum of the counts (${inBag})`);
  const discarded = counts(v['discarded'], 'view.discarded');
  if (typeof discarded !== 'number') return discarded;
  const last = v['last'];
  if (last !== null && !(isRecord(last) && typeof last['type'] === 'string' && isInt(last['player'], 0, players))) return problem('view.last', 'is neither null nor a move');
  if (!isRecord(v['modules'])) return problem('view.modules', 'is not a record of module parts');
  if (v['observation'] !== undefined && !isRecord(v['observation'])) return problem('view.observation', 'is not an observation');
  return null;
}
