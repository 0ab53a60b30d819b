import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 600_000,
    hookTimeout: 600_000,
    // The tests start server processes: one file at a time on a small machine.
    fileParallelism: false,
  },
});
