/**
 * The expansion module interface (src/core/expansion.ts) and its composition by `createRuleset`
 * (src/ruleset.ts): validation with precise codes, a ruleset id independent of the order the
 * expansions are listed in, hooks called in the expansions' fixed `order`, and states and
 * replays of games with expansions that round-trip. docs/expansions/writing-an-expansion.md
 * describes the interface; the small expansions here are built inline as plain objects.
 */
import { describe, expect, test } from 'vitest';
import {
  applyMove,
  cellKey,
  createRandomSource,
  createRuleset,
  createSimulator,
  legalMoves,
  makeReplay,
  newGame,
  observe,
  parseState,
  replay,
  serializeState,
  whyIllegal,
  type Expansion,
  type GameEvent,
  type GameState,
  type RulesetOptions,
  type Ruleset,
} from '../src/index.js';
import { kingRobber } from '../src/expansions/king-robber/index.js';
import { frontierIndex, parseTileSpec, tileAt } from '../src/authoring.js';
import { CLASSIC_KINDS } from '../src/games/classic/index.js';
import { Scenario, classicRules, rigDraw, readableId } from './helpers.js';

function rulesOf(expansions: readonly Expansion[]): Ruleset {
  const r = createRuleset({ game: 'classic', expansions });
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value;
}

/** The error code (and message) createRuleset gives for these options, or 'ok'. */
function refusal(options: unknown): { code: string; message: string } {
  const r = createRuleset(options as RulesetOptions);
  return r.ok ? { code: 'ok', message: '' } : { code: r.error.code, message: r.error.message };
}

/** A do-nothing expansion with the given id and order, plus any fields. */
function plain(id: string, order: number, extra: Partial<Expansion> = {}): Expansion {
  return { id, order, options: {}, ...extra };
}

/** A full game played by seeded random moves through the Simulator; its final state and events. */
function randomGame(rules: Ruleset, players: number, seed: string): { state: GameState; events: GameEvent[] } {
  const g = newGame(rules, { players, seed });
  if (!g.ok) throw new Error(g.error.message);
  const sim = createSimulator(rules, g.value, { events: true });
  if (!sim.ok) throw new Error(sim.error.message);
  const random = createRandomSource(`${seed}-moves`);
  const events: GameEvent[] = [];
  while (!sim.value.isOver()) {
    sim.value.playRandom(random);
    events.push(...sim.value.takeEvents());
  }
  return { state: sim.value.snapshot(), events };
}

// ---------------------------------------------------------------------------------------------
// createRuleset validation

describe('createRuleset: refusing bad expansion lists', () => {
  test("options/unknown-expansion: a name instead of a module; the message says which import to use ('river' -> river(), 'king-robber' -> kingRobber())", () => {
    const river = refusal({ game: 'classic', expansions: ['river'] });
    expect(river.code).toBe('options/unknown-expansion');
    expect(river.message).toContain(`river() from 'meeplekit/expansions/river'`);
    const kr = refusal({ game: 'classic', expansions: ['king-robber'] });
    expect(kr.code).toBe('options/unknown-expansion');
    expect(kr.message).toContain(`kingRobber() from 'meeplekit/expansions/king-robber'`);
  });

  test('options/unknown-expansion: anything that is not a module object (no id, no order, no options, null, a number, the factory itself uncalled)', () => {
    const notModules: unknown[] = [
      { id: 'river' }, // no order, no options
      { id: 'x', order: 1 }, // no options
      { id: 'x', order: '1', options: {} }, // order not a number
      { id: 7, order: 1, options: {} }, // id not a string
      { id: 'x', order: 1, options: null },
      null,
      42,
      kingRobber, // the factory, not its result
    ];
    for (const e of notModules) {
      expect(refusal({ game: 'classic', expansions: [e] }).code, String(e)).toBe('options/unknown-expansion');
    }
    expect(refusal({ game: 'classic', expansions: 'king-robber' }).code).toBe('options/malformed');
  });

  test('options/duplicate-expansion: the same expansion twice (two calls of its factory, or two objects with one id)', () => {
    const twice = refusal({ game: 'classic', expansions: [kingRobber(), kingRobber()] });
    expect(twice.code).toBe('options/duplicate-expansion');
    expect(twice.message).toContain("'king-robber'");
    expect(refusal({ game: 'classic', expansions: [plain('a', 10), plain('a', 20)] }).code).toBe('options/duplicate-expansion');
  });

  test('options/missing-requirement: an expansion whose `requires` names one that is not switched on; fine once it is', () => {
    const needy = plain('needy', 50, { requires: ['king-robber'] });
    const r = refusal({ game: 'classic', expansions: [needy] });
    expect(r.code).toBe('options/missing-requirement');
    expect(r.message).toBe("expansion 'needy' requires 'king-robber', which is not switched on");
    expect(refusal({ game: 'classic', expansions: [needy, kingRobber()] }).code).toBe('ok');
    expect(refusal({ game: 'classic', expansions: [kingRobber(), needy] }).code).toBe('ok');
  });

  test('options/conflicting-expansions: a declared `conflictsWith`, whichever is listed first; fine alone', () => {
    const rival = plain('rival', 50, { conflictsWith: ['king-robber'] });
    for (const list of [
      [rival, kingRobber()],
      [kingRobber(), rival],
    ]) {
      const r = refusal({ game: 'classic', expansions: list });
      expect(r.code).toBe('options/conflicting-expansions');
      expect(r.message).toBe("expansions 'rival' and 'king-robber' cannot be combined");
    }
    expect(refusal({ game: 'classic', expansions: [rival] }).code).toBe('ok');
  });

  test("options/expansion-options: an expansion whose validate() returns a message; the message is prefixed with the expansion's id", () => {
    const picky = plain('picky', 50, { options: { size: -1 }, validate: () => 'size must be positive, got -1' });
    const r = refusal({ game: 'classic', expansions: [kingRobber(), picky] });
    expect(r).toEqual({ code: 'options/expansion-options', message: 'picky: size must be positive, got -1' });
    const fine = plain('picky', 50, { options: { size: 2 }, validate: () => null });
    expect(refusal({ game: 'classic', expansions: [fine] }).code).toBe('ok');
  });
});

describe('createRuleset: games stay within the board (options/too-many-tiles)', () => {
  /** A module adding `count` straight roads (classic's U) and, optionally, its own start tile. */
  const roads = (count: number, start?: { x: number; y: number }): Expansion =>
    plain('roads', 80, {
      tiles: [parseTileSpec('road-U', count, 'r:E2,W2 f:N,E1,W3 f:E3,S,W1', CLASSIC_KINDS)],
      ...(start === undefined ? {} : { start: [{ tile: 'road-U', x: start.x, y: start.y, rotation: 0 }] }),
    });

  test('more than 400 tiles (the bag\'s and the start tiles) are refused; 400 are fine', () => {
    // Classic: 72 tiles and its start tile D, counted among them and once more as a start.
    expect(refusal({ game: 'classic', expansions: [roads(400 - 73)] }).code).toBe('ok');
    const r = refusal({ game: 'classic', expansions: [roads(401 - 73)] });
    expect(r.code).toBe('options/too-many-tiles');
    expect(r.message).toMatch(/401 tiles .* at most 400/);
  });

  test('a start tile so far out that a line of every tile could leave the board (511 cells each way) is refused', () => {
    // 72 classic tiles + 10 roads + the start: 83 tiles; 428 + 83 = 511 is the last that fits.
    expect(refusal({ game: 'classic', expansions: [roads(10, { x: 428, y: 0 })] }).code).toBe('ok');
    const r = refusal({ game: 'classic', expansions: [roads(10, { x: 0, y: -429 })] });
    expect(r.code).toBe('options/too-many-tiles');
    expect(r.message).toMatch(/429 cells from the centre .* 83 tiles/);
  });

  test('a game of 400 tiles, the most there may be, plays to the end: every tile and frontier cell is found in the cell table, and the state round-trips', () => {
    const rules = rulesOf([roads(400 - 73)]);
    const { state } = randomGame(rules, 2, 'four-hundred');
    expect(state.step.kind).toBe('game-over');
    expect(state.tiles.length).toBeGreaterThan(390);
    state.tiles.forEach((t, i) => expect(tileAt(state, cellKey(t.x, t.y))).toBe(i));
    state.frontier.forEach((key, j) => expect(frontierIndex(state, key)).toBe(j));
    const parsed = parseState(rules, serializeState(state));
    expect(parsed.ok && serializeState(parsed.value)).toBe(serializeState(state));
  });
});

// ---------------------------------------------------------------------------------------------
// Ruleset id and options

describe('createRuleset: id and options', () => {
  test('the ruleset id and options do not depend on the order the expansions are listed in: they follow `order` (then id)', () => {
    const a = (): Expansion => plain('alpha', 10);
    const b = (): Expansion => plain('beta', 20, { options: { level: 2 } });
    const one = rulesOf([a(), b(), kingRobber()]);
    const two = rulesOf([kingRobber(), b(), a()]);
    // king-robber's order is 30: alpha (10), beta (20), king-robber (30).
    expect(readableId(one.id)).toBe('classic+alpha+beta{"level":2}+king-robber');
    expect(two.id).toBe(one.id);
    expect(two.options).toEqual(one.options);
    expect(one.options).toEqual({
      game: 'classic',
      expansions: [
        { id: 'alpha', options: {} },
        { id: 'beta', options: { level: 2 } },
        { id: 'king-robber', options: {} },
      ],
    });
    // Equal orders are broken by id.
    expect(readableId(rulesOf([plain('zed', 5), plain('abc', 5)]).id)).toBe('classic+abc+zed');
    // No expansions: the base game alone.
    expect(classicRules().id).toBe('classic');
    expect(classicRules().options).toEqual({ game: 'classic', expansions: [] });
  });

  test('a state made with a list in one order is the same game as with the list in another order (same id, loads in both)', () => {
    const one = rulesOf([plain('alpha', 10), kingRobber()]);
    const two = rulesOf([kingRobber(), plain('alpha', 10)]);
    const { state } = randomGame(one, 2, 'order-free');
    const loaded = parseState(two, serializeState(state));
    expect(loaded.ok).toBe(true);
  });
});

// ---------------------------------------------------------------------------------------------
// Hook order

/**
 * An expansion that records each hook call as `'<id>:<hook>'` in `log` (captured in the closure)
 * and counts its own afterPlace calls in its state slice.
 */
function recorder(id: string, order: number, log: string[]): Expansion {
  return {
    id,
    order,
    options: {},
    setup: () => {
      log.push(`${id}:setup`);
      return { placed: 0 };
    },
    afterPlace: (ctx, tile) => {
      log.push(`${id}:afterPlace:${tile}`);
      (ctx.state.ext[id] as { placed: number }).placed++;
    },
    turnStart: () => {
      log.push(`${id}:turnStart`);
    },
    beforeScoring: (ctx, root) => {
      log.push(`${id}:beforeScoring:${ctx.rules.kindNames[ctx.state.features.kind[root]!]}`);
    },
    afterScoring: (_ctx, completed) => {
      log.push(`${id}:afterScoring:${completed.map((f) => `${f.kind}/${f.tiles}`).join(',')}`);
    },
    finalScoring: () => {
      log.push(`${id}:finalScoring`);
    },
  };
}

/** Places B below the start tile as the last tile of the game (bag emptied first), then passes. */
function playLastB(sc: Scenario): void {
  const s = rigDraw(sc.rules, sc.state, 'B');
  s.bag.fill(0);
  s.bagSize = 0;
  sc.state = s;
  const player = sc.player;
  sc.play({ type: 'place', player, x: 0, y: 1, rotation: 0 });
  if (sc.state.step.kind === 'deploy') sc.play({ type: 'pass', player });
  expect(sc.state.step.kind).toBe('game-over');
}

describe('hooks: called in `order`, never in list order', () => {
  test('setup, afterPlace, beforeScoring, afterScoring, turnStart and finalScoring run low order first, whatever the list order; the slices keep what the hooks wrote', () => {
    const log: string[] = [];
    // Listed late-first: 'late' (order 20) before 'early' (order 10).
    const rules = rulesOf([recorder('late', 20, log), recorder('early', 10, log)]);
    const sc = new Scenario(rules);
    expect(log).toEqual(['early:setup', 'late:setup', 'early:afterPlace:0', 'late:afterPlace:0']);
    log.length = 0;

    // E@2 above the start tile closes the city D+E (2 tiles).
    sc.place('E', 0, -1, 2);
    expect(log).toEqual([
      'early:afterPlace:1',
      'late:afterPlace:1',
      'early:beforeScoring:city',
      'late:beforeScoring:city',
      'early:afterScoring:city/2',
      'late:afterScoring:city/2',
      'early:turnStart',
      'late:turnStart',
    ]);
    log.length = 0;

    // A turn that completes nothing: no scoring hooks.
    sc.place('U', 1, 0, 0);
    expect(log).toEqual(['early:afterPlace:2', 'late:afterPlace:2', 'early:turnStart', 'late:turnStart']);
    expect(sc.state.ext).toEqual({ early: { placed: 3 }, late: { placed: 3 } });
    log.length = 0;

    // The last tile: final scoring after the base game's, in order.
    playLastB(sc);
    expect(log).toEqual(['early:afterPlace:3', 'late:afterPlace:3', 'early:finalScoring', 'late:finalScoring']);
  });

  // Fixed core bug (src/core/engine/turn.ts endTurn): turnStart hooks also ran after the last
  // tile, for a turn that never starts (the fairy would have scored a point it should not).
  test('turnStart: not called after the last tile, when no turn follows (game over)', () => {
    const log: string[] = [];
    const rules = rulesOf([recorder('early', 10, log)]);
    const sc = new Scenario(rules);
    log.length = 0;
    playLastB(sc);
    expect(log).toEqual(['early:afterPlace:1', 'early:finalScoring']);
  });

  test('deployMoves: the expansions\' extra moves at the deploy step are listed in `order`, after the follower targets and before pass', () => {
    const offer = (id: string, order: number): Expansion =>
      plain(id, order, {
        deployMoves: (_rules, state) => (state.step.kind === 'deploy' ? [{ type: `${id}/wave`, player: state.step.player }] : []),
        play: () => 'done',
      });
    const rules = rulesOf([offer('late', 20), offer('early', 10)]);
    const sc = new Scenario(rules);
    sc.state = rigDraw(rules, sc.state, 'U');
    sc.play({ type: 'place', player: 0, x: 1, y: 0, rotation: 0 });
    expect(legalMoves(rules, sc.state).map((m) => (m.type === 'deploy' ? m.feature : m.type))).toEqual(['r1', 'f1', 'f2', 'early/wave', 'late/wave', 'pass']);
    // Played as the turn's action: the turn goes on to the next player.
    sc.play({ type: 'late/wave', player: 0 });
    expect(sc.state.step).toMatchObject({ kind: 'place-tile', player: 1 });
    expect(sc.state.moves.at(-1)).toEqual({ type: 'late/wave', player: 0 });
  });

  test('placementError: the first refusal in `order` names the error (place/forbidden); legal moves leave out every refused placement', () => {
    const east = plain('east', 10, { placementError: (_r, _s, _t, x) => (x > 0 ? 'east is closed' : null) });
    const north = plain('north', 20, {
      placementError: (_r, _s, _t, x, y) => (y < 0 ? 'north is closed' : x > 0 ? 'north closes the east too' : null),
    });
    const rules = rulesOf([north, east]);
    const state = rigDraw(rules, new Scenario(rules).state, 'U');
    // U@0 (road W-E) east of the start tile: both refuse; 'east' (order 10) speaks.
    const east1 = whyIllegal(rules, state, { type: 'place', player: 0, x: 1, y: 0, rotation: 0 });
    expect(east1?.code).toBe('place/forbidden');
    expect(east1?.message).toContain('east is closed');
    // Above the start tile: only 'north' refuses (a U turned to put a field on D's city cannot
    // lie there anyway: use E@2, which fits).
    const s2 = rigDraw(rules, new Scenario(rules).state, 'E');
    const north1 = whyIllegal(rules, s2, { type: 'place', player: 0, x: 0, y: -1, rotation: 2 });
    expect(north1?.code).toBe('place/forbidden');
    expect(north1?.message).toContain('north is closed');
    // Without the hooks both placements are legal; with them, no legal move lies east or north.
    expect(whyIllegal(classicRules(), rigDraw(classicRules(), new Scenario(classicRules()).state, 'U'), { type: 'place', player: 0, x: 1, y: 0, rotation: 0 })).toBeNull();
    for (const m of legalMoves(rules, state)) {
      if (m.type === 'place') {
        expect(m.x <= 0 && m.y >= 0, `${m.x},${m.y}`).toBe(true);
      }
    }
    expect(legalMoves(rules, state).length).toBeGreaterThan(0);
  });

  test('drawFilter: a tile kind is drawn only when every expansion allows it (C held back while anything else is left: it comes last)', () => {
    const last = plain('c-last', 10, {
      // Once per draw: hold C back while any other tile is left; no restriction (null) after that.
      drawFilter: (rules, state) => {
        const c = rules.tileIndex['C']!;
        return state.bag.every((n, i) => n === 0 || i === c) ? null : (tile) => tile.def.id !== 'C';
      },
    });
    const rules = rulesOf([last]);
    for (let i = 0; i < 5; i++) {
      const { events } = randomGame(rules, 2, `c-last-${i}`);
      const drawn = events.flatMap((e) => (e.type === 'tile-drawn' ? [e.tile] : []));
      expect(drawn.indexOf('C'), `game ${i}`).toBe(drawn.length - 1);
    }
  });

  test('drawFilter: a mask by tile index holds back exactly what the same predicate holds back, alone and with another module\'s predicate (same games, byte for byte)', () => {
    // C held back while anything else is left (as above), once as a predicate, once as a mask; a
    // second module holds back D while more than 20 tiles are in the bag (a predicate), to combine
    // the two kinds.
    const holdC = (asMask: boolean): Expansion =>
      plain('c-last', 10, {
        drawFilter: (rules, state) => {
          const c = rules.tileIndex['C']!;
          if (state.bag.every((n, i) => n === 0 || i === c)) return null;
          return asMask ? Uint8Array.from(rules.tiles, (t) => (t.def.id === 'C' ? 0 : 1)) : (tile) => tile.def.id !== 'C';
        },
      });
    const holdD = plain('d-late', 20, { drawFilter: (_rules, state) => (state.bagSize > 20 ? (tile) => tile.def.id !== 'D' : null) });
    for (const others of [[], [holdD]]) {
      const byPredicate = rulesOf([holdC(false), ...others]);
      const byMask = rulesOf([holdC(true), ...others]);
      for (let i = 0; i < 4; i++) {
        const a = randomGame(byPredicate, 2, `mask-${i}`);
        const b = randomGame(byMask, 2, `mask-${i}`);
        expect(JSON.stringify(b.events)).toBe(JSON.stringify(a.events));
        expect(JSON.stringify(b.state.moves)).toBe(JSON.stringify(a.state.moves));
        const drawn = b.events.flatMap((e) => (e.type === 'tile-drawn' ? [e.tile] : []));
        expect(drawn.indexOf('C'), `game ${i}`).toBe(drawn.length - 1);
        if (others.length > 0) expect(drawn.indexOf('D'), `game ${i}`).toBeGreaterThanOrEqual(drawn.length - 21);
      }
    }
  });

  test('observe: an expansion decides what each viewer sees of its slice (here: only the owner of a secret sees it)', () => {
    const secret = plain('secret', 10, {
      setup: (_rules, players) => ({ codes: Array.from({ length: players }, (_, p) => `code-${p}`) }),
      observe: (slice, viewer) => {
        const codes = (slice as { codes: string[] }).codes;
        return { codes: codes.map((c, p) => (p === viewer ? c : null)) };
      },
    });
    const rules = rulesOf([secret]);
    const g = newGame(rules, { players: 3, seed: 'secret' });
    if (!g.ok) throw new Error(g.error.message);
    expect(observe(rules, g.value, 1).ext).toEqual({ secret: { codes: [null, 'code-1', null] } });
    expect(observe(rules, g.value, null).ext).toEqual({ secret: { codes: [null, null, null] } });
    // The state itself is not changed.
    expect(g.value.ext).toEqual({ secret: { codes: ['code-0', 'code-1', 'code-2'] } });
  });
});

// ---------------------------------------------------------------------------------------------
// Replays and saved states

describe('replays and states with expansions', () => {
  /** Counts placed tiles per player in its slice: a slice that changes every turn. */
  const counter = (): Expansion =>
    plain('counter', 40, {
      setup: (_rules, players) => ({ tiles: new Array<number>(players).fill(0) }),
      afterPlace: (ctx, tile) => {
        const p = ctx.state.tiles[tile]!.player;
        if (p >= 0) (ctx.state.ext['counter'] as { tiles: number[] }).tiles[p]!++;
      },
    });

  test('makeReplay/replay round-trips a whole game with expansions: the same state byte for byte, the same events', () => {
    const rules = rulesOf([kingRobber(), counter()]);
    const { state, events } = randomGame(rules, 3, 'replay-kr');
    expect(state.step.kind).toBe('game-over');
    const text = JSON.stringify(makeReplay(rules, state));
    expect(JSON.parse(text).ruleset).toEqual({
      game: 'classic',
      expansions: [
        { id: 'king-robber', options: {} },
        { id: 'counter', options: {} },
      ],
    });
    const again = replay(rules, text);
    if (!again.ok) throw new Error(`${again.error.code}: ${again.error.message}`);
    expect(serializeState(again.value.state)).toBe(serializeState(state));
    // The Simulator's events include the set-up draw, which a replay leaves out.
    const firstMove = events.findIndex((e) => e.type !== 'tile-drawn' && e.type !== 'tile-discarded');
    expect(again.value.events).toEqual(events.slice(firstMove));
    const counted = (state.ext['counter'] as { tiles: number[] }).tiles;
    expect(counted.reduce((a, b) => a + b, 0)).toBe(state.tiles.length - 1); // all but the start tile
  });

  test('serializeState/parseState round-trips a state with expansion slices, and refuses an edited slice (state/tampered)', () => {
    const rules = rulesOf([kingRobber(), counter()]);
    const { state } = randomGame(rules, 2, 'parse-kr');
    const text = serializeState(state);
    const loaded = parseState(rules, text);
    if (!loaded.ok) throw new Error(`${loaded.error.code}: ${loaded.error.message}`);
    expect(serializeState(loaded.value)).toBe(text);
    // Mid-game too (applyMove path).
    const g = newGame(rules, { players: 2, seed: 'parse-kr-mid' });
    if (!g.ok) throw new Error(g.error.message);
    let mid = g.value;
    for (let i = 0; i < 20; i++) {
      const next = applyMove(rules, mid, legalMoves(rules, mid)[0]);
      if (!next.ok) throw new Error(next.error.message);
      mid = next.value.state;
    }
    const midLoaded = parseState(rules, serializeState(mid));
    expect(midLoaded.ok && serializeState(midLoaded.value)).toBe(serializeState(mid));
    // Someone hands themselves the King.
    const data = JSON.parse(text) as { state: { ext: Record<string, { king: number }> } };
    data.state.ext['king-robber']!.king = data.state.ext['king-robber']!.king === 0 ? 1 : 0;
    const edited = parseState(rules, data);
    expect(edited.ok ? null : edited.error.code).toBe('state/tampered');
    expect(edited.ok ? null : edited.error.path).toBe('$.state.ext.king-robber.king');
  });

  test('a state or replay made with one ruleset refuses to load into another (state/ruleset-mismatch), in every direction', () => {
    const classic = classicRules();
    const kr = rulesOf([kingRobber()]);
    const krPlus = rulesOf([kingRobber(), counter()]);
    const gClassic = newGame(classic, { players: 2, seed: 'mismatch' });
    const gKr = newGame(kr, { players: 2, seed: 'mismatch' });
    if (!gClassic.ok || !gKr.ok) throw new Error('newGame failed');
    const code = (r: { ok: boolean; error?: { code: string } }): string | null => (r.ok ? null : r.error!.code);
    expect(code(parseState(kr, serializeState(gClassic.value)))).toBe('state/ruleset-mismatch');
    expect(code(parseState(classic, serializeState(gKr.value)))).toBe('state/ruleset-mismatch');
    expect(code(parseState(krPlus, serializeState(gKr.value)))).toBe('state/ruleset-mismatch');
    expect(code(replay(classic, makeReplay(kr, gKr.value)))).toBe('state/ruleset-mismatch');
    expect(code(replay(kr, makeReplay(classic, gClassic.value)))).toBe('state/ruleset-mismatch');
    expect(code(replay(krPlus, makeReplay(kr, gKr.value)))).toBe('state/ruleset-mismatch');
    // Moves too: a classic state is not a king-robber game.
    const move = legalMoves(classic, gClassic.value)[0]!;
    expect(whyIllegal(kr, gClassic.value, move)?.code).toBe('state/ruleset-mismatch');
    expect(code(applyMove(kr, gClassic.value, move))).toBe('state/ruleset-mismatch');
    // Same expansions, other options: another ruleset as well.
    const opt1 = rulesOf([plain('tuned', 10, { options: { level: 1 } })]);
    const opt2 = rulesOf([plain('tuned', 10, { options: { level: 2 } })]);
    const g1 = newGame(opt1, { players: 2, seed: 'tuned' });
    if (!g1.ok) throw new Error(g1.error.message);
    expect(code(parseState(opt2, serializeState(g1.value)))).toBe('state/ruleset-mismatch');
    expect(code(replay(opt2, makeReplay(opt1, g1.value)))).toBe('state/ruleset-mismatch');
  });
});

test('the ruleset id does not depend on the key order of an expansion\'s options (canonical JSON)', () => {
  const make = (options: Record<string, unknown>): Expansion => ({ id: 'keyed', order: 95, options });
  const a = createRuleset({ game: 'classic', expansions: [make({ a: 1, b: [{ y: 2, x: 1 }] })] });
  const b = createRuleset({ game: 'classic', expansions: [make({ b: [{ x: 1, y: 2 }], a: 1 })] });
  expect(a.ok && b.ok).toBe(true);
  if (a.ok && b.ok) expect(a.value.id).toBe(b.value.id);
});

test('players: 2 to 5 in classic, 6 where an expansion allows it (digest-classic "Material")', () => {
  const six: Expansion = { id: 'six', order: 95, options: {}, maxPlayers: 6 };
  const classic = createRuleset({ game: 'classic' });
  const withSix = createRuleset({ game: 'classic', expansions: [six] });
  if (!classic.ok || !withSix.ok) throw new Error('ruleset');
  expect(classic.value.maxPlayers).toBe(5);
  expect(withSix.value.maxPlayers).toBe(6);
  const refused = newGame(classic.value, { players: 6, seed: 's' });
  expect(refused.ok ? null : refused.error.code).toBe('options/players');
  const game = newGame(withSix.value, { players: 6, seed: 's' });
  if (!game.ok) throw new Error(game.error.message);
  const sim = createSimulator(withSix.value, game.value);
  if (!sim.ok) throw new Error(sim.error.message);
  const scores = sim.value.playout(createRandomSource('six'));
  expect(scores).toHaveLength(6);
  expect(sim.value.state.supply).toHaveLength(6);
});
