/**
 * buildPosition (issue 13, section 2): positions from a list of placements and deployments,
 * validated move by move with the normal errors and the failing turn's index; and the typed
 * overload of applyMove (section 4), whose `@ts-expect-error` lines `npm run typecheck` checks
 * (tsconfig.json includes test/).
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  applyMove,
  buildPosition,
  createRuleset,
  featureAt,
  legalMoves,
  makeReplay,
  newGame,
  parseState,
  replay,
  serializeState,
  undo,
  type ErrorCode,
  type Expansion,
  type GameState,
  type MeepleError,
  type Move,
  type PositionOptions,
  type PositionTurn,
  type Result,
  type Ruleset,
  type Transition,
} from '../src/index.js';
import { river } from '../src/expansions/river/index.js';
import { canon, must, nowhere, refusal } from './helpers.js';
import { castle as castleModule } from '../src/games/castle/entry.js';

const classic = must(createRuleset({ game: 'classic' }));

/** At the end of every turn the active player must say `ask/ok`. */
function ask(): Expansion {
  return {
    id: 'ask',
    order: 90,
    options: {},
    beforeTurnEnd(ctx) {
      ctx.state.step = { kind: 'ask/now', player: ctx.state.active };
      return 'wait';
    },
    stepMoves: (_rules, state) => [{ type: 'ask/ok', player: state.active }],
    play: () => 'done',
  };
}

/** The example of the docs: player 0 extends the start road with a knight in a new city, player 1 closes the start city. */
const EXAMPLE: PositionOptions = {
  players: 2,
  seed: 'puzzle-1',
  turns: [
    { tile: 'D', x: 1, y: 0, rotation: 0, deploy: 'c1' },
    { tile: 'E', x: 0, y: -1, rotation: 2 },
  ],
  next: ['F'],
};

describe('buildPosition', () => {
  test('the documented example: each turn gets its tile, the next tile is chosen too', () => {
    const s = must(buildPosition(classic, EXAMPLE));
    expect(s.step).toEqual({ kind: 'place-tile', player: 0, tile: 'F' });
    expect(s.tiles.map((t) => [t.id, t.x, t.y, t.rotation, t.player])).toEqual([
      ['D', 0, 0, 0, -1],
      ['D', 1, 0, 0, 0],
      ['E', 0, -1, 2, 1],
    ]);
    expect(must(featureAt(classic, s, { x: 1, y: 0, feature: 'c1' })).followers).toEqual([{ player: 0, x: 1, y: 0, feature: 'c1' }]);
    expect(s.scores).toEqual([0, 0]); // player 1 closed the start city, with nobody on it: no points
  });

  test('the same state as newGame with the turns as chosen draws and the moves through applyMove', () => {
    const built = must(buildPosition(classic, EXAMPLE));
    let s = must(newGame(classic, { players: 2, seed: 'puzzle-1', draws: ['D', 'E', 'F'] }));
    const moves: Move[] = [
      { type: 'place', player: 0, x: 1, y: 0, rotation: 0 },
      { type: 'deploy', player: 0, feature: 'c1' },
      { type: 'place', player: 1, x: 0, y: -1, rotation: 2 },
    ];
    for (const m of moves) s = must(applyMove(classic, s, m)).state;
    if (s.step.kind === 'deploy') s = must(applyMove(classic, s, { type: 'pass', player: 1 })).state;
    expect(serializeState(built)).toBe(serializeState(s));
  });

  test('an ordinary state: parseState, replays and undo take it, play goes on from it', () => {
    const s = must(buildPosition(classic, EXAMPLE));
    const text = serializeState(s);
    expect(serializeState(must(parseState(classic, text)))).toBe(text);
    const rep = makeReplay(classic, s);
    expect(rep.draws).toEqual(['D', 'E', 'F']);
    expect(serializeState(must(replay(classic, JSON.stringify(rep))).state)).toBe(text);
    expect(undo(classic, s, 1).ok).toBe(true);
    expect(applyMove(classic, s, legalMoves(classic, s)[0]!).ok).toBe(true);
    expect(Object.isFrozen(s) && Object.isFrozen(s.tiles)).toBe(true);
  });

  test('no seed: a fresh random one, the same position', () => {
    const { seed: _seed, ...rest } = EXAMPLE;
    const a = must(buildPosition(classic, rest));
    const b = must(buildPosition(classic, rest));
    expect(a.seed).toMatch(/^[0-9a-f]{32}$/);
    expect(a.seed).not.toBe(b.seed);
    expect(a.tiles).toEqual(b.tiles);
  });

  test('a game at a real table, transcribed turn by turn, is rebuilt exactly (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 10 }), fc.array(fc.nat(), { minLength: 1, maxLength: 50 }), fc.integer({ min: 2, max: 5 }), (seed, choices, players) => {
        let s = must(newGame(classic, { players, seed }));
        const turns: PositionTurn[] = [];
        for (const c of choices) {
          if (s.step.kind === 'game-over') break;
          const legal = legalMoves(classic, s);
          const m = legal[c % legal.length]!;
          if (m.type === 'place' && s.step.kind === 'place-tile') turns.push({ tile: s.step.tile, x: m.x, y: m.y, rotation: m.rotation });
          if (m.type === 'deploy') turns[turns.length - 1] = { ...turns.at(-1)!, deploy: m.feature };
          s = must(applyMove(classic, s, m)).state;
        }
        // Only whole turns, and only games without a discard (a discarded tile is in no turn).
        while (s.step.kind === 'deploy') s = must(applyMove(classic, s, { type: 'pass', player: s.step.player })).state;
        if (s.discarded.some((n) => n > 0)) return;
        const next = s.step.kind === 'place-tile' ? [s.step.tile] : [];
        const built = must(buildPosition(classic, { players, seed: 'elsewhere', turns, next }));
        const { seed: _a, rng: _b, ...want } = s;
        const { seed: _c, rng: _d, ...got } = built;
        expect(got).toEqual(want);
      }),
      { numRuns: 25 },
    );
  });

  test("an expansion's decisions go in the turn's moves; the pass comes first when they do not answer the deploy step", () => {
    const rules = must(createRuleset({ game: 'classic', expansions: [ask()] }));
    const turns: PositionTurn[] = [{ tile: 'D', x: 1, y: 0, rotation: 0 }];
    const unfinished = refusal(null, () => buildPosition(rules, { players: 2, seed: 'ask', turns }));
    expect([unfinished.code, unfinished.index, unfinished.message]).toEqual([
      'position/unfinished-turn',
      0,
      expect.stringMatching(/turn 0 is not finished: the game waits for ask\/now by player 0/),
    ]);
    const done = must(buildPosition(rules, { players: 2, seed: 'ask', turns: [{ ...turns[0]!, moves: [{ type: 'ask/ok', player: 0 }] }] }));
    expect(done.moves.map((m) => m.type)).toEqual(['place', 'pass', 'ask/ok']);
    expect(done.step).toMatchObject({ kind: 'place-tile', player: 1 });
    const deployed = must(buildPosition(rules, { players: 2, seed: 'ask', turns: [{ ...turns[0]!, deploy: 'r1', moves: [{ type: 'ask/ok', player: 0 }] }] }));
    expect(deployed.moves.map((m) => m.type)).toEqual(['place', 'deploy', 'ask/ok']);
  });

  test("The Castle: tokens are passed on to the game's definition", () => {
    const castle = must(createRuleset({ game: castleModule() }));
    const s = must(buildPosition(castle, { players: 2, seed: 'c', turns: [], next: ['K17'], tokens: [4, 4] }));
    expect(s.step).toMatchObject({ kind: 'place-tile', tile: 'K17' });
    expect(makeReplay(castle, s).tokens).toEqual([4, 4]);
  });

  const D0 = { tile: 'D', x: 1, y: 0, rotation: 0 } as const;
  const refused: [string, Ruleset, unknown, ErrorCode, number | undefined, RegExp][] = [
    ['options not an object', classic, 'turns', 'position/malformed', undefined, /needs an options object/],
    ['options null', classic, null, 'position/malformed', undefined, /needs an options object/],
    ['an unknown option', classic, { players: 2, turns: [], draws: ['D'] }, 'position/malformed', undefined, /unknown position option 'draws'/],
    ['turns missing', classic, { players: 2 }, 'position/malformed', undefined, /turns must be an array/],
    ['next not an array', classic, { players: 2, turns: [], next: 'D' }, 'position/malformed', undefined, /next must be an array/],
    ['a turn not an object', classic, { players: 2, turns: [D0, 'E'] }, 'position/malformed', 1, /turn 1: a turn must be an object/],
    ['a misspelt field', classic, { players: 2, turns: [{ ...D0, rotate: 1 }] }, 'position/malformed', 0, /turn 0: a turn has no field 'rotate'/],
    ['an unknown tile kind', classic, { players: 2, turns: [D0, { ...D0, tile: 'QQ' }] }, 'position/malformed', 1, /turn 1: "QQ" is no tile kind of classic/],
    ['deploy not a string', classic, { players: 2, turns: [{ ...D0, deploy: 1 }] }, 'position/malformed', 0, /deploy must be a feature id/],
    ['moves not an array', classic, { players: 2, turns: [{ ...D0, moves: {} }] }, 'position/malformed', 0, /moves must be an array/],
    ['too few players', classic, { players: 1, turns: [D0] }, 'options/players', undefined, /from 2 to 5/],
    ['a bad seed', classic, { players: 2, seed: {}, turns: [D0] }, 'options/seed', undefined, /seed must be a string/],
    ['more copies of a tile than the game has', classic, { players: 2, turns: [D0, D0, D0, D0] }, 'options/draws', undefined, /4 copies of tile D, but the bag holds 3/],
    ['a placement far away', classic, { players: 2, turns: [D0, { tile: 'E', x: 5, y: 5, rotation: 0 }] }, 'place/not-adjacent', 1, /turn 1, the placement: /],
    ['a placement on a tile', classic, { players: 2, turns: [D0, { ...D0, tile: 'U' }] }, 'place/occupied', 1, /turn 1, the placement: /],
    ['edges that do not match', classic, { players: 2, turns: [D0, { tile: 'E', x: 0, y: -1, rotation: 0 }] }, 'place/edge-mismatch', 1, /turn 1, the placement: /],
    ['a rotation out of range', classic, { players: 2, turns: [{ ...D0, rotation: 4 }] }, 'place/bad-rotation', 0, /turn 0, the placement: /],
    ['a fractional column', classic, { players: 2, turns: [{ ...D0, x: 0.5 }] }, 'move/malformed', 0, /turn 0, the placement: /],
    ['an unknown feature', classic, { players: 2, turns: [{ ...D0, deploy: 'z9' }] }, 'deploy/unknown-feature', 0, /turn 0, the deployment: /],
    [
      'a road already taken',
      classic,
      { players: 2, turns: [{ ...D0, deploy: 'r1' }, { tile: 'U', x: 2, y: 0, rotation: 0, deploy: 'r1' }] },
      'deploy/feature-occupied',
      1,
      /turn 1, the deployment: /,
    ],
    ['a bad move among the moves', classic, { players: 2, turns: [{ ...D0, moves: [{ type: 'deploy', player: 1, feature: 'c1' }] }] }, 'move/not-your-turn', 0, /turn 0, move 0 of its moves: /],
  ];
  test.each(refused)('refused: %s', (_name, rules, options, code, index, message) => {
    const e = refusal(options, () => buildPosition(rules, options as PositionOptions));
    expect([e.code, e.index, e.message]).toEqual([code, index, expect.stringMatching(message)]);
  });

  test('a tile that fits nowhere when its turn comes: position/tile-discarded (also when the next turn has the same tile)', () => {
    const rules = must(createRuleset({ game: 'classic', expansions: [nowhere()] }));
    for (const second of ['D', 'B']) {
      const e = refusal(null, () => buildPosition(rules, { players: 2, seed: 'n', turns: [D0, { ...D0, tile: 'B', x: 2 }, { ...D0, tile: second, x: 2 }] }));
      expect([e.code, e.index, e.message]).toEqual(['position/tile-discarded', 1, expect.stringMatching(/turn 1: tile B fits nowhere/)]);
    }
  });

  test('a tile the rules hold back after a turn: draw/held-back with that turn (River: the lake comes last)', () => {
    const rules = must(createRuleset({ game: 'classic', expansions: [river()] }));
    const turns: PositionTurn[] = [
      { tile: 'R1-03', x: 1, y: 0, rotation: 0 },
      { tile: 'R1-02', x: 2, y: 0, rotation: 0 },
    ];
    // R1-03's river runs east-west and the spring's opens east: find the course's legal spot.
    const start = must(newGame(rules, { players: 2, seed: 'r', draws: ['R1-03'] }));
    const place = legalMoves(rules, start)[0]!;
    if (place.type !== 'place') throw new Error('expected a placement');
    turns[0] = { tile: 'R1-03', x: place.x, y: place.y, rotation: place.rotation };
    const e = refusal(null, () => buildPosition(rules, { players: 2, seed: 'r', turns }));
    expect([e.code, e.index, e.message]).toEqual(['draw/held-back', 0, expect.stringMatching(/after turn 0: chosen draw 1 \(tile R1-02\)/)]);
  });
});

describe('applyMove: a typed overload for moves built in code, an untyped one for input', () => {
  const start = must(newGame(classic, { players: 2, seed: 'typed', draws: ['D'] }));
  const code = (r: Result<Transition, MeepleError>): string => (r.ok ? 'ok' : r.error.code);

  test('moves built in code are checked by the compiler; mistakes do not compile (and are refused anyway)', () => {
    expect(code(applyMove(classic, start, { type: 'place', player: 0, x: 1, y: 0, rotation: 0 }))).toBe('ok');
    // @ts-expect-error a misspelt field
    expect(code(applyMove(classic, start, { type: 'place', player: 0, x: 1, y: 0, rotaton: 0 }))).toBe('move/malformed');
    // @ts-expect-error a missing field
    expect(code(applyMove(classic, start, { type: 'deploy', player: 0 }))).toBe('move/wrong-step');
    // @ts-expect-error a misspelt type
    expect(code(applyMove(classic, start, { type: 'plaec', player: 0, x: 1, y: 0, rotation: 0 }))).toBe('move/unknown-type');
    // @ts-expect-error a rotation out of range
    expect(code(applyMove(classic, start, { type: 'place', player: 0, x: 1, y: 0, rotation: 4 }))).toBe('place/bad-rotation');
    // @ts-expect-error a field of the wrong type
    expect(code(applyMove(classic, start, { type: 'pass', player: '0' }))).toBe('move/malformed');
    const built: Move = { type: 'place', player: 0, x: 1, y: 0, rotation: 0 };
    expect(code(applyMove(classic, start, built))).toBe('ok');
  });

  test('untrusted input (unknown, any, parsed JSON, a field read from input) goes through, checked at run time', () => {
    const message: unknown = JSON.parse('{"type":"place","player":0,"x":1,"y":0,"rotation":0}');
    expect(code(applyMove(classic, start, message))).toBe('ok');
    const parsed = JSON.parse('{"type":"place","player":0,"x":1,"y":0,"rotaton":0}'); // any
    expect(code(applyMove(classic, start, parsed))).toBe('move/malformed');
    const rotation: unknown = 7;
    expect(code(applyMove(classic, start, { type: 'place', player: 0, x: 1, y: 0, rotation }))).toBe('place/bad-rotation');
    const record: Record<string, unknown> = { type: 'pass', player: 0 };
    expect(code(applyMove(classic, start, record))).toBe('move/wrong-step');
    const maybe: Move | undefined = legalMoves(classic, start)[0];
    expect(code(applyMove(classic, start, maybe))).toBe('ok');
    expect(code(applyMove(classic, start, undefined))).toBe('move/malformed');
    expect(code(applyMove(classic, start, 'place'))).toBe('move/malformed');
    // A module move the ruleset has no module for does not compile (issue 30), and is refused at run time.
    // @ts-expect-error: classic has no 'castle/score'
    expect(code(applyMove(classic, start, { type: 'castle/score', player: 0 }))).toBe('move/unknown-type');
    const fromInput: Move = JSON.parse('{"type":"castle/score","player":0}') as Move;
    expect(code(applyMove(classic, start, fromInput))).toBe('move/unknown-type');
  });

  test('loops keep their types (annotate the result when a Result variable is reassigned from it)', () => {
    let state: GameState = start;
    for (let i = 0; i < 3; i++) {
      const next = applyMove(classic, state, legalMoves(classic, state)[0]!);
      if (!next.ok) throw new Error(next.error.message);
      state = next.value.state;
    }
    let result: Result<GameState, MeepleError> = { ok: true, value: start };
    for (const m of [] as unknown[]) {
      if (!result.ok) break;
      const next: Result<Transition, MeepleError> = applyMove(classic, result.value, m);
      result = next.ok ? { ok: true, value: next.value.state } : next;
    }
    expect(state.moves.length).toBe(3);
  });
});
