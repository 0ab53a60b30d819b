/**
 * The observation writers were made faster (issue 29) without changing a byte: at every step of
 * random games, for two observers (the one to act and the next), the float32 tensor, the compact
 * row (with and without the legal actions given) and the entity observation are compared bit for
 * bit with what the writers wrote before the change (verbatim copies kept as oracles in test/fixtures), on the
 * state and on the observer's own view, over classic at 2 to 5 players, The Castle and several
 * expansion combinations up to all six. Some games spread on purpose (each tile placed as far
 * from the start as it may go), so that the window is clipped; the test checks it was.
 * Playthroughs come from a seed (style.md point 12), never `Math.random`: one game per
 * configuration and run, both tiers (about 10 to 15 s in all on the loaded 2-core machine), its seed
 * new at each run (fast-check's, printed on a failure) so that runs add up to wide coverage.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { createRandomSource, createRuleset, newGame, observe, projectedScores, type Ruleset, type GameState, type GameView, type Immutable } from '../src/index.js';
import {
  actionToMove,
  createResearchSimulator,
  entitySpec,
  observationSpec,
  writeCompactObservation,
  writeEntityObservation,
  writeObservationTensor,
  type CompactObservationBuffers,
  type EntityBuffers,
  type ResearchSimulator,
} from '../src/ai/index.js';
import { castle } from '../src/games/castle/entry.js';
import { count } from '../src/expansions/count/index.js';
import { kingRobber } from '../src/expansions/king-robber/index.js';
import { princessDragon } from '../src/expansions/princess-dragon/index.js';
import { river } from '../src/expansions/river/index.js';
import { shrines } from '../src/expansions/shrines/index.js';
import { tower } from '../src/expansions/tower/index.js';
import * as oracle from './fixtures/observation-oracle.js';
import * as entityOracle from './fixtures/entities-oracle.js';
import { must } from './helpers.js';

const RULESETS: [string, Ruleset, number[]][] = [
  ['classic', must(createRuleset({ game: 'classic' })), [2, 3, 4, 5]],
  ['The Castle', must(createRuleset({ game: castle() } as Parameters<typeof createRuleset>[0])), [2]],
  ['river', must(createRuleset({ game: 'classic', expansions: [river()] })), [2]],
  ['count + tower', must(createRuleset({ game: 'classic', expansions: [count(), tower()] })), [3]],
  ['princess-dragon + king-robber', must(createRuleset({ game: 'classic', expansions: [princessDragon(), kingRobber()] })), [2, 4]],
  ['river + shrines + count', must(createRuleset({ game: 'classic', expansions: [river(), shrines(), count()] })), [2]],
  ['all six', must(createRuleset({ game: 'classic', expansions: [river(), count(), tower(), princessDragon(), kingRobber(), shrines()] })), [2, 5]],
];

/** Both writers' buffers for one ruleset and player count, filled with junk first (a writer must overwrite it all). */
function buffers(rules: Ruleset, players: number) {
  const spec = observationSpec(rules, players);
  const c = spec.compact;
  const e = entitySpec(rules, players);
  const compact = (): CompactObservationBuffers => ({ bits: new Uint8Array(2 * c.bitBytes).fill(0xa5), counts: new Uint8Array(2 * c.countBytes).fill(0xa5), vector: new Float32Array(2 * c.vector).fill(-3) });
  const entity = (): EntityBuffers => ({ rows: new Float32Array(2 * e.maxRows * e.columns.length).fill(-3), mask: new Uint8Array(2 * e.maxRows).fill(9), vector: new Float32Array(2 * e.vector).fill(-3) });
  return {
    spec,
    float: [new Float32Array(spec.size).fill(-3), new Float32Array(spec.size).fill(-3)],
    compact: [compact(), compact()],
    entity: [entity(), entity()],
  };
}

/** The bytes of an array (a float32 one's too, so that -0 and 0, or two NaNs, are told apart). */
function bytes(a: Float32Array | Uint8Array): Buffer {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength);
}

/** Expects two arrays to hold the same bytes; on a difference, names the first differing byte (a deep equality of whole arrays is too slow here). */
function same(what: string, now: Float32Array | Uint8Array, old: Float32Array | Uint8Array): void {
  const a = bytes(now);
  const b = bytes(old);
  if (a.equals(b)) return;
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  expect.fail(`${what}: byte ${i} differs (${a[i]} now, ${b[i]} before; lengths ${a.length}, ${b.length})`);
}

/** Writes `observer`'s observations of `s` with today's writers and the oracles and expects the same bytes; returns the `clipped` entry. */
function compare(rules: Ruleset, b: ReturnType<typeof buffers>, s: Immutable<GameState> | Immutable<GameView>, observer: number, legal: Int32Array | undefined): number {
  const [fNow, fOld] = b.float as [Float32Array, Float32Array];
  writeObservationTensor(rules, s, observer, fNow);
  oracle.writeObservationTensor(rules, s, observer, fOld);
  same('float32', fNow, fOld);
  const [cNow, cOld] = b.compact as [CompactObservationBuffers, CompactObservationBuffers];
  for (const [row, given] of [[1, legal], [0, undefined]] as const) {
    writeCompactObservation(rules, s, observer, cNow, row, given);
    oracle.writeCompactObservation(rules, s, observer, cOld, row, given);
  }
  same('compact bits', cNow.bits, cOld.bits);
  same('compact counts', cNow.counts, cOld.counts);
  same('compact vector', cNow.vector, cOld.vector);
  const [eNow, eOld] = b.entity as [EntityBuffers, EntityBuffers];
  writeEntityObservation(rules, s, observer, eNow, 1);
  entityOracle.writeEntityObservation(rules, s, observer, eOld, 1);
  same('entity rows', eNow.rows, eOld.rows);
  same('entity mask', eNow.mask, eOld.mask);
  same('entity vector', eNow.vector, eOld.vector);
  return fNow[b.spec.size - b.spec.vector + b.spec.features.indexOf('clipped')]!;
}

/** The legal action that places the tile farthest from the start (a spreading game), else the first. */
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

/** Plays one game (random, or spreading) and compares every observation of every step. Returns how many steps had a clipped window. */
function playAndCompare(rules: Ruleset, players: number, seed: number, spread: boolean): number {
  const b = buffers(rules, players);
  const sim = createResearchSimulator(rules, must(newGame(rules, { players, seed: `speed-${seed}` })));
  const random = createRandomSource(`speed-${seed}`);
  let clipped = 0;
  for (;;) {
    const s = sim.state;
    const terminal = sim.isTerminal();
    const chance = sim.isChanceNode();
    const legal = terminal || chance ? undefined : sim.legalActions().slice();
    // Two observers (of two players, both): the one to act and the next, on the state; and the
    // one to act on its own view (what a client holds).
    const first = terminal ? 0 : s.active;
    for (const p of [first, (first + 1) % players]) {
      clipped = Math.max(clipped, compare(rules, b, s, p, legal));
      if (p === first) compare(rules, b, observe(rules, s, p), p, undefined);
    }
    // projectedScores' result, on the state and on a view, is what a fresh copy scored.
    expect(projectedScores(rules, s)).toEqual(oracleProjected(rules, s));
    if (terminal) return clipped;
    if (chance || !spread || legal === undefined) sim.applyRandom(random);
    else sim.applyAction(farthest(rules, sim, legal));
  }
}

/** The projected scores as the oracle's vector holds them (observer 0: seat order). */
function oracleProjected(rules: Ruleset, s: Immutable<GameState>): number[] {
  const spec = observationSpec(rules, s.players);
  const out = new Float32Array(spec.size);
  oracle.writeObservationTensor(rules, s, 0, out);
  const at = spec.size - spec.vector + spec.features.indexOf('projected of observer');
  return Array.from(out.subarray(at, at + s.players));
}

describe('observation writers (issue 29): the same bytes as before they were made faster', () => {
  for (const [name, rules, counts] of RULESETS) {
    for (const players of counts) {
      test(`${name}, ${players} players: every step, two observers, float32, compact (with and without legal actions) and entity`, () => {
        fc.assert(
          fc.property(fc.integer({ min: 0, max: 1e6 }), (seed) => {
            playAndCompare(rules, players, seed, false);
          }),
          { numRuns: 1 },
        );
      });
    }
  }

  test.each([
    ['classic', 2, RULESETS[0]![1]],
    ['all six', 3, RULESETS[6]![1]],
  ] as const)('%s, %i players, a spreading game: the clipped window too', (_name, players, rules) => {
    // The comparison covered clipped windows: the spreading game went past the window.
    expect(playAndCompare(rules, players, 0, true)).toBe(1);
  });
});
