/**
 * Undo emits an event (issue 30): `undo(..., { events: true })` returns the state with one
 * `undone` event naming the moves taken back, the number of moves before and after (a view's
 * `seq`) and the turns taken back; it travels in a view delta like a move's events, so a client
 * animates it like any move.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  applyMove,
  applyViewDelta,
  createRuleset,
  legalMoves,
  newGame,
  publicView,
  serializeState,
  undo,
  viewDelta,
  type GameEvent,
  type GameState,
  type Ruleset,
  type Transition,
  type UndoneEvent,
} from '../src/index.js';
import { castle } from '../src/games/castle/entry.js';
import { count } from '../src/expansions/count/index.js';
import { princessDragon } from '../src/expansions/princess-dragon/index.js';
import { tower } from '../src/expansions/tower/index.js';
import { describeEvent } from '../src/cli/viewer.js';
import { must } from './helpers.js';

function played(rules: Ruleset, players: number, seed: string, moves: number): GameState {
  let s = must(newGame(rules, { players, seed }));
  for (let n = 0; n < moves && s.step.kind !== 'game-over'; n++) {
    const legal = legalMoves(rules, s);
    s = must(applyMove(rules, s, legal[(n * 5 + 1) % legal.length]!)).state;
  }
  return s;
}

const GAMES: readonly [string, () => Ruleset, number][] = [
  ['classic', () => must(createRuleset({ game: 'classic' })), 2],
  ['The Castle', () => must(createRuleset({ game: castle() })), 2],
  ['the Tower, the Count, the Princess and the Dragon', () => must(createRuleset({ game: 'classic', expansions: [tower(), count(), princessDragon()] })), 3],
];

describe('undo with { events: true }', () => {
  for (const [name, make, players] of GAMES) {
    it(`${name}: the same state as undo, and one undone event naming what was taken back`, () => {
      const rules = make();
      const state = played(rules, players, `undo-event-${name}`, 30);
      for (const k of [1, 2, 5]) {
        const plain = must(undo(rules, state, k));
        const told = must(undo(rules, state, k, { events: true }));
        expect(serializeState(told.state)).toBe(serializeState(plain));
        expect(Object.isFrozen(told.state)).toBe(true);
        expect(told.events).toHaveLength(1);
        const e = told.events[0]!;
        if (e.type !== 'undone') throw new Error(`an undone event, got ${e.type}`);
        expect(e.moves).toEqual(state.moves.slice(state.moves.length - k));
        expect(e.from).toBe(state.moves.length);
        expect(e.to).toBe(state.moves.length - k);
        expect(e.to).toBe(told.state.moves.length);
        expect(e.turns).toBe(state.turn - told.state.turn);
        expect(e.player).toBe(told.state.step.kind === 'game-over' ? -1 : (told.state.step as { player: number }).player);
        // The event shares nothing with the states: a UI may keep or change it.
        expect(e.moves[0]).not.toBe(state.moves[state.moves.length - k]);
        expect(JSON.parse(JSON.stringify(e))).toEqual(e);
      }
    });
  }

  it('reaches a client in a view delta like a move, and the client view equals the server view', () => {
    const rules = GAMES[2]![1]();
    const state = played(rules, 3, 'undo-delta', 24);
    for (const viewer of [0, 1, 2, null]) {
      const before = must(publicView(rules, state, viewer));
      const back = must(undo(rules, state, 2, { events: true }));
      const after = must(publicView(rules, back.state, viewer));
      const delta = must(viewDelta(before, after, { events: back.events }));
      const wire = JSON.parse(JSON.stringify(delta)) as typeof delta;
      expect(wire.events?.[0]?.type).toBe('undone');
      const client = must(applyViewDelta(JSON.parse(JSON.stringify(before)) as typeof before, wire));
      expect(JSON.stringify(client)).toBe(JSON.stringify(after));
      expect(client.seq).toBe((wire.events![0] as UndoneEvent).to);
    }
  });

  it('refusals are the same with or without events', () => {
    const rules = GAMES[0]![1]();
    const state = played(rules, 2, 'undo-refused', 6);
    const a = undo(rules, state, 99, { events: true });
    expect(a.ok ? 'ok' : a.error.code).toBe('undo/nothing-to-undo');
    // A move that ended a turn drew a tile: 'before-draw' refuses it, events or not.
    const ended = state.moves.length;
    const b = undo(rules, state, ended, { policy: 'before-draw', events: true });
    expect(b.ok ? 'ok' : b.error.code).toBe('undo/draw-seen');
  });

  it('is typed: the state alone by default, a Transition with events', () => {
    const rules = GAMES[0]![1]();
    const state = played(rules, 2, 'undo-types', 3);
    const plain = undo(rules, state, 1);
    if (plain.ok) expectTypeOf(plain.value).toEqualTypeOf<GameState>();
    const told = undo(rules, state, 1, { events: true });
    if (told.ok) expectTypeOf(told.value).toEqualTypeOf<Transition>();
    const e = {} as GameEvent;
    if (e.type === 'undone') expectTypeOf(e).toEqualTypeOf<UndoneEvent>();
    // The command line's viewer says it in words.
    if (told.ok) expect(describeEvent(told.value.events[0]!)).toBe('a move is taken back');
  });
});
