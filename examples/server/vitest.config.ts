import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // The tests start server processes: one file at a time on a small machine.
    fileParallelism: false,
  },
});
