/**
 * `meeplekit/render` is tree-shakeable the simplest way: nothing outside src/render/ and the
 * command line imports it, so an app that imports `meeplekit`, `meeplekit/ai` or an expansion
 * bundles none of it. Walks the static import graph from each library entry point.
 */
import { readdirSync } from 'node:fs';
import { expect, test } from 'vitest';
import { reachable } from './import-graph.js';

test('no library entry point but meeplekit/render reaches src/render/', () => {
  const entries = ['src/index.ts', 'src/ai/index.ts', ...readdirSync('src/expansions').map((d) => `src/expansions/${d}/index.ts`)];
  for (const entry of entries) {
    const files = [...reachable(entry)];
    expect(files.length, entry).toBeGreaterThan(3);
    expect(files.filter((f) => f.startsWith('src/render/')), entry).toEqual([]);
  }
  // The walk does see render's own imports (it would notice a leak).
  expect(reachable('src/render/index.ts').has('src/render/board.ts')).toBe(true);
});
