/**
 * meeplekit: a headless, typed rules engine for the Carcassonne family of tile-laying games.
 *
 * @example
 * ```ts
 * import { createRuleset, newGame, legalMoves, applyMove } from 'meeplekit';
 *
 * const rules = createRuleset({ game: 'classic' });
 * if (!rules.ok) throw new Error(rules.error.message);
 * let game = newGame(rules.value, { players: 2, seed: 'hello' });
 * if (!game.ok) throw new Error(game.error.message);
 * let state = game.value;
 * while (state.step.kind !== 'game-over') {
 *   const [move] = legalMoves(rules.value, state);
 *   const next = applyMove(rules.value, state, move);
 *   if (!next.ok) throw new Error(next.error.message);
 *   state = next.value.state;
 * }
 * console.log(state.scores, state.step.winners);
 * ```
 *
 * @module meeplekit
 */
export { createRuleset, GAMES } from './ruleset.js';
export type { Ruleset, RulesetMoves, RulesetOptions, RulesetSpec, ExpansionRef } from './core/ruleset.js';
export type { Result, Ok, Err } from './core/result.js';
export { ok, err } from './core/result.js';
export { ERROR_CODES, type ErrorCode, type ExpansionErrorCode, type ExpansionError, type MeepleError } from './core/errors.js';
export { SIDES, PORTS, ROTATIONS, type Side, type Port, type Rotation, type Cell, type Immutable } from './core/types.js';
export {
  cellKey,
  keyX,
  keyY,
  type GameState,
  type GameView,
  type Step,
  type Move,
  type CoreMove,
  type PlaceMove,
  type DeployMove,
  type PassMove,
  type PlacedTile,
  type FeatureGraph,
  type Follower,
  type ExpansionStep,
  type ExpansionMove,
  type Flow,
} from './core/state.js';
export type { GameEvent, UndoneEvent, FeatureRef, ExpansionEvent, ScoreReason, Emit } from './core/events.js';
export type { Expansion, CompletedFeature, HookContext, ActionClaim, TileFollower, DrawFilter } from './core/expansion.js';
export type { ModuleChance } from './core/module-chance.js';
export type { ScoringContext } from './core/game.js';
export { createRandomSource, type RandomSource } from './core/rng.js';
export type { TileDef, TileFeatureDef, FeatureKindDef, Completion, CompiledTile } from './core/tiles.js';
export {
  newGame,
  currentStep,
  legalMoves,
  isLegal,
  whyIllegal,
  applyMove,
  type NewGameOptions,
  type Transition,
} from './core/engine/apply.js';
export { createSimulator, type Simulator, type SimulatorOptions } from './core/engine/simulator.js';
export { observe, type Observation } from './core/engine/observe.js';
export {
  publicView,
  PUBLIC_VIEW_VERSION,
  type PublicView,
  type PublicViewOptions,
  type ViewTile,
  type ViewFollower,
  type ViewBag,
  type ViewStep,
  type ViewPlaceStep,
  type ViewDeployStep,
  type ViewGameOverStep,
} from './core/engine/view.js';
export { viewDelta, applyViewDelta, type ViewDelta, type ViewDeltaOp, type ViewDeltaOptions } from './core/engine/delta.js';
export {
  serializeState,
  parseState,
  makeReplay,
  replay,
  undo,
  STATE_FORMAT,
  STATE_VERSION,
  REPLAY_FORMAT,
  REPLAY_VERSION,
  type Replay,
  type ReplayResult,
  type ParseStateOptions,
} from './core/engine/serialize.js';
export { featureAt, projectedScores, offBoardFollowers, type FeatureQuery, type FeatureInfo, type FollowerInfo } from './core/engine/query.js';
export { buildPosition, type PositionOptions, type PositionTurn, type UndoOptions, type UntrustedMove } from './core/engine/position.js';
export { tileDefs } from './core/engine/catalogue.js';
export { randomBot, greedyBot, type Bot } from './bots.js';
export * as authoring from './authoring.js';
export type { StartTile, BaseGame } from './core/game.js';
