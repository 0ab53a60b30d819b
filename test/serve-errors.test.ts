/**
 * `meeplekit serve`'s refusals: every `protocol/...` code, library codes passed through, and after
 * each refusal the session still answers and nothing changed. Also the line reader (chunks,
 * UTF-8, lines over the limit) and the handle limit.
 */
import { describe, expect, test } from 'vitest';
import { LIMITS, MEMORY_ESTIMATE, PROTOCOL_ERROR_CODES } from '../src/serve/request.js';
import { createRegistry, type Handle, type ServerLoad } from '../src/serve/registry.js';
import { createSession } from '../src/serve/session.js';
import { createLineReader } from '../src/serve/transport.js';
import { Client, decode, TEST_CONFIG } from './serve-helpers.js';

/** A client with game g1 (classic, 2 players), a state s1 at its first decision and a vector environment v1 of 3. */
function setUp(): Client {
  const c = new Client();
  c.ok({ op: 'make_game' });
  c.ok({ op: 'new_state', game_id: 'g1', seed: 'errors', initial: 'drawn' });
  c.ok({ op: 'vec_make', game_id: 'g1', num_envs: 3, seed: 'errors' });
  return c;
}

/** Everything a client can see of s1 and v1's next step, to check that a refusal changed nothing. */
function snapshot(c: Client): unknown {
  const { id: _a, ...state } = c.ok({ op: 'state', state_id: 's1' });
  const text = c.ok({ op: 'serialize', state_id: 's1' })['text'];
  const twin = c.ok({ op: 'clone', state_id: 's1' })['state_id'];
  c.ok({ op: 'delete', ids: [twin] });
  return { state, text };
}

/** v1's first legal actions (each env's first). */
function firstActions(c: Client, batch: Record<string, unknown>): number[] {
  const legal = batch['legal'] as { actions: unknown; offsets: unknown };
  const actions = decode(legal.actions);
  const offsets = decode(legal.offsets);
  return [0, 1, 2].map((i) => actions[offsets[i]!]!);
}

const RAW: readonly (readonly [string, string, string])[] = [
  ['not JSON', 'nonsense', 'protocol/json'],
  ['cut short', '{"id":1,"op":"info"', 'protocol/json'],
  ['NaN is not JSON', '{"id":1,"op":"vec_make","game_id":"g1","num_envs":NaN,"seed":1}', 'protocol/json'],
  ['Infinity is not JSON', '{"id":1,"op":"apply_action","state_id":"s1","action":Infinity}', 'protocol/json'],
  ['an array', '[{"op":"info"}]', 'protocol/request'],
  ['a string', '"info"', 'protocol/request'],
  ['null', 'null', 'protocol/request'],
  ['an object id', '{"id":{"a":1},"op":"info"}', 'protocol/request'],
  ['no op', '{"id":1}', 'protocol/request'],
  ['a numeric op', '{"id":1,"op":7}', 'protocol/request'],
  ['an unknown op', '{"id":1,"op":"step"}', 'protocol/unknown-op'],
  ['a prototype name as op', '{"id":1,"op":"constructor"}', 'protocol/unknown-op'],
  ['another protocol version', '{"id":1,"op":"info","protocol":2}', 'protocol/version'],
  ['a protocol version as text', '{"id":1,"op":"info","protocol":"1"}', 'protocol/version'],
];

const REQUESTS: readonly (readonly [string, Record<string, unknown>, string])[] = [
  ['1e400 parses to Infinity: not an integer', { op: 'apply_action', state_id: 's1', action: 1e400 }, 'protocol/request'],
  ['a fractional action', { op: 'apply_action', state_id: 's1', action: 0.5 }, 'protocol/request'],
  ['an action as text', { op: 'apply_action', state_id: 's1', action: '3' }, 'protocol/request'],
  ['no action', { op: 'apply_action', state_id: 's1' }, 'protocol/request'],
  ['events not a boolean', { op: 'apply_action', state_id: 's1', action: 0, events: 1 }, 'protocol/request'],
  ['a misspelt field', { op: 'state', state_id: 's1', observe: 0 }, 'protocol/request'],
  ['an observer out of range', { op: 'state', state_id: 's1', observation: 2 }, 'protocol/request'],
  ['a negative player', { op: 'observation_tensor', state_id: 's1', player: -1 }, 'protocol/request'],
  ['an unknown returns kind', { op: 'returns', state_id: 's1', kind: 'elo' }, 'protocol/request'],
  ['a handle that is a number', { op: 'state', state_id: 1 }, 'protocol/request'],
  ['an unknown state', { op: 'state', state_id: 's99' }, 'protocol/unknown-handle'],
  ['a game where a state belongs', { op: 'state', state_id: 'g1' }, 'protocol/unknown-handle'],
  ['a state where a vector environment belongs', { op: 'vec_step', env_id: 's1', actions: [0, 0, 0] }, 'protocol/unknown-handle'],
  ['an unknown game', { op: 'new_state', game_id: 'g9' }, 'protocol/unknown-handle'],
  ['an unknown initial', { op: 'new_state', game_id: 'g1', initial: 'empty' }, 'protocol/request'],
  ['a seed too long (the library\'s code)', { op: 'new_state', game_id: 'g1', seed: 'x'.repeat(257) }, 'options/seed'],
  ['a fractional seed', { op: 'vec_make', game_id: 'g1', num_envs: 2, seed: 1.5 }, 'options/seed'],
  ['no seed for vec_make', { op: 'vec_make', game_id: 'g1', num_envs: 2 }, 'options/seed'],
  ['no seed for determinize', { op: 'determinize', state_id: 's1', player: 0 }, 'options/seed'],
  ['num_envs 0', { op: 'vec_make', game_id: 'g1', num_envs: 0, seed: 1 }, 'protocol/request'],
  ['negative num_envs', { op: 'vec_make', game_id: 'g1', num_envs: -5, seed: 1 }, 'protocol/request'],
  ['huge num_envs', { op: 'vec_make', game_id: 'g1', num_envs: 1e9, seed: 1 }, 'protocol/too-large'],
  ['num_envs just over the limit', { op: 'vec_make', game_id: 'g1', num_envs: LIMITS.numEnvs + 1, seed: 1 }, 'protocol/too-large'],
  ['dense masks of 4096 envs (335 MB)', { op: 'vec_make', game_id: 'g1', num_envs: 4096, seed: 1, masks: 'dense' }, 'protocol/too-large'],
  ['observations of 4096 envs', { op: 'vec_make', game_id: 'g1', num_envs: 4096, seed: 1, observations: true }, 'protocol/too-large'],
  ['an unknown mask mode', { op: 'vec_make', game_id: 'g1', num_envs: 2, seed: 1, masks: 'sparse' }, 'protocol/request'],
  ['too few actions', { op: 'vec_step', env_id: 'v1', actions: [0, 0] }, 'protocol/request'],
  ['actions not integers', { op: 'vec_step', env_id: 'v1', actions: [0, null, 0] }, 'protocol/request'],
  ['actions beyond int32', { op: 'vec_step', env_id: 'v1', actions: [0, 2 ** 31, 0] }, 'protocol/request'],
  ['actions as a number', { op: 'vec_step', env_id: 'v1', actions: 3 }, 'protocol/request'],
  ['binary actions of another dtype', { op: 'vec_step', env_id: 'v1', actions: { dtype: 'float32', shape: [3], b64: 'AAAAAAAAAAAAAAAA' } }, 'protocol/request'],
  ['binary actions of another shape', { op: 'vec_step', env_id: 'v1', actions: { dtype: 'int32', shape: [2], b64: 'AAAAAAAAAAA=' } }, 'protocol/request'],
  ['binary actions too short', { op: 'vec_step', env_id: 'v1', actions: { dtype: 'int32', shape: [3], b64: 'AAAAAAAAAAA=' } }, 'protocol/request'],
  ['binary actions not base64', { op: 'vec_step', env_id: 'v1', actions: { dtype: 'int32', shape: [3], b64: 'AAAA!AAAAAAAAAAA' } }, 'protocol/request'],
  ['binary actions with an extra field', { op: 'vec_step', env_id: 'v1', actions: { dtype: 'int32', shape: [3], b64: 'AAAAAAAAAAAAAAAA', order: 'C' } }, 'protocol/request'],
  ['delete of a non-handle', { op: 'delete', ids: ['s1', 5] }, 'protocol/request'],
  ['delete without a list', { op: 'delete', ids: 's1' }, 'protocol/request'],
  ['deserialize without text', { op: 'deserialize', game_id: 'g1' }, 'protocol/request'],
  ['deserialize of nonsense (the library\'s code)', { op: 'deserialize', game_id: 'g1', text: '{"format":"x"}' }, 'state/malformed'],
  ['stats reset not a boolean', { op: 'stats', reset: 'yes' }, 'protocol/request'],
];

describe('serve: refusals leave the session working and every handle unchanged', () => {
  test('every protocol error code is exercised here or below', () => {
    // The limits' own codes: 'serve: memory limits' below and test/serve-cli.test.ts (connections).
    const limits = ['protocol/connection-full', 'protocol/server-full', 'protocol/too-many-connections'];
    // The bot operations' own code: test/serve-bot.test.ts.
    const codes = new Set([...RAW.map((r) => r[2]), ...REQUESTS.map((r) => r[2]), 'protocol/illegal-action', 'protocol/internal', 'protocol/chance-node', ...limits]);
    for (const code of PROTOCOL_ERROR_CODES) expect(codes.has(code), code).toBe(true);
  });

  test.each(RAW)('a line that is %s: %s', (_name, line, code) => {
    const c = setUp();
    const before = snapshot(c);
    const r = c.raw(line);
    expect(r.ok).toBe(false);
    expect(r.error!.code, r.error!.message).toBe(code);
    // The id is echoed whenever the request is an object with a valid id.
    expect(r.id).toBe(code === 'protocol/json' || !line.includes('"id":1') ? null : 1);
    expect(snapshot(c)).toEqual(before);
    expect(c.ok({ op: 'info' })['protocol']).toBe(1);
  });

  test.each(REQUESTS)('a request with %s', (_name, req, code) => {
    const c = setUp();
    const before = snapshot(c);
    const batch = c.ok({ op: 'vec_reset', env_id: 'v1' });
    const error = c.refused(req, code);
    expect(error.message).not.toMatch(/undefined|\[object Object\]/);
    expect(snapshot(c)).toEqual(before);
    c.ok({ op: 'vec_step', env_id: 'v1', actions: firstActions(c, batch) });
    expect(c.ok({ op: 'info' })['protocol']).toBe(1);
  });

  test('an illegal action on a state is refused with the state\'s id and why, and changes nothing', () => {
    const c = setUp();
    const before = snapshot(c);
    const legal = c.ok({ op: 'state', state_id: 's1' })['legal_actions'] as number[];
    const illegal = [...Array(200).keys()].find((a) => !legal.includes(a))!;
    expect(c.refused({ op: 'apply_action', state_id: 's1', action: illegal }, 'protocol/illegal-action').message).toMatch(/^state s1: action \d+ is not legal: player 0's place-tile step has \d+ legal actions/);
    expect(c.refused({ op: 'apply_action', state_id: 's1', action: -1 }, 'protocol/illegal-action').message).toMatch(/action ids are 0 to 81804/);
    expect(snapshot(c)).toEqual(before);
    c.ok({ op: 'apply_action', state_id: 's1', action: legal[0]! });
    // At a chance node, the message lists outcomes; at the end, says the game is over.
    const chance = c.ok({ op: 'new_state', game_id: 'g1', seed: 1 })['state_id'];
    expect(c.refused({ op: 'apply_action', state_id: chance, action: 30 }, 'protocol/illegal-action').message).toMatch(/chance node whose outcomes are 0, 1, 2/);
  });

  test('an illegal action in one env refuses the whole step: no env moves', () => {
    const c = setUp();
    const twin = setUp();
    const batch = c.ok({ op: 'vec_reset', env_id: 'v1' });
    const actions = firstActions(c, batch);
    const error = c.refused({ op: 'vec_step', env_id: 'v1', actions: [actions[0], actions[1], 999999] }, 'protocol/illegal-action');
    expect(error.message).toMatch(/^v1 env 2: action 999999 is not legal/);
    twin.ok({ op: 'vec_reset', env_id: 'v1' });
    const { id: _a, ...mine } = c.ok({ op: 'vec_step', env_id: 'v1', actions });
    const { id: _b, ...theirs } = twin.ok({ op: 'vec_step', env_id: 'v1', actions });
    expect(mine).toEqual(theirs);
  });

  test('ids are echoed: numbers, strings, null, none', () => {
    const c = new Client();
    expect(c.raw('{"id":"a-1","op":"info"}').id).toBe('a-1');
    expect(c.raw('{"id":2.5,"op":"info"}').id).toBe(2.5);
    expect(c.raw('{"id":null,"op":"info"}').id).toBe(null);
    expect(c.raw('{"op":"info"}').id).toBe(null);
    expect(c.raw('{"id":"x","op":"nothing"}')).toMatchObject({ id: 'x', ok: false });
  });

  test('a bug inside an operation is protocol/internal, and the session goes on', () => {
    const session = createSession({ ...TEST_CONFIG, expansions: { ...TEST_CONFIG.expansions, broken: () => { throw new Error('a broken factory'); } } });
    const r = JSON.parse(session.handle('{"id":1,"op":"make_game","expansions":["broken"]}')) as { error: { code: string; message: string } };
    expect(r.error).toEqual({ code: 'protocol/internal', message: 'Error: a broken factory' });
    expect(JSON.parse(session.handle('{"id":2,"op":"make_game"}'))).toMatchObject({ id: 2, ok: true, game_id: 'g1' });
  });

  test('a line over the limit is answered with protocol/too-large (id null)', () => {
    const session = new Client().session;
    expect(JSON.parse(session.oversized(LIMITS.lineBytes + 1))).toMatchObject({ id: null, ok: false, error: { code: 'protocol/too-large' } });
  });

  test('a library error passes through with its path', () => {
    const c = setUp();
    const text = c.ok({ op: 'serialize', state_id: 's1' })['text'] as string;
    const tampered = text.replace('"scores":[0,0]', '"scores":[5,0]');
    expect(tampered).not.toBe(text);
    const error = c.refused({ op: 'deserialize', game_id: 'g1', text: tampered }, 'state/tampered');
    expect(error.path).toMatch(/scores/);
  });
});

describe('serve: handles', () => {
  test('the handle limit counts each environment of a vector environment, and deleting frees room', () => {
    const registry = createRegistry<Handle>(LIMITS);
    const big = { kind: 'vec', weight: LIMITS.handles - 1, bytes: 0 } as unknown as Handle;
    const one = { kind: 'state', weight: 1, bytes: 0 } as unknown as Handle;
    const id = registry.add('v', big);
    if (!id.ok) throw new Error(id.error.message);
    expect(registry.add('s', one)).toMatchObject({ ok: true, value: 's1' });
    const full = registry.add('s', one);
    expect(full.ok ? '' : full.error.code).toBe('protocol/too-large');
    expect(registry.remove([id.value, id.value, 'nothing'], 'ids')).toEqual({ ok: true, value: 1 });
    expect(registry.used).toBe(1);
    expect(registry.add('s', one)).toMatchObject({ ok: true, value: 's2' });
  });
});

describe('serve: memory limits', () => {
  const GAME = MEMORY_ESTIMATE.game;
  /** Room for the game handle and `games` games (each vector environment also counts its template, and its arrays: a few hundred bytes here). */
  const room = (games: number): number => MEMORY_ESTIMATE.gameHandle + games * GAME + 4096;

  test('a connection over its memory is refused with protocol/connection-full, changing nothing; deleting frees room', () => {
    const c = new Client({ ...TEST_CONFIG, limits: { memoryBytes: room(12) } });
    c.ok({ op: 'make_game' });
    const error = c.refused({ op: 'vec_make', game_id: 'g1', num_envs: 12, seed: 1 }, 'protocol/connection-full'); // 13 games with the template
    expect(error.message).toMatch(/delete or close some first/);
    expect(c.ok({ op: 'stats' })['handles']).toBe(1);
    c.ok({ op: 'vec_make', game_id: 'g1', num_envs: 10, seed: 1 }); // 11 games
    c.ok({ op: 'new_state', game_id: 'g1', seed: 1 });
    c.refused({ op: 'new_state', game_id: 'g1', seed: 2 }, 'protocol/connection-full');
    c.refused({ op: 'clone', state_id: 's1' }, 'protocol/connection-full');
    c.refused({ op: 'make_game' }, 'protocol/connection-full');
    expect(c.ok({ op: 'stats' })).toMatchObject({ handles: 12, memory_bytes: MEMORY_ESTIMATE.gameHandle + 12 * GAME + (10 * 25 + 4) });
    c.ok({ op: 'vec_close', env_id: 'v1' });
    c.ok({ op: 'clone', state_id: 's1' });
    c.ok({ op: 'vec_make', game_id: 'g1', num_envs: 9, seed: 1 });
  });

  test('the connections of a server share its memory: protocol/server-full until another session frees its handles or ends', () => {
    const config = { ...TEST_CONFIG, limits: { serverMemoryBytes: 2 * MEMORY_ESTIMATE.gameHandle + 20 * GAME } };
    const load: ServerLoad = { bytes: 0 };
    const a = new Client(config, load);
    const b = new Client(config, load);
    a.ok({ op: 'make_game' });
    b.ok({ op: 'make_game' });
    a.ok({ op: 'vec_make', game_id: 'g1', num_envs: 15, seed: 1 });
    const error = b.refused({ op: 'vec_make', game_id: 'g1', num_envs: 15, seed: 1 }, 'protocol/server-full');
    expect(error.message).toMatch(/another server/);
    expect(b.ok({ op: 'stats' })['handles']).toBe(1);
    a.ok({ op: 'delete', ids: ['v1'] });
    b.ok({ op: 'vec_make', game_id: 'g1', num_envs: 15, seed: 1 });
    a.refused({ op: 'vec_make', game_id: 'g1', num_envs: 15, seed: 1 }, 'protocol/server-full');
    b.session.close(); // the connection is over: its handles are freed
    a.ok({ op: 'vec_make', game_id: 'g1', num_envs: 15, seed: 1 });
    a.session.close();
    expect(load.bytes).toBe(0);
  });

  test('num_envs is bounded by the server\'s own limit, which info reports with the others', () => {
    const c = new Client({ ...TEST_CONFIG, limits: { numEnvs: 8 } });
    expect(c.ok({ op: 'info' })['limits']).toEqual({ ...LIMITS, numEnvs: 8 });
    c.ok({ op: 'make_game' });
    expect(c.refused({ op: 'vec_make', game_id: 'g1', num_envs: 9, seed: 1 }, 'protocol/too-large').message).toMatch(/limit of 8/);
    c.ok({ op: 'vec_make', game_id: 'g1', num_envs: 8, seed: 1 });
  });

  test('by default a connection holds far fewer than the 500 vector environments of 200 games with observations that exhausted a machine', () => {
    // Each: 200 x 4 x 35,622 bytes of observations (27.2 MiB) and 201 games (25.1 MiB): 2 GiB holds 39.
    const registry = createRegistry<Handle>(LIMITS);
    const vec = { kind: 'vec', weight: 200, bytes: 201 * GAME + 200 * 4 * 35622 } as unknown as Handle;
    let held = 0;
    while (registry.add('v', vec).ok) held++;
    expect(held).toBe(39);
    const full = registry.add('v', vec);
    expect(full.ok ? '' : full.error.code).toBe('protocol/connection-full');
  });
});

describe('serve: reading lines', () => {
  const read = (limit: number, chunks: (string | Buffer)[]): string[] => {
    const out: string[] = [];
    const reader = createLineReader(limit, (l) => out.push(l), (n) => out.push(`<too large: ${n}>`));
    for (const c of chunks) reader.push(typeof c === 'string' ? Buffer.from(c) : c);
    reader.end();
    return out;
  };

  test.each([
    ['lines in one chunk', ['a\nbb\nccc\n'], ['a', 'bb', 'ccc']],
    ['a line across chunks', ['{"id"', ':1}\n{"i', 'd":2}\n'], ['{"id":1}', '{"id":2}']],
    ['a last line without a newline', ['a\nb'], ['a', 'b']],
    ['empty lines are not lines', ['\n\na\n\n'], ['a']],
    ['a multi-byte character split between chunks', [Buffer.from('"é"\n').subarray(0, 2), Buffer.from('"é"\n').subarray(2)], ['"é"']],
    ['a line over the limit, in one chunk', ['0123456789ABC\nok\n'], ['<too large: 13>', 'ok']],
    ['a line over the limit, across chunks, answered once', ['01234567', '89ABCDEF', 'GHIJ\nok\n'], ['<too large: 16>', 'ok']],
    ['a line of exactly the limit', ['0123456789\n'], ['0123456789']],
  ])('%s', (_name, chunks, lines) => {
    expect(read(10, chunks)).toEqual(lines);
  });
});
