/**
 * Bad input of every kind: each returns a `Result` error with the precise code and a useful
 * message, changes nothing (the input state reads the same and is still deeply frozen) and never
 * throws. Tables first (one row per kind of bad input), then fuzz properties (fast-check).
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  applyMove,
  createRandomSource,
  createRuleset,
  createSimulator,
  featureAt,
  isLegal,
  legalMoves,
  makeReplay,
  newGame,
  parseState,
  replay,
  serializeState,
  STATE_VERSION,
  tileDefs,
  undo,
  whyIllegal,
  type ErrorCode,
  type GameState,
  type MeepleError,
  type Move,
  type Result,
} from '../src/index.js';
import { canon, classicRules, jsonPaths } from './helpers.js';
import { castle } from '../src/games/castle/entry.js';

const rules = classicRules();
const FEATURE_IDS = new Map<string, string[]>(tileDefs(rules).map((d) => [d.id, d.features.map((f) => f.id)]));

// ---------------------------------------------------------------------------------------------
// Helpers

function isDeepFrozen(v: unknown): boolean {
  if (typeof v !== 'object' || v === null) return true;
  if (!Object.isFrozen(v)) return false;
  for (const x of Object.values(v)) if (!isDeepFrozen(x)) return false;
  return true;
}

/** JSON text of a value, or null when it has none (too deep, BigInt, cycles): for before/after checks. */
function snapshotOf(v: unknown): string | null {
  try {
    return JSON.stringify(v) ?? null;
  } catch {
    return null;
  }
}

/** Asserts an error result with `code` and a message matching `message`; returns the error. */
function expectError<T>(r: Result<T, MeepleError>, code: ErrorCode, message?: RegExp): MeepleError {
  if (r.ok) throw new Error(`expected ${code}, got ok`);
  expect(r.error.code).toBe(code);
  expect(typeof r.error.message).toBe('string');
  expect(r.error.message.length).toBeGreaterThan(10);
  if (message !== undefined) expect(r.error.message).toMatch(message);
  return r.error;
}

/** Runs `f` on `state` and checks the state reads the same afterwards and is still deeply frozen. */
function unchanged<T>(state: GameState, f: () => T): T {
  const before = JSON.stringify(state);
  const out = f();
  expect(JSON.stringify(state)).toBe(before);
  expect(isDeepFrozen(state)).toBe(true);
  return out;
}

function play(state: GameState, move: Move): GameState {
  const r = applyMove(rules, state, move);
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value.state;
}

function fresh(seed = 'bad-input', players = 2): GameState {
  const g = newGame(rules, { players, seed });
  if (!g.ok) throw new Error(g.error.message);
  return g.value;
}

/** Plays seeded random moves (deploying whenever it can) until `stop` holds; null if the game ends first. */
function findState(seed: string, stop: (s: GameState, legal: Move[]) => boolean): GameState | null {
  const random = createRandomSource(seed);
  let s = fresh(seed, 3);
  while (s.step.kind !== 'game-over') {
    const legal = legalMoves(rules, s);
    if (stop(s, legal)) return s;
    s = play(s, s.step.kind === 'deploy' ? legal[0]! : legal[random(legal.length)]!);
  }
  return null;
}

function lastTileFeatures(s: GameState): string[] {
  return FEATURE_IDS.get(s.tiles[s.tiles.length - 1]!.id)!;
}

/**
 * fc.anything() with everything switched on: untrusted input is not always JSON (postMessage
 * and structuredClone carry BigInt, boxed values, sparse arrays and null-prototype objects).
 */
const ANYTHING = {
  withBigInt: true,
  withBoxedValues: true,
  withNullPrototype: true,
  withObjectString: true,
  withSparseArray: true,
  withDate: true,
  withMap: true,
  withSet: true,
  withTypedArray: true,
} as const;

/** Objects shaped like a state or replay envelope, with anything in the fields. */
function envelope(format: string): fc.Arbitrary<unknown> {
  return fc.record(
    {
      format: fc.oneof(fc.constant(format), fc.anything(ANYTHING)),
      version: fc.oneof(fc.constant(1), fc.anything(ANYTHING)),
      state: fc.anything(ANYTHING),
      ruleset: fc.oneof(fc.constant({ game: 'classic', expansions: [] }), fc.anything(ANYTHING)),
      players: fc.oneof(fc.integer({ min: 1, max: 6 }), fc.anything(ANYTHING)),
      seed: fc.oneof(fc.string(), fc.anything(ANYTHING)),
      moves: fc.oneof(fc.array(fc.anything(ANYTHING), { maxLength: 3 }), fc.anything(ANYTHING)),
    },
    { requiredKeys: [] },
  );
}

/** Values whose text cannot be made by String() or JSON.stringify() (both throw on them). */
function cyclic(): unknown {
  const o: Record<string, unknown> = { game: 'classic' };
  o['self'] = o;
  return o;
}
const UNPRINTABLE: [string, () => unknown][] = [
  ['a null-prototype object', () => Object.create(null)],
  ["an object whose toString isn't callable", () => ({ toString: false })],
  ['a BigInt', () => 10n],
  ['a cyclic object', cyclic],
  ['a symbol', () => Symbol('s')],
];

// ---------------------------------------------------------------------------------------------
// Positions

/** Player 0 to place tile U (`bad-input` seed): a straight road. */
const START = fresh();
const DEPLOY = play(START, legalMoves(rules, START)[0]!);
/** A deploy step where a feature of the new tile joins a feature that already has a follower. */
const OCCUPIED = (() => {
  for (let i = 0; i < 50; i++) {
    const s = findState(`occupied-${i}`, (st, legal) => {
      if (st.step.kind !== 'deploy') return false;
      const free = new Set(legal.flatMap((m) => (m.type === 'deploy' ? [m.feature] : [])));
      return lastTileFeatures(st).some((f) => !free.has(f));
    });
    if (s !== null) return s;
  }
  throw new Error('no position with an occupied feature found');
})();
const OCCUPIED_FEATURE = (() => {
  const free = new Set(legalMoves(rules, OCCUPIED).flatMap((m) => (m.type === 'deploy' ? [m.feature] : [])));
  return lastTileFeatures(OCCUPIED).find((f) => !free.has(f))!;
})();
const OCCUPIED_PLAYER = OCCUPIED.step.kind === 'deploy' ? OCCUPIED.step.player : -1;
const MID = (() => {
  let s = START;
  const random = createRandomSource('mid');
  for (let i = 0; i < 40; i++) {
    const legal = legalMoves(rules, s);
    s = play(s, legal[random(legal.length)]!);
  }
  return s;
})();
const OVER = (() => {
  const sim = createSimulator(rules, START);
  if (!sim.ok) throw new Error(sim.error.message);
  sim.value.playout(createRandomSource('over'));
  return sim.value.snapshot();
})();

/** An open cell next to the start tile and a rotation at which tile U does not fit there. */
const MISMATCH = (() => {
  const legal = new Set(legalMoves(rules, START).map(canon));
  for (const [x, y] of [
    [0, -1],
    [1, 0],
    [0, 1],
    [-1, 0],
  ] as const) {
    for (let rotation = 0; rotation < 4; rotation++) {
      const m = { type: 'place', player: 0, x, y, rotation };
      if (!legal.has(canon(m))) return m;
    }
  }
  throw new Error('tile U fits everywhere');
})();

const STATES = { START, DEPLOY, OCCUPIED, MID, OVER } as const;
type StateName = keyof typeof STATES;

test('the positions are what the tables assume', () => {
  expect(START.step).toEqual({ kind: 'place-tile', player: 0, tile: 'U' });
  expect(DEPLOY.step).toEqual({ kind: 'deploy', player: 0 });
  expect(OCCUPIED.step.kind).toBe('deploy');
  expect(OVER.step.kind).toBe('game-over');
  expect(MID.step.kind).not.toBe('game-over');
  for (const s of Object.values(STATES)) expect(isDeepFrozen(s)).toBe(true);
});

// ---------------------------------------------------------------------------------------------
// Options

describe('createRuleset refuses bad options', () => {
  const rows: [string, unknown, ErrorCode, RegExp][] = [
    ['unknown game', { game: 'nope' }, 'options/unknown-game', /unknown game "nope" \(available: classic, castle\)/],
    ['game in the wrong case', { game: 'Classic' }, 'options/unknown-game', /"Classic"/],
    ['no game', {}, 'options/unknown-game', /unknown game/],
    ['game null', { game: null }, 'options/unknown-game', /unknown game null/],
    ['unknown expansion', { game: 'classic', expansions: ['river'] }, 'options/unknown-expansion', /unknown expansion "river"/],
    ['expansion not a string', { game: 'classic', expansions: [42] }, 'options/unknown-expansion', /unknown expansion 42/],
    ['expansions not an array', { game: 'classic', expansions: 'river' }, 'options/malformed', /expansions must be an array/],
    ['null', null, 'options/malformed', /options object/],
    ['undefined', undefined, 'options/malformed', /options object/],
    ['a number', 42, 'options/malformed', /options object/],
    ['a string', 'classic', 'options/malformed', /options object/],
    ['an array', ['classic'], 'options/malformed', /options object/],
    ['an extra key', { game: 'classic', tiles: 72 }, 'options/malformed', /unknown ruleset option 'tiles'/],
    ['classic with game options', { game: 'classic', options: { keep: 'majority' } }, 'options/game-options', /classic Carcassonne has no game options/],
    ['castle options not an object', { game: castle('fast' as never) }, 'options/game-options', /The Castle's options must be an object, got "fast"/],
    ['castle options an array', { game: castle([] as never) }, 'options/game-options', /must be an object/],
    ['castle: an unknown option', { game: castle({ speed: 2 } as never) }, 'options/game-options', /unknown option 'speed' for The Castle/],
    ['castle: a bad keep value', { game: castle({ keep: 'first' } as never) }, 'options/game-options', /option 'keep' must be one of 'completing-tile', 'majority', got "first"/],
    ['castle: a bad laps value', { game: castle({ laps: 2 } as never) }, 'options/game-options', /option 'laps' must be one of/],
    ['castle: a layout that is not one', { game: castle({ layout: 42 } as never) }, 'options/castle-layout', /layout/],
    ['castle: a tile set that is not one', { game: castle({ tiles: { tiles: [] } } as never) }, 'options/castle-tiles', /./],
    ['castle with an expansion', { game: castle(), expansions: [{ id: 'x', order: 1, options: {} }] }, 'options/conflicting-expansions', /The Castle is a game of its own/],
  ];
  test.each(rows)('%s', (_, options, code, message) => {
    const before = JSON.stringify(options);
    expectError(createRuleset(options as never), code, message);
    expect(JSON.stringify(options)).toBe(before);
  });

  test('fuzz: anything else never throws and is refused', () => {
    fc.assert(
      fc.property(fc.anything(ANYTHING), (options) => {
        const r = createRuleset(options as never);
        const valid = canon(options) === canon({ game: 'classic' }) || canon(options) === canon({ game: 'classic', expansions: [] });
        expect(r.ok).toBe(valid);
      }),
      { numRuns: 300 },
    );
  });
});

describe('newGame refuses bad options', () => {
  const rows: [string, unknown, ErrorCode, RegExp][] = [
    ['1 player', { players: 1, seed: 'a' }, 'options/players', /from 2 to 5 for classic, got 1/],
    ['6 players', { players: 6, seed: 'a' }, 'options/players', /got 6/],
    ['0 players', { players: 0, seed: 'a' }, 'options/players', /got 0/],
    ['-2 players', { players: -2, seed: 'a' }, 'options/players', /got -2/],
    ['2.5 players', { players: 2.5, seed: 'a' }, 'options/players', /got 2\.5/],
    ["'2' players", { players: '2', seed: 'a' }, 'options/players', /integer/],
    ['NaN players', { players: NaN, seed: 'a' }, 'options/players', /got NaN/],
    ['Infinity players', { players: Infinity, seed: 'a' }, 'options/players', /got Infinity/],
    ['players missing', { seed: 'a' }, 'options/players', /got undefined/],
    ['players null', { players: null, seed: 'a' }, 'options/players', /got null/],
    ['seed an object', { players: 2, seed: {} }, 'options/seed', /seed must be a string/],
    ['seed null', { players: 2, seed: null }, 'options/seed', /seed must be a string/],
    ['seed a boolean', { players: 2, seed: true }, 'options/seed', /seed must be a string/],
    ['seed an array', { players: 2, seed: ['a'] }, 'options/seed', /seed must be a string/],
    ['seed a fraction', { players: 2, seed: 1.5 }, 'options/seed', /safe integer, got 1\.5/],
    ['seed an unsafe integer', { players: 2, seed: 2 ** 53 }, 'options/seed', /safe integer/],
    ['seed NaN', { players: 2, seed: NaN }, 'options/seed', /safe integer, got NaN/],
    ['seed of 257 characters', { players: 2, seed: 'x'.repeat(257) }, 'options/seed', /at most 256 characters/],
    ['an extra key', { players: 2, seed: 'a', expansions: [] }, 'options/malformed', /unknown game option 'expansions'/],
    ['an extra key beside bad players', { players: 1, seed: 'a', colour: 'red' }, 'options/malformed', /unknown game option 'colour'/],
    ['null', null, 'options/malformed', /options object/],
    ['a string', '2', 'options/malformed', /options object/],
  ];
  test.each(rows)('%s', (_, options, code, message) => {
    const before = JSON.stringify(options);
    expectError(newGame(rules, options as never), code, message);
    expect(JSON.stringify(options)).toBe(before);
  });

  test.each([
    ['a seed of 256 characters', { players: 2, seed: 'x'.repeat(256) }],
    ['a safe integer seed', { players: 5, seed: 2 ** 53 - 1 }],
    ['an empty seed', { players: 3, seed: '' }],
  ])('accepts %s', (_, options) => {
    expect(newGame(rules, options).ok).toBe(true);
  });

  test('a numeric seed is its decimal text', () => {
    const a = newGame(rules, { players: 2, seed: 42 });
    const b = newGame(rules, { players: 2, seed: '42' });
    expect(a.ok && b.ok && serializeState(a.value) === serializeState(b.value)).toBe(true);
  });

  test('fuzz: anything never throws; only valid options are accepted', () => {
    fc.assert(
      fc.property(fc.oneof(fc.anything(ANYTHING), fc.record({ players: fc.anything(ANYTHING), seed: fc.anything(ANYTHING) })), (options) => {
        const r = newGame(rules, options as never);
        const o = options as Record<string, unknown> | null;
        const valid =
          typeof o === 'object' &&
          o !== null &&
          !Array.isArray(o) &&
          Object.keys(o).every((k) => k === 'players' || k === 'seed') &&
          Number.isInteger(o['players']) &&
          (o['players'] as number) >= 2 &&
          (o['players'] as number) <= 5 &&
          ((typeof o['seed'] === 'string' && o['seed'].length <= 256) || Number.isSafeInteger(o['seed']));
        expect(r.ok).toBe(valid);
      }),
      { numRuns: 300 },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Moves

/** [label, position, move, code, message] */
type MoveRow = [string, StateName, unknown, ErrorCode, RegExp];

const U_CELL = { x: 1, y: 0 }; // U fits east of the start tile (legalMoves(START) lists 1,0 r0)

const MOVE_ROWS: MoveRow[] = [
  // Not a move at all.
  ['null', 'START', null, 'move/malformed', /must be an object, got null/],
  ['undefined', 'START', undefined, 'move/malformed', /must be an object, got undefined/],
  ['a number', 'START', 5, 'move/malformed', /must be an object, got 5/],
  ['a string', 'START', 'place', 'move/malformed', /must be an object, got "place"/],
  ['an array', 'START', [{ type: 'pass', player: 0 }], 'move/malformed', /must be an object, got an array/],
  ['an empty object', 'START', {}, 'move/malformed', /needs a string "type"/],
  ['type a number', 'START', { type: 5, player: 0 }, 'move/malformed', /needs a string "type"/],
  ['unknown type', 'START', { type: 'jump', player: 0 }, 'move/unknown-type', /unknown move type 'jump' \(expected place, deploy or pass\)/],
  ['type __proto__', 'START', { type: '__proto__', player: 0 }, 'move/unknown-type', /'__proto__'/],
  ['type toString', 'START', { type: 'toString', player: 0 }, 'move/unknown-type', /'toString'/],
  ['type in the wrong case', 'START', { type: 'PLACE', player: 0, ...U_CELL, rotation: 0 }, 'move/unknown-type', /'PLACE'/],
  // Missing, extra and mistyped fields.
  ['place without player', 'START', { type: 'place', ...U_CELL, rotation: 0 }, 'move/malformed', /needs an integer "player"/],
  ['place without x', 'START', { type: 'place', player: 0, y: 0, rotation: 0 }, 'move/malformed', /needs integer "x" and "y"/],
  ['place without y', 'START', { type: 'place', player: 0, x: 1, rotation: 0 }, 'move/malformed', /needs integer "x" and "y"/],
  // A missing rotation is reported as a bad rotation ("got undefined"), not as a malformed move.
  ['place without rotation', 'START', { type: 'place', player: 0, ...U_CELL }, 'place/bad-rotation', /got undefined/],
  ['place with an extra field', 'START', { type: 'place', player: 0, ...U_CELL, rotation: 0, tile: 'U' }, 'move/malformed', /has no field 'tile' \(fields: type, player, x, y, rotation\)/],
  ['place with a feature', 'START', { type: 'place', player: 0, ...U_CELL, rotation: 0, feature: 'r1' }, 'move/malformed', /no field 'feature'/],
  ['deploy without feature', 'DEPLOY', { type: 'deploy', player: 0 }, 'move/malformed', /needs a string "feature"/],
  ['deploy with a numeric feature', 'DEPLOY', { type: 'deploy', player: 0, feature: 1 }, 'move/malformed', /needs a string "feature"/],
  ['deploy with coordinates', 'DEPLOY', { type: 'deploy', player: 0, feature: 'r1', x: 1, y: 0 }, 'move/malformed', /no field 'x'/],
  ['pass with a feature', 'DEPLOY', { type: 'pass', player: 0, feature: 'r1' }, 'move/malformed', /a pass move has no field 'feature'/],
  ['player a string', 'START', { type: 'place', player: '0', ...U_CELL, rotation: 0 }, 'move/malformed', /integer "player"/],
  ['player a fraction', 'START', { type: 'place', player: 0.5, ...U_CELL, rotation: 0 }, 'move/malformed', /integer "player"/],
  ['player null', 'DEPLOY', { type: 'pass', player: null }, 'move/malformed', /integer "player"/],
  ['x a string', 'START', { type: 'place', player: 0, x: '1', y: 0, rotation: 0 }, 'move/malformed', /integer "x" and "y"/],
  ['x a fraction', 'START', { type: 'place', player: 0, x: 0.5, y: 0, rotation: 0 }, 'move/malformed', /integer "x" and "y"/],
  ['x Infinity', 'START', { type: 'place', player: 0, x: Infinity, y: 0, rotation: 0 }, 'move/malformed', /integer "x" and "y"/],
  ['y NaN', 'START', { type: 'place', player: 0, x: 1, y: NaN, rotation: 0 }, 'move/malformed', /integer "x" and "y"/],
  // Whose turn.
  ['the other player', 'START', { type: 'place', player: 1, ...U_CELL, rotation: 0 }, 'move/not-your-turn', /player 1 cannot move: player 0 must decide \(place-tile\)/],
  ['a player who is not in the game', 'START', { type: 'place', player: 4, ...U_CELL, rotation: 0 }, 'move/not-your-turn', /player 4 cannot move/],
  ['player -1', 'DEPLOY', { type: 'pass', player: -1 }, 'move/not-your-turn', /player -1 cannot move: player 0 must decide \(deploy\)/],
  // Which step.
  ['place at the deploy step', 'DEPLOY', { type: 'place', player: 0, x: 2, y: 0, rotation: 0 }, 'move/wrong-step', /cannot place a tile now: the step is deploy/],
  ['deploy at the place step', 'START', { type: 'deploy', player: 0, feature: 'r1' }, 'move/wrong-step', /cannot deploy now: the step is place-tile/],
  ['pass at the place step', 'START', { type: 'pass', player: 0 }, 'move/wrong-step', /cannot pass now: the step is place-tile/],
  // Where.
  ['the occupied start cell', 'START', { type: 'place', player: 0, x: 0, y: 0, rotation: 0 }, 'place/occupied', /cell 0,0 already holds a tile/],
  ['a cell next to nothing', 'START', { type: 'place', player: 0, x: 5, y: 5, rotation: 0 }, 'place/not-adjacent', /cell 5,5 shares no edge with a placed tile/],
  ['a diagonal cell', 'START', { type: 'place', player: 0, x: 1, y: 1, rotation: 0 }, 'place/not-adjacent', /cell 1,1 shares no edge/],
  ['edges that do not match', 'START', MISMATCH, 'place/edge-mismatch', /tile U turned \d does not match its neighbours at -?\d,-?\d/],
  ['rotation 4', 'START', { type: 'place', player: 0, ...U_CELL, rotation: 4 }, 'place/bad-rotation', /rotation must be 0, 1, 2 or 3 quarter turns, got 4/],
  ['rotation -1', 'START', { type: 'place', player: 0, ...U_CELL, rotation: -1 }, 'place/bad-rotation', /got -1/],
  ['rotation 1.5', 'START', { type: 'place', player: 0, ...U_CELL, rotation: 1.5 }, 'place/bad-rotation', /got 1\.5/],
  ["rotation '1'", 'START', { type: 'place', player: 0, ...U_CELL, rotation: '1' }, 'place/bad-rotation', /got "1"/],
  ['rotation 90 (degrees)', 'START', { type: 'place', player: 0, ...U_CELL, rotation: 90 }, 'place/bad-rotation', /got 90/],
  ['rotation null', 'START', { type: 'place', player: 0, ...U_CELL, rotation: null }, 'place/bad-rotation', /got null/],
  ['x 1e9', 'START', { type: 'place', player: 0, x: 1e9, y: 0, rotation: 0 }, 'place/not-adjacent', /cell 1000000000,0 is nowhere near/],
  ['y -2^53', 'START', { type: 'place', player: 0, x: 0, y: -(2 ** 53), rotation: 0 }, 'place/not-adjacent', /nowhere near/],
  ['x 511 (edge of the packed board)', 'START', { type: 'place', player: 0, x: 511, y: 0, rotation: 0 }, 'place/not-adjacent', /nowhere near/],
  ['x 1024 (would alias a cell one row down)', 'START', { type: 'place', player: 0, x: 1024, y: -1, rotation: 0 }, 'place/not-adjacent', /nowhere near/],
  ['x -1024 (would alias a cell one row up)', 'START', { type: 'place', player: 0, x: -1024, y: 1, rotation: 0 }, 'place/not-adjacent', /nowhere near/],
  // On what.
  ['deploy on an unknown feature', 'DEPLOY', { type: 'deploy', player: 0, feature: 'c9' }, 'deploy/unknown-feature', /has no feature 'c9' to deploy on \(has: /],
  ['deploy on an empty id', 'DEPLOY', { type: 'deploy', player: 0, feature: '' }, 'deploy/unknown-feature', /no feature ''/],
  ['deploy on __proto__', 'DEPLOY', { type: 'deploy', player: 0, feature: '__proto__' }, 'deploy/unknown-feature', /'__proto__'/],
  ['deploy on toString', 'DEPLOY', { type: 'deploy', player: 0, feature: 'toString' }, 'deploy/unknown-feature', /'toString'/],
  ['deploy on a feature id in the wrong case', 'DEPLOY', { type: 'deploy', player: 0, feature: 'R1' }, 'deploy/unknown-feature', /'R1'/],
  ['deploy on an occupied feature', 'OCCUPIED', { type: 'deploy', player: OCCUPIED_PLAYER, feature: OCCUPIED_FEATURE }, 'deploy/feature-occupied', /already has a follower/],
  // After the end.
  ['pass after game over', 'OVER', { type: 'pass', player: 0 }, 'move/game-over', /the game is over/],
  ['place after game over', 'OVER', { type: 'place', player: 1, x: 0, y: -1, rotation: 0 }, 'move/game-over', /the game is over/],
  ['deploy after game over', 'OVER', { type: 'deploy', player: 0, feature: 'c1' }, 'move/game-over', /the game is over/],
];

describe('bad moves are refused with a precise code, change nothing and never throw', () => {
  test.each(MOVE_ROWS)('%s', (_, name, move, code, message) => {
    const state = STATES[name];
    const moveBefore = JSON.stringify(move);
    unchanged(state, () => {
      expectError(applyMove(rules, state, move), code, message);
      expect(isLegal(rules, state, move)).toBe(false);
      expect(whyIllegal(rules, state, move)?.code).toBe(code);
      // The Simulator validates the same way and keeps its state on error.
      const sim = createSimulator(rules, state);
      if (!sim.ok) throw new Error(sim.error.message);
      const text = serializeState(sim.value.state);
      expectError(sim.value.play(move), code, message);
      expect(sim.value.isLegal(move)).toBe(false);
      expect(serializeState(sim.value.state)).toBe(text);
    });
    expect(JSON.stringify(move)).toBe(moveBefore);
  });

  test('a state of another ruleset is refused by every entry point', () => {
    const other = { ...MID, ruleset: 'castle' } as GameState;
    const move = legalMoves(rules, MID)[0]!;
    expectError(applyMove(rules, other, move), 'state/ruleset-mismatch', /state belongs to ruleset 'castle', not 'classic'/);
    expect(isLegal(rules, other, move)).toBe(false);
    expect(whyIllegal(rules, other, move)?.code).toBe('state/ruleset-mismatch');
    expectError(createSimulator(rules, other), 'state/ruleset-mismatch', /'castle'/);
    expectError(undo(rules, other, 1), 'state/ruleset-mismatch', /'castle'/);
  });

  test('the legal moves themselves are accepted at every position (the rows test the refusals only)', () => {
    for (const state of [START, DEPLOY, OCCUPIED, MID]) {
      for (const m of legalMoves(rules, state)) expect(whyIllegal(rules, state, m)).toBeNull();
    }
  });
});

describe('fuzz: moves', () => {
  const positions = [START, DEPLOY, OCCUPIED, MID, OVER];
  const texts = positions.map((s) => JSON.stringify(s));
  const legalKeys = positions.map((s) => new Set(legalMoves(rules, s).map(canon)));

  /** Checks a candidate at every position: no throw; accepted exactly when it is a legal move. */
  function checkCandidate(move: unknown): void {
    positions.forEach((state, i) => {
      const expected = legalKeys[i]!.has(canon(move));
      const r = applyMove(rules, state, move);
      if (r.ok !== expected) throw new Error(`applyMove(${canon(move)}) ok=${r.ok} at position ${i}`);
      if (!r.ok && !(typeof r.error.message === 'string' && r.error.message.length > 0)) throw new Error('no message');
      if (isLegal(rules, state, move) !== expected) throw new Error(`isLegal(${canon(move)}) at position ${i}`);
    });
  }

  test('fc.anything() as a move', () => {
    fc.assert(fc.property(fc.anything(ANYTHING), checkCandidate), { numRuns: 500 });
    positions.forEach((s, i) => {
      expect(JSON.stringify(s)).toBe(texts[i]);
      expect(isDeepFrozen(s)).toBe(true);
    });
  });

  test('plausible moves: right field names, values near the legal ones', () => {
    const small = fc.oneof(fc.integer({ min: -3, max: 3 }), fc.constantFrom<unknown>(0.5, '1', null, -0, 2 ** 40, NaN));
    const move = fc.record(
      {
        type: fc.constantFrom<unknown>('place', 'deploy', 'pass', 'Place', 1),
        player: small,
        x: small,
        y: small,
        rotation: small,
        feature: fc.constantFrom<unknown>('c1', 'r1', 'r2', 'f1', 'f2', 'f3', 'm1', 'c2', '', 1, 'constructor'),
        extra: fc.anything(),
      },
      { requiredKeys: [] },
    );
    fc.assert(fc.property(move, checkCandidate), { numRuns: 2000 });
  });
});

// ---------------------------------------------------------------------------------------------
// Serialized states

/** The serialized MID state as a fresh mutable object. */
function midJson(): { format: unknown; version: unknown; state: Record<string, unknown> & { moves: Record<string, unknown>[] } } {
  return JSON.parse(serializeState(MID));
}

function nested(depth: number): unknown {
  let v: unknown = 0;
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}

describe('parseState refuses bad input', () => {
  const text = serializeState(MID);
  const nextMove = legalMoves(rules, MID)[0]!;
  type Row = [string, () => unknown, ErrorCode, RegExp | string];
  const tamper = (f: (j: ReturnType<typeof midJson>) => void) => () => {
    const j = midJson();
    f(j);
    return j;
  };
  const rows: Row[] = [
    ['text that is not JSON', () => 'not json{', 'state/json', /not JSON/],
    ['an empty string', () => '', 'state/json', /not JSON/],
    ['a truncated string (half)', () => text.slice(0, text.length >> 1), 'state/json', /not JSON/],
    ['a truncated string (last brace missing)', () => text.slice(0, -1), 'state/json', /not JSON/],
    ['JSON null', () => 'null', 'state/malformed', '$'],
    ['a JSON number', () => '42', 'state/malformed', '$'],
    ['a JSON array', () => JSON.stringify([JSON.parse(text)]), 'state/malformed', '$'],
    ['undefined', () => undefined, 'state/malformed', '$'],
    ['deeply nested arrays (text)', () => `${'['.repeat(100_000)}${']'.repeat(100_000)}`, 'state/malformed', '$'],
    ['deeply nested arrays (object)', () => nested(100_000), 'state/malformed', '$'],
    ['another format', tamper((j) => (j.format = 'meeplekit/replay')), 'state/malformed', '$.format'],
    ['no format', tamper((j) => delete (j as { format?: unknown }).format), 'state/malformed', '$.format'],
    ['version 1 (the format before frontier cells were kept in the cell table)', tamper((j) => (j.version = 1)), 'state/version', '$.version'],
    ['a later version', tamper((j) => (j.version = STATE_VERSION + 1)), 'state/version', '$.version'],
    ["version '1'", tamper((j) => (j.version = '1')), 'state/version', '$.version'],
    ['no version', tamper((j) => delete (j as { version?: unknown }).version), 'state/version', '$.version'],
    ['state null', tamper((j) => ((j as { state: unknown }).state = null)), 'state/malformed', '$.state'],
    ['state an array', tamper((j) => ((j as { state: unknown }).state = [j.state])), 'state/malformed', '$.state'],
    ['another ruleset', tamper((j) => (j.state['ruleset'] = 'castle')), 'state/ruleset-mismatch', '$.state.ruleset'],
    ['9 players', tamper((j) => (j.state['players'] = 9)), 'state/malformed', '$.state'],
    ['a numeric seed', tamper((j) => (j.state['seed'] = 42)), 'state/malformed', '$.state'],
    ['a seed of 300 characters', tamper((j) => (j.state['seed'] = 'x'.repeat(300))), 'state/malformed', '$.state'],
    ['moves not an array', tamper((j) => ((j.state as Record<string, unknown>)['moves'] = {})), 'state/malformed', '$.state.moves'],
    ['too many moves', tamper((j) => ((j.state as Record<string, unknown>)['moves'] = new Array(100_001).fill(0))), 'state/malformed', '$.state.moves'],
    ['a tampered score', tamper((j) => ((j.state['scores'] as number[])[0]! += 1)), 'state/tampered', '$.state.scores[0]'],
    ['a tampered score (negative)', tamper((j) => ((j.state['scores'] as number[])[1] = -5)), 'state/tampered', '$.state.scores[1]'],
    [
      'a tampered bag (a tile swapped for another kind)',
      tamper((j) => {
        const bag = j.state['bag'] as number[];
        const from = bag.findIndex((n) => n > 0);
        bag[from]!--;
        bag[from === 0 ? 1 : 0]!++;
      }),
      'state/tampered',
      /^\$\.state\.bag\[\d+\]$/,
    ],
    ['a tampered rng', tamper((j) => ((j.state['rng'] as number[])[0] = ((j.state['rng'] as number[])[0]! ^ 1) >>> 0)), 'state/tampered', '$.state.rng[0]'],
    [
      'a tampered tile (turned)',
      tamper((j) => {
        const t = (j.state['tiles'] as { rotation: number }[])[3]!;
        t.rotation = (t.rotation + 1) % 4;
      }),
      'state/tampered',
      '$.state.tiles[3].rotation',
    ],
    [
      'tampered tiles (two swapped)',
      tamper((j) => {
        const tiles = j.state['tiles'] as unknown[];
        [tiles[2], tiles[3]] = [tiles[3], tiles[2]];
      }),
      'state/tampered',
      /^\$\.state\.tiles\[2\]/,
    ],
    ['a tampered supply', tamper((j) => ((j.state['supply'] as number[])[0]! += 1)), 'state/tampered', '$.state.supply[0]'],
    ['a tampered step', tamper((j) => ((j.state['step'] as { player: number }).player ^= 1)), 'state/tampered', '$.state.step.player'],
    ['a tampered turn counter', tamper((j) => ((j.state['turn'] as number) += 1)), 'state/tampered', '$.state.turn'],
    ['another seed', tamper((j) => (j.state['seed'] = 'mid!')), 'state/tampered', /^\$\.state\./],
    ['an extra key', tamper((j) => (j.state['cheat'] = true)), 'state/tampered', '$.state.cheat'],
    ['a missing key', tamper((j) => delete j.state['discarded']), 'state/tampered', '$.state.discarded'],
    ['an extra key in a tile', tamper((j) => ((j.state['tiles'] as Record<string, unknown>[])[1]!['owner'] = 0)), 'state/tampered', '$.state.tiles[1].owner'],
    ['a deeply nested extra value', tamper((j) => (j.state['cheat'] = nested(100_000))), 'state/tampered', '$.state.cheat'],
    ['a deeply nested score', tamper((j) => ((j.state['scores'] as unknown[])[0] = nested(100_000))), 'state/tampered', '$.state.scores[0]'],
    ['a move that does not replay', tamper((j) => (j.state.moves[0]!['x'] = 40)), 'state/tampered', '$.state.moves[0]'],
    ['a move of the wrong player', tamper((j) => (j.state.moves[5]!['player'] = 1 - (j.state.moves[5]!['player'] as number))), 'state/tampered', '$.state.moves[5]'],
    ['a deeply nested move', tamper((j) => ((j.state.moves as unknown[])[2] = nested(100_000))), 'state/tampered', '$.state.moves[2]'],
    ['the last move missing', tamper((j) => j.state.moves.pop()), 'state/tampered', /^\$\.state\./],
    ['an extra move', tamper((j) => j.state.moves.push({ ...nextMove })), 'state/tampered', /^\$\.state\./],
  ];

  test.each(rows)('%s', (_, make, code, where) => {
    const input = make();
    const before = snapshotOf(input);
    const error = expectError(parseState(rules, input), code);
    if (typeof where === 'string') expect(error.path).toBe(where);
    else if (code === 'state/json') expect(error.message).toMatch(where);
    else expect(error.path).toMatch(where);
    expect(snapshotOf(input)).toBe(before);
  });

  test('a move that does not replay names the move and why', () => {
    const error = expectError(parseState(rules, tamper((j) => (j.state.moves[0]!['x'] = 40))()), 'state/tampered', /move 0 cannot be played/);
    expect(error.cause?.code).toBe('replay/illegal-move');
    expect(error.cause?.index).toBe(0);
    expect(error.cause?.cause?.code).toBe('place/not-adjacent');
  });

  test('reordered keys are not tampering: JSON objects are unordered, and the result is canonical', () => {
    const j = midJson();
    const reordered = { state: Object.fromEntries(Object.entries(j.state).reverse()), version: j.version, format: j.format };
    const r = parseState(rules, JSON.stringify(reordered));
    expect(r.ok && serializeState(r.value)).toBe(text);
  });

  test('the state object itself (frozen) parses, and is not changed', () => {
    const r = unchanged(MID, () => parseState(rules, { format: 'meeplekit/state', version: STATE_VERSION, state: MID }));
    expect(r.ok && serializeState(r.value)).toBe(text);
  });

  test('fuzz: anything, as a value or as text, never throws and is never accepted', () => {
    fc.assert(
      fc.property(fc.oneof(fc.anything(ANYTHING), fc.string(), fc.json(), envelope('meeplekit/state')), (input) => {
        expect(parseState(rules, input).ok).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  test('fuzz: one value changed anywhere in a serialized state is refused, unless it did not change', () => {
    const original = midJson();
    const paths = jsonPaths(original);
    fc.assert(
      fc.property(fc.nat({ max: paths.length - 1 }), fc.oneof(fc.jsonValue(), fc.integer({ min: -2, max: 80 }), fc.constant(undefined)), (at, value) => {
        const j = midJson() as unknown as Record<string | number, unknown>;
        const path = paths[at]!;
        let input: unknown = value;
        if (path.length > 0) {
          let parent = j as Record<string | number, unknown>;
          for (const k of path.slice(0, -1)) parent = parent[k] as Record<string | number, unknown>;
          if (value === undefined && !Array.isArray(parent)) delete parent[path[path.length - 1]!];
          else parent[path[path.length - 1]!] = value;
          input = j;
        }
        const asObject = parseState(rules, input);
        if (asObject.ok !== (canon(input) === canon(original))) {
          throw new Error(`parseState(object) ok=${asObject.ok} after setting ${path.join('.')} to ${JSON.stringify(value)}`);
        }
        const text = JSON.stringify(input) as string | undefined;
        if (text === undefined) return;
        const asText = parseState(rules, text);
        if (asText.ok !== (canon(JSON.parse(text)) === canon(original))) {
          throw new Error(`parseState(text) ok=${asText.ok} after setting ${path.join('.')} to ${JSON.stringify(value)}`);
        }
      }),
      { numRuns: 400 },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Replays

describe('replay refuses bad input', () => {
  const good = makeReplay(rules, MID);
  const goodText = JSON.stringify(good);
  const edit = (f: (r: Record<string, unknown>) => void) => () => {
    const r = JSON.parse(goodText) as Record<string, unknown>;
    f(r);
    return r;
  };
  const rows: [string, () => unknown, ErrorCode, RegExp][] = [
    ['text that is not JSON', () => 'replay?', 'replay/json', /not JSON/],
    ['a truncated string', () => goodText.slice(0, 100), 'replay/json', /not JSON/],
    ['an empty string', () => '', 'replay/json', /not JSON/],
    ['null', () => null, 'replay/malformed', /format 'meeplekit\/replay'/],
    ['a number', () => 7, 'replay/malformed', /format/],
    ['an array', () => [good], 'replay/malformed', /format/],
    ['deeply nested arrays (text)', () => `${'['.repeat(100_000)}${']'.repeat(100_000)}`, 'replay/malformed', /format/],
    ['a serialized state instead', () => serializeState(MID), 'replay/malformed', /format/],
    ['another format', edit((r) => (r['format'] = 'meeplekit/state')), 'replay/malformed', /format/],
    ['version 2', edit((r) => (r['version'] = 2)), 'replay/version', /unsupported replay version 2/],
    ['no version', edit((r) => delete r['version']), 'replay/version', /unsupported replay version/],
    ['another game', edit((r) => (r['ruleset'] = { game: castle() })), 'state/ruleset-mismatch', /"castle"/],
    ['an expansion this ruleset lacks', edit((r) => (r['ruleset'] = { game: 'classic', expansions: ['river'] })), 'state/ruleset-mismatch', /river/],
    ['ruleset null', edit((r) => (r['ruleset'] = null)), 'state/ruleset-mismatch', /null/],
    ['1 player', edit((r) => (r['players'] = 1)), 'replay/malformed', /players must be an integer from 2 to 5/],
    ["'2' players", edit((r) => (r['players'] = '2')), 'replay/malformed', /players must be an integer/],
    ['a numeric seed', edit((r) => (r['seed'] = 42)), 'replay/malformed', /seed must be a string/],
    ['a seed of 300 characters', edit((r) => (r['seed'] = 'x'.repeat(300))), 'replay/malformed', /seed must be a string/],
    ['moves missing', edit((r) => delete r['moves']), 'replay/malformed', /moves must be an array/],
    ['moves a string', edit((r) => (r['moves'] = 'place')), 'replay/malformed', /moves must be an array/],
    ['a move that is not legal', edit((r) => ((r['moves'] as Record<string, unknown>[])[3]!['type'] = 'jump')), 'replay/illegal-move', /move 3 cannot be played: unknown move type 'jump'/],
    ['a move of the wrong player', edit((r) => ((r['moves'] as Record<string, unknown>[])[0]!['player'] = 1)), 'replay/illegal-move', /move 0 cannot be played: player 1 cannot move/],
    ['a deeply nested move', edit((r) => ((r['moves'] as unknown[])[1] = nested(100_000))), 'replay/illegal-move', /move 1 cannot be played: a move must be an object/],
    ['a move after game over', () => ({ ...makeReplay(rules, OVER), moves: [...OVER.moves, { type: 'pass', player: 0 }] }), 'replay/illegal-move', /the game is over/],
  ];
  test.each(rows)('%s', (_, make, code, message) => {
    const input = make();
    const before = snapshotOf(input);
    expectError(replay(rules, input), code, message);
    expect(snapshotOf(input)).toBe(before);
  });

  test('the index and cause of an illegal move', () => {
    const error = expectError(replay(rules, edit((r) => ((r['moves'] as Record<string, unknown>[])[3]!['type'] = 'jump'))()), 'replay/illegal-move');
    expect(error.index).toBe(3);
    expect(error.cause?.code).toBe('move/unknown-type');
  });

  test('a replay whose ruleset omits the default expansions list is the same ruleset', () => {
    const r = replay(rules, { ...good, ruleset: { game: 'classic' } });
    expect(r.ok && serializeState(r.value.state)).toBe(serializeState(MID));
  });

  test('fuzz: anything never throws, and is accepted only when it is a valid replay', () => {
    fc.assert(
      fc.property(fc.oneof(fc.anything(ANYTHING), fc.string(), fc.json()), (input) => {
        expect(replay(rules, input).ok).toBe(false);
      }),
      { numRuns: 500 },
    );
    // Replay-shaped objects can be valid (any seed, no moves): accepted only as what they say.
    fc.assert(
      fc.property(envelope('meeplekit/replay'), (input) => {
        const r = replay(rules, input);
        if (!r.ok) return;
        const o = input as Record<string, unknown>;
        expect([r.value.state.players, r.value.state.seed, canon(r.value.state.moves)]).toEqual([o['players'], o['seed'], canon(o['moves'])]);
      }),
      { numRuns: 500 },
    );
  });

  test('fuzz: a changed replay never throws, and is accepted only as the game it describes', () => {
    const fields = fc.record(
      {
        ruleset: fc.oneof(fc.constant(good.ruleset), fc.anything(ANYTHING)),
        players: fc.oneof(fc.constant(good.players), fc.integer({ min: 0, max: 6 }), fc.anything(ANYTHING)),
        seed: fc.oneof(fc.constant(good.seed), fc.string()),
        moves: fc.oneof(
          fc.constant(good.moves),
          fc.tuple(fc.nat({ max: good.moves.length }), fc.anything(ANYTHING)).map(([i, m]) => [...good.moves.slice(0, i), m]),
          fc.nat({ max: good.moves.length }).map((i) => good.moves.slice(0, i)),
        ),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fields, (changes) => {
        const input = { ...good, ...changes };
        const r = replay(rules, input);
        if (!r.ok) return;
        expect(r.value.state.players).toBe(input.players);
        expect(r.value.state.seed).toBe(input.seed);
        expect(canon(r.value.state.moves)).toBe(canon(input.moves));
      }),
      { numRuns: 200 },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Undo and queries

describe('undo refuses impossible counts', () => {
  const rows: [string, StateName, unknown, RegExp][] = [
    ['count 0', 'MID', 0, /cannot undo 0 move\(s\): 40 have been played/],
    ['count -1', 'MID', -1, /cannot undo -1 move/],
    ['count 1.5', 'MID', 1.5, /cannot undo 1\.5 move/],
    ['count NaN', 'MID', NaN, /cannot undo NaN move/],
    ['count Infinity', 'MID', Infinity, /cannot undo Infinity move/],
    ["count '1'", 'MID', '1', /cannot undo "1" move/],
    ['count null', 'MID', null, /cannot undo null move/],
    ['one more than was played', 'MID', 41, /cannot undo 41 move\(s\): 40 have been played/],
    ['anything at the start', 'START', 1, /cannot undo 1 move\(s\): 0 have been played/],
  ];
  test.each(rows)('%s', (_, name, count, message) => {
    const state = STATES[name];
    unchanged(state, () => expectError(undo(rules, state, count as number), 'undo/nothing-to-undo', message));
  });

  test('undo of every move played goes back to the start', () => {
    const r = unchanged(MID, () => undo(rules, MID, 40));
    expect(r.ok && serializeState(r.value)).toBe(serializeState(START));
  });
});

describe('featureAt refuses empty cells and unknown features', () => {
  const rows: [string, unknown, ErrorCode, RegExp][] = [
    ['an empty cell', { x: 5, y: 5, feature: 'c1' }, 'query/no-tile', /no tile at 5,5/],
    ['a cell far away', { x: 1e9, y: 0, port: 'N2' }, 'query/no-tile', /no tile at 1000000000,0/],
    ['a cell that would alias another', { x: 1024, y: -1, port: 'N2' }, 'query/no-tile', /no tile/],
    ['x a fraction', { x: 0.5, y: 0, feature: 'c1' }, 'query/no-tile', /integer x and y/],
    ['x a string', { x: '0', y: 0, feature: 'c1' }, 'query/no-tile', /integer x and y/],
    ['null', null, 'query/no-tile', /integer x and y/],
    ['a number', 3, 'query/no-tile', /integer x and y/],
    ['an unknown feature', { x: 0, y: 0, feature: 'm1' }, 'query/no-feature', /tile D at 0,0 has no such feature or port/],
    ['feature __proto__', { x: 0, y: 0, feature: '__proto__' }, 'query/no-feature', /no such feature/],
    ['feature toString', { x: 0, y: 0, feature: 'toString' }, 'query/no-feature', /no such feature/],
    ['an unknown port', { x: 0, y: 0, port: 'N4' }, 'query/no-feature', /no such feature or port/],
    ['a port in the wrong case', { x: 0, y: 0, port: 'n2' }, 'query/no-feature', /no such feature or port/],
    ['neither feature nor port', { x: 0, y: 0 }, 'query/no-feature', /no such feature or port/],
  ];
  test.each(rows)('%s', (_, query, code, message) => {
    unchanged(MID, () => expectError(featureAt(rules, MID, query as never), code, message));
  });

  test('the start tile answers by port and by feature id', () => {
    const byPort = featureAt(rules, START, { x: 0, y: 0, port: 'N2' });
    expect(byPort.ok && byPort.value.kind).toBe('city');
    expect(byPort.ok && byPort.value.open).toBe(3);
    const byId = featureAt(rules, START, { x: 0, y: 0, feature: 'r1' });
    expect(byId.ok && [byId.value.kind, byId.value.tiles]).toEqual(['road', [{ x: 0, y: 0 }]]);
  });
});

describe('values that String() or JSON.stringify() cannot print are refused, never thrown', () => {
  const text = serializeState(MID);
  test.each(UNPRINTABLE)('%s', (_, make) => {
    const v = make();
    const cases: [string, () => Result<unknown, MeepleError>, ErrorCode][] = [
      ['createRuleset game', () => createRuleset({ game: v } as never), 'options/unknown-game'],
      ['createRuleset expansion', () => createRuleset({ game: 'classic', expansions: [v] } as never), 'options/unknown-expansion'],
      ['newGame players', () => newGame(rules, { players: v, seed: 'a' } as never), 'options/players'],
      ['newGame seed', () => newGame(rules, { players: 2, seed: v } as never), 'options/seed'],
      ['applyMove rotation', () => applyMove(rules, START, { type: 'place', player: 0, x: 1, y: 0, rotation: v }), 'place/bad-rotation'],
      ['applyMove player', () => applyMove(rules, START, { type: 'place', player: v, x: 1, y: 0, rotation: 0 }), 'move/malformed'],
      ['applyMove move', () => applyMove(rules, START, v), 'move/malformed'],
      ['parseState format', () => parseState(rules, { ...JSON.parse(text), format: v }), 'state/malformed'],
      ['parseState version', () => parseState(rules, { ...JSON.parse(text), version: v }), 'state/version'],
      ['parseState ruleset', () => parseState(rules, { ...JSON.parse(text), state: { ...JSON.parse(text).state, ruleset: v } }), 'state/ruleset-mismatch'],
      ['parseState players', () => parseState(rules, { ...JSON.parse(text), state: { ...JSON.parse(text).state, players: v } }), 'state/malformed'],
      ['replay version', () => replay(rules, { ...makeReplay(rules, MID), version: v }), 'replay/version'],
      ['replay ruleset', () => replay(rules, { ...makeReplay(rules, MID), ruleset: v }), 'state/ruleset-mismatch'],
      ['replay players', () => replay(rules, { ...makeReplay(rules, MID), players: v }), 'replay/malformed'],
      ['undo count', () => undo(rules, MID, v as number), 'undo/nothing-to-undo'],
      ['featureAt feature', () => featureAt(rules, MID, { x: 0, y: 0, feature: v } as never), 'query/no-feature'],
    ];
    for (const [label, run, code] of cases) {
      let r: Result<unknown, MeepleError>;
      try {
        r = run();
      } catch (e) {
        throw new Error(`${label} threw: ${String(e)}`);
      }
      expect(r.ok, label).toBe(false);
      expect(!r.ok && r.error.code, label).toBe(code);
    }
  });
});

// ---------------------------------------------------------------------------------------------
// The Castle: hidden tokens and its own moves cannot be forged

describe('The Castle refuses tampered states and forged moves, changing nothing', () => {
  const made = createRuleset({ game: castle() });
  if (!made.ok) throw new Error(made.error.message);
  const rules = made.value;
  const game = newGame(rules, { players: 2, seed: 'castle-bad-input' });
  if (!game.ok) throw new Error(game.error.message);
  let state = game.value;
  const random = createRandomSource('castle-bad-input');
  for (let i = 0; i < 30; i++) {
    const moves = legalMoves(rules, state);
    const next = applyMove(rules, state, moves[random(moves.length)]!);
    if (!next.ok) throw new Error(next.error.message);
    state = next.value.state;
  }
  const text = serializeState(state);

  test('a face-down wall token swapped for another kind: state/tampered at its path', () => {
    const j = JSON.parse(text) as { state: { ext: { castle: { wall: number[] } } } };
    const wall = j.state.ext.castle.wall;
    const i = wall.findIndex((t) => t > 0);
    wall[i] = (wall[i]! % 9) + 1;
    const err = expectError(parseState(rules, JSON.stringify(j)), 'state/tampered');
    expect(err.path).toBe(`$.state.ext.castle.wall[${i}]`);
  });

  test('a token added to a hand: state/tampered', () => {
    const j = JSON.parse(text) as { state: { ext: { castle: { held: { token: number; turn: number }[][] } } } };
    j.state.ext.castle.held[0]!.push({ token: 9, turn: 0 });
    expectError(parseState(rules, JSON.stringify(j)), 'state/tampered');
  });

  test('castle moves that are not offered, out of turn or malformed are refused; the state is unchanged', () => {
    const before = serializeState(state);
    const player = state.step.kind === 'game-over' ? 0 : state.step.player;
    const rows: unknown[] = [
      { type: 'castle/extra-turn', player, use: true },
      { type: 'castle/score', player, x: 0, y: 0, feature: 'p1', token: 2 },
      { type: 'castle/final-token', player, token: 4, x: 0, y: 0, feature: 'p1' },
      { type: 'castle/score', player: 1 - player, x: 0, y: 0, feature: 'p1', token: 0 },
      { type: 'castle/score', player: 'x' },
      { type: 'castle/teleport', player },
    ];
    for (const move of rows) {
      const r = applyMove(rules, state, move);
      expect(r.ok, JSON.stringify(move)).toBe(false);
      if (!r.ok) expect(r.error.code).toMatch(/^move\//);
    }
    expect(serializeState(state)).toBe(before);
  });
});

describe('createRandomSource: a bound with no uniform answer is a RangeError (issue: NaN never returned)', () => {
  test('throws on NaN, Infinity, fractions, 0, negatives and bounds above 2^32, and draws below good bounds', async () => {
    const { createRandomSource } = await import('../src/index.js');
    const random = createRandomSource('bounds');
    for (const n of [NaN, Infinity, -Infinity, 2.5, 0, -3, 2 ** 32 + 1, 2 ** 40]) expect(() => random(n), String(n)).toThrow(RangeError);
    for (const n of [1, 2, 6, 2 ** 31, 2 ** 32]) {
      const x = random(n);
      expect(Number.isInteger(x) && x >= 0 && x < n).toBe(true);
    }
    expect(() => createRandomSource(5 as never)).toThrow(TypeError);
  });
});

describe('expansion moves: refused early when padded, stored in their canonical shape', () => {
  async function towerGameAtAnExpansionMove(): Promise<{ rules: import('../src/index.js').Ruleset; state: GameState; move: Move }> {
    const { tower } = await import('../src/expansions/tower/index.js');
    const r = createRuleset({ game: 'classic', expansions: [tower()] });
    if (!r.ok) throw new Error(r.error.message);
    const g = newGame(r.value, { players: 2, seed: 'padding' });
    if (!g.ok) throw new Error(g.error.message);
    let s = g.value;
    for (let i = 0; i < 200; i++) {
      const moves = legalMoves(r.value, s);
      const own = moves.find((m) => m.type.includes('/') && Object.keys(m).length >= 3);
      if (own !== undefined) return { rules: r.value, state: s, move: own };
      const next = applyMove(r.value, s, moves[0]!);
      if (!next.ok) throw new Error(next.error.message);
      s = next.value.state;
    }
    throw new Error('no expansion move offered');
  }

  test('a move padded with 100,000 extra keys is move/malformed, state unchanged (issue: seconds to refuse)', async () => {
    const { rules, state, move } = await towerGameAtAnExpansionMove();
    const padded: Record<string, unknown> = { ...move };
    for (let i = 0; i < 100_000; i++) padded[`k${i}`] = i;
    const before = JSON.stringify(state);
    const r = applyMove(rules, state, padded);
    expect(r.ok ? null : r.error.code).toBe('move/malformed');
    expect(JSON.stringify(state)).toBe(before);
    // Long text and deep nesting too; one extra key stays a plain refusal (not offered).
    expect(whyIllegal(rules, state, { ...move, note: 'x'.repeat(1000) })?.code).toBe('move/malformed');
    expect(whyIllegal(rules, state, { ...move, a: { b: { c: { d: 1 } } } })?.code).toBe('move/malformed');
    expect(whyIllegal(rules, state, { ...move, extra: 1 })?.code).not.toBeUndefined();
    expect(whyIllegal(rules, state, move)).toBeNull();
  });

  test('invented move types of a real module are refused, and the ruleset remembers only a bounded number of names', async () => {
    const { rules, state, move } = await towerGameAtAnExpansionMove();
    const before = JSON.stringify(state);
    for (let i = 0; i < 2000; i++) expect(whyIllegal(rules, state, { ...move, type: `tower/invented-${i}` })?.code).toBe('tower/unknown-move');
    expect(JSON.stringify(state)).toBe(before);
    // ownerOf's memory of move types and step kinds (engine/play.ts) stops at 256 names.
    expect(rules.hooks.owners.size).toBeLessThanOrEqual(256);
    expect(whyIllegal(rules, state, move)).toBeNull();
  });

  test('the same move with its keys in another order is stored in the offered shape: same bytes (issue: key order kept)', async () => {
    const { rules, state, move } = await towerGameAtAnExpansionMove();
    const reversed = Object.fromEntries(Object.entries(move).reverse());
    expect(Object.keys(reversed)).not.toEqual(Object.keys(move));
    const a = applyMove(rules, state, move);
    const b = applyMove(rules, state, reversed);
    if (!a.ok || !b.ok) throw new Error('refused');
    expect(serializeState(b.value.state)).toBe(serializeState(a.value.state));
    expect(Object.keys(b.value.state.moves[b.value.state.moves.length - 1]!)).toEqual(Object.keys(move));
  });
});

describe('createRuleset checks every member of an expansion module (issue: TypeError on wrong member types)', () => {
  const base = { id: 'lookalike', order: 50, options: {} };
  const cases: readonly [string, Record<string, unknown>][] = [
    ['requires: 5', { ...base, requires: 5 }],
    ["validate: 'no'", { ...base, validate: 'no' }],
    ["tiles: 'abc'", { ...base, tiles: 'abc' }],
    ['a tile without features', { ...base, tiles: [{ id: 'Z', count: 1 }] }],
    ['a kind with a two-letter code', { ...base, kinds: [{ name: 'lake', code: 'lk', completion: 'never', tracksTiles: false, edgeClass: 3 }] }],
    ['order: NaN', { ...base, order: NaN }],
    ['options: null', { ...base, options: null }],
    ["an id with spaces", { ...base, id: 'King Robber' }],
    ['a misspelt hook', { ...base, afterscoring: () => undefined }],
    ['chance without its functions', { ...base, chance: { maxOutcomes: 3 } }],
    ["start: 'A'", { ...base, start: 'A' }],
    ['countDeployMoves without drawDeployMove', { ...base, deployMoves: () => [], countDeployMoves: () => 0 }],
    ['drawDeployMove without countDeployMoves', { ...base, deployMoves: () => [], drawDeployMove: () => ({ type: 'lookalike/x', player: 0 }) }],
    ['countDeployMoves and drawDeployMove without deployMoves', { ...base, countDeployMoves: () => 0, drawDeployMove: () => ({ type: 'lookalike/x', player: 0 }) }],
  ];
  for (const [name, module] of cases) {
    test(`refuses ${name} with options/unknown-expansion and a message naming the member`, () => {
      const r = createRuleset({ game: 'classic', expansions: [module as never] });
      expect(r.ok).toBe(false);
      if (r.ok) return;
      expect(r.error.code).toBe('options/unknown-expansion');
      expect(r.error.message.length).toBeLessThan(400);
    });
  }
  test('the deploy-step counting pair is named in the refusal', () => {
    const r = createRuleset({ game: 'classic', expansions: [{ ...base, deployMoves: () => [], countDeployMoves: () => 0 } as never] });
    expect(!r.ok && r.error.message).toMatch(/'countDeployMoves' and 'drawDeployMove' come together, and only with 'deployMoves'/);
  });
  test('a well-formed module still passes', () => {
    expect(createRuleset({ game: 'classic', expansions: [{ ...base, requires: [], afterScoring: () => undefined } as never] }).ok).toBe(true);
  });
});

describe('a look-alike module cannot take a real module\'s ruleset id (issue: real states then crashed applyMove)', () => {
  test("{ id: 'king-robber', order: 50, options: {} } gets another id, and its rules refuse the real module's states", async () => {
    const { kingRobber } = await import('../src/expansions/king-robber/index.js');
    const real = createRuleset({ game: 'classic', expansions: [kingRobber()] });
    const fake = createRuleset({ game: 'classic', expansions: [{ id: 'king-robber', order: 50, options: {} } as never] });
    if (!real.ok || !fake.ok) throw new Error('refused');
    expect(fake.value.id).not.toBe(real.value.id);
    expect(real.value.id).toMatch(/^classic\+king-robber#[0-9a-f]{8}$/);
    // The same module from two calls of its factory: the same id (the digest reads data, not identity).
    const again = createRuleset({ game: 'classic', expansions: [kingRobber()] });
    expect(again.ok && again.value.id).toBe(real.value.id);
    const g = newGame(real.value, { players: 2, seed: 'look-alike' });
    if (!g.ok) throw new Error(g.error.message);
    const r = applyMove(fake.value, g.value, legalMoves(real.value, g.value)[0]!);
    expect(r.ok ? null : r.error.code).toBe('state/ruleset-mismatch');
    expect(parseState(fake.value, serializeState(g.value)).ok).toBe(false);
  });
});

describe('newGame without a seed', () => {
  test('takes a fresh 128-bit random seed, recorded in the state as 32 hex digits (no longer refused)', () => {
    const rules = classicRules();
    const a = newGame(rules, { players: 2 });
    const b = newGame(rules, { players: 2 });
    if (!a.ok || !b.ok) throw new Error('refused');
    expect(a.value.seed).toMatch(/^[0-9a-f]{32}$/);
    expect(b.value.seed).not.toBe(a.value.seed);
  });
});
