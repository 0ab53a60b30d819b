import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The browser tests need Debian's chromium: `npm run test:browser` (vitest.browser.config.ts) runs them.
    exclude: [...configDefaults.exclude, 'test/browser/**'],
    testTimeout: 120_000,
    // Two workers on the 2-core CI machines (the default keeps one core free): the property suites
    // (test/properties*.test.ts) and the research tests take most of the time and run side by side.
    maxWorkers: 2,
  },
});
