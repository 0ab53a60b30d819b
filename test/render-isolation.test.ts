/**
 * `meeplekit/render` is tree-shakeable the simplest way: nothing outside src/render/ and the
 * command line imports it, so an app that imports `meeplekit`, `meeplekit/ai` or an expansion
 * bundles none of it. Walks the static import graph from each library entry point.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { expect, test } from 'vitest';

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(/^\s*(?:import|export)\s+(?!type\b)[^'";]*?from\s+'(\.[^']+)'/gm)) {
    out.push(resolve(dirname(file), m[1]!.replace(/\.js$/, '.ts')));
  }
  return out;
}

function reachable(entry: string): Set<string> {
  const seen = new Set<string>();
  const stack = [resolve(entry)];
  while (stack.length > 0) {
    const f = stack.pop()!;
    if (seen.has(f)) continue;
    seen.add(f);
    stack.push(...importsOf(f));
  }
  return seen;
}

test('no library entry point but meeplekit/render reaches src/render/', () => {
  const entries = ['src/index.ts', 'src/ai/index.ts', ...readdirSync('src/expansions').map((d) => `src/expansions/${d}/index.ts`)];
  for (const entry of entries) {
    const files = [...reachable(entry)];
    expect(files.length, entry).toBeGreaterThan(3);
    expect(files.filter((f) => f.includes('/src/render/')), entry).toEqual([]);
  }
  // The walk does see render's own imports (it would notice a leak).
  expect([...reachable('src/render/index.ts')].some((f) => f.endsWith('/src/render/board.ts'))).toBe(true);
});
