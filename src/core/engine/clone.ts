import type { GameState } from '../state.js';
import type { Immutable } from '../types.js';
import { hostKeys } from './own-keys.js';

/**
 * A mutable copy of a state that the rules recipe may change freely: every array and record
 * the recipe writes to is copied; the records it never changes (placed tiles, followers, moves,
 * twin lists) are shared. Key order is preserved, so serialized copies are byte-identical.
 * Arrays are copied with spread, not `slice()`: V8 slices frozen arrays (every state from
 * `applyMove` is frozen) about a hundred times slower. @internal
 */
export function cloneState(s: Immutable<GameState>): GameState {
  const g = s.features;
  return {
    ruleset: s.ruleset,
    players: s.players,
    seed: s.seed,
    rng: [...s.rng],
    bag: [...s.bag],
    bagSize: s.bagSize,
    discarded: [...s.discarded],
    step: s.step.kind === 'game-over' ? { kind: 'game-over', winners: [...s.step.winners] } : { ...s.step },
    active: s.active,
    turn: s.turn,
    scores: [...s.scores],
    supply: [...s.supply],
    // Placed tiles, followers and moves are never changed once created: share them.
    tiles: [...s.tiles] as GameState['tiles'],
    cells: [...s.cells],
    frontier: [...s.frontier],
    demand: [...s.demand],
    features: {
      parent: [...g.parent],
      kind: [...g.kind],
      tile: [...g.tile],
      open: [...g.open],
      pennants: [...g.pennants],
      followers: [...g.followers],
      size: [...g.size],
      // Twin lists are replaced, never changed in place: share them too.
      twins: [...g.twins] as GameState['features']['twins'],
    },
    areas: [...s.areas],
    followers: [...s.followers] as GameState['followers'],
    moves: [...s.moves] as GameState['moves'],
    flow: s.flow === null ? null : cloneJson(s.flow as GameState['flow']),
    ext: cloneJson(s.ext as GameState['ext']),
  };
}

/**
 * A deep copy of plain JSON data (expansion slices: small, any shape). Arrays are copied with
 * spread (fast for frozen ones too, see above) and only their objects copied again: a slice's
 * lists of numbers cost no call per number. @internal
 */
export function cloneJson<T>(v: T, own: boolean = hostKeys()): T {
  if (typeof v !== 'object' || v === null) return v;
  if (Array.isArray(v)) {
    const out: unknown[] = [...(v as unknown[])];
    for (let i = 0; i < out.length; i++) {
      const e = out[i];
      if (typeof e === 'object' && e !== null) out[i] = cloneJson(e, own);
    }
    return out as T;
  }
  // Own keys only when the host's Object.prototype has keys of its own (see hostKeys): for...in
  // would copy them into the clone, and follow one that leads back to Object.prototype without end.
  const out: Record<string, unknown> = {};
  for (const k in v) {
    if (own && !Object.hasOwn(v, k)) continue;
    const e = (v as Record<string, unknown>)[k];
    out[k] = typeof e === 'object' && e !== null ? cloneJson(e, own) : e;
  }
  return out as T;
}

