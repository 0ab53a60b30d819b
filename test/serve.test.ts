/**
 * `meeplekit serve` (src/serve/): sessions driven in process line by line, against the same games
 * played in process through meeplekit/ai. Every operation, a full random game over the state
 * operations, vector environments (steps, auto-reset, reproducibility from the seed), and every
 * error path, each followed by a request that still works. The real command over stdio and TCP:
 * test/serve-cli.test.ts.
 */
import { describe, expect, test } from 'vitest';
import { createRandomSource, createRuleset, newGame, type Ruleset } from '../src/index.js';
import {
  createResearchSimulator,
  determinize,
  gameInfo,
  newInitialState,
  observationSpec,
  stateToString,
  writeObservationTensor,
  type ResearchSimulator,
} from '../src/ai/index.js';
import { LIMITS, PROTOCOL_ERROR_CODES } from '../src/serve/request.js';
import { createRegistry } from '../src/serve/registry.js';
import { count } from '../src/expansions/count/index.js';
import { kingRobber } from '../src/expansions/king-robber/index.js';
import { princessDragon } from '../src/expansions/princess-dragon/index.js';
import { river } from '../src/expansions/river/index.js';
import { shrines } from '../src/expansions/shrines/index.js';
import { tower } from '../src/expansions/tower/index.js';
import { BinaryArray, stringifyResponse } from '../src/serve/codec.js';
import { Client, decode, TEST_CONFIG, type Response } from './serve-helpers.js';

function classic(): Ruleset {
  const r = createRuleset({ game: 'classic' });
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

/** A client with a classic 2-player game `g1`. */
function withGame(players = 2): { c: Client; game: string } {
  const c = new Client();
  const g = c.ok({ op: 'make_game', game: 'classic', players });
  return { c, game: g['game_id'] as string };
}

describe('serve: binary arrays', () => {
  test('a response is written as JSON.stringify writes it, binary arrays as {dtype, shape, b64} (little-endian)', () => {
    const response = {
      id: 'x"y',
      ok: true,
      text: 'é\n"',
      list: [1, { a: null }],
      skipped: undefined,
      nested: { legal: new BinaryArray(new Int32Array([1, -2, 70000])), deeper: { mask: new BinaryArray(new Uint8Array([0, 1, 1, 0]), [2, 2]) } },
      obs: new BinaryArray(new Float32Array([0.5, -1, 3e38])),
    };
    const text = stringifyResponse(response);
    expect(text).toBe(JSON.stringify(response));
    const back = JSON.parse(text) as { nested: { legal: unknown; deeper: { mask: unknown } }; obs: unknown };
    expect(back.nested.legal).toEqual({ dtype: 'int32', shape: [3], b64: Buffer.from([1, 0, 0, 0, 254, 255, 255, 255, 0x70, 0x11, 1, 0]).toString('base64') });
    expect(Array.from(decode(back.nested.legal))).toEqual([1, -2, 70000]);
    expect(Array.from(decode(back.nested.deeper.mask))).toEqual([0, 1, 1, 0]);
    expect(Array.from(decode(back.obs))).toEqual([0.5, -1, Math.fround(3e38)]);
  });
});

describe('serve: hello, info, make_game', () => {
  test('the hello line names the protocol and the version', () => {
    expect(new Client().hello).toEqual({ hello: 'meeplekit', protocol: 1, version: 'test', capabilities: ['binary-frames', 'compact-observations', 'packed-masks', 'vec-seeds', 'shm'] });
  });

  test('info lists the games, the expansions, every op and the limits', () => {
    const r = new Client().ok({ op: 'info', protocol: 1 });
    expect(r).toMatchObject({ protocol: 1, version: 'test', capabilities: ['binary-frames', 'compact-observations', 'packed-masks', 'vec-seeds', 'shm'], games: ['classic', 'castle'], limits: LIMITS });
    expect(r['expansions']).toEqual(Object.keys(TEST_CONFIG.expansions));
    expect(r['ops']).toEqual(
      [
        'action_to_string', 'analyse', 'apply_action', 'bot', 'chance_outcomes', 'clone', 'delete', 'deserialize', 'determinize', 'hello',
        'info', 'legal_actions_mask', 'make_game', 'new_state', 'observation_tensor', 'returns', 'rewards', 'serialize', 'state',
        'state_to_string', 'stats', 'vec_close', 'vec_make', 'vec_reset', 'vec_step',
      ],
    );
  });

  test('make_game reports gameInfo, the observation shape and the action counts', () => {
    const c = new Client();
    const r = c.ok({ op: 'make_game', game: 'classic', players: 3 });
    const spec = observationSpec(classic(), 3);
    expect(r).toMatchObject({ game_id: 'g1', ruleset: classic().id, players: 3, num_distinct_actions: 81805, max_chance_outcomes: 24, observation_shape: [spec.size] });
    expect(r['info']).toEqual(JSON.parse(JSON.stringify(gameInfo(classic(), 3))));
    expect((r['observation_spec'] as Record<string, unknown>)['planes']).toEqual(spec.planes);
    const castle = c.ok({ op: 'make_game', game: 'castle' });
    expect(castle).toMatchObject({ game_id: 'g2', players: 2, num_distinct_actions: 11459, max_chance_outcomes: 53 });
  });

  test.each([
    ['river II with its options', { expansions: ['river'], options: { river: { set: 'II' } } }, [river({ set: 'II' })]],
    ['king-robber and shrines', { expansions: ['shrines', 'king-robber'] }, [kingRobber(), shrines()]],
    ['the count, first edition', { expansions: ['count'], options: { count: { edition: 1 } } }, [count({ edition: 1 })]],
    ['tower and princess-dragon', { expansions: ['tower', 'princess-dragon'] }, [tower(), princessDragon()]],
    ['river and the count', { expansions: ['river', 'count'] }, [river(), count()]],
  ])('make_game: %s', (_name, config, expansions) => {
    const rules = createRuleset({ game: 'classic', expansions });
    if (!rules.ok) throw new Error(rules.error.message);
    const c = new Client();
    expect(c.ok({ op: 'make_game', ...config, players: 2 })['ruleset']).toBe(rules.value.id);
  });

  test.each([
    ['too many players (the library\'s check)', { game: 'classic', players: 6 }, 'options/players'],
    ['The Castle for three', { game: 'castle', players: 3 }, 'options/players'],
    ['an unknown game', { game: 'chess' }, 'options/unknown-game'],
    ['an unknown expansion', { expansions: ['inns'] }, 'options/unknown-expansion'],
    ['bad River options (checked by the module)', { expansions: ['river'], options: { river: { set: 'III' } } }, 'options/expansion-options'],
    ['options for an expansion without any', { expansions: ['shrines'], options: { shrines: { x: 1 } } }, 'options/expansion-options'],
    ['options not an object', { expansions: ['river'], options: { river: 'II' } }, 'protocol/request'],
    ['The Castle with an expansion', { game: 'castle', expansions: ['river'] }, 'options/conflicting-expansions'],
    ['options of a module not in the game', { expansions: [], options: { river: { set: 'II' } } }, 'protocol/request'],
    ['classic with game options', { options: { classic: { x: 1 } } }, 'options/game-options'],
    ['players as a string', { players: '2' }, 'protocol/request'],
    ['players as a fraction', { players: 2.5 }, 'protocol/request'],
    ['expansions not a list', { expansions: 'river' }, 'protocol/request'],
    ['a misspelt field', { player: 2 }, 'protocol/request'],
  ])('make_game refuses %s', (_name, config, code) => {
    const c = new Client();
    c.refused({ op: 'make_game', ...config }, code);
    expect(c.ok({ op: 'make_game' })['game_id']).toBe('g1'); // nothing was made before
  });
});

/** Plays one random game through the state operations and the same game in process; returns the final returns. */
function playGame(c: Client, game: string, rules: Ruleset, seed: string, agent: string, events: boolean): { served: number[]; local: number[]; steps: number } {
  const s = c.ok({ op: 'new_state', game_id: game, seed })['state_id'];
  const sim = createResearchSimulator(rules, newInitialState(rules, { players: 2, seed }));
  const random = createRandomSource(agent);
  let steps = 0;
  for (;;) {
    const st = c.ok({ op: 'state', state_id: s });
    expect(st['current_player']).toBe(sim.currentPlayer());
    expect(st['is_chance']).toBe(sim.isChanceNode());
    expect(st['is_terminal']).toBe(sim.isTerminal());
    expect(st['legal_actions']).toEqual(Array.from(sim.legalActions()));
    expect(st['returns']).toEqual(sim.returns());
    if (sim.isTerminal()) break;
    const legal = st['legal_actions'] as number[];
    const a = legal[random(legal.length)]!;
    const r = c.ok({ op: 'apply_action', state_id: s, action: a, ...(events ? { events: true } : {}) });
    if (events) expect(r['events']).toEqual(JSON.parse(JSON.stringify(sim.applyAction(a, { events: true }))));
    else sim.applyAction(a);
    expect(r).toMatchObject({ current_player: sim.currentPlayer(), is_chance: sim.isChanceNode(), is_terminal: sim.isTerminal() });
    expect(c.ok({ op: 'rewards', state_id: s })['rewards']).toEqual(sim.rewards());
    steps++;
  }
  return { served: c.ok({ op: 'returns', state_id: s })['returns'] as number[], local: sim.returns(), steps };
}

describe('serve: the state operations', () => {
  test('a full random game over the protocol matches meeplekit/ai in process (and again with events)', () => {
    const rules = classic();
    const { c, game } = withGame();
    const first = playGame(c, game, rules, 'serve/full', 'agent', false);
    expect(first.served).toEqual(first.local);
    expect(first.steps).toBeGreaterThan(140);
    const again = playGame(c, game, rules, 'serve/full', 'agent', true);
    expect(again.served).toEqual(first.served);
    const other = playGame(c, game, rules, 'serve/full', 'another agent', false);
    expect(other.served).toEqual(other.local);
  });

  test('new_state "drawn" is newGame\'s state: the first tile drawn by the seed', () => {
    const rules = classic();
    const { c, game } = withGame();
    const s = c.ok({ op: 'new_state', game_id: game, seed: 7, initial: 'drawn' })['state_id'];
    const g = newGame(rules, { players: 2, seed: 7 });
    if (!g.ok) throw new Error(g.error.message);
    const sim = createResearchSimulator(rules, g.value);
    expect(c.ok({ op: 'state', state_id: s })).toMatchObject({ current_player: 0, is_chance: false, legal_actions: Array.from(sim.legalActions()) });
    expect(c.ok({ op: 'state_to_string', state_id: s })['text']).toBe(stateToString(rules, sim.state));
  });

  test('chance_outcomes, legal_actions_mask, observation_tensor, action_to_string, state with observation', () => {
    const rules = classic();
    const { c, game } = withGame();
    const s = c.ok({ op: 'new_state', game_id: game, seed: 'ops' })['state_id'];
    const outcomes = c.ok({ op: 'chance_outcomes', state_id: s })['outcomes'] as [number, number][];
    expect(outcomes).toHaveLength(24);
    expect(outcomes.reduce((t, [, p]) => t + p, 0)).toBeCloseTo(1, 12);
    const chanceMask = decode(c.ok({ op: 'legal_actions_mask', state_id: s })['mask']);
    expect(chanceMask).toHaveLength(24);
    expect(c.ok({ op: 'action_to_string', state_id: s, action: 3 })['text']).toBe('draw D');
    c.ok({ op: 'apply_action', state_id: s, action: 3 });
    expect(c.ok({ op: 'chance_outcomes', state_id: s })['outcomes']).toEqual([]);
    const legal = c.ok({ op: 'state', state_id: s })['legal_actions'] as number[];
    const mask = decode(c.ok({ op: 'legal_actions_mask', state_id: s })['mask']);
    expect(mask).toHaveLength(81805);
    expect((mask as Uint8Array).reduce((t, x) => t + x, 0)).toBe(legal.length);
    for (const a of legal) expect(mask[a]).toBe(1);
    expect(c.ok({ op: 'action_to_string', state_id: s, action: legal[0]! })['text']).toMatch(/^place D at -?\d+,-?\d+ turned \d$/);
    expect(c.ok({ op: 'action_to_string', state_id: s, action: 5 })['text']).toBe('illegal action 5');

    const local = createResearchSimulator(rules, newInitialState(rules, { players: 2, seed: 'ops' }));
    local.applyAction(3);
    for (const p of [0, 1]) {
      const want = writeObservationTensor(rules, local.state, p, new Float32Array(37 * 31 * 31 + 65));
      expect(decode(c.ok({ op: 'observation_tensor', state_id: s, player: p })['observation'])).toEqual(want);
      expect(decode(c.ok({ op: 'state', state_id: s, observation: p })['observation'])).toEqual(want);
    }
  });

  test('returns and rewards of each kind at the end of a game', () => {
    const rules = classic();
    const { c, game } = withGame();
    const s = c.ok({ op: 'new_state', game_id: game, seed: 'kinds' })['state_id'] as string;
    const sim = createResearchSimulator(rules, newInitialState(rules, { players: 2, seed: 'kinds' }));
    const random = createRandomSource('kinds');
    while (!sim.isTerminal()) {
      const legal = sim.legalActions();
      const a = legal[random(legal.length)]!;
      sim.applyAction(a);
      c.ok({ op: 'apply_action', state_id: s, action: a });
    }
    for (const kind of ['score', 'win-loss', 'rank'] as const) {
      expect(c.ok({ op: 'returns', state_id: s, kind })['returns']).toEqual(sim.returns(kind));
      expect(c.ok({ op: 'rewards', state_id: s, kind })['rewards']).toEqual(sim.rewards(kind));
    }
    expect(c.ok({ op: 'state', state_id: s, kind: 'rank' })).toMatchObject({ is_terminal: true, current_player: -4, legal_actions: [], returns: sim.returns('rank') });
  });

  test('clone is independent; delete removes handles', () => {
    const { c, game } = withGame();
    const s = c.ok({ op: 'new_state', game_id: game, seed: 'clone' })['state_id'];
    const copy = c.ok({ op: 'clone', state_id: s })['state_id'];
    expect(copy).not.toBe(s);
    c.ok({ op: 'apply_action', state_id: copy, action: 0 });
    expect(c.ok({ op: 'state', state_id: s })['is_chance']).toBe(true);
    expect(c.ok({ op: 'state', state_id: copy })['is_chance']).toBe(false);
    expect(c.ok({ op: 'delete', ids: [s, copy] })['deleted']).toBe(2);
    c.refused({ op: 'state', state_id: s }, 'protocol/unknown-handle');
    expect(c.ok({ op: 'delete', ids: [] })['deleted']).toBe(0);
    expect(c.ok({ op: 'delete', ids: [s, 'nothing', game] })['deleted']).toBe(1); // deleting twice is no error
    c.refused({ op: 'new_state', game_id: game }, 'protocol/unknown-handle');
  });

  test('serialize and deserialize round-trip a mid-game state', () => {
    const { c, game } = withGame();
    const s = c.ok({ op: 'new_state', game_id: game, seed: 'text' })['state_id'];
    const random = createRandomSource('text');
    for (let i = 0; i < 30; i++) {
      const legal = c.ok({ op: 'state', state_id: s })['legal_actions'] as number[];
      c.ok({ op: 'apply_action', state_id: s, action: legal[random(legal.length)]! });
    }
    const text = c.ok({ op: 'serialize', state_id: s })['text'] as string;
    const back = c.ok({ op: 'deserialize', game_id: game, text })['state_id'];
    expect(c.ok({ op: 'state_to_string', state_id: back })['text']).toBe(c.ok({ op: 'state_to_string', state_id: s })['text']);
    expect(c.ok({ op: 'state', state_id: back })).toEqual({ ...c.ok({ op: 'state', state_id: s }), id: expect.anything() as unknown });
    expect(c.ok({ op: 'serialize', state_id: back })['text']).toBe(text);
    // The library's own refusals pass through.
    c.refused({ op: 'deserialize', game_id: game, text: 'not json' }, 'state/json');
    const castle = c.ok({ op: 'make_game', game: 'castle' })['game_id'];
    c.refused({ op: 'deserialize', game_id: castle, text }, 'state/ruleset-mismatch');
  });

  test('determinize: the same seed gives the same state, as determinize in process', () => {
    const rules = classic();
    const { c, game } = withGame();
    const s = c.ok({ op: 'new_state', game_id: game, seed: 'det', initial: 'drawn' })['state_id'];
    const a = c.ok({ op: 'determinize', state_id: s, player: 1, seed: 'guess' })['state_id'];
    const b = c.ok({ op: 'determinize', state_id: s, player: 1, seed: 'guess' })['state_id'];
    const g = newGame(rules, { players: 2, seed: 'det' });
    if (!g.ok) throw new Error(g.error.message);
    const want = createResearchSimulator(rules, determinize(rules, g.value, 1, 'guess')).serialize();
    expect(c.ok({ op: 'serialize', state_id: a })['text']).toBe(want);
    expect(c.ok({ op: 'serialize', state_id: b })['text']).toBe(want);
  });
});

/** The batch of a vec response, decoded. */
function batchOf(r: Response) {
  const legal = r['legal'] as { actions: unknown; offsets: unknown } | undefined;
  return {
    player: decode(r['current_player']) as Int32Array,
    actions: legal === undefined ? null : (decode(legal.actions) as Int32Array),
    offsets: legal === undefined ? null : (decode(legal.offsets) as Int32Array),
    mask: r['mask'] === undefined ? null : (decode(r['mask']) as Uint8Array),
    rewards: decode(r['rewards']) as Float32Array,
    done: decode(r['done']) as Uint8Array,
    returns: decode(r['returns']) as Float32Array,
    observations: r['observations'] === undefined ? null : (decode(r['observations']) as Float32Array),
  };
}

/** Uniform random legal actions for a batch. */
function randomActions(b: ReturnType<typeof batchOf>, random: (n: number) => number): number[] {
  const out: number[] = [];
  for (let i = 0; i < b.player.length; i++) {
    const lo = b.offsets![i]!;
    const n = b.offsets![i + 1]! - lo;
    out.push(n === 0 ? -1 : b.actions![lo + random(n)]!);
  }
  return out;
}

/** The environments of a vector environment as documented: a clone of newInitialState(seed), chance from `<seed>/<i>`. */
function localEnvs(rules: Ruleset, seed: string, n: number): { envs: ResearchSimulator[]; randoms: ((n: number) => number)[]; reset: (i: number) => void } {
  const template = createResearchSimulator(rules, newInitialState(rules, { players: 2, seed }));
  const randoms = Array.from({ length: n }, (_, i) => createRandomSource(`${seed}/${i}`));
  const envs: ResearchSimulator[] = [];
  const reset = (i: number): void => {
    const sim = template.clone();
    while (sim.isChanceNode()) sim.applyRandom(randoms[i]!);
    envs[i] = sim;
  };
  for (let i = 0; i < n; i++) reset(i);
  return { envs, randoms, reset };
}

describe('serve: vector environments', () => {
  test('vec_make and vec_step follow the documented procedure (chance from <seed>/<i>) step for step', () => {
    const rules = classic();
    const { c, game } = withGame();
    const N = 5;
    let r = c.ok({ op: 'vec_make', game_id: game, num_envs: N, seed: 'vec', observations: true });
    expect(r).toMatchObject({ env_id: 'v1', num_envs: N, players: 2 });
    const local = localEnvs(rules, 'vec', N);
    const random = createRandomSource('vec agent');
    const obs = new Float32Array(37 * 31 * 31 + 65);
    for (let step = 0; step < 40; step++) {
      const b = batchOf(r);
      for (let i = 0; i < N; i++) {
        const sim = local.envs[i]!;
        expect(b.player[i]).toBe(sim.currentPlayer());
        expect(Array.from(b.actions!.subarray(b.offsets![i], b.offsets![i + 1]))).toEqual(Array.from(sim.legalActions()));
        writeObservationTensor(rules, sim.state, sim.currentPlayer(), obs);
        // Compared as bytes (bit for bit, stricter than toEqual and far faster on 35,000 floats).
        const served = b.observations!.subarray(i * obs.length, (i + 1) * obs.length);
        expect(Buffer.from(served.buffer, served.byteOffset, served.byteLength).equals(Buffer.from(obs.buffer)), `observation of env ${i} at step ${step}`).toBe(true);
      }
      const actions = randomActions(b, random);
      r = c.ok({ op: 'vec_step', env_id: 'v1', actions });
      const after = batchOf(r);
      for (let i = 0; i < N; i++) {
        const sim = local.envs[i]!;
        const before = [...sim.state.scores];
        sim.applyAction(actions[i]!);
        while (sim.isChanceNode()) sim.applyRandom(local.randoms[i]!);
        expect(Array.from(after.rewards.subarray(2 * i, 2 * i + 2))).toEqual(sim.state.scores.map((x, p) => x - before[p]!));
        expect(after.done[i]).toBe(0);
      }
    }
  });

  test.each([
    ['The Castle (its token chance nodes resolved too)', { game: 'castle' }],
    ['classic with five expansions, 4 players (module steps, the Count deciding out of turn)', { expansions: ['count', 'tower', 'princess-dragon', 'king-robber', 'shrines'], players: 4 }],
    ['classic with both River sets, 3 players', { expansions: ['river'], options: { river: { set: 'both' } }, players: 3 }],
  ])('vector environments of %s play whole games, with observations', (_name, config) => {
    const c = new Client();
    const g = c.ok({ op: 'make_game', ...config });
    const P = g['players'] as number;
    const size = (g['observation_shape'] as number[])[0]!;
    const N = 4;
    let r = c.ok({ op: 'vec_make', game_id: g['game_id'], num_envs: N, seed: 'whole', observations: true });
    const random = createRandomSource('whole agent');
    const sums = Array.from({ length: N }, () => new Array<number>(P).fill(0));
    let finished = 0;
    for (let step = 0; step < 2000 && finished < N; step++) {
      const b = batchOf(r);
      expect(b.observations).toHaveLength(N * size);
      for (let i = 0; i < N; i++) expect(b.player[i]).toBeGreaterThanOrEqual(0);
      r = c.ok({ op: 'vec_step', env_id: 'v1', actions: randomActions(b, random) });
      const after = batchOf(r);
      for (let i = 0; i < N; i++) {
        for (let p = 0; p < P; p++) sums[i]![p]! += after.rewards[i * P + p]!;
        if (after.done[i] === 1) {
          expect(Array.from(after.returns.subarray(i * P, (i + 1) * P))).toEqual(sums[i]);
          sums[i]!.fill(0);
          finished++;
        }
      }
    }
    expect(finished).toBeGreaterThanOrEqual(N);
  });

  test('the same seed and actions give the same batches; another seed other games; actions as base64 or JSON', () => {
    const run = (seed: string, binary: boolean): string[] => {
      const { c, game } = withGame();
      const random = createRandomSource('same agent');
      let r = c.ok({ op: 'vec_make', game_id: game, num_envs: 8, seed });
      const out: string[] = [];
      for (let step = 0; step < 30; step++) {
        const actions = randomActions(batchOf(r), random);
        const sent = binary ? { dtype: 'int32', shape: [8], b64: Buffer.from(new Int32Array(actions).buffer).toString('base64') } : actions;
        r = c.ok({ op: 'vec_step', env_id: 'v1', actions: sent });
        const { id: _id, ...rest } = r;
        out.push(JSON.stringify(rest));
      }
      return out;
    };
    const a = run('repro', false);
    expect(run('repro', true)).toEqual(a);
    expect(run('other', false)).not.toEqual(a);
  });

  test('auto-reset: a finished game reports done and its final scores (the sum of its rewards), and a new game starts in the same step', () => {
    const { c, game } = withGame();
    const N = 3;
    let r = c.ok({ op: 'vec_make', game_id: game, num_envs: N, seed: 'auto' });
    const random = createRandomSource('auto agent');
    const sums = Array.from({ length: N }, () => [0, 0]);
    const finished: number[] = [];
    for (let step = 0; step < 400 && finished.length < 4; step++) {
      r = c.ok({ op: 'vec_step', env_id: 'v1', actions: randomActions(batchOf(r), random) });
      const b = batchOf(r);
      for (let i = 0; i < N; i++) {
        sums[i]![0]! += b.rewards[2 * i]!;
        sums[i]![1]! += b.rewards[2 * i + 1]!;
        if (b.done[i] === 1) {
          expect([b.returns[2 * i], b.returns[2 * i + 1]]).toEqual(sums[i]);
          expect(b.returns[2 * i]! + b.returns[2 * i + 1]!).toBeGreaterThan(0);
          expect(b.player[i]).toBe(0); // the new game's first decision
          sums[i] = [0, 0];
          finished.push(i);
        } else expect([b.returns[2 * i], b.returns[2 * i + 1]]).toEqual([0, 0]);
      }
    }
    expect(finished.length).toBeGreaterThanOrEqual(3);
  });

  test('without auto-reset a finished game stays done, its actions ignored (-1), until vec_reset', () => {
    const { c, game } = withGame();
    let r = c.ok({ op: 'vec_make', game_id: game, num_envs: 2, seed: 'stay', auto_reset: false, masks: 'dense' });
    const random = createRandomSource('stay agent');
    let ended = -1;
    for (let step = 0; step < 400; step++) {
      const b = batchOf(r);
      expect(b.actions).toBe(null);
      const actions = [0, 1].map((i) => {
        const row = b.mask!.subarray(i * 81805, (i + 1) * 81805);
        const legal = [...row.keys()].filter((a) => row[a] === 1);
        return legal.length === 0 ? -1 : legal[random(legal.length)]!;
      });
      r = c.ok({ op: 'vec_step', env_id: 'v1', actions });
      const after = batchOf(r);
      if (after.done[0] === 1 && after.done[1] === 1) {
        ended = step;
        break;
      }
    }
    expect(ended).toBeGreaterThan(50);
    for (let k = 0; k < 2; k++) {
      const b = batchOf(c.ok({ op: 'vec_step', env_id: 'v1', actions: [-1, 12345] }));
      expect(Array.from(b.done)).toEqual([1, 1]);
      expect(Array.from(b.player)).toEqual([-4, -4]);
      expect(Array.from(b.rewards)).toEqual([0, 0, 0, 0]);
      expect(Array.from(b.returns)).toEqual([0, 0, 0, 0]);
      expect(b.mask!.reduce((t, x) => t + x, 0)).toBe(0);
    }
    const fresh = batchOf(c.ok({ op: 'vec_reset', env_id: 'v1' }));
    expect(Array.from(fresh.done)).toEqual([0, 0]);
    expect(Array.from(fresh.player)).toEqual([0, 0]);
  });

  test('vec_reset with a seed starts over as vec_make with that seed; vec_close frees the handle', () => {
    const { c, game } = withGame();
    const made = c.ok({ op: 'vec_make', game_id: game, num_envs: 4, seed: 'r1' });
    const other = c.ok({ op: 'vec_make', game_id: game, num_envs: 4, seed: 'r2' });
    const reset = c.ok({ op: 'vec_reset', env_id: 'v2', seed: 'r1' });
    const strip = (r: Response): Record<string, unknown> => {
      const { id: _id, env_id: _env, num_envs: _n, players: _p, ...batch } = r;
      return batch;
    };
    expect(strip(reset)).toEqual(strip(made));
    expect(strip(other)).not.toEqual(strip(made));
    expect(c.ok({ op: 'vec_close', env_id: 'v1' })['closed']).toBe(1);
    c.refused({ op: 'vec_step', env_id: 'v1', actions: [0, 0, 0, 0] }, 'protocol/unknown-handle');
    expect(c.ok({ op: 'stats' })['handles']).toBe(1 + 4); // the game and v2's environments
    const none = c.ok({ op: 'vec_make', game_id: game, num_envs: 4, seed: 'r1', masks: 'none' });
    expect(Object.keys(none).sort()).toEqual(['current_player', 'done', 'env_id', 'id', 'num_envs', 'ok', 'players', 'returns', 'rewards']);
  });
});
