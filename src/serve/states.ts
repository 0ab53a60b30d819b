/**
 * The state operations of the serve protocol (OpenSpiel's `State` facade): each state handle is a
 * research simulator (explicit chance, split actions) that `apply_action` changes in place and
 * `clone` copies. Every refusal is decided before anything changes.
 */
import { newGame } from '../core/engine/apply.js';
import type { MeepleError } from '../core/errors.js';
import type { GameState } from '../core/state.js';
import { err, ok } from '../core/result.js';
import {
  createResearchSimulator,
  deserializeResearchState,
  determinize,
  newInitialState,
  RETURN_KINDS,
  stateToString,
  writeObservationTensor,
  type ResearchSimulator,
} from '../ai/index.js';
import { BinaryArray } from './codec.js';
import type { GameEntry } from './games.js';
import type { Handles, Op } from './registry.js';
import { boolField, enumField, intField, LIMITS, MEMORY_ESTIMATE, refuse, seedField, stringField, type Checked, type Request, type ServeError } from './request.js';

/** A state handle: its game and the simulator that holds the state. */
export interface StateEntry {
  /** Always `'state'`. */
  readonly kind: 'state';
  /** Counts as one handle. */
  readonly weight: 1;
  /** {@link MEMORY_ESTIMATE}.game. */
  readonly bytes: number;
  /** The game it belongs to (kept alive by the state even when the game handle is deleted). */
  readonly game: GameEntry;
  /** The state, changed in place by `apply_action`. */
  readonly sim: ResearchSimulator;
}

/** Whether `a` is in the ascending `list` between `lo` (inclusive) and `hi` (exclusive). */
export function includesSorted(list: Int32Array, lo: number, hi: number, a: number): boolean {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const v = list[mid]!;
    if (v === a) return true;
    if (v < a) lo = mid + 1;
    else hi = mid;
  }
  return false;
}

/** Why `action` is not legal for `sim` (whose ascending legal actions are `legal`), for a `protocol/illegal-action` message about `where`. */
export function illegalAction(where: string, game: GameEntry, sim: ResearchSimulator, action: number, legal: ArrayLike<number>): ServeError {
  const step = sim.state.step;
  let why: string;
  if (sim.isTerminal()) why = 'the game is over';
  else if (sim.isChanceNode()) {
    const shown = Array.from(legal).slice(0, 12).join(', ');
    why = `it stands at a chance node whose outcomes are ${shown}${legal.length > 12 ? ', ...' : ''}`;
  } else if (action < 0 || action >= game.actions) why = `action ids are 0 to ${game.actions - 1}`;
  else why = `player ${sim.currentPlayer()}'s ${step.kind} step has ${legal.length} legal actions and this is not one of them`;
  return { code: 'protocol/illegal-action', message: `${where}: action ${action} is not legal: ${why}` };
}

/** A library error passed through as an error response (with its path when it has one). */
export function libraryError(e: MeepleError): ServeError {
  return e.path === undefined ? { code: e.code, message: e.message } : { code: e.code, message: e.message, path: e.path };
}

/** The library error a `RangeError` carries as its `cause` (`newInitialState`'s options), or null. */
function causeOf(e: unknown): MeepleError | null {
  const cause = e instanceof Error ? (e.cause as Partial<MeepleError> | undefined) : undefined;
  return typeof cause?.code === 'string' && typeof cause.message === 'string' ? (cause as MeepleError) : null;
}

/**
 * The state that a request's `text` holds (as `serialize` writes it) for `game`, whose handle is
 * the request's `game_id`: checked by `deserializeResearchState` (its codes pass through) and
 * against the game's player count.
 */
export function stateOfText(req: Request, game: GameEntry): Checked<GameState> {
  const text = stringField(req, 'text', LIMITS.lineBytes);
  if (!text.ok) return text;
  const state = deserializeResearchState(game.rules, text.value);
  if (!state.ok) return err(libraryError(state.error));
  if (state.value.scores.length !== game.players) {
    return refuse('protocol/request', `this state has ${state.value.scores.length} players, game ${String(req['game_id'])} has ${game.players}`);
  }
  return ok(state.value);
}

/** Who decides, and whether the state is a chance node or the end. */
function decision(sim: ResearchSimulator): Record<string, unknown> {
  return { current_player: sim.currentPlayer(), is_chance: sim.isChanceNode(), is_terminal: sim.isTerminal() };
}

/** An operation on the state that `state_id` names, with its own `fields` besides. */
function onState(fields: readonly string[], run: (s: StateEntry, req: Request, handles: Handles) => Checked<Record<string, unknown>>): Op {
  return {
    fields: ['state_id', ...fields],
    run(req, handles) {
      const s = handles.get(req['state_id'], 'state', 'state_id');
      return s.ok ? run(s.value, req, handles) : s;
    },
  };
}

function player(req: Request, name: string, game: GameEntry): Checked<number> {
  return intField(req, name, 0, game.players - 1);
}

function action(req: Request): Checked<number> {
  return intField(req, 'action', -2147483648, 2147483647);
}

/** Registers a new state handle for `sim`. */
function added(handles: Handles, game: GameEntry, sim: ResearchSimulator): Checked<Record<string, unknown>> {
  const id = handles.add('s', { kind: 'state', weight: 1, bytes: MEMORY_ESTIMATE.game, game, sim });
  return id.ok ? ok({ state_id: id.value }) : id;
}

function observation(game: GameEntry, sim: ResearchSimulator, p: number): BinaryArray {
  return new BinaryArray(writeObservationTensor(game.rules, sim.state, p, new Float32Array(game.spec.size)));
}

const kind = (req: Request): Checked<(typeof RETURN_KINDS)[number]> => enumField(req, 'kind', RETURN_KINDS, 'score');

/** The state operations by name. */
export const STATE_OPS: Readonly<Record<string, Op>> = {
  new_state: {
    fields: ['game_id', 'seed', 'initial'],
    run(req, handles) {
      const g = handles.get(req['game_id'], 'game', 'game_id');
      if (!g.ok) return g;
      const seed = seedField(req, 'seed', false);
      if (!seed.ok) return seed;
      const initial = enumField(req, 'initial', ['chance', 'drawn'] as const, 'chance');
      if (!initial.ok) return initial;
      const { rules, players } = g.value;
      let sim: ResearchSimulator;
      if (initial.value === 'drawn') {
        const game = newGame(rules, { players, seed: seed.value });
        if (!game.ok) return err(libraryError(game.error));
        sim = createResearchSimulator(rules, game.value);
      } else {
        try {
          sim = createResearchSimulator(rules, newInitialState(rules, { players, seed: seed.value }));
        } catch (e) {
          const cause = causeOf(e);
          if (cause === null) throw e;
          return err(libraryError(cause));
        }
      }
      return added(handles, g.value, sim);
    },
  },
  state: onState(['observation', 'kind'], ({ game, sim }, req) => {
    const k = kind(req);
    if (!k.ok) return k;
    const out: Record<string, unknown> = { ...decision(sim), legal_actions: Array.from(sim.legalActions()), returns: sim.returns(k.value), rewards: sim.rewards(k.value) };
    if (req['observation'] !== undefined) {
      const p = player(req, 'observation', game);
      if (!p.ok) return p;
      out['observation'] = observation(game, sim, p.value);
    }
    return ok(out);
  }),
  apply_action: onState(['action', 'events'], ({ game, sim }, req) => {
    const a = action(req);
    if (!a.ok) return a;
    const events = boolField(req, 'events', false);
    if (!events.ok) return events;
    const legal = sim.legalActions();
    if (!includesSorted(legal, 0, legal.length, a.value)) return err(illegalAction(`state ${String(req['state_id'])}`, game, sim, a.value, legal));
    if (events.value) {
      const list = sim.applyAction(a.value, { events: true });
      return ok({ ...decision(sim), events: list });
    }
    sim.applyAction(a.value);
    return ok(decision(sim));
  }),
  chance_outcomes: onState([], ({ sim }) => ok({ outcomes: sim.chanceOutcomes().map((o) => [o.outcome, o.probability]) })),
  legal_actions_mask: onState([], ({ game, sim }) => {
    const mask = new Uint8Array(sim.isChanceNode() ? game.chanceOutcomes : game.actions);
    sim.legalActionsMask(mask);
    return ok({ mask: new BinaryArray(mask) });
  }),
  returns: onState(['kind'], ({ sim }, req) => {
    const k = kind(req);
    return k.ok ? ok({ returns: sim.returns(k.value) }) : k;
  }),
  rewards: onState(['kind'], ({ sim }, req) => {
    const k = kind(req);
    return k.ok ? ok({ rewards: sim.rewards(k.value) }) : k;
  }),
  observation_tensor: onState(['player'], ({ game, sim }, req) => {
    const p = player(req, 'player', game);
    return p.ok ? ok({ observation: observation(game, sim, p.value) }) : p;
  }),
  action_to_string: onState(['action'], ({ sim }, req) => {
    const a = action(req);
    return a.ok ? ok({ text: sim.actionToString(a.value) }) : a;
  }),
  state_to_string: onState([], ({ game, sim }) => ok({ text: stateToString(game.rules, sim.state) })),
  clone: onState([], ({ game, sim }, _req, handles) => added(handles, game, sim.clone())),
  serialize: onState([], ({ sim }) => ok({ text: sim.serialize() })),
  deserialize: {
    fields: ['game_id', 'text'],
    run(req, handles) {
      const g = handles.get(req['game_id'], 'game', 'game_id');
      if (!g.ok) return g;
      const state = stateOfText(req, g.value);
      return state.ok ? added(handles, g.value, createResearchSimulator(g.value.rules, state.value)) : state;
    },
  },
  determinize: onState(['player', 'seed'], ({ game, sim }, req, handles) => {
    const p = player(req, 'player', game);
    if (!p.ok) return p;
    const seed = seedField(req, 'seed', true);
    if (!seed.ok) return seed;
    return added(handles, game, createResearchSimulator(game.rules, determinize(game.rules, sim.state, p.value, seed.value!)));
  }),
};
