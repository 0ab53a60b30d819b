/**
 * The research interface completed (issue 14, part 3): the initial chance node, saving and loading
 * research states, events from applyAction, and states as text.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { applyMove, createRandomSource, createRuleset, legalMoves, newGame, observe, type GameEvent, type GameState, type Ruleset } from '../src/index.js';
import {
  applyAction,
  chanceOutcomes,
  createResearchSimulator,
  deserializeResearchState,
  determinize,
  isChanceNode,
  legalActions,
  moveToAction,
  newInitialState,
  RESEARCH_STATE_VERSION,
  serializeResearchState,
  stateToString,
  type ResearchSimulator,
} from '../src/ai/index.js';
import { castle } from '../src/games/castle/entry.js';
import { count } from '../src/expansions/count/index.js';
import { kingRobber } from '../src/expansions/king-robber/index.js';
import { princessDragon } from '../src/expansions/princess-dragon/index.js';
import { river } from '../src/expansions/river/index.js';
import { shrines } from '../src/expansions/shrines/index.js';
import { tower } from '../src/expansions/tower/index.js';
import { canon, classicRules, jsonPaths, must } from './helpers.js';

const classic = classicRules();
const castleRules = must(createRuleset({ game: castle() }));
const SIX = must(createRuleset({ game: 'classic', expansions: [count(), kingRobber(), princessDragon(), shrines(), tower()] }));
const SIX_RIVER = must(createRuleset({ game: 'classic', expansions: [kingRobber(), princessDragon(), river(), shrines(), tower()] }));

describe('newInitialState: the first draw is a chance node (OpenSpiel new_initial_state)', () => {
  test('classic: the start tile lies, player 0 is to draw, every tile kind left is an outcome weighted by its copies', () => {
    const s = newInitialState(classic, { players: 3, seed: 'init' });
    expect(isChanceNode(s)).toBe(true);
    expect(s.step).toEqual({ kind: 'chance/draw', player: -1 });
    expect(s.tiles.map((t) => t.id)).toEqual(['D']);
    expect(s.active).toBe(0);
    const outcomes = chanceOutcomes(classic, s);
    // 72 tiles, the start tile out: 71 in the bag, D with 3 of its 4 copies.
    const d = outcomes.find((o) => o.label === 'D')!;
    expect(d.probability).toBeCloseTo(3 / 71, 12);
    expect(outcomes.reduce((a, o) => a + o.probability, 0)).toBeCloseTo(1, 12);
    expect(outcomes.length).toBe(24);
  });

  test('the outcome applied is what newGame would have drawn: the same state as newGame with that tile', () => {
    const s = newInitialState(classic, { players: 2, seed: 'same' });
    const game = must(newGame(classic, { players: 2, seed: 'same' }));
    const tile = (game.step as { tile: string }).tile;
    const drawn = applyAction(classic, s, classic.tileIndex[tile]!);
    expect(drawn.step).toEqual(game.step);
    expect(drawn.bag).toEqual(game.bag);
    expect(drawn.tiles).toEqual(game.tiles);
  });

  test("The Castle: the face-down wall tokens are concealed until taken; the same seed gives the same state", () => {
    const s = newInitialState(castleRules, { players: 2, seed: 'wall' });
    const wall = (s.ext['castle'] as { wall: number[] }).wall;
    expect(wall.filter((t) => t === -1).length).toBe(13);
    expect(JSON.stringify(newInitialState(castleRules, { players: 2, seed: 'wall' }))).toBe(JSON.stringify(s));
  });

  test('bad options throw a RangeError with the code newGame gives in cause', () => {
    const thrown = (f: () => unknown): { message: string; code: unknown } => {
      try {
        f();
      } catch (e) {
        expect(e).toBeInstanceOf(RangeError);
        return { message: (e as Error).message, code: ((e as Error).cause as { code?: string }).code };
      }
      throw new Error('did not throw');
    };
    expect(thrown(() => newInitialState(classic, { players: 9 })).code).toBe('options/players');
    expect(thrown(() => newInitialState(classic, { players: 2, seed: 'x'.repeat(300) })).code).toBe('options/seed');
    expect(thrown(() => newInitialState(classic, { players: 2, draws: ['D'] } as never)).code).toBe('options/malformed');
  });
});

/** Plays `sim` with random actions, calling `check` every few actions and at the end. */
function walk(sim: ResearchSimulator, seed: string, every: number, check: (sim: ResearchSimulator, step: number) => void): void {
  const random = createRandomSource(seed);
  for (let i = 0; ; i++) {
    if (i % every === 0 || sim.isTerminal()) check(sim, i);
    if (sim.isTerminal()) return;
    sim.applyRandom(random);
  }
}

describe('serializeResearchState / deserializeResearchState', () => {
  const sources: [string, Ruleset, (g: number) => ResearchSimulator][] = [
    ['classic from newInitialState (explicit chance)', classic, (g) => createResearchSimulator(classic, newInitialState(classic, { players: 2 + (g % 4), seed: `e${g}` }))],
    ['classic from newGame, seeded chance', classic, (g) => createResearchSimulator(classic, must(newGame(classic, { players: 2 + (g % 4), seed: `s${g}` })), { chance: 'seeded' })],
    [
      'classic determinized for player 1',
      classic,
      (g) => createResearchSimulator(classic, determinize(classic, observe(classic, must(newGame(classic, { players: 2, seed: `d${g}` })), 1), 1, `guess${g}`)),
    ],
    ['The Castle, explicit (tokens revealed at chance nodes)', castleRules, (g) => createResearchSimulator(castleRules, newInitialState(castleRules, { players: 2, seed: `c${g}` }))],
    ['The Castle, seeded', castleRules, (g) => createResearchSimulator(castleRules, must(newGame(castleRules, { players: 2, seed: `cs${g}` })), { chance: 'seeded' })],
    [
      'The Castle determinized (the wall redrawn)',
      castleRules,
      (g) => createResearchSimulator(castleRules, determinize(castleRules, observe(castleRules, must(newGame(castleRules, { players: 2, seed: `cd${g}` })), 0), 0, `g${g}`)),
    ],
    ['all six expansions that combine (with the Count)', SIX, (g) => createResearchSimulator(SIX, newInitialState(SIX, { players: 2 + (g % 4), seed: `six${g}` }))],
    ['all six expansions that combine (with the River)', SIX_RIVER, (g) => createResearchSimulator(SIX_RIVER, newInitialState(SIX_RIVER, { players: 2 + (g % 4), seed: `river${g}` }))],
  ];

  test.each(sources)('%s: every state on the way round-trips, byte for byte', (_name, rules, make) => {
    for (let g = 0; g < 3; g++) {
      walk(make(g), `walk${g}`, 9, (sim) => {
        const text = sim.serialize();
        const back = deserializeResearchState(rules, text);
        if (!back.ok) throw new Error(`${back.error.code} ${back.error.path}: ${back.error.message}`);
        expect(serializeResearchState(rules, back.value)).toBe(text);
        // A loaded state plays on exactly as the original does.
        const a = sim.clone();
        const b = createResearchSimulator(rules, back.value, { chance: sim.chance });
        const random = [createRandomSource('on'), createRandomSource('on')] as const;
        expect(b.playout(random[1])).toEqual(a.playout(random[0]));
      });
    }
  });

  test('a game with tiles discarded (fits nowhere): the discards are placed where they fit nowhere, the state loads', () => {
    // Search seeded random explicit games for one that discards a tile.
    let found = 0;
    for (let g = 0; g < 400 && found < 2; g++) {
      const sim = createResearchSimulator(classic, newInitialState(classic, { players: 2, seed: `disc${g}` }));
      sim.playout(createRandomSource(`disc${g}`));
      if (sim.state.discarded.some((n) => n > 0)) {
        found++;
        const back = deserializeResearchState(classic, sim.serialize());
        expect(back.ok ? 'ok' : back.error.message).toBe('ok');
      }
    }
    expect(found).toBeGreaterThan(0);
  });

  const tampered = (): { rules: Ruleset; data: { state: Record<string, unknown> } } => {
    const sim = createResearchSimulator(classic, newInitialState(classic, { players: 2, seed: 'tamper' }));
    const random = createRandomSource('tamper');
    for (let i = 0; i < 25; i++) sim.applyRandom(random);
    return { rules: classic, data: JSON.parse(sim.serialize()) as { state: Record<string, unknown> } };
  };
  const edits: [string, (st: Record<string, unknown>) => void, string, string | RegExp][] = [
    ['a score raised', (st) => ((st['scores'] as number[])[0]! += 5), 'state/tampered', '$.state.scores[0]'],
    ['a tile swapped for another kind', (st) => ((st['tiles'] as { id: string }[])[3]!.id = (st['tiles'] as { id: string }[])[3]!.id === 'E' ? 'F' : 'E'), 'state/tampered', /^\$\.state\./],
    ['a tile kind that does not exist', (st) => ((st['tiles'] as { id: string }[])[2]!.id = 'ZZ'), 'state/malformed', '$.state.tiles[2].id'],
    ['a move removed', (st) => (st['moves'] as unknown[]).splice(4, 1), 'state/tampered', /^\$\.state\./],
    ['a follower moved to the other player', (st) => ((st['supply'] as number[])[1]! -= 1), 'state/tampered', '$.state.supply[1]'],
    ['the bag refilled', (st) => ((st['bag'] as number[])[0]! += 1), 'state/tampered', '$.state.bag[0]'],
    ['the generator zeroed', (st) => (st['rng'] = [0, 0, 0, 0]), 'state/malformed', '$.state.rng'],
    ['players changed', (st) => (st['players'] = 7), 'state/malformed', '$.state.seed'],
    ['discards that cannot have happened', (st) => ((st['discarded'] as number[])[rulesIndex('D')] = 3), 'state/tampered', /^\$\.state\./],
  ];
  const rulesIndex = (id: string): number => classic.tileIndex[id]!;
  test.each(edits)('refused: %s', (_name, edit, code, path) => {
    const { rules, data } = tampered();
    edit(data.state);
    const before = JSON.stringify(data);
    const r = deserializeResearchState(rules, data);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe(code);
    if (typeof path === 'string') expect(r.error.path).toBe(path);
    else expect(r.error.path).toMatch(path);
    expect(JSON.stringify(data)).toBe(before); // the input is not changed
  });

  test("The Castle: the order of the tokens taken is part of the record; an edited one is refused", () => {
    // Swapping the first two tokens taken replays other reveals. Where nothing else in the state
    // tells them apart (the tokens used up alike), that is another valid record; where their
    // effects differ it contradicts the state and must be refused. Ignoring the order would accept
    // every swap.
    const codes: string[] = [];
    for (let g = 0; g < 20; g++) {
      const sim = createResearchSimulator(castleRules, newInitialState(castleRules, { players: 2, seed: `order${g}` }));
      sim.playout(createRandomSource(`order${g}`));
      const data = JSON.parse(sim.serialize()) as { state: { ext: { castle: { takenOrder: number[] } } } };
      expect(deserializeResearchState(castleRules, data).ok).toBe(true);
      const order = data.state.ext.castle.takenOrder;
      if (order.length < 2 || order[0] === order[1]) continue;
      [order[0], order[1]] = [order[1]!, order[0]!];
      const r = deserializeResearchState(castleRules, data);
      if (!r.ok) codes.push(r.error.code);
    }
    expect(codes.length).toBeGreaterThan(0);
    expect(new Set(codes)).toEqual(new Set(['state/tampered']));
  });

  test('envelope errors: not JSON, not an object, wrong format, version or ruleset, oversized text', () => {
    const text = serializeResearchState(classic, newInitialState(classic, { players: 2, seed: 'env' }));
    const code = (input: unknown, rules = classic): string => {
      const r = deserializeResearchState(rules, input);
      return r.ok ? 'ok' : r.error.code;
    };
    expect(code(text)).toBe('ok');
    expect(code('{')).toBe('state/json');
    expect(code('[1]')).toBe('state/malformed');
    expect(code(text.replace('meeplekit/research-state', 'meeplekit/state'))).toBe('state/malformed');
    expect(code(text.replace(`"version":${RESEARCH_STATE_VERSION}`, '"version":1'))).toBe('state/version');
    expect(code(text.replace(`"version":${RESEARCH_STATE_VERSION}`, `"version":${RESEARCH_STATE_VERSION + 1}`))).toBe('state/version');
    expect(code(text, castleRules)).toBe('state/ruleset-mismatch');
    expect(code(' '.repeat(17 * 1024 * 1024))).toBe('state/malformed');
  });

  test.each([
    ['classic', classic, 300],
    ['The Castle', castleRules, 120],
  ] as const)('fuzz (%s): one value changed anywhere never throws; only the generator, the seed, a discard or a concealed token told may give another valid state', (_name, rules, runs) => {
    const sim = createResearchSimulator(rules, newInitialState(rules, { players: 2, seed: 'fuzz' }));
    const random = createRandomSource('fuzz');
    for (let i = 0; i < 70; i++) sim.applyRandom(random);
    const text = sim.serialize();
    const original = JSON.parse(text) as unknown;
    const paths = jsonPaths(original);
    fc.assert(
      fc.property(fc.nat({ max: paths.length - 1 }), fc.oneof(fc.jsonValue(), fc.integer({ min: -2, max: 80 }), fc.constant(undefined)), (at, value) => {
        const input = JSON.parse(text) as Record<string | number, unknown>;
        const path = paths[at]!;
        if (path.length === 0) return;
        let parent = input;
        for (const k of path.slice(0, -1)) parent = parent[k] as Record<string | number, unknown>;
        if (value === undefined && !Array.isArray(parent)) delete parent[path[path.length - 1]!];
        else parent[path[path.length - 1]!] = value;
        const r = deserializeResearchState(rules, input); // never throws
        // Whatever loads is exactly what was given.
        if (r.ok) expect(canon(JSON.parse(serializeResearchState(rules, r.value)))).toBe(canon(input));
        // Any generator is a possible future, any seed a possible origin (what set-up drew from it
        // is read from the state), a tile that fits nowhere may have been drawn and discarded, and
        // a concealed wall token may be told (as a determinized state tells it): those may be
        // another valid state. Anything else changed is refused.
        const free =
          path[0] === 'state' && (path[1] === 'rng' || path[1] === 'seed' || path[1] === 'discarded' || (path[1] === 'ext' && path[2] === 'castle' && path[3] === 'wall'));
        if (!free && canon(input) !== canon(original) && r.ok) throw new Error(`accepted after setting ${path.join('.')} to ${JSON.stringify(value)}`);
      }),
      { numRuns: runs },
    );
  });

  test('app states load too (a newGame state is a research state with seeded draws)', () => {
    let s: GameState = must(newGame(classic, { players: 2, seed: 'app' }));
    for (let i = 0; i < 20; i++) s = must(applyMove(classic, s, legalMoves(classic, s)[0]!)).state;
    const back = deserializeResearchState(classic, serializeResearchState(classic, s));
    expect(back.ok && JSON.stringify(back.value)).toBe(JSON.stringify(s));
  });
});

describe('applyAction with events', () => {
  test.each([
    ['classic', classic],
    ['all six with the Count', SIX],
  ] as const)('%s: the events of an app game are the research events of its moves and of the draws as chance outcomes', (_name, rules) => {
    for (let g = 0; g < 4; g++) {
      let app: GameState = must(newGame(rules, { players: 3, seed: `ev${g}` }));
      // The research twin starts at the first draw and draws what the app game drew.
      let twin: GameState = newInitialState(rules, { players: 3, seed: `ev${g}` });
      const random = createRandomSource(`ev${g}`);
      const drawChance = (): GameEvent[] => {
        const out: GameEvent[] = [];
        while (isChanceNode(twin) && app.step.kind === 'place-tile') {
          const r = applyAction(rules, twin, rules.tileIndex[(app.step as { tile: string }).tile]!, { events: true });
          out.push(...r.events);
          twin = r.state;
        }
        return out;
      };
      drawChance();
      while (app.step.kind !== 'game-over') {
        const moves = legalMoves(rules, app);
        const move = moves[random(moves.length)]!;
        const t = must(applyMove(rules, app, move));
        const r = applyAction(rules, twin, moveToAction(rules, twin, move), { events: true });
        twin = r.state;
        app = t.state;
        const research = [...r.events, ...drawChance()];
        // The app's discards happen inside its draw; the twin draws only the tiles the app kept.
        expect(research).toEqual(t.events.filter((e) => e.type !== 'tile-discarded' && !(e.type === 'tile-drawn' && isDiscarded(t.events, e))));
      }
    }
  });

  test('the simulator returns the same events as the module function', () => {
    const start = newInitialState(classic, { players: 2, seed: 'sim-events' });
    const sim = createResearchSimulator(classic, start);
    let s: GameState = start;
    const random = createRandomSource('sim-events');
    for (let i = 0; i < 60 && !sim.isTerminal(); i++) {
      const legal = sim.isChanceNode() ? Int32Array.from(chanceOutcomes(classic, s).map((o) => o.outcome)) : legalActions(classic, s);
      const a = legal[random(legal.length)]!;
      const r = applyAction(classic, s, a, { events: true });
      expect(sim.applyAction(a, { events: true })).toEqual(r.events);
      s = r.state;
    }
  });
});

/** Whether a `tile-drawn` event is followed by the same tile's `tile-discarded` (the app's discard). */
function isDiscarded(events: readonly GameEvent[], drawn: GameEvent): boolean {
  const i = events.indexOf(drawn);
  const next = events[i + 1];
  return next !== undefined && next.type === 'tile-discarded';
}

describe('stateToString', () => {
  test('a hand-worked position: the start tile D (city north, road west to east) and a tile A south of it', () => {
    // D: city cap on the north edge, road east-west, fields. A: a cloister with a road leaving south.
    let s: GameState = newInitialState(classic, { players: 2, seed: 'text' });
    s = applyAction(classic, s, classic.tileIndex['A']!);
    s = applyAction(classic, s, moveToAction(classic, s, { type: 'place', player: 0, x: 0, y: 1, rotation: 0 }));
    s = applyAction(classic, s, moveToAction(classic, s, { type: 'deploy', player: 0, feature: 'm1' }));
    const text = stateToString(classic, s);
    expect(text).toContain('classic, 2 players, turn 1: chance node: the next tile is drawn for player 1\n');
    expect(text).toContain('scores: P0 0, P1 0\nfollowers in supply: P0 6, P1 7\nbag: 70 tiles (');
    // Columns x = 0; rows y = 0 (D) and y = 1 (A, monk of player 0 in the centre).
    expect(text).toContain(['   0 CCC', '     R.R', '     ...', '   1 ...', '     .0.', '     .R.'].join('\n'));
    expect(text).toContain('tiles (2, in the order laid): D@0,0r0 A@0,1r0');
    expect(text).toContain('  P0 on cloister m1 of A at 0,1');
  });

  test('an observation shows what it holds and nothing else: no seed, no generator', () => {
    const game = must(newGame(classic, { players: 2, seed: 'secret-seed-text' }));
    const text = stateToString(classic, observe(classic, game, 0));
    expect(text).not.toContain('secret-seed-text');
    expect(text).toContain('player 0 places tile');
  });

  test('every module shows its public part; a simulator prints the same text', () => {
    const sim = createResearchSimulator(SIX, newInitialState(SIX, { players: 3, seed: 'six-text' }));
    const random = createRandomSource('six-text');
    for (let i = 0; i < 40; i++) sim.applyRandom(random);
    const text = sim.toString();
    expect(text).toBe(stateToString(SIX, sim.state));
    for (const id of ['count', 'king-robber', 'princess-dragon', 'shrines', 'tower']) if (Object.hasOwn(sim.state.ext, id)) expect(text).toContain(`\n${id}: {`);
  });
});
