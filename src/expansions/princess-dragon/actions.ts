/**
 * The Princess and the Dragon's part of the integer action encoding of `meeplekit/ai`
 * (`Expansion.actions`), version 1. Small and independent of the board's size (the combined form
 * multiplies every placement by the ids of the deploy step). Local ids, in this order:
 * - `princess-dragon/move-dragon`: 0..3, the direction from the dragon (N, E, S, W);
 * - `princess-dragon/fairy` to the r-th target tile in canonical order: `4 + r` (r < 64);
 * - `princess-dragon/portal` to the r-th target in canonical order: `68 + r` (r < 2048: more than
 *   the features of every tile of the game);
 * - `princess-dragon/princess` sending the r-th knight home: `2116 + r` (r < 64).
 */
import type { Expansion } from '../../core/expansion.js';
import type { Ruleset } from '../../core/ruleset.js';
import type { ExpansionMove, GameView, Move } from '../../core/state.js';
import type { Immutable } from '../../core/types.js';
import { pdSlice } from './state.js';

const DX = [0, 1, 0, -1] as const;
const DY = [-1, 0, 1, 0] as const;
const FAIRY = 4;
const FAIRY_IDS = 64;
const PORTAL = FAIRY + FAIRY_IDS;
const PORTAL_IDS = 2048;
const PRINCESS = PORTAL + PORTAL_IDS;
const PRINCESS_IDS = 64;

/** The lists the codec ranks moves in: the module's own, in canonical order. */
export interface RankedLists {
  readonly fairy: (rules: Ruleset, state: Immutable<GameView>) => Move[];
  readonly portal: (rules: Ruleset, state: Immutable<GameView>) => Move[];
  readonly princess: (rules: Ruleset, state: Immutable<GameView>) => Move[];
}

function same(a: Move, b: Readonly<Record<string, unknown>>): boolean {
  const r = a as unknown as Readonly<Record<string, unknown>>;
  return r['x'] === b['x'] && r['y'] === b['y'] && r['feature'] === b['feature'] && r['owner'] === b['owner'];
}

/**
 * A list remembered for the state it was made for: encoding every legal move of a step asks for
 * the same list once per move, so it is built once per step (the state is recognised by identity,
 * the moves played and the step, since playouts change one state in place).
 */
function remembered(make: (rules: Ruleset, state: Immutable<GameView>) => Move[]): (rules: Ruleset, state: Immutable<GameView>) => Move[] {
  let forState: unknown = null;
  let forMoves = -1;
  let forStep = '';
  let list: Move[] = [];
  return (rules, state) => {
    if (state !== forState || state.moves.length !== forMoves || state.step.kind !== forStep) {
      list = make(rules, state);
      forState = state;
      forMoves = state.moves.length;
      forStep = state.step.kind;
    }
    return list;
  };
}

/** The codec (`Expansion.actions`). */
export function pdActions(given: RankedLists): NonNullable<Expansion['actions']> {
  const lists: RankedLists = { fairy: remembered(given.fairy), portal: remembered(given.portal), princess: remembered(given.princess) };
  const rank = (list: readonly Move[], m: Readonly<Record<string, unknown>>, cap: number): number => {
    for (let i = 0; i < list.length && i < cap; i++) if (same(list[i]!, m)) return i;
    return -1;
  };
  return {
    version: 1,
    size: () => PRINCESS + PRINCESS_IDS,
    // Per tile at most one action and six dragon steps; games of up to 256 tiles.
    maxMoves: () => 7 * 256,
    encode(rules, state, move) {
      const m = move as Readonly<Record<string, unknown>>;
      switch (m['type']) {
        case 'princess-dragon/move-dragon': {
          const at = pdSlice(state).dragon;
          if (at === null) return -1;
          for (let d = 0; d < 4; d++) if (m['x'] === at.x + DX[d]! && m['y'] === at.y + DY[d]!) return d;
          return -1;
        }
        case 'princess-dragon/fairy': {
          const r = rank(lists.fairy(rules, state), m, FAIRY_IDS);
          return r < 0 ? -1 : FAIRY + r;
        }
        case 'princess-dragon/portal': {
          const r = rank(lists.portal(rules, state), m, PORTAL_IDS);
          return r < 0 ? -1 : PORTAL + r;
        }
        case 'princess-dragon/princess': {
          const r = rank(lists.princess(rules, state), m, PRINCESS_IDS);
          return r < 0 ? -1 : PRINCESS + r;
        }
        default:
          return -1;
      }
    },
    decode(rules, state, id) {
      if (state.step.kind === 'game-over' || !Number.isInteger(id) || id < 0) return null;
      const player = state.step.player;
      if (id < FAIRY) {
        const at = pdSlice(state).dragon;
        return at === null ? null : { type: 'princess-dragon/move-dragon', player, x: at.x + DX[id]!, y: at.y + DY[id]! };
      }
      const pick = (list: readonly Move[], i: number): ExpansionMove | null => (list[i] as ExpansionMove | undefined) ?? null;
      if (id < PORTAL) return pick(lists.fairy(rules, state), id - FAIRY);
      if (id < PRINCESS) return pick(lists.portal(rules, state), id - PORTAL);
      return id < PRINCESS + PRINCESS_IDS ? pick(lists.princess(rules, state), id - PRINCESS) : null;
    },
  };
}
