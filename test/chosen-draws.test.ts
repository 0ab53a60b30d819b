/**
 * Chosen draws (issue 13, section 2): `newGame(rules, { players, seed, draws, tokens })`.
 * The listed tiles are drawn first, in order, then the seeded generator goes on; The Castle's
 * tokens lie face down on the first towers. A state made this way proves itself on `parseState`,
 * replays and undo carry the draws, the draws stay as secret as the seed, and the research
 * interface does not break on them (explicit chance forgets them, seeded chance honours them).
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  applyMove,
  createRuleset,
  createSimulator,
  isLegal,
  legalMoves,
  makeReplay,
  newGame,
  observe,
  parseState,
  replay,
  serializeState,
  undo,
  type ErrorCode,
  type Expansion,
  type GameEvent,
  type GameState,
  type MeepleError,
  type Move,
  type Result,
  type Ruleset,
} from '../src/index.js';
import { river } from '../src/expansions/river/index.js';
import { applyAction, chanceOutcomes, createResearchSimulator as createResearch, determinize, isChanceNode, moveToAction } from '../src/ai/index.js';
import { seedRng } from '../src/core/rng.js';
import { canon, must, nowhere, refusal } from './helpers.js';
import { castle as castleModule, castleBoard, WALL_TOKENS } from '../src/games/castle/entry.js';

const classic = must(createRuleset({ game: 'classic' }));
const castle = must(createRuleset({ game: castleModule() }));
const riverRules = must(createRuleset({ game: 'classic', expansions: [river()] }));

const nowhereRules = must(createRuleset({ game: 'classic', expansions: [nowhere()] }));

/** The step's tile (throws when the game does not wait for a placement). */
function tileOf(s: GameState): string {
  if (s.step.kind !== 'place-tile') throw new Error(`no tile to place at step ${s.step.kind}`);
  return s.step.tile;
}

/** Plays `moves` with applyMove; the states after each, and every tile-drawn id of the moves. */
function playAll(rules: Ruleset, start: GameState, moves: readonly Move[]): { states: GameState[]; drawn: string[] } {
  const states = [start];
  const drawn: string[] = [];
  let s = start;
  for (const m of moves) {
    const t = must(applyMove(rules, s, m));
    for (const e of t.events) if (e.type === 'tile-drawn') drawn.push(e.tile);
    s = t.state;
    states.push(s);
  }
  return { states, drawn };
}

/** A random playthrough: the moves chosen by `choices` (index into the legal moves), at most `n`. */
function randomMoves(rules: Ruleset, start: GameState, choices: readonly number[]): Move[] {
  const moves: Move[] = [];
  let s = start;
  for (const c of choices) {
    const legal = legalMoves(rules, s);
    if (legal.length === 0) break;
    const m = legal[c % legal.length]!;
    moves.push(m);
    s = must(applyMove(rules, s, m)).state;
  }
  return moves;
}

/** Every field of a state but its seed and chance source. */
function withoutChance(s: GameState): Omit<GameState, 'seed' | 'rng'> {
  const { seed: _seed, rng: _rng, ...rest } = s;
  return rest;
}

describe('newGame with chosen draws', () => {
  test('the listed tiles come first, in order, one per turn; then the seeded generator goes on', () => {
    const g = must(newGame(classic, { players: 2, seed: 'chosen', draws: ['D', 'E', 'V'] }));
    expect(tileOf(g)).toBe('D');
    const moves: Move[] = [];
    let s = g;
    const tiles = [tileOf(s)];
    while (tiles.length < 5) {
      const m = legalMoves(classic, s).at(-1)!;
      moves.push(m);
      s = must(applyMove(classic, s, m)).state;
      if (s.step.kind === 'place-tile' && s.turn === tiles.length) tiles.push(s.step.tile);
    }
    expect(tiles.slice(0, 3)).toEqual(['D', 'E', 'V']);
    // The generator was not touched by the chosen draws: with them used up, a state without their
    // record plays the same (the record is the only difference), and its words are the seed's.
    const exhausted = playAll(classic, g, moves.slice(0, 4)).states.at(-1)!; // two turns: D and E placed, V drawn
    expect(tileOf(exhausted)).toBe('V');
    expect(exhausted.rng.slice(0, 4)).toEqual(seedRng('chosen'));
    const plain = { ...exhausted, rng: exhausted.rng.slice(0, 4) } as GameState;
    let a = exhausted;
    let b = plain;
    for (let i = 0; i < 6; i++) {
      const m = legalMoves(classic, a).at(-1)!;
      a = must(applyMove(classic, a, m)).state;
      b = must(applyMove(classic, b, m)).state;
      expect(a.step).toEqual(b.step);
    }
  });

  test('an empty list is the same game as none, byte for byte; same options, same bytes', () => {
    const plain = serializeState(must(newGame(classic, { players: 3, seed: 7 })));
    expect(serializeState(must(newGame(classic, { players: 3, seed: 7, draws: [] })))).toBe(plain);
    expect(serializeState(must(newGame(classic, { players: 3, seed: 7, draws: [], tokens: [] })))).toBe(plain);
    const a = serializeState(must(newGame(classic, { players: 2, seed: 'x', draws: ['L', 'L', 'K'] })));
    expect(serializeState(must(newGame(classic, { players: 2, seed: 'x', draws: ['L', 'L', 'K'] })))).toBe(a);
    expect(a).not.toBe(serializeState(must(newGame(classic, { players: 2, seed: 'x', draws: ['L', 'K', 'L'] }))));
  });

  test('a chosen tile that fits nowhere is discarded as the rules say, and the next draw follows', () => {
    const g = must(newGame(nowhereRules, { players: 2, seed: 'nowhere', draws: ['B', 'D', 'B', 'E'] }));
    const b = nowhereRules.tileIndex['B']!;
    expect(tileOf(g)).toBe('D');
    expect(g.discarded[b]).toBe(1);
    let s = g;
    const events: GameEvent[] = [];
    while (s.turn === 0) {
      const t = must(applyMove(nowhereRules, s, legalMoves(nowhereRules, s).at(-1)!));
      events.push(...t.events);
      s = t.state;
    }
    expect(events.filter((e) => e.type === 'tile-drawn' || e.type === 'tile-discarded').map((e) => `${e.type} ${'tile' in e ? e.tile : ''}`)).toEqual([
      'tile-drawn B',
      'tile-discarded B',
      'tile-drawn E',
    ]);
    expect(tileOf(s)).toBe('E');
    expect(s.discarded[b]).toBe(2);
    expect(parseState(nowhereRules, serializeState(s)).ok).toBe(true);
  });

  test('a table transcribed: the draws of a game played with one seed, chosen in a game with another, give the same game', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), fc.array(fc.nat(), { minLength: 1, maxLength: 40 }), (seed, choices) => {
        const original = must(newGame(classic, { players: 3, seed }));
        if (original.discarded.some((n) => n > 0)) return; // a tile discarded before the first turn: not in any move's events
        const moves = randomMoves(classic, original, choices);
        const played = playAll(classic, original, moves);
        const draws = [tileOf(original), ...played.drawn];
        const copy = must(newGame(classic, { players: 3, seed: `${seed}/other`, draws }));
        const again = playAll(classic, copy, moves);
        expect(withoutChance(again.states.at(-1)!)).toEqual(withoutChance(played.states.at(-1)!));
        // The Simulator runs the same recipe on the same definition.
        const sim = must(createSimulator(classic, copy));
        for (const m of moves) must(sim.play(m));
        expect(serializeState(sim.snapshot())).toBe(serializeState(again.states.at(-1)!));
      }),
      { numRuns: 25 },
    );
  });

  test('a state with chosen draws proves itself: parseState, replay and undo round-trip it (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('A', 'B', 'C', 'D', 'E', 'F', 'K', 'L', 'U', 'V', 'W', 'X'), { maxLength: 12 }),
        fc.array(fc.nat(), { maxLength: 30 }),
        fc.nat(4),
        (draws, choices, back) => {
          const g = newGame(classic, { players: 2, seed: 'proof', draws });
          if (!g.ok) {
            expect(g.error.code).toBe('options/draws'); // more copies than the game has (C: 1, X: 1)
            return;
          }
          const moves = randomMoves(classic, g.value, choices);
          const { states } = playAll(classic, g.value, moves);
          const last = states.at(-1)!;
          const text = serializeState(last);
          expect(serializeState(must(parseState(classic, text)))).toBe(text);
          const rep = makeReplay(classic, last);
          expect(rep.draws ?? []).toEqual(draws);
          expect(serializeState(must(replay(classic, JSON.stringify(rep))).state)).toBe(text);
          const k = Math.min(back, moves.length);
          if (k > 0) expect(serializeState(must(undo(classic, last, k)))).toBe(serializeState(states[states.length - 1 - k]!));
        },
      ),
      { numRuns: 30 },
    );
  });

  test('the chosen draws are as secret as the seed: observations of games that differ only in future draws are identical', () => {
    const a = must(newGame(classic, { players: 2, seed: 's', draws: ['D', 'E', 'E'] }));
    const b = must(newGame(classic, { players: 2, seed: 's', draws: ['D', 'L', 'K', 'V'] }));
    expect(serializeState(a)).not.toBe(serializeState(b));
    for (const viewer of [0, 1, null]) expect(JSON.stringify(observe(classic, a, viewer))).toBe(JSON.stringify(observe(classic, b, viewer)));
  });

  const refused: [string, unknown, ErrorCode, RegExp][] = [
    ['draws not an array', { players: 2, seed: 'x', draws: 'D' }, 'options/draws', /draws must be an array of tile kind ids/],
    ['draws an object', { players: 2, seed: 'x', draws: { 0: 'D' } }, 'options/draws', /draws must be an array/],
    ['a draw not a string', { players: 2, seed: 'x', draws: ['D', 4] }, 'options/draws', /draws\[1\]: 4 is no tile kind of classic/],
    ['an unknown tile kind', { players: 2, seed: 'x', draws: ['D', 'Z'] }, 'options/draws', /draws\[1\]: "Z" is no tile kind/],
    ['an inherited name', { players: 2, seed: 'x', draws: ['toString'] }, 'options/draws', /"toString" is no tile kind/],
    ['a list far too long', { players: 2, seed: 'x', draws: new Array<string>(10_001).fill('D') }, 'options/draws', /draws must be an array/],
    ['more copies than the bag holds (D: 4, one is the start tile)', { players: 2, seed: 'x', draws: ['D', 'D', 'D', 'D'] }, 'options/draws', /4 copies of tile D, but the bag holds 3/],
    ['more tiles than the game has', { players: 2, seed: 'x', draws: new Array<string>(72).fill('V') }, 'options/draws', /72 copies of tile V, but the bag holds 9/],
    ['tokens in classic', { players: 2, seed: 'x', tokens: [1] }, 'options/draws', /classic has no face-down tokens/],
    ['tokens not an array', { players: 2, seed: 'x', tokens: 3 }, 'options/draws', /tokens must be an array of token kinds/],
    ['a token not an integer', { players: 2, seed: 'x', tokens: [1.5] }, 'options/draws', /tokens must be an array of token kinds \(integers\)/],
    ['a misspelt option', { players: 2, seed: 'x', draw: ['D'] }, 'options/malformed', /unknown game option 'draw' \(options: players, seed, draws, tokens\)/],
  ];
  test.each(refused)('refused: %s', (_name, options, code, message) => {
    const e = refusal(options, () => newGame(classic, options as never));
    expect([e.code, e.message]).toEqual([code, expect.stringMatching(message)]);
  });
});

describe('chosen draws the rules hold back (River: the course before the lake, river tiles before land)', () => {
  test.each([
    ['the lake first', ['R1-02']],
    ['a land tile while the river runs', ['D']],
  ])('at newGame, when it is the first draw: options/draws (%s)', (_name, draws) => {
    const options = { players: 2, seed: 'river', draws };
    const e = refusal(options, () => newGame(riverRules, options));
    expect([e.code, e.message]).toEqual(['options/draws', expect.stringMatching(/chosen draw 0 \(tile .+\) cannot be drawn now: the rules hold it back/)]);
  });

  /** A River game whose second chosen tile, the lake, comes while course tiles are left. */
  function lakeTooSoon(): { start: GameState; moves: Move[]; last: GameState } {
    const start = must(newGame(riverRules, { players: 2, seed: 'river', draws: ['R1-03', 'R1-02'] }));
    let s = start;
    const moves: Move[] = [];
    for (;;) {
      const m = legalMoves(riverRules, s)[0]!;
      const r = applyMove(riverRules, s, m);
      if (!r.ok) return { start, moves: [...moves, m], last: s };
      moves.push(m);
      s = r.value.state;
    }
  }

  test('later: the move that would draw it is refused (draw/held-back) and the state is untouched', () => {
    const { moves, last } = lakeTooSoon();
    const move = moves.at(-1)!;
    const e = refusal(last, () => applyMove(riverRules, last, move));
    expect([e.code, e.message]).toEqual(['draw/held-back', expect.stringMatching(/chosen draw 1 \(tile R1-02\) cannot be drawn now: the rules hold it back/)]);
    expect(last.turn).toBe(0); // the first turn's last move
    // The move itself is legal: only the game's definition cannot go on (documented).
    expect(isLegal(riverRules, last, move)).toBe(true);
  });

  test('in a replay: draw/held-back with the index of the move; the Simulator throws it', () => {
    const { start, moves } = lakeTooSoon();
    const rep = { ...makeReplay(riverRules, start), moves };
    const r = replay(riverRules, rep);
    if (r.ok) throw new Error('expected an error');
    expect([r.error.code, r.error.index]).toEqual(['draw/held-back', moves.length - 1]);
    const sim = must(createSimulator(riverRules, start));
    for (const m of moves.slice(0, -1)) must(sim.play(m));
    expect(() => sim.play(moves.at(-1)!)).toThrow(/draw\/held-back/);
  });

  test('in a saved state: no game can reach it, state/tampered with the cause', () => {
    // The same game with a legal second draw, then its record made to say the lake.
    const ok = must(newGame(riverRules, { players: 2, seed: 'river', draws: ['R1-03', 'R1-04'] }));
    const { moves } = lakeTooSoon();
    const { states } = playAll(riverRules, ok, moves);
    const data = JSON.parse(serializeState(states.at(-1)!)) as { state: { rng: number[] } };
    const rng = data.state.rng;
    rng[rng.length - 1] = riverRules.tileIndex['R1-02']!;
    const e = refusal(data, () => parseState(riverRules, data));
    expect([e.code, e.path, e.cause?.code]).toEqual(['state/tampered', `$.state.moves[${moves.length - 1}]`, 'draw/held-back']);
  });
});

describe('parseState and replays check the record of chosen draws', () => {
  const base = (): { state: { rng: number[] } } => {
    const g = must(newGame(classic, { players: 2, seed: 'record', draws: ['D', 'E'] }));
    return JSON.parse(serializeState(g)) as { state: { rng: number[] } };
  };
  const malformed: [string, (rng: number[]) => void, RegExp][] = [
    ['cut short', (rng) => rng.pop(), /record of chosen draws .* is malformed/],
    ['a count negative', (rng) => (rng[5] = -1), /record of chosen draws .* is malformed/],
    ['next beyond the list', (rng) => (rng[4] = 3), /record of chosen draws .* is malformed/],
    ['a fraction', (rng) => (rng[4] = 0.5), /record of chosen draws .* is malformed/],
    ['a tile kind out of range', (rng) => (rng[7] = 999), /names no tile kind/],
    ['a token not an integer', (rng) => rng.push(0.5) && (rng[6] = 1), /token is not an integer/],
  ];
  test.each(malformed)('state/malformed at $.state.rng: %s', (_name, edit) => {
    const data = base();
    edit(data.state.rng);
    const e = refusal(data, () => parseState(classic, data));
    expect([e.code, e.path, e.message]).toEqual(['state/malformed', '$.state.rng', expect.stringMatching(/./)]);
    expect(e.message).toMatch(_name === 'a tile kind out of range' ? /names no tile kind/ : _name === 'a token not an integer' ? /token is not an integer/ : /malformed/);
  });

  test('a record edited by hand: state/tampered (a draw made, impossible copies, a cursor moved, the record dropped)', () => {
    const other = base();
    other.state.rng[7] = classic.tileIndex['V']!; // the first draw, made: D
    expect(refusal(other, () => parseState(classic, other))).toMatchObject({ code: 'state/tampered', path: '$.state.bag[3]' }); // D's count: one taken, not V's
    const impossible = base();
    impossible.state.rng.push(classic.tileIndex['D']!, classic.tileIndex['D']!, classic.tileIndex['D']!);
    impossible.state.rng[5] = 5;
    const e = refusal(impossible, () => parseState(classic, impossible));
    expect([e.code, e.path, e.cause?.code]).toEqual(['state/tampered', '$.state.rng', 'options/draws']);
    const cursor = base();
    cursor.state.rng[4] = 0; // one draw was made
    expect(refusal(cursor, () => parseState(classic, cursor))).toMatchObject({ code: 'state/tampered', path: '$.state.rng[4]' });
    const removed = base();
    removed.state.rng.length = 4; // the record dropped: the seed alone gives other draws
    expect(refusal(removed, () => parseState(classic, removed)).code).toBe('state/tampered');
  });

  test('replays: bad draws or tokens are replay/malformed with their options/draws cause', () => {
    const rep = makeReplay(classic, must(newGame(classic, { players: 2, seed: 'r', draws: ['D'] })));
    expect(rep.draws).toEqual(['D']);
    for (const edit of [{ draws: ['Z'] }, { draws: ['D', 'D', 'D', 'D'] }, { tokens: [1] }, { draws: 'D' }]) {
      const bad = { ...rep, ...edit };
      const e = refusal(bad, () => replay(classic, bad));
      expect([e.code, e.cause?.code]).toEqual(['replay/malformed', 'options/draws']);
    }
    // A replay without draws has no field for them (older replays read the same).
    expect('draws' in makeReplay(classic, must(newGame(classic, { players: 2, seed: 'r' })))).toBe(false);
  });

  test('what has not happened yet is part of the definition: a future chosen draw edited is another game, not tampering (documented)', () => {
    // As with the seed, a saved state tells its future; unlike the seed, a chosen draw still to
    // come can be rewritten without changing the past: saves of served games stay on the server.
    const future = base();
    future.state.rng[8] = classic.tileIndex['V']!; // the second draw, not made yet: E
    const parsed = must(parseState(classic, future));
    let s = parsed;
    while (s.turn === 0) s = must(applyMove(classic, s, legalMoves(classic, s).at(-1)!)).state;
    expect(tileOf(s)).toBe('V');
  });

  test('undo replays the definition: the same chosen tile comes again', () => {
    const g = must(newGame(classic, { players: 2, seed: 'undo', draws: ['D', 'E'] }));
    let s = g;
    while (s.turn === 0) s = must(applyMove(classic, s, legalMoves(classic, s).at(-1)!)).state;
    expect(tileOf(s)).toBe('E');
    const back = must(undo(classic, s, s.moves.length));
    expect(serializeState(back)).toBe(serializeState(g));
  });
});

describe("The Castle's chosen face-down tokens", () => {
  const hasToken = castleBoard(castle)!.towers.map(([a, b]) => a !== 0 && b !== 0);
  const wallOf = (s: GameState): number[] => (s.ext['castle'] as { wall: number[] }).wall;
  const laid = (s: GameState): number[] => wallOf(s).filter((_, t) => hasToken[t]);

  test('the first towers get the tokens, in layout order; the rest come from what is left', () => {
    const s = must(newGame(castle, { players: 2, seed: 'wall', tokens: [9, 9, 1] }));
    expect(laid(s).slice(0, 3)).toEqual([9, 9, 1]);
    expect(laid(s)).toHaveLength(13);
    expect(wallOf(s).filter((_, t) => !hasToken[t])).toEqual([0]);
    const pool: number[] = [...WALL_TOKENS];
    for (const t of laid(s)) {
      expect(pool).toContain(t);
      pool.splice(pool.indexOf(t), 1);
    }
    expect(parseState(castle, serializeState(s)).ok).toBe(true);
  });

  test('all thirteen chosen: the wall is the same whatever the seed; none chosen: as before', () => {
    const tokens = [1, 2, 3, 4, 5, 6, 7, 8, 9, 1, 2, 3, 4];
    expect(laid(must(newGame(castle, { players: 2, seed: 'a', tokens })))).toEqual(tokens);
    expect(laid(must(newGame(castle, { players: 2, seed: 'b', tokens })))).toEqual(tokens);
    expect(serializeState(must(newGame(castle, { players: 2, seed: 'a', tokens: [] })))).toBe(serializeState(must(newGame(castle, { players: 2, seed: 'a' }))));
  });

  test('face down for everyone: observations of games that differ only in their tokens are identical', () => {
    const a = must(newGame(castle, { players: 2, seed: 'hidden', draws: ['K17'], tokens: [1, 1, 2, 2] }));
    const b = must(newGame(castle, { players: 2, seed: 'hidden', draws: ['K17'], tokens: [9, 9, 8, 8] }));
    for (const viewer of [0, 1, null]) expect(JSON.stringify(observe(castle, a, viewer))).toBe(JSON.stringify(observe(castle, b, viewer)));
  });

  test('replays carry them; a token edited in a saved state is tampering', () => {
    const s = must(newGame(castle, { players: 2, seed: 'carry', tokens: [5, 6] }));
    const rep = makeReplay(castle, s);
    expect(rep.tokens).toEqual([5, 6]);
    expect(serializeState(must(replay(castle, JSON.stringify(rep))).state)).toBe(serializeState(s));
    const data = JSON.parse(serializeState(s)) as { state: { rng: number[] } };
    data.state.rng[data.state.rng.length - 1] = 7;
    expect(refusal(data, () => parseState(castle, data)).code).toBe('state/tampered');
  });

  test("a start field is no tile of the bag: options/draws", () => {
    const e = refusal(null, () => newGame(castle, { players: 2, seed: 'x', draws: ['@start-1'] }));
    expect([e.code, e.message]).toEqual(['options/draws', expect.stringMatching(/1 copies of tile @start-1, but the bag holds 0/)]);
  });

  const refusedTokens: [string, unknown, RegExp][] = [
    ['14 tokens for 13 towers', [1, 2, 3, 4, 5, 6, 7, 8, 9, 1, 2, 3, 4, 5], /13 towers hold a face-down token, got 14 tokens/],
    ['a kind 0', [0], /tokens\[0\] must be a token kind from 1 to 9, got 0/],
    ['a kind 10', [3, 10], /tokens\[1\] must be a token kind from 1 to 9, got 10/],
    ['three of a kind', [7, 7, 7], /token 7 is listed more often than the 2 there are/],
  ];
  test.each(refusedTokens)('refused: %s (options/draws)', (_name, tokens, message) => {
    const options = { players: 2, seed: 'x', tokens };
    const e = refusal(options, () => newGame(castle, options as never));
    expect([e.code, e.message]).toEqual(['options/draws', expect.stringMatching(message)]);
  });
});

describe('meeplekit/ai with chosen draws', () => {
  const chosen = (): GameState => must(newGame(classic, { players: 2, seed: 'ai', draws: ['D', 'E', 'V'] }));
  /** Plays the first legal move until the turn passes; the moves. */
  const firstTurn = (s: GameState): Move[] => {
    const moves: Move[] = [];
    while (s.turn === 0) {
      const m = legalMoves(classic, s)[0]!;
      moves.push(m);
      s = must(applyMove(classic, s, m)).state;
    }
    return moves;
  };

  test('explicit chance forgets them: after the turn a chance node over the whole bag', () => {
    const s = chosen();
    const sim = createResearch(classic, s);
    expect(sim.state.rng).toHaveLength(4);
    for (const m of firstTurn(s)) sim.applyAction(moveToAction(classic, sim.state, m));
    expect(sim.isChanceNode()).toBe(true);
    expect(sim.chanceOutcomes().length).toBeGreaterThan(1);
    let t: GameState = s;
    for (const m of firstTurn(s)) t = applyAction(classic, t, moveToAction(classic, t, m));
    expect(isChanceNode(t)).toBe(true);
    expect(chanceOutcomes(classic, t).map((o) => o.label)).toContain('E');
    expect(chanceOutcomes(classic, t).length).toBeGreaterThan(1);
  });

  test("seeded chance honours them, as applyMove does; determinize and playouts do not break", () => {
    const s = chosen();
    const sim = createResearch(classic, s, { chance: 'seeded' });
    for (const m of firstTurn(s)) sim.applyAction(moveToAction(classic, sim.state, m));
    expect(sim.state.step).toMatchObject({ kind: 'place-tile', tile: 'E' });
    const guess = determinize(classic, s, 0, 'guess');
    expect(guess.rng).toHaveLength(4);
    const scores = createResearch(classic, guess).playout(() => 0);
    expect(scores).toHaveLength(2);
    expect(createResearch(classic, s, { chance: 'seeded' }).playout((n) => n - 1)).toHaveLength(2);
  });

  test("The Castle's chosen tokens are concealed by explicit chance like seeded ones", () => {
    const s = must(newGame(castle, { players: 2, seed: 'ai', tokens: [9, 8] }));
    const sim = createResearch(castle, s);
    expect((sim.state.ext['castle'] as { wall: number[] }).wall.every((t) => t === 0 || t === -1)).toBe(true);
    expect(sim.state.rng).toHaveLength(4);
  });
});
