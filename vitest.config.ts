import { configDefaults, defineConfig } from 'vitest/config';
import { LongestFirst } from './test/sequencer.js';

// Two tiers (test/depth.ts, CONTRIBUTING.md): `npm test` (vitest run) is the fast tier,
// `npm run test:full` (vitest run --mode full) the full depth, which sets MEEPLEKIT_TEST_DEPTH for
// every test file.
export default defineConfig(({ mode }) => ({
  test: {
    include: ['test/**/*.test.ts'],
    // The browser tests need Debian's chromium: `npm run test:browser` (vitest.browser.config.ts) runs them.
    exclude: [...configDefaults.exclude, 'test/browser/**'],
    setupFiles: ['test/setup.ts'],
    globalSetup: ['test/global-setup.ts'],
    env: mode === 'full' ? { MEEPLEKIT_TEST_DEPTH: 'full' } : {},
    // No test may fail because the machine is slow: a loaded 2-core machine ran the full suite five
    // times slower than a quiet one, so a test or hook gets ten minutes (CONTRIBUTING.md). Tests
    // never assert on elapsed time; speed is measured by npm run bench.
    testTimeout: 600_000,
    hookTimeout: 600_000,
    // Two workers on the 2-core CI machines (the default keeps one core free): the property suites
    // (test/properties*.test.ts) and the research tests take most of the time and run side by side.
    maxWorkers: 2,
    // The fast tier reuses a worker's loaded modules from one test file to the next (the library
    // keeps no module-level state, and the one test that spies on a global restores it after each
    // test): a second of start-up saved per file. The full tier isolates every file.
    isolate: mode === 'full',
    // The longest files start first (test/sequencer.ts), so that the two workers finish together.
    sequence: { sequencer: LongestFirst },
  },
}));
