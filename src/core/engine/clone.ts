import type { GameState } from '../state.js';
import type { Immutable } from '../types.js';

/**
 * A deep, mutable copy of a state, built field by field (several times faster than
 * structuredClone for this shape). Key order is preserved, so serialized copies are
 * byte-identical. @internal
 */
export function cloneState(s: Immutable<GameState>): GameState {
  const nodes = new Array(s.nodes.length);
  for (let i = 0; i < nodes.length; i++) {
    const n = s.nodes[i]!;
    nodes[i] = {
      parent: n.parent,
      kind: n.kind,
      open: n.open,
      tiles: n.tiles.slice(),
      pennants: n.pennants,
      followers: n.followers,
      tile: n.tile,
      local: n.local,
    };
  }
  return {
    ruleset: s.ruleset,
    players: s.players,
    seed: s.seed,
    rng: s.rng.slice(),
    bag: s.bag.slice(),
    discarded: s.discarded.slice(),
    step: s.step.kind === 'game-over' ? { kind: 'game-over', winners: s.step.winners.slice() } : { ...s.step },
    active: s.active,
    turn: s.turn,
    scores: s.scores.slice(),
    supply: s.supply.slice(),
    tiles: s.tiles.map((t) => ({ ...t })),
    cells: { ...s.cells },
    open: s.open.slice(),
    demand: s.demand.slice(),
    nodes,
    followers: s.followers.map((f) => ({ ...f })),
    moves: s.moves.map((m) => ({ ...m })),
  };
}
