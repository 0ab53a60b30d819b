/**
 * Why a move of the Princess and the Dragon is refused: each refusal has its own
 * `princess-dragon/...` code and a message that says why (`Expansion.moveError`, and the claims
 * on a volcano or princess turn).
 */
import { moveShapeError, showValue, type ExpansionError } from '../../core/errors.js';
import { deployTargets } from '../../core/engine/play.js';
import { followersOnTile } from '../../core/engine/scoring.js';
import type { Ruleset } from '../../core/ruleset.js';
import type { GameView } from '../../core/state.js';
import type { Immutable } from '../../core/types.js';
import { hasLandscape } from './dragon.js';
import { portalProblem } from './portal.js';
import { decider, localOf, pdSlice, placedThisTurn, sameCell, tileIndexAt } from './state.js';

/** The module's move types. */
export const PRINCESS_DRAGON_MOVES = ['princess-dragon/move-dragon', 'princess-dragon/fairy', 'princess-dragon/portal', 'princess-dragon/princess'] as const;

const FIELDS: Readonly<Record<(typeof PRINCESS_DRAGON_MOVES)[number], readonly string[]>> = {
  'princess-dragon/move-dragon': ['type', 'player', 'x', 'y'],
  'princess-dragon/fairy': ['type', 'player', 'x', 'y'],
  'princess-dragon/portal': ['type', 'player', 'x', 'y', 'feature'],
  'princess-dragon/princess': ['type', 'player', 'x', 'y', 'feature', 'owner'],
};

/** The refusal of everything but the dragon's landing on a volcano turn. */
export const VOLCANO_TURN: ExpansionError = {
  code: 'princess-dragon/volcano',
  message: 'a volcano was laid: the dragon came, and the player deploys nothing, moves no fairy and takes no other action this turn',
};

/** The refusal of everything but the princess's removal when her city holds knights. */
export const PRINCESS_TURN: ExpansionError = {
  code: 'princess-dragon/princess-turn',
  message: "the princess joined a city with knights: send one of them home (princess-dragon/princess) instead of deploying, passing or any other action",
};

/** What the module needs to know to explain a refusal. */
export interface ErrorContext {
  readonly volcanoes: ReadonlySet<string>;
  readonly portals: ReadonlySet<string>;
  readonly forcedPrincess: () => boolean;
  readonly isKnight: (x: number, y: number, feature: string, owner: number) => boolean;
}

/** The refusal of a move of the module that is not among the legal moves (`Expansion.moveError`). */
export function pdMoveError(c: ErrorContext, rules: Ruleset, state: Immutable<GameView>, move: Readonly<Record<string, unknown>>): ExpansionError | null {
  const type = move['type'] as string;
  const shape = moveShapeError('princess-dragon', 'the Princess and the Dragon', FIELDS, move);
  if (shape !== null) return shape;
  const step = state.step;
  if (step.kind === 'game-over') return null;
  const player = move['player'] as number;
  const who = decider(state);
  if (player !== who) return { code: 'princess-dragon/not-your-turn', message: `player ${player} cannot play ${type}: player ${who} must decide (${step.kind})` };
  const x = move['x'] as number;
  const y = move['y'] as number;
  const slice = pdSlice(state);
  if (type === 'princess-dragon/move-dragon') {
    if (step.kind !== 'princess-dragon/dragon') return { code: 'princess-dragon/no-flight', message: `the dragon is not flying now (the step is ${step.kind})` };
    const t = tileIndexAt(state, x, y);
    if (t < 0) return { code: 'princess-dragon/no-tile', message: `the dragon flies onto tiles only: ${x},${y} is empty` };
    const at = slice.dragon!;
    if (Math.abs(x - at.x) + Math.abs(y - at.y) !== 1) return { code: 'princess-dragon/not-adjacent', message: `the dragon at ${at.x},${at.y} moves one tile north, east, south or west, not to ${x},${y}` };
    // The Count's rules: "Drak může létat vně města Carcassonne"; the City's centre squares are all City.
    if (!hasLandscape(rules, state, t)) {
      return { code: 'princess-dragon/city-centre', message: `${x},${y} is all City of Carcassonne, with no landscape: the dragon flies outside the City only` };
    }
    if (sameCell(slice.fairy, x, y)) return { code: 'princess-dragon/fairy-blocks', message: `the fairy stands at ${x},${y}: the dragon may not enter her tile` };
    if (slice.flight!.visited.some((v) => v.x === x && v.y === y)) return { code: 'princess-dragon/visited', message: `the dragon has been at ${x},${y} in this flight: it enters no tile twice` };
    return null;
  }
  // The other moves are the turn's action, at the deploy step.
  if (step.kind === 'place-tile') return { code: 'princess-dragon/place-first', message: `place the drawn tile first: ${type} is the turn's action after the placement` };
  if (step.kind !== 'deploy') return { code: 'princess-dragon/action-taken', message: `the turn's action is taken (the step is ${step.kind})` };
  const placed = placedThisTurn(state)!;
  if (c.volcanoes.has(placed.id)) return VOLCANO_TURN;
  if (type !== 'princess-dragon/princess' && c.forcedPrincess()) return PRINCESS_TURN;
  const t = tileIndexAt(state, x, y);
  switch (type) {
    case 'princess-dragon/fairy': {
      if (state.supply[player]! <= 0 || (deployTargets(rules, state) === 0 && !c.portals.has(placed.id))) {
        return { code: 'princess-dragon/fairy-not-allowed', message: 'only a player who could deploy a follower this turn, and does not, may move the fairy' };
      }
      if (t < 0) return { code: 'princess-dragon/no-tile', message: `there is no tile at ${x},${y}` };
      if (sameCell(slice.fairy, x, y)) return { code: 'princess-dragon/fairy-there', message: `the fairy already stands at ${x},${y}` };
      if (!followersOnTile(rules, state, t).includes(player)) return { code: 'princess-dragon/fairy-no-follower', message: `the fairy goes only onto a tile with one of player ${player}'s followers, and ${x},${y} has none` };
      return null;
    }
    case 'princess-dragon/portal': {
      if (!c.portals.has(placed.id)) return { code: 'princess-dragon/no-portal', message: `${placed.id} has no magic portal: a follower goes onto the tile just placed` };
      if (state.supply[player]! <= 0) return { code: 'princess-dragon/no-followers', message: `player ${player} has no follower in supply` };
      if (t === placed.index) return { code: 'princess-dragon/use-deploy', message: 'on the portal tile itself, deploy as usual (a deploy move)' };
      const local = t < 0 ? -1 : localOf(rules, state, t, move['feature']);
      if (local < 0) return { code: 'princess-dragon/no-feature', message: `there is no feature ${showValue(move['feature'])} on a tile at ${x},${y}` };
      const why = portalProblem(rules, state, t, local);
      if (why === 'completed') return { code: 'princess-dragon/completed', message: `the feature at ${x},${y} (${String(move['feature'])}) is completed and was scored` };
      if (why === 'occupied') return { code: 'princess-dragon/occupied', message: `the feature at ${x},${y} (${String(move['feature'])}) already has a follower` };
      if (why === 'kind') return { code: 'princess-dragon/no-feature', message: `no follower stands on ${String(move['feature'])}` };
      return null;
    }
    default: {
      if (!c.isKnight(x, y, move['feature'] as string, move['owner'] as number)) {
        return { code: 'princess-dragon/not-a-knight', message: `no knight of player ${String(move['owner'])} stands on ${String(move['feature'])} at ${x},${y} in the city of the princess laid this turn` };
      }
      return null;
    }
  }
}
