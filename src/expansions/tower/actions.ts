/**
 * The Tower's part of the integer action encoding of `meeplekit/ai` (`Expansion.actions`),
 * version 1. Small on purpose: the combined form multiplies every placement by the ids of the
 * deploy step, so a module's block should not grow with the board. Local ids, in this order:
 * - `tower/build` on foundation i: `i` (foundations numbered by cell, north to south, west to
 *   east, as `state.ext.tower.towers` lists them; `foundations` of them);
 * - `tower/cap` on foundation i: `foundations + i`;
 * - `tower/capture` of the r-th target in canonical order (`captureTargets`): `2 * foundations + r`,
 *   for r below {@link CAPTURE_IDS} (every follower of the game fits);
 * - `tower/decline`: the next id; then `tower/ransom` from captor seat s: one more + s.
 */
import type { Expansion } from '../../core/expansion.js';
import type { Ruleset } from '../../core/ruleset.js';
import type { ExpansionMove, GameView } from '../../core/state.js';
import type { Immutable } from '../../core/types.js';
import { captureTargets, type TowerCaptureStep } from './capture.js';
import { towerIndexAt, towerSlice } from './state.js';

/** Capture targets with an id: more than all the followers of a 5-player game (35) plus every tower top. */
export const CAPTURE_IDS = 64;
/** Seats with an id (the most players any ruleset allows). */
const MAX_SEATS = 6;

/** The Tower's codec for a set with `foundations` foundation tiles (`Expansion.actions`). */
export function towerActions(foundations: number): NonNullable<Expansion['actions']> {
  const F = foundations;
  const CAPTURE = 2 * F;
  const DECLINE = CAPTURE + CAPTURE_IDS;
  const RANSOM = DECLINE + 1;
  const targetsNow = (rules: Ruleset, state: Immutable<GameView>) => {
    const step = state.step as Immutable<TowerCaptureStep>;
    return step.kind === 'tower/capture' ? captureTargets(rules, state, step.x, step.y, step.height, step.player) : [];
  };
  return {
    version: 1,
    size: () => RANSOM + MAX_SEATS,
    // Per tile at most one piece or top, one capture or decline and one ransom; games of up to 256 tiles.
    maxMoves: () => 3 * 256,
    encode(rules, state, move) {
      const m = move as Readonly<Record<string, unknown>>;
      switch (m['type']) {
        case 'tower/build':
        case 'tower/cap': {
          if (!Number.isInteger(m['x']) || !Number.isInteger(m['y'])) return -1;
          const i = towerIndexAt(towerSlice(state), m['x'] as number, m['y'] as number);
          return i < 0 || i >= F ? -1 : (m['type'] === 'tower/cap' ? F : 0) + i;
        }
        case 'tower/capture': {
          const list = targetsNow(rules, state);
          for (let r = 0; r < list.length && r < CAPTURE_IDS; r++) {
            const t = list[r]!;
            if (t.x === m['x'] && t.y === m['y'] && t.feature === m['feature'] && t.owner === m['owner']) return CAPTURE + r;
          }
          return -1;
        }
        case 'tower/decline':
          return DECLINE;
        case 'tower/ransom': {
          const captor = m['captor'];
          return Number.isInteger(captor) && (captor as number) >= 0 && (captor as number) < MAX_SEATS ? RANSOM + (captor as number) : -1;
        }
        default:
          return -1;
      }
    },
    decode(rules, state, id) {
      if (state.step.kind === 'game-over' || !Number.isInteger(id) || id < 0) return null;
      const player = state.step.player;
      if (id < CAPTURE) {
        const t = towerSlice(state).towers[id % F];
        return t === undefined ? null : { type: id < F ? 'tower/build' : 'tower/cap', player, x: t.x, y: t.y };
      }
      if (id < DECLINE) {
        const t = targetsNow(rules, state)[id - CAPTURE];
        return t === undefined ? null : ({ type: 'tower/capture', player, x: t.x, y: t.y, feature: t.feature, owner: t.owner } as ExpansionMove);
      }
      if (id === DECLINE) return { type: 'tower/decline', player };
      return id - RANSOM < MAX_SEATS ? { type: 'tower/ransom', player, captor: id - RANSOM } : null;
    },
  };
}
