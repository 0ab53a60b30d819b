/**
 * meeplekit/ai: the research interface, in the conventions of OpenSpiel and PettingZoo. Integer
 * actions (ascending legal actions, masks, a bijection with moves, split and combined forms),
 * explicit chance nodes for tile draws, returns and rewards, observation tensors,
 * determinization for information-set search, and a mutable simulator for fast playouts. Every
 * ruleset the library builds is supported; docs/ai.md has the encodings and their versions.
 * These functions are for trusted callers on hot paths: a state of other rules (TypeError) or an
 * illegal action (RangeError) is a bug and throws; validate untrusted moves with `whyIllegal`.
 *
 * @example
 * ```ts
 * import { createRandomSource, createRuleset, newGame } from 'meeplekit';
 * import { createResearchSimulator, gameInfo } from 'meeplekit/ai';
 *
 * const rules = createRuleset({ game: 'classic' });
 * if (!rules.ok) throw new Error(rules.error.message);
 * const game = newGame(rules.value, { players: 2, seed: 'research' });
 * if (!game.ok) throw new Error(game.error.message);
 *
 * console.log(gameInfo(rules.value, 2).numDistinctActions.split); // 81805
 * const sim = createResearchSimulator(rules.value, game.value);
 * const random = createRandomSource('playout');
 * while (!sim.isTerminal()) {
 *   if (sim.isChanceNode()) sim.applyRandom(random); // a tile drawn by its probability
 *   else {
 *     const legal = sim.legalActions();
 *     sim.applyAction(legal[random(legal.length)]!);
 *   }
 * }
 * console.log(sim.returns('score'), sim.returns('win-loss'));
 * ```
 *
 * @module meeplekit/ai
 */
export {
  gameInfo,
  ACTION_ENCODING_VERSION,
  OBSERVATION_VERSION,
  ACTION_FORMS,
  RETURN_KINDS,
  type ActionForm,
  type BoardWindow,
  type GameInfo,
  type ReturnKind,
  type UtilityBounds,
} from './layout.js';
export {
  legalActions,
  legalActionsMask,
  actionToMove,
  moveToAction,
  actionToMoves,
  movesToAction,
  actionToString,
  applyAction,
  type ApplyActionOptions,
  type ActionTransition,
} from './actions.js';
export { newInitialState, type InitialStateOptions } from './initial.js';
export { serializeResearchState, deserializeResearchState, RESEARCH_STATE_FORMAT, RESEARCH_STATE_VERSION } from './research-state.js';
export { stateToString } from './text.js';
export { chanceOutcomes, isChanceNode, CHANCE_STEP, CHANCE_PLAYER, TERMINAL_PLAYER, type ChanceOutcome } from './chance.js';
export { returns, rewards } from './returns.js';
export {
  observationSpec,
  writeObservationTensor,
  writeCompactObservation,
  OBSERVATION_WINDOW,
  COMPACT_OBSERVATION_VERSION,
  type ObservationSpec,
  type CompactObservationSpec,
  type CompactObservationBuffers,
} from './observation.js';
export { entitySpec, writeEntityObservation, ENTITY_OBSERVATION_VERSION, type EntitySpec, type EntityBuffers } from './entities.js';
export { determinize } from './determinize.js';
export { createResearchSimulator, type ResearchSimulator, type ResearchSimulatorOptions, type Policy } from './simulator.js';
export { randomBot, greedyBot, type Bot } from '../bots.js';
