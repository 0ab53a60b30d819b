import { defineConfig } from 'vitest/config';

// The browser tests (test/browser): the replay viewer opened in a real headless Chromium, driven by
// playwright-core. `npm test` skips them (it needs no browser): run them with `npm run test:browser`
// (MEEPLEKIT_CHROMIUM names the browser binary; default /usr/bin/chromium).
export default defineConfig({
  test: {
    include: ['test/browser/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 60_000,
    // One browser, one file: no need for parallel workers.
    maxWorkers: 1,
    // The browser tests run only when this is set (npm test skips them: it needs no browser).
    env: { MEEPLEKIT_BROWSER_TESTS: '1' },
  },
});
