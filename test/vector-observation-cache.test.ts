/**
 * The vector environment writes its compact and entity observations incrementally
 * (src/ai/compact-row-cache.ts, src/ai/entity-row-cache.ts) and clears its masks of the last
 * batch's bits only: at every step of every environment, the batch's compact row must be byte for
 * byte what `writeCompactObservation` writes from scratch for the same state, observer and legal
 * actions (its entity block what `writeEntityObservation` writes), and its mask exactly the legal
 * list. Games run
 * through their ends (auto-reset, and without it), then a `vec_reset`, 2 to 5 players,
 * The Castle and every expansion; some environments spread (each tile placed as far out as it
 * may go) so that the window moves and clips. Actions come from a seeded source, new each run
 * (fast-check's seed, printed on a failure).
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { createRandomSource, type RandomSource } from '../src/index.js';
import {
  actionToMove,
  entitySpec,
  observationSpec,
  writeCompactObservation,
  writeEntityObservation,
  type CompactObservationBuffers,
  type EntityBuffers,
  type ResearchSimulator,
} from '../src/ai/index.js';
import { SERVE_CONFIG } from '../src/cli/serve.js';
import { gameOps, serveLimits } from '../src/serve/games.js';
import { createRegistry, type Handle, type Handles } from '../src/serve/registry.js';
import { packedMaskBytes, VECTOR_OPS, type VecEntry } from '../src/serve/vector.js';
import type { Ruleset } from '../src/core/ruleset.js';
import { byDepth } from './depth.js';

interface Config {
  readonly game?: string;
  readonly expansions?: readonly string[];
  readonly players: number;
  readonly autoReset?: boolean;
  readonly masks?: 'packed' | 'dense';
}

/** Which observations a run compares. */
type Kind = 'compact' | 'entity';

const CONFIGS: [string, Config][] = [
  ['classic, 2 players', { players: 2 }],
  ['classic, 3 players, dense masks', { players: 3, masks: 'dense' }],
  ['classic, 4 players, no auto-reset', { players: 4, autoReset: false }],
  ['classic, 5 players', { players: 5 }],
  ['The Castle, 2 players', { game: 'castle', players: 2 }],
  ['river + count + tower, 3 players', { expansions: ['river', 'count', 'tower'], players: 3 }],
  ['princess-dragon + king-robber + shrines, 2 players', { expansions: ['princess-dragon', 'king-robber', 'shrines'], players: 2 }],
  ['all six, 2 players', { expansions: ['river', 'count', 'tower', 'princess-dragon', 'king-robber', 'shrines'], players: 2 }],
  ['all six, 4 players', { expansions: ['river', 'count', 'tower', 'princess-dragon', 'king-robber', 'shrines'], players: 4 }],
];

/** A vector environment of `n` environments of `config`, driven in process. */
function makeVec(config: Config, n: number, seed: string, kind: Kind): { handles: Handles; id: string; v: VecEntry } {
  const handles = createRegistry<Handle>(serveLimits(SERVE_CONFIG));
  const g = gameOps(SERVE_CONFIG)['make_game']!.run({ game: config.game ?? 'classic', expansions: config.expansions ?? [], players: config.players }, handles);
  if (!g.ok) throw new Error(g.error.message);
  const r = VECTOR_OPS['vec_make']!.run(
    { game_id: g.value['game_id'], num_envs: n, seed, observations: kind, masks: config.masks ?? 'packed', auto_reset: config.autoReset ?? true },
    handles,
  );
  if (!r.ok) throw new Error(r.error.message);
  const id = r.value['env_id'] as string;
  const v = handles.get(id, 'vec', 'env_id');
  if (!v.ok) throw new Error(v.error.message);
  return { handles, id, v: v.value };
}

/** The legal placement that lies farthest from the start, else the first legal action. */
function farthest(rules: Ruleset, sim: ResearchSimulator, legal: Int32Array): number {
  let best = legal[0]!;
  let far = -1;
  for (const a of legal) {
    const m = actionToMove(rules, sim.state, a) as { type: string; x?: number; y?: number };
    if (m.type !== 'place' || m.x === undefined || m.y === undefined) continue;
    const d = Math.max(Math.abs(m.x), Math.abs(m.y));
    if (d > far) [best, far] = [a, d];
  }
  return best;
}

/** The full writers' buffers for one observation of either kind. */
interface Expected {
  readonly compact: CompactObservationBuffers;
  readonly entity: EntityBuffers;
}

/** Whether `a` and `b` hold the same bytes. */
function sameBytes(a: ArrayBufferView, b: ArrayBufferView): boolean {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
}

/** Compares every environment's part of the batch with what the full writers give; returns how many rows had a clipped window. */
function compareBatch(v: VecEntry, expected: Expected, clippedAt: number): number {
  const rules = v.game.rules;
  const c = v.game.spec.compact;
  const A = v.game.actions;
  const width = packedMaskBytes(A);
  let clipped = 0;
  for (let i = 0; i < v.n; i++) {
    const sim = v.envs[i]!;
    const legal = v.legal.subarray(v.offsets[i]!, v.offsets[i + 1]!);
    expect(Array.from(legal)).toEqual(Array.from(sim.legalActions()));
    const observer = sim.isTerminal() ? 0 : sim.currentPlayer();
    if (v.compact !== null) {
      const want = expected.compact;
      writeCompactObservation(rules, sim.state, observer, want, 0, legal);
      if (!sameBytes(v.compact.bits.subarray(i * c.bitBytes, (i + 1) * c.bitBytes), want.bits)) expect.fail(`env ${i}: compact bits differ from the full writer's`);
      if (!sameBytes(v.compact.counts.subarray(i * c.countBytes, (i + 1) * c.countBytes), want.counts)) expect.fail(`env ${i}: compact counts differ from the full writer's`);
      if (!sameBytes(v.compact.vector.subarray(i * c.vector, (i + 1) * c.vector), want.vector)) expect.fail(`env ${i}: compact vector differs from the full writer's`);
      clipped += want.vector[clippedAt]!;
    } else {
      const want = expected.entity;
      const got = v.entities!;
      const e = entitySpec(rules, sim.state.players);
      const size = e.maxRows * e.columns.length;
      writeEntityObservation(rules, sim.state, observer, want, 0);
      if (!sameBytes(got.rows.subarray(i * size, (i + 1) * size), want.rows)) expect.fail(`env ${i}: entity rows differ from the full writer's`);
      if (!sameBytes(got.mask.subarray(i * e.maxRows, (i + 1) * e.maxRows), want.mask)) expect.fail(`env ${i}: entity row mask differs from the full writer's`);
      if (!sameBytes(got.vector.subarray(i * e.vector, (i + 1) * e.vector), want.vector)) expect.fail(`env ${i}: entity vector differs from the full writer's`);
      clipped += want.vector[clippedAt]!;
    }
    // The mask holds exactly the legal actions.
    if (v.maskBits !== null) {
      const want = new Uint8Array(width);
      for (const a of legal) want[a >> 3]! |= 1 << (a & 7);
      if (!Buffer.from(v.maskBits.subarray(i * width, (i + 1) * width)).equals(Buffer.from(want))) expect.fail(`env ${i}: the packed mask is not the legal list`);
    } else {
      const want = new Uint8Array(A);
      for (const a of legal) want[a] = 1;
      if (!Buffer.from(v.mask!.subarray(i * A, (i + 1) * A)).equals(Buffer.from(want))) expect.fail(`env ${i}: the dense mask is not the legal list`);
    }
  }
  return clipped;
}

/**
 * Steps a vector environment of `config` until every environment has finished a game (and, with
 * auto-reset, `after` steps more into the next ones), then resets it (`vec_reset`) and steps 40
 * more, comparing every batch; returns the clipped rows seen and how many environments finished a game.
 */
function run(config: Config, seed: number, after: number, kind: Kind): { clipped: number; finished: number } {
  const n = 3;
  const { handles, id, v } = makeVec(config, n, `cache-${seed}`, kind);
  const spec = observationSpec(v.game.rules, config.players);
  const c = spec.compact;
  const e = entitySpec(v.game.rules, config.players);
  const expected: Expected = {
    compact: { bits: new Uint8Array(c.bitBytes), counts: new Uint8Array(c.countBytes), vector: new Float32Array(c.vector) },
    entity: { rows: new Float32Array(e.maxRows * e.columns.length), mask: new Uint8Array(e.maxRows), vector: new Float32Array(e.vector) },
  };
  const clippedAt = spec.features.indexOf('clipped');
  const random: RandomSource = createRandomSource(`cache-actions-${seed}`);
  const actions = new Array<number>(n).fill(0);
  const finished = new Array<boolean>(n).fill(false);
  let clipped = compareBatch(v, expected, clippedAt);
  const step = (): void => {
    for (let i = 0; i < n; i++) {
      const legal = v.legal.subarray(v.offsets[i]!, v.offsets[i + 1]!);
      // Environment 0 spreads; the others play at random.
      actions[i] = legal.length === 0 ? 0 : i === 0 ? farthest(v.game.rules, v.envs[i]!, legal) : legal[random(legal.length)]!;
    }
    const r = VECTOR_OPS['vec_step']!.run({ env_id: id, actions }, handles);
    if (!r.ok) throw new Error(r.error.message);
    for (let i = 0; i < n; i++) if (v.done[i] === 1) finished[i] = true;
    clipped += compareBatch(v, expected, clippedAt);
  };
  // A game has a few hundred decisions at most: the bound only stops a runaway test.
  for (let k = 0; k < 2000 && finished.includes(false); k++) step();
  for (let k = 0; k < after; k++) step();
  const r = VECTOR_OPS['vec_reset']!.run({ env_id: id, seed: `cache-again-${seed}` }, handles);
  if (!r.ok) throw new Error(r.error.message);
  clipped += compareBatch(v, expected, clippedAt);
  for (let k = 0; k < 40; k++) step();
  return { clipped, finished: finished.filter((f) => f).length };
}

describe.each(['compact', 'entity'] as const)('vector environment: incremental %s observations and cleared masks equal the full writers at every step', (kind) => {
  test.each(CONFIGS)('%s', (_name, config) => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e6 }), (seed) => {
        const { clipped, finished } = run(config, seed, byDepth(120, 40), kind);
        // Every environment finished a game (with auto-reset, new ones began in the same rows);
        // the spreading environment went past a classic window.
        expect(finished).toBe(3);
        if (config.game !== 'castle') expect(clipped).toBeGreaterThan(0);
      }),
      { numRuns: 1 },
    );
  });
});
