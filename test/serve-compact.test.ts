/**
 * Compact observations and packed masks of vector environments: a batch of each decodes to
 * exactly the float32 observations and the dense masks of the same games.
 */
import { describe, expect, test } from 'vitest';
import { createRandomSource } from '../src/index.js';
import { Client, decode, type Response } from './serve-helpers.js';

interface CompactSpec {
  version: number;
  bit_channels: number[];
  count_channels: number[];
  bit_bytes: number;
  count_bytes: number;
  vector: number;
}

/** The float32 observations of a batch's compact ones, unpacked as docs/protocol.md says. */
function unpackObservations(r: Response, spec: { planes: number[]; size: number; compact: CompactSpec }, n: number): Float32Array {
  const o = r['compact_observations'] as Record<string, unknown>;
  const bits = decode(o['bits']) as Uint8Array;
  const counts = decode(o['counts']) as Uint8Array;
  const vector = decode(o['vector']) as Float32Array;
  const c = spec.compact;
  const HW = spec.planes[1]! * spec.planes[2]!;
  const out = new Float32Array(n * spec.size);
  for (let i = 0; i < n; i++) {
    const base = i * spec.size;
    c.bit_channels.forEach((channel, k) => {
      for (let cell = 0; cell < HW; cell++) {
        const bit = k * HW + cell;
        out[base + channel * HW + cell] = (bits[i * c.bit_bytes + (bit >> 3)]! >> (bit & 7)) & 1;
      }
    });
    c.count_channels.forEach((channel, k) => out.set(counts.subarray(i * c.count_bytes + k * HW, i * c.count_bytes + (k + 1) * HW), base + channel * HW));
    out.set(vector.subarray(i * c.vector, (i + 1) * c.vector), base + spec.size - c.vector);
  }
  return out;
}

/** Dense masks of a batch's packed ones (least significant bit first). */
function unpackMasks(r: Response, actions: number): Uint8Array {
  const a = r['mask_bits'] as { shape: number[] };
  const bits = decode(a) as Uint8Array;
  const [n, width] = a.shape as [number, number];
  expect(width).toBe(8 * Math.ceil(actions / 64)); // whole 64-bit words
  const out = new Uint8Array(n * actions);
  for (let i = 0; i < n; i++) for (let j = 0; j < actions; j++) out[i * actions + j] = (bits[i * width + (j >> 3)]! >> (j & 7)) & 1;
  // The padding bits of each row are 0.
  for (let i = 0; i < n; i++) for (let j = actions; j < 8 * width; j++) expect((bits[i * width + (j >> 3)]! >> (j & 7)) & 1).toBe(0);
  return out;
}

describe('serve: compact observations and packed masks', () => {
  test.each([
    ['classic, 2 players', { game: 'classic', players: 2 }, 30],
    ['classic with five expansions, 3 players', { expansions: ['count', 'tower', 'princess-dragon', 'king-robber', 'shrines'], players: 3 }, 20],
    ['The Castle', { game: 'castle', players: 2 }, 20],
  ])('%s: the compact batch decodes to the float32 one, the packed masks to the dense ones, step for step', (_name, config, steps) => {
    const c = new Client();
    const g = c.ok({ op: 'make_game', ...config });
    const spec = g['observation_spec'] as { planes: number[]; size: number; compact: CompactSpec };
    const A = g['num_distinct_actions'] as number;
    expect(spec.compact.version).toBe(1);
    const N = 3;
    let compact = c.ok({ op: 'vec_make', game_id: g['game_id'], num_envs: N, seed: 'compact', observations: 'compact', masks: 'packed' });
    let full = c.ok({ op: 'vec_make', game_id: g['game_id'], num_envs: N, seed: 'compact', observations: 'float32', masks: 'dense' });
    expect(compact['observations']).toBeUndefined();
    expect(compact['mask']).toBeUndefined();
    const random = createRandomSource('compact agent');
    for (let step = 0; step < steps; step++) {
      const obs = decode(full['observations']) as Float32Array;
      expect(Buffer.from(unpackObservations(compact, spec, N).buffer).equals(Buffer.from(obs.buffer, obs.byteOffset, obs.byteLength)), `step ${step}`).toBe(true);
      const dense = decode(full['mask']) as Uint8Array;
      expect(Buffer.from(unpackMasks(compact, A)).equals(Buffer.from(dense))).toBe(true);
      const actions = Array.from({ length: N }, (_, i) => {
        const legal: number[] = [];
        for (let a = 0; a < A; a++) if (dense[i * A + a] === 1) legal.push(a);
        return legal[random(legal.length)]!;
      });
      compact = c.ok({ op: 'vec_step', env_id: 'v1', actions });
      full = c.ok({ op: 'vec_step', env_id: 'v2', actions });
    }
  });

  test('entity observations: a row per tile laid (the mask), the same vector as the compact observations of the same games', () => {
    const c = new Client();
    const g = c.ok({ op: 'make_game', game: 'classic', players: 2 });
    const spec = g['observation_spec'] as { features: string[]; entity: { version: number; max_rows: number; columns: string[] } };
    expect(spec.entity).toMatchObject({ version: 1, max_rows: 72 });
    const N = 3;
    let ent = c.ok({ op: 'vec_make', game_id: g['game_id'], num_envs: N, seed: 'ent', observations: 'entity', masks: 'list' });
    let compact = c.ok({ op: 'vec_make', game_id: g['game_id'], num_envs: N, seed: 'ent', observations: 'compact', masks: 'list' });
    const random = createRandomSource('entity agent');
    const placed = spec.features.indexOf('tiles placed');
    for (let step = 0; step < 10; step++) {
      const e = ent['entity_observations'] as Record<string, { shape: number[] }>;
      expect(e['rows']!.shape).toEqual([N, 72, spec.entity.columns.length]);
      const mask = decode(e['mask']) as Uint8Array;
      const vector = decode(e['vector']) as Float32Array;
      const other = decode((compact['compact_observations'] as Record<string, unknown>)['vector']) as Float32Array;
      expect(Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).equals(Buffer.from(other.buffer, other.byteOffset, other.byteLength))).toBe(true);
      for (let i = 0; i < N; i++) expect(mask.subarray(72 * i, 72 * (i + 1)).reduce((x, y) => x + y, 0)).toBe(vector[i * spec.features.length + placed]);
      const legal = ent['legal'] as { actions: unknown; offsets: unknown };
      const list = decode(legal.actions) as Int32Array;
      const offsets = decode(legal.offsets) as Int32Array;
      const actions = Array.from({ length: N }, (_, i) => list[offsets[i]! + random(offsets[i + 1]! - offsets[i]!)]!);
      ent = c.ok({ op: 'vec_step', env_id: 'v1', actions });
      compact = c.ok({ op: 'vec_step', env_id: 'v2', actions });
    }
  });

  test('observations: true is float32, false none; an unknown kind or mask mode is refused, naming the choices', () => {
    const c = new Client();
    const g = c.ok({ op: 'make_game', game: 'classic', players: 2 });
    const size = (g['observation_shape'] as number[])[0]!;
    const r = c.ok({ op: 'vec_make', game_id: g['game_id'], num_envs: 2, seed: 1, observations: true });
    expect((r['observations'] as { shape: number[] }).shape).toEqual([2, size]);
    expect(c.ok({ op: 'vec_make', game_id: g['game_id'], num_envs: 2, seed: 1, observations: false })['observations']).toBeUndefined();
    for (const bad of ['planes', 'uint8', 1, null]) {
      const e = c.refused({ op: 'vec_make', game_id: g['game_id'], num_envs: 2, seed: 1, observations: bad }, 'protocol/request');
      expect(e.message).toContain('"none", "float32", "compact"');
    }
    expect(c.refused({ op: 'vec_make', game_id: g['game_id'], num_envs: 2, seed: 1, masks: 'bits' }, 'protocol/request').message).toContain('"packed"');
  });
});

describe('serve: binary frames', () => {
  /** The arrays of a framed response, decoded as their JSON form would be: `{dtype, shape, b64}` objects back in place of `{dtype, shape, frame}`. */
  function unframe(line: string, frames: readonly Uint8Array[]): Response {
    const r = JSON.parse(line) as Response;
    const lengths = r['frames'] as number[];
    expect(lengths).toEqual(frames.map((f) => f.byteLength));
    delete r['frames'];
    const visit = (o: Record<string, unknown>): void => {
      for (const [k, v] of Object.entries(o)) {
        if (typeof v !== 'object' || v === null || Array.isArray(v)) continue;
        const a = v as Record<string, unknown>;
        if (typeof a['frame'] === 'number') {
          const f = frames[a['frame']]!;
          o[k] = { dtype: a['dtype'], shape: a['shape'], b64: Buffer.from(f.buffer, f.byteOffset, f.byteLength).toString('base64') };
        } else visit(a);
      }
    };
    visit(r);
    return r;
  }

  test('after hello with binary, every array of a response is a frame after its line, the same bytes as the base64 of a session without', () => {
    const framed = new Client();
    const plain = new Client();
    expect(framed.hello['capabilities']).toEqual(['binary-frames', 'compact-observations', 'packed-masks', 'vec-seeds', 'shm']);
    expect(framed.ok({ op: 'hello', binary: true })).toMatchObject({ protocol: 1, binary: true, capabilities: ['binary-frames', 'compact-observations', 'packed-masks', 'vec-seeds', 'shm'] });
    expect(framed.session.frames!()).toEqual([]);
    const requests: Record<string, unknown>[] = [
      { op: 'make_game', game: 'classic', players: 2 },
      { op: 'vec_make', game_id: 'g1', num_envs: 3, seed: 'frames', observations: 'compact', masks: 'packed' },
      { op: 'new_state', game_id: 'g1', seed: 'frames' },
      { op: 'observation_tensor', state_id: 's2', player: 0 },
      { op: 'vec_step', env_id: 'v1', actions: [-1, -1, -1] }, // refused: no frames
    ];
    let id = 100;
    for (const req of requests) {
      const line = JSON.stringify({ id: ++id, ...req });
      const a = framed.session.handle(line);
      const frames = framed.session.frames!();
      const b = JSON.parse(plain.session.handle(line)) as Response;
      if (frames.length === 0) {
        expect(a).not.toContain('"frames"');
        expect(JSON.parse(a)).toEqual(b);
      } else expect(unframe(a, frames)).toEqual(b);
    }
    // JSON again after hello without binary.
    framed.ok({ op: 'hello', binary: false });
    const r = framed.ok({ op: 'vec_reset', env_id: 'v1' });
    expect(framed.session.frames!()).toEqual([]);
    expect((r['current_player'] as Record<string, unknown>)['b64']).toBeTypeOf('string');
    framed.refused({ op: 'hello', binary: 'yes' }, 'protocol/request');
  });

  test('over a stream: the line, then the frames\' bytes, copied (the next step does not change what was written)', async () => {
    const { PassThrough } = await import('node:stream');
    const { runSession } = await import('../src/serve/transport.js');
    const { createSession } = await import('../src/serve/session.js');
    const { TEST_CONFIG } = await import('./serve-helpers.js');
    const input = new PassThrough();
    const output = new PassThrough();
    const chunks: Buffer[] = [];
    output.on('data', (c: Buffer) => chunks.push(c));
    const ended = new Promise<void>((resolve) => runSession(input, output, createSession(TEST_CONFIG), resolve));
    const lines = [
      { id: 1, op: 'hello', binary: true },
      { id: 2, op: 'make_game', game: 'classic', players: 2 },
      { id: 3, op: 'vec_make', game_id: 'g1', num_envs: 2, seed: 'stream', observations: 'compact', masks: 'list' },
      { id: 4, op: 'vec_step', env_id: 'v1', actions: [0, 0] },
    ];
    // The first legal action of each env is only known from the batch: step with what vec_make lists.
    input.write(lines.slice(0, 3).map((l) => `${JSON.stringify(l)}\n`).join(''));
    await new Promise((r) => setTimeout(r, 50));
    let all = Buffer.concat(chunks);
    const read = (from: number): { r: Response; frames: Buffer[]; end: number } => {
      const nl = all.indexOf(10, from);
      const r = JSON.parse(all.toString('utf8', from, nl)) as Response;
      let at = nl + 1;
      const frames = ((r['frames'] as number[] | undefined) ?? []).map((n) => {
        const f = all.subarray(at, at + n);
        at += n;
        return f;
      });
      return { r, frames, end: at };
    };
    let at = all.indexOf(10) + 1; // the hello line
    const responses = [];
    for (let k = 0; k < 3; k++) {
      const x = read(at);
      responses.push(x);
      at = x.end;
    }
    expect(at).toBe(all.length);
    const made = responses[2]!;
    const legal = made.r['legal'] as { actions: { frame: number }; offsets: { frame: number } };
    const list = new Int32Array(new Uint8Array(made.frames[legal.actions.frame]!).buffer);
    const offsets = new Int32Array(new Uint8Array(made.frames[legal.offsets.frame]!).buffer);
    const before = Buffer.from(all.subarray(0, at));
    input.end(`${JSON.stringify({ ...lines[3], actions: [list[offsets[0]!]!, list[offsets[1]!]!] })}\n`);
    await ended;
    all = Buffer.concat(chunks);
    expect(all.subarray(0, at).equals(before)).toBe(true);
    const stepped = read(at);
    expect(stepped.r.ok).toBe(true);
    expect(stepped.end).toBe(all.length);
    expect(Object.keys(stepped.r['compact_observations'] as object)).toEqual(['bits', 'counts', 'vector']);
  });
});
