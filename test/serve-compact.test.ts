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
  expect(width).toBe(Math.ceil(actions / 8));
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

  test('observations: true is float32, false none; an unknown kind or mask mode is refused, naming the choices', () => {
    const c = new Client();
    const g = c.ok({ op: 'make_game', game: 'classic', players: 2 });
    const size = (g['observation_shape'] as number[])[0]!;
    const r = c.ok({ op: 'vec_make', game_id: g['game_id'], num_envs: 2, seed: 1, observations: true });
    expect((r['observations'] as { shape: number[] }).shape).toEqual([2, size]);
    expect(c.ok({ op: 'vec_make', game_id: g['game_id'], num_envs: 2, seed: 1, observations: false })['observations']).toBeUndefined();
    for (const bad of ['entity', 'uint8', 1, null]) {
      const e = c.refused({ op: 'vec_make', game_id: g['game_id'], num_envs: 2, seed: 1, observations: bad }, 'protocol/request');
      expect(e.message).toContain('"none", "float32", "compact"');
    }
    expect(c.refused({ op: 'vec_make', game_id: g['game_id'], num_envs: 2, seed: 1, masks: 'bits' }, 'protocol/request').message).toContain('"packed"');
  });
});
