/**
 * Why a Tower move is refused: each refusal has its own `tower/...` code and a message that says
 * why (`Expansion.moveError`, asked for every Tower move that is not among the legal moves).
 */
import { moveShapeError, type ExpansionError } from '../../core/errors.js';
import type { Ruleset } from '../../core/ruleset.js';
import { cellKey, type GameView } from '../../core/state.js';
import type { Immutable } from '../../core/types.js';
import { reachOf, TOP, type TowerCaptureStep } from './capture.js';
import { RANSOM, ransomBlocked } from './ransom.js';
import { decider, towerIndexAt, towerSlice } from './state.js';

/** The Tower's move types. */
export const TOWER_MOVES = ['tower/build', 'tower/cap', 'tower/capture', 'tower/decline', 'tower/ransom'] as const;

const FIELDS: Readonly<Record<(typeof TOWER_MOVES)[number], readonly string[]>> = {
  'tower/build': ['type', 'player', 'x', 'y'],
  'tower/cap': ['type', 'player', 'x', 'y'],
  'tower/capture': ['type', 'player', 'x', 'y', 'feature', 'owner'],
  'tower/decline': ['type', 'player'],
  'tower/ransom': ['type', 'player', 'captor'],
};

/** The refusal of a Tower move that is not among the legal moves (`Expansion.moveError`). */
export function towerMoveError(debt: boolean, _rules: Ruleset, state: Immutable<GameView>, move: Readonly<Record<string, unknown>>): ExpansionError | null {
  const type = move['type'] as string;
  const shape = moveShapeError('tower', 'the Tower', FIELDS, move, `a local feature id such as "c1", or "${TOP}"`);
  if (shape !== null) return shape;
  const step = state.step;
  if (step.kind === 'game-over') return null;
  const player = move['player'] as number;
  const who = decider(state);
  if (player !== who) {
    return { code: 'tower/not-your-turn', message: `player ${player} cannot play ${type}: player ${who} must decide (${step.kind})` };
  }
  const slice = towerSlice(state);
  switch (type) {
    case 'tower/build':
    case 'tower/cap': {
      if (step.kind === 'place-tile') return { code: 'tower/place-first', message: `place the drawn tile first: ${type} is the turn's action after the placement` };
      if (step.kind !== 'deploy') return { code: 'tower/action-taken', message: `the turn's action is taken (the step is ${step.kind}): one follower, tower piece or tower top per turn` };
      const x = move['x'] as number;
      const y = move['y'] as number;
      const i = towerIndexAt(slice, x, y);
      if (i < 0) return { code: 'tower/no-foundation', message: `there is no tower foundation at ${x},${y}` };
      const tower = slice.towers[i]!;
      if (tower.top >= 0) return { code: 'tower/capped', message: `the tower at ${x},${y} has player ${tower.top}'s follower on top: it may grow no more` };
      if (type === 'tower/build') {
        return slice.pieces[player] === 0 ? { code: 'tower/no-pieces', message: `player ${player} has no tower piece left` } : null;
      }
      if (tower.height === 0) return { code: 'tower/no-tower', message: `the foundation at ${x},${y} holds no tower yet: a follower goes on top of a tower only` };
      return state.supply[player] === 0 ? { code: 'tower/no-followers', message: `player ${player} has no follower in supply` } : null;
    }
    case 'tower/capture':
    case 'tower/decline': {
      if (step.kind !== 'tower/capture') return { code: 'tower/no-capture', message: `no capture now: a follower is captured right after a tower piece is added (the step is ${step.kind})` };
      const s = step as Immutable<TowerCaptureStep>;
      const x = move['x'] as number;
      const y = move['y'] as number;
      if (move['owner'] === player) return { code: 'tower/own-follower', message: 'a tower captures followers of the other players only' };
      const inReach = Math.abs(x) < 500 && Math.abs(y) < 500 && reachOf(state, s.x, s.y, s.height).includes(cellKey(x, y));
      if (!inReach) return { code: 'tower/out-of-range', message: `${x},${y} is out of the reach of the tower at ${s.x},${s.y} (height ${s.height}: its cell and ${s.height} in each straight direction, never across an empty cell)` };
      return { code: 'tower/no-follower-there', message: `player ${String(move['owner'])} has no follower on ${String(move['feature'])} at ${x},${y}` };
    }
    default: {
      if (player !== state.active) return { code: 'tower/not-your-turn', message: `a ransom is paid in one's own turn: this is player ${state.active}'s` };
      if (slice.ransomTurn === state.turn) return { code: 'tower/ransom-paid', message: 'a ransom was already paid this turn (once per turn)' };
      const captor = move['captor'] as number;
      if (captor < 0 || captor >= state.players || slice.prisoners[captor]![player]! === 0) {
        return { code: 'tower/not-held', message: `player ${captor} holds no follower of player ${player}` };
      }
      if (!debt && state.scores[player]! < RANSOM) return { code: 'tower/not-enough-points', message: `a ransom costs ${RANSOM} points and player ${player} has ${state.scores[player]}` };
      return { code: 'tower/not-now', message: `no ransom now: ${ransomBlocked(state, debt) ?? 'not offered'}` };
    }
  }
}
