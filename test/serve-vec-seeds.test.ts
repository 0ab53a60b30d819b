/**
 * `vec_make`'s `seeds` (src/serve/vector.ts): environment i of a vector environment made with
 * `seeds` plays exactly what the one-environment vector environment of `seed: seeds[i]` plays,
 * byte for byte, with and without auto-reset, through `vec_reset`; bad `seeds` are refused with
 * their codes and change nothing.
 */
import { describe, expect, test } from 'vitest';
import { createRandomSource, createRuleset } from '../src/index.js';
import { createResearchSimulator, newInitialState } from '../src/ai/index.js';
import { MEMORY_ESTIMATE, SERVE_CAPABILITIES } from '../src/serve/request.js';
import { Client, decode, type Response } from './serve-helpers.js';

/** A binary array's typed array, or null when the response has none. */
function maybe(a: unknown): Float32Array | Uint8Array | Int32Array | null {
  return a === undefined ? null : decode(a);
}

/** Row i of a flat array of `n` rows, as bytes. */
function row(a: Float32Array | Uint8Array | Int32Array | null, i: number, n: number): string {
  if (a === null) return '';
  const width = a.length / n;
  const part = a.subarray(i * width, (i + 1) * width);
  return Buffer.from(part.buffer, part.byteOffset, part.byteLength).toString('base64');
}

/** Everything a batch says about environment i of n, as one string of its bytes. */
function envOf(r: Response, i: number, n: number): string {
  const legal = r['legal'] as { actions: unknown; offsets: unknown } | undefined;
  let actions = '';
  if (legal !== undefined) {
    const flat = decode(legal.actions) as Int32Array;
    const offsets = decode(legal.offsets) as Int32Array;
    actions = Array.from(flat.subarray(offsets[i], offsets[i + 1])).join(',');
  }
  const compact = r['compact_observations'] as Record<string, unknown> | undefined;
  return JSON.stringify([
    row(decode(r['current_player']), i, n),
    actions,
    row(maybe(r['mask_bits']), i, n),
    row(decode(r['rewards']), i, n),
    row(decode(r['done']), i, n),
    row(decode(r['returns']), i, n),
    row(maybe(compact?.['bits']), i, n),
    row(maybe(compact?.['counts']), i, n),
    row(maybe(compact?.['vector']), i, n),
  ]);
}

/** Environment i's legal actions in a batch, from its legal lists or its packed masks. */
function legalOf(r: Response, i: number): Int32Array {
  const legal = r['legal'] as { actions: unknown; offsets: unknown } | undefined;
  if (legal === undefined) {
    const bits = r['mask_bits'] as { shape: number[] };
    const width = bits.shape[1]!;
    const rowBits = (decode(bits) as Uint8Array).subarray(i * width, (i + 1) * width);
    const out: number[] = [];
    for (let a = 0; a < 8 * width; a++) if ((rowBits[a >> 3]! >> (a & 7)) & 1) out.push(a);
    return Int32Array.from(out);
  }
  const offsets = decode(legal.offsets) as Int32Array;
  return (decode(legal.actions) as Int32Array).subarray(offsets[i], offsets[i + 1]);
}

/**
 * Steps a vector environment made with `seeds` and, beside it, one one-environment vector
 * environment per seed (`seed: seeds[i]`), with the same random actions, `steps` times (or until
 * every game is over, without auto-reset); after every step environment i's part of the batch
 * must equal, byte for byte, the one-environment batch of its seed. Returns how many games ended.
 */
function playSideBySide(config: Record<string, unknown>, seeds: (string | number)[], options: Record<string, unknown>, steps: number): number {
  const c = new Client();
  const game = c.ok({ op: 'make_game', ...config })['game_id'];
  const n = seeds.length;
  let together = c.ok({ op: 'vec_make', game_id: game, num_envs: n, seeds, ...options });
  const togetherId = together['env_id'];
  const alone = seeds.map((seed) => c.ok({ op: 'vec_make', game_id: game, num_envs: 1, seed, ...options }));
  const aloneIds = alone.map((r) => r['env_id']);
  const random = createRandomSource(`agent ${JSON.stringify(seeds)}`);
  let ended = 0;
  for (let step = 0; ; step++) {
    for (let i = 0; i < n; i++) expect(envOf(together, i, n), `env ${i} at step ${step}`).toBe(envOf(alone[i]!, 0, 1));
    const done = decode(together['done']) as Uint8Array;
    const players = decode(together['current_player']) as Int32Array;
    if (step === steps || players.every((p) => p < 0)) break;
    const actions = seeds.map((_, i) => {
      const legal = legalOf(together, i);
      return legal.length === 0 ? -1 : legal[random(legal.length)]!;
    });
    together = c.ok({ op: 'vec_step', env_id: togetherId, actions });
    for (let i = 0; i < n; i++) alone[i] = c.ok({ op: 'vec_step', env_id: aloneIds[i], actions: [actions[i]] });
    const after = decode(together['done']) as Uint8Array;
    for (let i = 0; i < n; i++) if (after[i] === 1 && (options['auto_reset'] !== false || done[i] === 0)) ended++;
  }
  return ended;
}

describe('serve: vec_make with seeds, one per environment', () => {
  test('the server advertises it', () => {
    expect(SERVE_CAPABILITIES).toContain('vec-seeds');
    expect(new Client().hello['capabilities']).toContain('vec-seeds');
  });

  test('without auto-reset, environment i plays the game of seeds[i] to its end exactly as a vector environment of that seed alone, then stays done', () => {
    // A number seed, a repeated seed and one that is also another's prefix.
    const seeds = ['ray/0', 'ray/1', 7, 'ray/1', 'ray/10'];
    const ended = playSideBySide({ game: 'classic' }, seeds, { auto_reset: false, observations: 'compact', masks: 'packed' }, 100_000);
    expect(ended).toBe(seeds.length);
  });

  test('without auto-reset, with legal lists and no observations (what the Python client uses), and for The Castle', () => {
    expect(playSideBySide({ game: 'classic', players: 3 }, ['a', 'b', 'c'], { auto_reset: false, masks: 'list' }, 100_000)).toBe(3);
    expect(playSideBySide({ game: 'castle' }, ['castle/0', 'castle/1'], { auto_reset: false, observations: 'compact' }, 100_000)).toBe(2);
  });

  test('with auto-reset, environment i goes on into its next games as the vector environment of seeds[i] alone does', () => {
    const ended = playSideBySide({ game: 'classic' }, ['next/0', 'next/1', 'next/2'], { masks: 'packed' }, 260);
    expect(ended).toBeGreaterThanOrEqual(6); // every environment crossed into a second game, most a third
  });

  test('the documented procedure: a clone of newInitialState(seeds[i]), chance from "<seeds[i]>/0"', () => {
    const c = new Client();
    const game = c.ok({ op: 'make_game', game: 'classic' })['game_id'];
    const seeds = ['doc/3', 12];
    let r = c.ok({ op: 'vec_make', game_id: game, num_envs: 2, seeds, auto_reset: false });
    const classic = createRuleset({ game: 'classic' });
    if (!classic.ok) throw new Error(classic.error.message);
    const sims = seeds.map((s) => createResearchSimulator(classic.value, newInitialState(classic.value, { players: 2, seed: s })));
    const sources = seeds.map((s) => createRandomSource(`${String(s)}/0`));
    sims.forEach((sim, i) => {
      while (sim.isChanceNode()) sim.applyRandom(sources[i]!);
    });
    const agent = createRandomSource('doc agent');
    for (let step = 0; step < 30; step++) {
      for (let i = 0; i < 2; i++) expect(Array.from(legalOf(r, i))).toEqual(Array.from(sims[i]!.legalActions()));
      const actions = sims.map((sim) => {
        const legal = sim.legalActions();
        return legal[agent(legal.length)]!;
      });
      r = c.ok({ op: 'vec_step', env_id: 'v1', actions });
      sims.forEach((sim, i) => {
        sim.applyAction(actions[i]!);
        while (sim.isChanceNode()) sim.applyRandom(sources[i]!);
      });
    }
  });

  test('other seeds give other games; seeds that are all one seed are not the vector environment of that seed', () => {
    const c = new Client();
    const game = c.ok({ op: 'make_game', game: 'classic' })['game_id'];
    const strip = (r: Response): string => JSON.stringify([r['current_player'], r['legal']]);
    const a = c.ok({ op: 'vec_make', game_id: game, num_envs: 3, seeds: ['x', 'y', 'z'] });
    const b = c.ok({ op: 'vec_make', game_id: game, num_envs: 3, seeds: ['x', 'y', 'w'] });
    expect(envOf(a, 0, 3)).toBe(envOf(b, 0, 3));
    expect(envOf(a, 1, 3)).toBe(envOf(b, 1, 3));
    expect(envOf(a, 2, 3)).not.toBe(envOf(b, 2, 3));
    // seed "x" gives environment 1 the source "x/1"; seeds ["x", "x", "x"] give every one "x/0".
    const same = c.ok({ op: 'vec_make', game_id: game, num_envs: 3, seeds: ['x', 'x', 'x'] });
    const shared = c.ok({ op: 'vec_make', game_id: game, num_envs: 3, seed: 'x' });
    expect(envOf(same, 1, 3)).toBe(envOf(same, 0, 3));
    expect(envOf(shared, 0, 3)).toBe(envOf(same, 0, 3));
    expect(strip(shared)).not.toBe(strip(same));
  });

  test('vec_reset without a seed starts each environment again from its own seed, its source going on; with a seed, as vec_make with it', () => {
    const c = new Client();
    const game = c.ok({ op: 'make_game', game: 'classic' })['game_id'];
    const seeds = ['reset/0', 'reset/1'];
    c.ok({ op: 'vec_make', game_id: game, num_envs: 2, seeds, auto_reset: false });
    const alone = seeds.map((seed) => c.ok({ op: 'vec_make', game_id: game, num_envs: 1, seed, auto_reset: false })['env_id']);
    const again = c.ok({ op: 'vec_reset', env_id: 'v1' });
    const firsts = alone.map((id) => c.ok({ op: 'vec_reset', env_id: id }));
    for (let i = 0; i < 2; i++) expect(envOf(again, i, 2)).toBe(envOf(firsts[i]!, 0, 1));
    const seeded = c.ok({ op: 'vec_reset', env_id: 'v1', seed: 'one' });
    const made = c.ok({ op: 'vec_make', game_id: game, num_envs: 2, seed: 'one', auto_reset: false });
    for (let i = 0; i < 2; i++) expect(envOf(seeded, i, 2)).toBe(envOf(made, i, 2));
  });

  test('its memory estimate counts a template per distinct seed', () => {
    const c = new Client();
    const game = c.ok({ op: 'make_game', game: 'classic' })['game_id'];
    const base = c.ok({ op: 'stats' })['memory_bytes'] as number;
    c.ok({ op: 'vec_make', game_id: game, num_envs: 4, seed: 's', masks: 'none' });
    const one = (c.ok({ op: 'stats' })['memory_bytes'] as number) - base;
    c.ok({ op: 'vec_make', game_id: game, num_envs: 4, seeds: ['a', 'b', 'a', 3], masks: 'none' });
    const three = (c.ok({ op: 'stats' })['memory_bytes'] as number) - base - one;
    expect(three - one).toBe(2 * MEMORY_ESTIMATE.game);
  });

  test.each([
    ['not an array', { seeds: 'abc' }, 'protocol/request', /'seeds' must be an array of 3 seeds/],
    ['an object', { seeds: { 0: 'a', 1: 'b', 2: 'c' } }, 'protocol/request', /'seeds' must be an array/],
    ['too short', { seeds: ['a', 'b'] }, 'protocol/request', /one seed per environment \(3\), got 2/],
    ['too long', { seeds: ['a', 'b', 'c', 'd'] }, 'protocol/request', /one seed per environment \(3\), got 4/],
    ['empty', { seeds: [] }, 'protocol/request', /got 0/],
    ['with a seed too', { seed: 'a', seeds: ['a', 'b', 'c'] }, 'protocol/request', /'seed' or 'seeds', not both/],
    ['a seed of 257 characters', { seeds: ['a', 'x'.repeat(257), 'c'] }, 'options/seed', /'seeds\[1\]' must be a string of at most 256 characters/],
    ['a fraction', { seeds: ['a', 'b', 1.5] }, 'options/seed', /'seeds\[2\]'/],
    ['null', { seeds: [null, 'b', 'c'] }, 'options/seed', /'seeds\[0\]'/],
    ['a boolean', { seeds: ['a', true, 'c'] }, 'options/seed', /'seeds\[1\]'/],
    ['a nested array', { seeds: ['a', ['b'], 'c'] }, 'options/seed', /'seeds\[1\]'/],
    ['an unsafe integer', { seeds: ['a', 'b', 2 ** 60] }, 'options/seed', /'seeds\[2\]'/],
    ['neither seed nor seeds', {}, 'options/seed', /or 'seeds', one per environment/],
  ])('seeds %s: refused, and nothing is made', (_name, fields, code, message) => {
    const c = new Client();
    const game = c.ok({ op: 'make_game', game: 'classic' })['game_id'];
    const before = c.ok({ op: 'stats' });
    const e = c.refused({ op: 'vec_make', game_id: game, num_envs: 3, ...fields }, code);
    expect(e.message).toMatch(message);
    const after = c.ok({ op: 'stats' });
    expect([after['handles'], after['memory_bytes']]).toEqual([before['handles'], before['memory_bytes']]);
    // The next vector environment is still the first.
    expect(c.ok({ op: 'vec_make', game_id: game, num_envs: 3, seeds: ['a', 'b', 'c'] })['env_id']).toBe('v1');
  });

  test('vec_reset takes no seeds, and a refused one changes nothing', () => {
    const c = new Client();
    const game = c.ok({ op: 'make_game', game: 'classic' })['game_id'];
    const made = c.ok({ op: 'vec_make', game_id: game, num_envs: 2, seeds: ['p', 'q'] });
    c.refused({ op: 'vec_reset', env_id: 'v1', seeds: ['r', 's'] }, 'protocol/request');
    c.refused({ op: 'vec_reset', env_id: 'v1', seed: 1.5 }, 'options/seed');
    const stepped = c.ok({ op: 'vec_step', env_id: 'v1', actions: [legalOf(made, 0)[0], legalOf(made, 1)[0]] });
    const check = c.ok({ op: 'vec_make', game_id: game, num_envs: 2, seeds: ['p', 'q'] });
    const same = c.ok({ op: 'vec_step', env_id: 'v2', actions: [legalOf(check, 0)[0], legalOf(check, 1)[0]] });
    for (let i = 0; i < 2; i++) expect(envOf(stepped, i, 2)).toBe(envOf(same, i, 2));
  });
});
