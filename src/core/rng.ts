/**
 * Seeded pseudo-random numbers whose whole state is four uint32 words stored in the game
 * state (xoshiro128**). Pure in the sense that matters: the only state is the array passed
 * in, so the same seed and the same calls give the same numbers on every machine.
 */

/** The four uint32 words of the generator. Lives in `GameState.rng`. */
export type RngState = number[];

/**
 * Derives a generator state from a seed string (any text; numbers are passed as their decimal
 * text). Uses a 128-bit string hash (cyrb128) so that similar seeds give unrelated streams.
 */
export function seedRng(seed: string): RngState {
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let i = 0; i < seed.length; i++) {
    const k = seed.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  const s = [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
  // xoshiro must not start from the all-zero state.
  if ((s[0]! | s[1]! | s[2]! | s[3]!) === 0) s[0] = 0x9e3779b9;
  return s;
}

/**
 * One step of xoshiro128** on its four state words, held as their int32 bits (typed-array
 * arithmetic stays in 32-bit integers, where words stored as uint32 numbers above 2^31 are
 * doubles); returns the output as a uint32.
 */
function step(w: Int32Array): number {
  const s0 = w[0]!;
  const s1 = w[1]!;
  const m = Math.imul(s1, 5);
  const result = Math.imul((m << 7) | (m >>> 25), 9) >>> 0;
  const n2 = w[2]! ^ s0;
  const n3 = w[3]! ^ s1;
  w[0] = s0 ^ n3;
  w[1] = s1 ^ n2;
  w[2] = n2 ^ (s1 << 9);
  w[3] = (n3 << 11) | (n3 >>> 21);
  return result;
}

/** An unbiased integer in `[0, n)` (rejection sampling) from generator words `w`, advanced in place. */
function wordsBelow(w: Int32Array, n: number): number {
  if (n <= 1) return 0;
  // 2^32 - (2^32 mod n), without a floating-point remainder (2^32 is no small integer for V8):
  // the quotient is below 2^32, so its floor and the product are exact.
  const limit = Math.floor(4294967296 / n) * n;
  for (;;) {
    const r = step(w);
    // r % n without a floating-point remainder (r is above 2^31 half the time, so not a small
    // integer for V8): the truncated quotient is exact for r < 2^32, and so is the product.
    if (r < limit) return r - ((r / n) >>> 0) * n;
  }
}

/**
 * Where a state's words are stepped: loaded, stepped and stored back within one call, so nothing
 * in it outlives the call (it carries no state between calls; it only spares an allocation).
 */
const WORDS = new Int32Array(4);

/** Loads a state's uint32 words into {@link WORDS}. */
function loadWords(s: RngState): Int32Array {
  WORDS[0] = s[0]!;
  WORDS[1] = s[1]!;
  WORDS[2] = s[2]!;
  WORDS[3] = s[3]!;
  return WORDS;
}

/** Writes generator words back into a state's uint32 list. */
function storeWords(s: RngState, w: Int32Array): void {
  s[0] = w[0]! >>> 0;
  s[1] = w[1]! >>> 0;
  s[2] = w[2]! >>> 0;
  s[3] = w[3]! >>> 0;
}

/** Advances the generator in place and returns the next uint32. */
export function nextUint32(s: RngState): number {
  const w = loadWords(s);
  const r = step(w);
  storeWords(s, w);
  return r;
}

/** An unbiased integer in `[0, n)` (rejection sampling), advancing the generator in place. */
export function randomBelow(s: RngState, n: number): number {
  if (n <= 1) return 0;
  const w = loadWords(s);
  const r = wordsBelow(w, n);
  storeWords(s, w);
  return r;
}

/**
 * A self-contained random source for bots and playouts (not for game chance): an integer in
 * `[0, n)` per call. Built from a seed with {@link createRandomSource}.
 */
export type RandomSource = (n: number) => number;

/**
 * A {@link RandomSource} seeded from text, independent of any game state: for bots, playouts and
 * tests, never for the game's own chance (the state's generator draws the tiles). Each call takes
 * a whole number `n` from 1 to 2^32 and returns an integer in `[0, n)`; any other `n` (NaN,
 * Infinity, a fraction, 0, a negative number) throws a `RangeError`: a programming error, not a
 * game's bad input.
 *
 * @example
 * ```ts
 * import { createRandomSource } from 'meeplekit';
 *
 * const random = createRandomSource('run-42');
 * console.log([random(6), random(6), random(6)]); // the same three numbers on every machine
 * ```
 */
export function createRandomSource(seed: string): RandomSource {
  if (typeof seed !== 'string') throw new TypeError(`createRandomSource: the seed must be a string, got ${typeof seed}`);
  const s = Int32Array.from(seedRng(seed));
  return (n) => {
    // An integer bound from 1 to 2^32: anything else has no uniform answer (NaN would never end
    // the rejection loop, a fraction would give fractions).
    if (!Number.isInteger(n) || n < 1 || n > 4294967296) throw new RangeError(`a random source draws below a whole number from 1 to 2^32, got ${String(n)}`);
    return wordsBelow(s, n);
  };
}
