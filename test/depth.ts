/**
 * How deep the suite tests. `npm test` runs the fast tier: every rule, module and entry point is
 * touched, the property suites at a small number of runs and the random-game sweeps over fewer
 * games and fewer expansion subsets. `npm run test:full` (`MEEPLEKIT_TEST_DEPTH=full`) runs the
 * full depth: what CI runs too (on the files whose cases depend on it: .ci/depth-files.mjs), and
 * what a change to the engine, a module or an encoding should pass before it lands
 * (CONTRIBUTING.md).
 *
 * The tier changes only how many cases run, never what a case checks: a failure of the fast tier
 * is a failure of the full one.
 */

/** The depth asked for: `fast` unless `MEEPLEKIT_TEST_DEPTH` is `full`. Anything else is refused. */
function readDepth(): 'fast' | 'full' {
  const value = process.env['MEEPLEKIT_TEST_DEPTH'];
  if (value === undefined || value === '' || value === 'fast') return 'fast';
  if (value === 'full') return 'full';
  throw new Error(`MEEPLEKIT_TEST_DEPTH must be 'fast' or 'full', got ${JSON.stringify(value)}`);
}

/** The tier this run tests at. */
export const DEPTH = readDepth();

/** Whether this run is the full tier (`npm run test:full`). */
export const FULL = DEPTH === 'full';

/** `full` in the full tier, `fast` in the fast one: a count of runs, games or cases. */
export function byDepth<T>(full: T, fast: T): T {
  return FULL ? full : fast;
}
