/**
 * Decision steps owned by an expansion and decided by a player other than the active one, moves
 * offered at the deploy step, and resumable scoring (issue: "extra decision steps with their
 * moves (move generation lives with the expansion)", "the decider of a step can be any player").
 * Proven with a small test-only expansion, `toll`:
 * - before a completed road is scored, the player left of the active player decides whether to
 *   pay the active player 1 point (`toll/pay`, `toll/refuse`): scoring waits for the answer;
 * - at the deploy step the active player may ring a bell instead of deploying (`toll/bell`),
 *   which scores them 1 point.
 */
import { describe, expect, test } from 'vitest';
import {
  applyMove,
  createRandomSource,
  createRuleset,
  createSimulator,
  legalMoves,
  makeReplay,
  newGame,
  parseState,
  replay,
  serializeState,
  undo,
  whyIllegal,
  type Expansion,
  type GameState,
  type Move,
  type Ruleset,
} from '../src/index.js';
import { award } from '../src/core/engine/scoring.js';
import { byDepth } from './depth.js';

interface TollSlice {
  asked: number;
  paid: number;
  /** Records at depth, to prove applyMove freezes expansion slices whole. */
  log: { road: number; answers: { player: number }[] }[];
}

function toll(): Expansion {
  return {
    id: 'toll',
    order: 90,
    options: {},
    setup: (): TollSlice => ({ asked: 0, paid: 0, log: [] }),
    deployMoves: (_rules, state) => (state.step.kind === 'deploy' ? [{ type: 'toll/bell', player: state.step.player }] : []),
    beforeScoring(ctx, root) {
      if (ctx.rules.kindNames[ctx.state.features.kind[root]!] !== 'road') return;
      const slice = ctx.state.ext['toll'] as TollSlice;
      slice.asked++;
      slice.log.push({ road: root, answers: [] });
      ctx.state.step = { kind: 'toll/ask', player: (ctx.state.active + 1) % ctx.state.players, road: root };
      return 'wait';
    },
    stepMoves: (_rules, state) => {
      const player = state.step.kind === 'game-over' ? -1 : state.step.player;
      return [
        { type: 'toll/pay', player },
        { type: 'toll/refuse', player },
      ];
    },
    play(ctx, move) {
      if (move.type === 'toll/bell') {
        award(ctx, move.player, 1, 'toll/bell', null);
        return 'done';
      }
      const slice = ctx.state.ext['toll'] as TollSlice;
      slice.log[slice.log.length - 1]?.answers.push({ player: move.player });
      if (move.type === 'toll/pay') {
        slice.paid++;
        award(ctx, ctx.state.active, 1, 'toll/paid', null);
      }
      return 'done';
    },
  };
}

function expectDeeplyFrozen(v: unknown, path = '$'): void {
  if (typeof v !== 'object' || v === null) return;
  expect(Object.isFrozen(v), `${path} is not frozen`).toBe(true);
  for (const [k, c] of Object.entries(v)) expectDeeplyFrozen(c, `${path}.${k}`);
}

function rulesWithToll(): Ruleset {
  const r = createRuleset({ game: 'classic', expansions: [toll()] });
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

const rules = rulesWithToll();

/** Plays seeded random moves through applyMove until `stop` says so; returns the states. */
function playUntil(seed: string, players: number, stop: (s: GameState) => boolean): GameState[] {
  const g = newGame(rules, { players, seed });
  if (!g.ok) throw new Error(g.error.message);
  const states = [g.value];
  const random = createRandomSource(seed);
  let s = g.value;
  while (s.step.kind !== 'game-over' && !stop(s)) {
    const moves = legalMoves(rules, s);
    const r = applyMove(rules, s, moves[random(moves.length)]);
    if (!r.ok) throw new Error(r.error.message);
    s = r.value.state;
    states.push(s);
  }
  return states;
}

describe('an expansion step decided by another player pauses the scoring', () => {
  const states = playUntil('toll-1', 3, (s) => s.step.kind === 'toll/ask');
  const asked = states[states.length - 1]!;

  test('the step names its decider, who is not the active player, and lists its moves', () => {
    expect(asked.step.kind).toBe('toll/ask');
    const decider = (asked.step as { player: number }).player;
    expect(decider).toBe((asked.active + 1) % 3);
    expect(legalMoves(rules, asked)).toEqual([
      { type: 'toll/pay', player: decider },
      { type: 'toll/refuse', player: decider },
    ]);
    // The active player may not answer for the decider.
    expect(whyIllegal(rules, asked, { type: 'toll/pay', player: asked.active })?.code).toBe('move/not-your-turn');
    // A base move at an expansion step is refused, and an unlisted expansion move too.
    expect(whyIllegal(rules, asked, { type: 'pass', player: decider })?.code).toBe('move/wrong-step');
    expect(whyIllegal(rules, asked, { type: 'toll/pay', player: decider, extra: 1 })?.code).toBe('move/not-offered');
    expect(whyIllegal(rules, asked, { type: 'nope/pay', player: decider })?.code).toBe('move/unknown-type');
    // The scoring is suspended: the road has not been scored yet, the turn has not ended.
    expect(asked.flow?.phase).toBe('score');
  });

  test('paying scores the active player 1 and the suspended scoring then goes on to the next player', () => {
    const decider = (asked.step as { player: number }).player;
    const r = applyMove(rules, asked, { type: 'toll/pay', player: decider });
    if (!r.ok) throw new Error(r.error.message);
    const types = r.value.events.map((e) => e.type);
    expect(r.value.events.find((e) => e.type === 'scored' && e.reason === 'toll/paid')).toMatchObject({ player: asked.active, points: 1, feature: null });
    // The road is scored after the answer, then the turn ends.
    expect(types.indexOf('scored')).toBeGreaterThanOrEqual(0);
    expect(types).toContain('turn-ended');
    expect(r.value.state.flow).toBeNull();
    expect((r.value.state.ext['toll'] as TollSlice).paid).toBe(1);
  });
});

describe('a move offered at the deploy step by an expansion', () => {
  const states = playUntil('toll-2', 2, (s) => s.step.kind === 'deploy');
  const deploy = states[states.length - 1]!;
  test('is listed before pass, is the turn action, and scores through a scored event', () => {
    const moves = legalMoves(rules, deploy);
    expect(moves[moves.length - 1]).toEqual({ type: 'pass', player: deploy.active });
    expect(moves[moves.length - 2]).toEqual({ type: 'toll/bell', player: deploy.active });
    const r = applyMove(rules, deploy, { type: 'toll/bell', player: deploy.active });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.state.scores[deploy.active]).toBeGreaterThanOrEqual(deploy.scores[deploy.active]! + 1);
    expect(r.value.state.active).not.toBe(deploy.active);
  });
});

describe('random games with expansion steps: every core property holds', () => {
  test.each([2, 3, 4])('%i players: immer path = Simulator path, replay and parse round-trip, undo, score = events', (players) => {
    for (let i = 0; i < byDepth(6, 2); i++) {
      const seed = `toll-games-${players}-${i}`;
      const g = newGame(rules, { players, seed });
      if (!g.ok) throw new Error(g.error.message);
      const sim = createSimulator(rules, g.value, { events: true });
      if (!sim.ok) throw new Error(sim.error.message);
      const random = createRandomSource(seed);
      let s = g.value;
      let asks = 0;
      const sums = new Array<number>(players).fill(0);
      while (s.step.kind !== 'game-over') {
        const moves = legalMoves(rules, s);
        expect(moves).toEqual(sim.value.legalMoves());
        const m: Move = moves[random(moves.length)]!;
        if (s.step.kind === 'toll/ask') asks++;
        const r = applyMove(rules, s, m);
        if (!r.ok) throw new Error(r.error.message);
        expect(sim.value.play(m).ok).toBe(true);
        expect(sim.value.takeEvents()).toEqual(r.value.events);
        for (const e of r.value.events) if (e.type === 'scored') sums[e.player]! += e.points;
        s = r.value.state;
        expect(serializeState(sim.value.state)).toBe(serializeState(s));
        expectDeeplyFrozen(s);
      }
      expect(s.scores).toEqual(sums);
      expect(asks).toBeGreaterThan(0);
      const parsed = parseState(rules, serializeState(s));
      expect(parsed.ok && serializeState(parsed.value)).toBe(serializeState(s));
      const back = replay(rules, makeReplay(rules, s));
      expect(back.ok && serializeState(back.value.state)).toBe(serializeState(s));
      const before = undo(rules, s, 1);
      expect(before.ok).toBe(true);
    }
  });
});

/**
 * The end of the game paused for decisions (what the Count's market round needs: players move
 * followers before fields are scored). Test-only expansion `lastcall`: once the bag is empty,
 * every player in turn, from player 0, may claim 1 point (`lastcall/claim`) or decline
 * (`lastcall/decline`) before any final scoring.
 */
describe('beforeFinalScoring pauses the end of the game for every player in turn', () => {
  interface LastCall {
    next: number;
  }
  const lastcall = (): Expansion => ({
    id: 'lastcall',
    order: 91,
    options: {},
    setup: (): LastCall => ({ next: 0 }),
    beforeFinalScoring(ctx) {
      ctx.state.step = { kind: 'lastcall/ask', player: 0 };
      return 'wait';
    },
    stepMoves: (_rules, state) => {
      const player = state.step.kind === 'game-over' ? -1 : state.step.player;
      return [
        { type: 'lastcall/claim', player },
        { type: 'lastcall/decline', player },
      ];
    },
    play(ctx, move) {
      if (move.type === 'lastcall/claim') award(ctx, move.player, 1, 'lastcall/claim', null);
      const slice = ctx.state.ext['lastcall'] as LastCall;
      slice.next = move.player + 1;
      if (slice.next < ctx.state.players) {
        ctx.state.step = { kind: 'lastcall/ask', player: slice.next };
        return 'wait';
      }
      return 'done';
    },
  });
  const created = createRuleset({ game: 'classic', expansions: [lastcall()] });
  if (!created.ok) throw new Error(created.error.message);
  const rules2 = created.value;

  test('each player decides in turn, then final scoring runs, then the game is over', () => {
    const g = newGame(rules2, { players: 3, seed: 'lastcall' });
    if (!g.ok) throw new Error(g.error.message);
    const random = createRandomSource('lastcall');
    let s = g.value;
    const asked: number[] = [];
    const events: string[] = [];
    while (s.step.kind !== 'game-over') {
      if (s.step.kind === 'lastcall/ask') {
        asked.push(s.step.player);
        expect(s.bag.every((n) => n === 0)).toBe(true);
        expect(s.flow?.phase).toBe('final');
      }
      const moves = legalMoves(rules2, s);
      const m = s.step.kind === 'lastcall/ask' ? moves[0]! : moves[random(moves.length)]!;
      const r = applyMove(rules2, s, m);
      if (!r.ok) throw new Error(r.error.message);
      for (const e of r.value.events) if (e.type === 'scored') events.push(e.reason);
      s = r.value.state;
    }
    expect(asked).toEqual([0, 1, 2]);
    // The claims come first, then the base game's final scoring.
    const firstFinal = events.findIndex((r) => r === 'final' || r === 'farm');
    const claims = events.map((r, i) => [r, i] as const).filter(([r]) => r === 'lastcall/claim').map(([, i]) => i);
    expect(claims).toHaveLength(3);
    if (firstFinal >= 0) for (const i of claims) expect(i).toBeLessThan(firstFinal);
    expect(s.flow).toBeNull();
    // A paused end replays and parses like any other state.
    const back = replay(rules2, makeReplay(rules2, s));
    expect(back.ok && serializeState(back.value.state)).toBe(serializeState(s));
    const parsed = parseState(rules2, serializeState(s));
    expect(parsed.ok).toBe(true);
  });
});

test('two expansions that both replace the start tile are a refused combination', () => {
  const a: Expansion = { id: 'start-a', order: 96, options: {}, start: { tile: 'E', rotation: 0 } };
  const b: Expansion = { id: 'start-b', order: 97, options: {}, start: { tile: 'B', rotation: 0 } };
  const r = createRuleset({ game: 'classic', expansions: [a, b] });
  expect(r.ok ? null : r.error.code).toBe('options/conflicting-expansions');
  expect(r.ok ? '' : r.error.message).toMatch(/both replace the start tile/);
});

/**
 * A start that gives way (`startYields`, the River's spring beside the Count's City), with
 * test-only modules on classic tiles: `firm` lays E (a city cap facing north) at 0,0; `beside`
 * would lay another E, and draws E first while no tile has been placed.
 */
describe('a start tile that gives way to another start: a set-up placement', () => {
  const firm = (): Expansion => ({ id: 'firm', order: 96, options: {}, start: { tile: 'E', rotation: 0 } });
  const beside = (id = 'beside'): Expansion => ({
    id,
    order: 97,
    options: {},
    start: { tile: 'E', rotation: 0 },
    startYields: true,
    drawFilter: (_rules, state) => (state.moves.length === 0 ? (t) => t.def.id === 'E' : null),
  });
  const made = (expansions: Expansion[]): Ruleset => {
    const r = createRuleset({ game: 'classic', expansions });
    if (!r.ok) throw new Error(r.error.message);
    return r.value;
  };

  test('the standing start is laid; the one that gives way stays in the bag and is drawn first, by the starting player', () => {
    const rules = made([beside(), firm()]);
    const g = newGame(rules, { players: 2, seed: 'yield' });
    if (!g.ok) throw new Error(g.error.message);
    expect(g.value.tiles.map((t) => [t.id, t.x, t.y, t.player])).toEqual([['E', 0, 0, -1]]);
    expect(g.value.step).toEqual({ kind: 'place-tile', player: 0, tile: 'E' });
    // Five copies of E: one laid at set-up, one drawn, three in the bag.
    expect(g.value.bag[rules.tileIndex['E']!]).toBe(3);
  });

  test('laid on turn 0 it is set-up: it closes the city cap of the start, yet nothing is completed or scored, no follower is offered, and the same player takes turn 1', () => {
    const rules = made([firm(), beside()]);
    const g = newGame(rules, { players: 2, seed: 'yield', draws: ['E', 'V'] });
    if (!g.ok) throw new Error(g.error.message);
    // North of the start, turned 2: its cap faces south onto the start's cap, a closed city of two tiles.
    const r = applyMove(rules, g.value, { type: 'place', player: 0, x: 0, y: -1, rotation: 2 });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.events.map((e) => e.type)).toEqual(['tile-placed', 'turn-ended', 'tile-drawn']);
    expect(r.value.state.step).toEqual({ kind: 'place-tile', player: 0, tile: 'V' });
    expect([r.value.state.turn, r.value.state.active, r.value.state.scores]).toEqual([1, 0, [0, 0]]);
    // The same placement as a turn's action (the start standing alone) offers a follower, then
    // completes the city.
    const later = createRuleset({ game: 'classic', expansions: [firm()] });
    if (!later.ok) throw new Error(later.error.message);
    const h = newGame(later.value, { players: 2, seed: 'yield', draws: ['E'] });
    if (!h.ok) throw new Error(h.error.message);
    const normal = applyMove(later.value, h.value, { type: 'place', player: 0, x: 0, y: -1, rotation: 2 });
    if (!normal.ok) throw new Error(normal.error.message);
    expect(normal.value.state.step).toEqual({ kind: 'deploy', player: 0 });
    const passed = applyMove(later.value, normal.value.state, { type: 'pass', player: 0 });
    expect(passed.ok && passed.value.events.map((e) => e.type)).toContain('feature-completed');
  });

  test('alone, a start that gives way is laid at 0,0 as any start', () => {
    const rules = made([beside()]);
    const g = newGame(rules, { players: 2, seed: 'alone' });
    expect(g.ok && g.value.tiles.map((t) => [t.id, t.x, t.y])).toEqual([['E', 0, 0]]);
  });

  test.each([
    ['two that give way, none standing', () => [beside('beside-a'), beside('beside-b')], /^expansions 'beside-a' and 'beside-b' both replace the start tile \(one start may give way, to one that stands\)$/],
    ['two that give way to one standing', () => [firm(), beside('beside-a'), beside('beside-b')], /^expansions 'beside-a' and 'beside-b' both replace the start tile \(one start may give way, to one that stands\)$/],
  ])('refused: %s', (_name, list, message) => {
    const r = createRuleset({ game: 'classic', expansions: list() });
    expect(r.ok ? null : r.error.code).toBe('options/conflicting-expansions');
    expect(r.ok ? '' : r.error.message).toMatch(message);
  });

  test.each([
    ['with a start of several tiles', { start: [{ tile: 'E', x: 0, y: 0, rotation: 0 }] }, /'startYields' needs a one-tile 'start'/],
    ['without a start', {}, /'startYields' needs a one-tile 'start'/],
    ['not a boolean', { start: { tile: 'E', rotation: 0 }, startYields: 'yes' }, /'startYields' must be one of true, false/],
  ])('module check: startYields %s is refused', (_name, members, message) => {
    const m = { id: 'odd', order: 98, options: {}, startYields: true, ...members } as unknown as Expansion;
    const r = createRuleset({ game: 'classic', expansions: [m] });
    expect(r.ok ? null : r.error.code).toBe('options/unknown-expansion');
    expect(r.ok ? '' : r.error.message).toMatch(message);
  });
});

/**
 * Withdrawing the ordinary deployment (what the volcano and the princess need) and a pause after
 * the action, before scoring (what the dragon's flight needs). Test-only expansion `quiet`: no
 * follower may be deployed on a turn that places a cloister tile (A or B), but a `quiet/hum` move
 * is offered instead; and after every action the next player must acknowledge (`quiet/ack`)
 * before anything is scored.
 */
describe('deployAllowed and afterAction', () => {
  const quiet = (): Expansion => ({
    id: 'quiet',
    order: 92,
    options: {},
    deployAllowed: (_rules, state) => {
      const last = state.tiles[state.tiles.length - 1]!;
      return last.id !== 'A' && last.id !== 'B';
    },
    deployMoves: (_rules, state) => {
      const last = state.tiles[state.tiles.length - 1]!;
      // Asked both to decide whether to open the deploy step (still at place-tile then) and at it.
      return last.id === 'A' || last.id === 'B' ? [{ type: 'quiet/hum', player: state.active }] : [];
    },
    afterAction(ctx) {
      ctx.state.step = { kind: 'quiet/ack', player: (ctx.state.active + 1) % ctx.state.players };
      return 'wait';
    },
    stepMoves: (_rules, state) => [{ type: 'quiet/ack', player: state.step.kind === 'game-over' ? -1 : state.step.player }],
    play: () => 'done',
  });
  const created = createRuleset({ game: 'classic', expansions: [quiet()] });
  if (!created.ok) throw new Error(created.error.message);
  const rules3 = created.value;

  test('a cloister tile offers no follower (deploy/not-allowed) but the expansion\'s move; every action is acknowledged before scoring', () => {
    let cloisterTurns = 0;
    for (let i = 0; i < 4; i++) {
      const g = newGame(rules3, { players: 2, seed: `quiet-${i}` });
      if (!g.ok) throw new Error(g.error.message);
      const random = createRandomSource(`quiet-${i}`);
      let s = g.value;
      while (s.step.kind !== 'game-over') {
        const moves = legalMoves(rules3, s);
        const last = s.tiles[s.tiles.length - 1]!;
        if (s.step.kind === 'deploy' && (last.id === 'A' || last.id === 'B')) {
          cloisterTurns++;
          expect(moves.some((m) => m.type === 'deploy')).toBe(false);
          expect(moves.map((m) => m.type)).toEqual(['quiet/hum', 'pass']);
          const why = whyIllegal(rules3, s, { type: 'deploy', player: s.step.player, feature: 'm1' })?.code;
          expect(why).toBe(s.supply[s.step.player]! > 0 ? 'deploy/not-allowed' : 'deploy/no-followers');
        }
        const m = moves[random(moves.length)]!;
        const r = applyMove(rules3, s, m);
        if (!r.ok) throw new Error(r.error.message);
        const types = r.value.events.map((e) => e.type);
        // Nothing is scored and no turn ends in the same transition as the action: the ack comes first.
        if (m.type === 'deploy' || m.type === 'pass' || m.type === 'quiet/hum' || m.type === 'place') {
          expect(types).not.toContain('scored');
          expect(types).not.toContain('turn-ended');
        }
        if (m.type === 'quiet/ack') expect(types).toContain('turn-ended');
        s = r.value.state;
        if (s.step.kind === 'quiet/ack') expect(s.step.player).toBe((s.active + 1) % 2);
      }
      const back = replay(rules3, makeReplay(rules3, s));
      expect(back.ok && serializeState(back.value.state)).toBe(serializeState(s));
    }
    expect(cloisterTurns).toBeGreaterThan(0);
  });
});
