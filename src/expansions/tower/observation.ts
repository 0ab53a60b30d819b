/**
 * The Tower's public features in the observation vector of `meeplekit/ai` (`Expansion.observation`):
 * tower pieces left and prisoners per player (observer first, then in seat order), whether the
 * active player paid a ransom this turn, then one slot per foundation on the board, by cell (north
 * to south, west to east): present, column, row, height, and who has a follower on top (one-hot,
 * observer first).
 */
import type { Expansion } from '../../core/expansion.js';
import { towerSlice } from './state.js';

/** The observation part for a set with `foundations` foundation tiles. */
export function towerObservation(foundations: number): NonNullable<Expansion['observation']> {
  const rel = (j: number): string => (j === 0 ? 'observer' : `observer+${j}`);
  return {
    features(players) {
      const out: string[] = [];
      for (let j = 0; j < players; j++) out.push(`tower: pieces left of ${rel(j)}`);
      for (let a = 0; a < players; a++) for (let b = 0; b < players; b++) if (a !== b) out.push(`tower: followers of ${rel(b)} held by ${rel(a)}`);
      out.push('tower: ransom paid this turn');
      for (let i = 0; i < foundations; i++) {
        out.push(`tower ${i}: on the board`, `tower ${i}: x`, `tower ${i}: y`, `tower ${i}: height`);
        for (let j = 0; j < players; j++) out.push(`tower ${i}: follower of ${rel(j)} on top`);
      }
      return out;
    },
    write(_rules, view, observer, out, offset) {
      const slice = towerSlice(view);
      const P = view.players;
      const seat = (j: number): number => (observer + j) % P;
      let o = offset;
      for (let j = 0; j < P; j++) out[o++] = slice.pieces[seat(j)]!;
      for (let a = 0; a < P; a++) for (let b = 0; b < P; b++) if (a !== b) out[o++] = slice.prisoners[seat(a)]![seat(b)]!;
      out[o++] = slice.ransomTurn === view.turn ? 1 : 0;
      for (let i = 0; i < foundations; i++) {
        const t = slice.towers[i];
        if (t !== undefined) {
          out[o] = 1;
          out[o + 1] = t.x;
          out[o + 2] = t.y;
          out[o + 3] = t.height;
          if (t.top >= 0) out[o + 4 + ((t.top - observer + P) % P)] = 1;
        }
        o += 4 + P;
      }
    },
  };
}
