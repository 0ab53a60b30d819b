/**
 * The static import graph of the sources: which files an entry point reaches through value
 * imports and re-exports (`import type` is erased, so it is not followed). For checks that an
 * entry point bundles only what it should.
 */
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';

/** Every source file `entry` reaches, as paths relative to the repository root. */
export function reachable(entry: string): Set<string> {
  const seen = new Set<string>();
  const stack = [resolve(entry)];
  while (stack.length > 0) {
    const f = stack.pop()!;
    const rel = relative(process.cwd(), f);
    if (seen.has(rel)) continue;
    seen.add(rel);
    const text = readFileSync(f, 'utf8');
    for (const m of text.matchAll(/^\s*(?:import|export)\s+(?!type\b)[^'";]*?from\s+'(\.[^']+)'/gm)) {
      stack.push(resolve(dirname(f), m[1]!.replace(/\.js$/, '.ts')));
    }
  }
  return seen;
}
