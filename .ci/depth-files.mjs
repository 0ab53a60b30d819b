// Lists the test files whose cases depend on the test depth (test/depth.ts): the files that import
// it, directly or through other test modules (property-suite.ts, ...), following the relative
// imports of test/*.ts, and the files that use fast-check (test/setup.ts runs its properties 25
// times in the fast tier, 100 in the full one). The other files run the same cases in both tiers,
// so CI runs them once, in the fast tier, and the full tier only on these (docs/design.md, "Two
// test tiers").
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const dir = 'test';
const sources = new Map(readdirSync(dir).filter((f) => f.endsWith('.ts')).map((f) => [f, readFileSync(join(dir, f), 'utf8')]));
const importsOf = (src) => [...src.matchAll(/from '\.\/([\w.-]+)\.js'/g)].map((m) => `${m[1]}.ts`).filter((f) => sources.has(f));
const memo = new Map();
function reachesDepth(file, seen = new Set()) {
  if (file === 'depth.ts' || /from 'fast-check'/.test(sources.get(file))) return true;
  if (memo.has(file)) return memo.get(file);
  if (seen.has(file)) return false;
  seen.add(file);
  const r = importsOf(sources.get(file)).some((f) => reachesDepth(f, seen));
  memo.set(file, r);
  return r;
}
const files = [...sources.keys()].filter((f) => f.endsWith('.test.ts') && reachesDepth(f)).sort();
if (files.length === 0) throw new Error('no test file depends on test/depth.ts: the full tier would run nothing');
console.log(files.map((f) => `${dir}/${f}`).join('\n'));
