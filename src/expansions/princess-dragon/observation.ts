/**
 * The Princess and the Dragon's public features in the observation vector of `meeplekit/ai`
 * (`Expansion.observation`): the dragon (on the board, x, y), the fairy (on the board, x, y), a
 * flight in progress (flying, steps taken, and the visited cells in order: x, y for up to 7), the
 * dragon tiles held back while no volcano lies, and whether a follower of each player (observer
 * first) stands on the fairy's tile.
 */
import type { Expansion } from '../../core/expansion.js';
import { followersOnTile } from '../../core/engine/scoring.js';
import type { Ruleset } from '../../core/ruleset.js';
import type { GameView } from '../../core/state.js';
import type { Immutable } from '../../core/types.js';
import { FLIGHT_STEPS, pdSlice, tileIndexAt } from './state.js';

/** The observation part; `heldBack` counts the dragon tiles held back in a view. */
export function pdObservation(heldBack: (rules: Ruleset, view: Immutable<GameView>) => number): NonNullable<Expansion['observation']> {
  const rel = (j: number): string => (j === 0 ? 'observer' : `observer+${j}`);
  return {
    features(players) {
      const out = ['princess-dragon: dragon on the board', 'princess-dragon: dragon x', 'princess-dragon: dragon y'];
      out.push('princess-dragon: fairy on the board', 'princess-dragon: fairy x', 'princess-dragon: fairy y');
      out.push('princess-dragon: dragon flying', 'princess-dragon: flight steps taken');
      for (let i = 0; i <= FLIGHT_STEPS; i++) out.push(`princess-dragon: flight cell ${i} x`, `princess-dragon: flight cell ${i} y`);
      out.push('princess-dragon: dragon tiles held back');
      for (let j = 0; j < players; j++) out.push(`princess-dragon: follower of ${rel(j)} on the fairy's tile`);
      return out;
    },
    write(rules, view, observer, out, offset) {
      const slice = pdSlice(view);
      let o = offset;
      if (slice.dragon !== null) {
        out[o] = 1;
        out[o + 1] = slice.dragon.x;
        out[o + 2] = slice.dragon.y;
      }
      o += 3;
      if (slice.fairy !== null) {
        out[o] = 1;
        out[o + 1] = slice.fairy.x;
        out[o + 2] = slice.fairy.y;
      }
      o += 3;
      if (slice.flight !== null) {
        out[o] = 1;
        out[o + 1] = slice.flight.visited.length - 1;
        slice.flight.visited.forEach((c, i) => {
          out[o + 2 + 2 * i] = c.x;
          out[o + 3 + 2 * i] = c.y;
        });
      }
      o += 2 + 2 * (FLIGHT_STEPS + 1);
      out[o++] = heldBack(rules, view);
      const P = view.players;
      if (slice.fairy !== null) {
        const t = tileIndexAt(view, slice.fairy.x, slice.fairy.y);
        const owners = t < 0 ? [] : followersOnTile(rules, view, t);
        for (let j = 0; j < P; j++) if (owners.includes((observer + j) % P)) out[o + j] = 1;
      }
    },
  };
}
