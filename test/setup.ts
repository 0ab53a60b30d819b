/**
 * Set-up of every test file (vitest.config.ts `setupFiles`): fast-check's global parameters.
 *
 * - A property failure prints its seed and path; `MEEPLEKIT_FC_SEED` and `MEEPLEKIT_FC_PATH` replay
 *   exactly that case (CONTRIBUTING.md, "A property failed"):
 *   `MEEPLEKIT_FC_SEED=-1234 MEEPLEKIT_FC_PATH="5:1:0" npx vitest run test/properties.test.ts -t "(d)"`.
 * - The fast tier (test/depth.ts) runs properties that name no number of runs 25 times instead of
 *   fast-check's 100.
 */
import fc from 'fast-check';
import { FULL } from './depth.js';

const seed = process.env['MEEPLEKIT_FC_SEED'];
const path = process.env['MEEPLEKIT_FC_PATH'];
if (seed !== undefined && seed !== '' && !/^-?\d+$/.test(seed)) throw new Error(`MEEPLEKIT_FC_SEED must be a whole number (the seed a failure printed), got ${JSON.stringify(seed)}`);
if (path !== undefined && path !== '' && !/^\d+(:\d+)*$/.test(path)) throw new Error(`MEEPLEKIT_FC_PATH must be the path a failure printed (digits and colons), got ${JSON.stringify(path)}`);

fc.configureGlobal({
  ...(FULL ? {} : { numRuns: 25 }),
  ...(seed ? { seed: Number(seed) } : {}),
  ...(path ? { path } : {}),
});
