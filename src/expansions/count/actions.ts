/**
 * The Count's part of the integer action encoding of `meeplekit/ai` (`Expansion.actions`),
 * version 1: entering a quarter, moving the Count, declining, move-out counts, then the
 * end-of-game targets by rank.
 */
import type { Expansion } from '../../core/expansion.js';
import type { Ruleset } from '../../core/ruleset.js';
import type { ExpansionMove, GameView, Move } from '../../core/state.js';
import type { Immutable } from '../../core/types.js';
import { QUARTERS, type Quarter } from './tiles.js';

/** Action ids of the Count's moves: quarters, decline, move-out counts, then end-of-game targets by rank. */
const ENTER_ID = 0;
const MOVE_COUNT_ID = 4;
const DECLINE_ID = 8;
const MOVE_OUT_ID = 9;
/** Move-out counts 0..15 have ids. */
const MOVE_OUT_IDS = 16;
const TARGET_ID = MOVE_OUT_ID + MOVE_OUT_IDS;
/** End-of-game targets (fields; edition 1: unfinished features too) with ids: the first 256 in canonical order (random games reach about 60). */
const TARGET_IDS = 256;

/** The Count's part of the integer action encoding (`Expansion.actions`). */
export function countActions(stepMoves: (rules: Ruleset, state: Immutable<GameView>) => Move[]): NonNullable<Expansion['actions']> {
  /** The end-of-game moves of the current step, in canonical order (no decline). */
  const targets = (rules: Ruleset, state: Immutable<GameView>): Move[] =>
    state.step.kind === 'count/to-field' || state.step.kind === 'count/to-feature'
      ? stepMoves(rules, state).filter((m) => m.type !== 'count/decline')
      : [];
  return {
    version: 1,
    size: () => TARGET_ID + TARGET_IDS,
    // Per turn at most one entry and one Count move; per completed feature (at most 5 per tile) one
    // answer per player; at the end one move per follower and one decline per player. Games of up to
    // 256 tiles and 16 followers a player.
    maxMoves: (players) => 256 * (2 + 5 * players) + players * 17,
    encode(rules, state, move) {
      const m = move as Readonly<Record<string, unknown>>;
      switch (m['type']) {
        case 'count/enter':
        case 'count/move-count': {
          const q = QUARTERS.indexOf(m['quarter'] as Quarter);
          if (q < 0) return -1;
          return (m['type'] === 'count/enter' ? ENTER_ID : MOVE_COUNT_ID) + q;
        }
        case 'count/decline':
          return DECLINE_ID;
        case 'count/move-out': {
          const k = m['count'];
          return Number.isInteger(k) && (k as number) >= 0 && (k as number) < MOVE_OUT_IDS ? MOVE_OUT_ID + (k as number) : -1;
        }
        case 'count/to-field':
        case 'count/to-feature': {
          const list = targets(rules, state);
          for (let i = 0; i < list.length && i < TARGET_IDS; i++) {
            const t = list[i] as unknown as Readonly<Record<string, unknown>>;
            if (t['type'] === m['type'] && t['x'] === m['x'] && t['y'] === m['y'] && t['feature'] === m['feature']) return TARGET_ID + i;
          }
          return -1;
        }
        default:
          return -1;
      }
    },
    decode(rules, state, id) {
      if (state.step.kind === 'game-over' || !Number.isInteger(id) || id < 0) return null;
      const player = state.step.player;
      if (id < MOVE_COUNT_ID) return { type: 'count/enter', player, quarter: QUARTERS[id - ENTER_ID]! };
      if (id < DECLINE_ID) return { type: 'count/move-count', player, quarter: QUARTERS[id - MOVE_COUNT_ID]! };
      if (id === DECLINE_ID) return { type: 'count/decline', player };
      if (id < TARGET_ID) return { type: 'count/move-out', player, count: id - MOVE_OUT_ID };
      const t = targets(rules, state)[id - TARGET_ID];
      return t === undefined ? null : (t as ExpansionMove);
    },
  };
}
