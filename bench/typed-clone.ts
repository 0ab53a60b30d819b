/**
 * `npx tsx bench/typed-clone.ts`: would a typed-array form of a clone pay? An experiment behind
 * docs/design.md ("A faster state, and what is left"), not part of `npm run bench`.
 *
 * A clone of a mid-game classic state (the 37th tile of the twenty seeded games `bench/memory.ts`
 * uses) is about a dozen plain arrays of numbers at 8 bytes a number. The speed issue asks for
 * 8 KB; one `Int32Array` would hold the same numbers at 4 bytes. This times, in one process and
 * alternating, today's whole clone (`cloneState`) against the three costs a packed clone would
 * add: packing the numbers of the feature graph and the board into one `Int32Array`, copying a
 * packed clone (a clone of a clone), and unpacking it into the plain arrays the rules read, which
 * it must be before its first move. Prints microseconds per state and the packed bytes.
 */
import { createRandomSource, createRuleset, type GameState } from '../src/index.js';
import { createResearchSimulator, newInitialState } from '../src/ai/index.js';
import { cloneState } from '../src/core/engine/clone.js';

const made = createRuleset({ game: 'classic' });
if (!made.ok) throw new Error(made.error.message);
const rules = made.value;

const states: GameState[] = [];
for (let g = 0; g < 20; g++) {
  const sim = createResearchSimulator(rules, newInitialState(rules, { players: 2, seed: `memory-${g}` }));
  const random = createRandomSource(`memory-${g}`);
  while (!sim.isTerminal() && sim.state.tiles.length < 37) sim.applyRandom(random);
  states.push(cloneState(sim.state));
}

/** The seven number arrays of the feature graph (its twin lists are lists, not numbers). */
function featureArrays(s: GameState): number[][] {
  const g = s.features;
  return [g.parent, g.kind, g.tile, g.open, g.pennants, g.followers, g.size];
}

/** The feature graph's numbers, the cell table, the frontier and its demands in one Int32Array (a cell slot fits 31 bits). */
function pack(s: GameState): Int32Array {
  const n = s.features.parent.length;
  const out = new Int32Array(3 + 7 * n + s.cells.length + 2 * s.frontier.length);
  out[0] = n;
  out[1] = s.cells.length;
  out[2] = s.frontier.length;
  let o = 3;
  for (const a of [...featureArrays(s), s.cells, s.frontier, s.demand]) {
    for (let i = 0; i < a.length; i++) out[o + i] = a[i]!;
    o += a.length;
  }
  return out;
}

/** `n` numbers of `p` from `o` as a packed plain array (built by push: a holey array copies slower). */
function plain(p: Int32Array, o: number, n: number): number[] {
  const a: number[] = [];
  for (let i = 0; i < n; i++) a.push(p[o + i]!);
  return a;
}

/** The plain arrays back (ten of them), as a clone would need them before its first move. */
function unpack(p: Int32Array): number[][] {
  const n = p[0]!;
  const lengths = [n, n, n, n, n, n, n, p[1]!, p[2]!, p[2]!];
  const out: number[][] = [];
  let o = 3;
  for (const len of lengths) {
    out.push(plain(p, o, len));
    o += len;
  }
  return out;
}

const packed = states.map(pack);
for (const [i, s] of states.entries()) {
  // The experiment is only worth its figures if the round trip is exact.
  const back = unpack(packed[i]!);
  const want = [...featureArrays(s), s.cells, s.frontier, s.demand];
  if (JSON.stringify(back) !== JSON.stringify(want)) throw new Error(`state ${i}: the packed form does not round-trip`);
}

const N = 100_000;
let sink = 0;
function time(run: (i: number) => number): number {
  const t0 = performance.now();
  for (let i = 0; i < N; i++) sink += run(i % states.length);
  return ((performance.now() - t0) * 1000) / N;
}
const rows = { clone: [] as number[], pack: [] as number[], copyPacked: [] as number[], unpack: [] as number[] };
for (let round = 0; round < 5; round++) {
  rows.clone.push(time((i) => cloneState(states[i]!).turn));
  rows.pack.push(time((i) => pack(states[i]!)[0]!));
  rows.copyPacked.push(time((i) => packed[i]!.slice()[0]!));
  rows.unpack.push(time((i) => unpack(packed[i]!).length));
}
const median = (a: number[]): number => [...a].sort((x, y) => x - y)[a.length >> 1]!;
const bytes = packed.reduce((a, p) => a + p.byteLength, 0) / packed.length;
console.log(`mid-game classic states (37 tiles), median of 5 rounds of ${N}, microseconds per state:`);
for (const [name, r] of Object.entries(rows)) console.log(`  ${name.padEnd(11)} ${median(r).toFixed(2)}`);
if (sink < 0) throw new Error('unreachable');
console.log(`packed numbers: ${Math.round(bytes)} bytes per state`);
