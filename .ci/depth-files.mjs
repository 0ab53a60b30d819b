// Lists the test files whose cases depend on the test depth (test/depth.ts): the files that reach
// it, directly or through other test modules (property-suite.ts, ...), by any relative import of
// a module under test/ (`from`, a bare `import '...'` or a dynamic `import('...')`), the files that
// read MEEPLEKIT_TEST_DEPTH themselves, and the files that use fast-check (test/setup.ts runs its
// properties 25 times in the fast tier, 100 in the full one). The other files run the same cases
// in both tiers, so CI runs them once, in the fast tier, and the full tier only on these
// (docs/design.md, "Two test tiers"). test/ci-depth-files.test.ts checks the finder.
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Every `.ts` file under `dir` (subfolders too), as paths relative to `dir` with `/` separators. */
function tsFiles(dir, sub = '') {
  const out = [];
  for (const e of readdirSync(join(dir, sub), { withFileTypes: true })) {
    const rel = sub === '' ? e.name : `${sub}/${e.name}`;
    if (e.isDirectory()) out.push(...tsFiles(dir, rel));
    else if (e.name.endsWith('.ts')) out.push(rel);
  }
  return out;
}

/** Relative module specifiers of `src`: `from '...'`, `import '...'` and `import('...')`, either quote. */
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])(\.{1,2}\/[^'"]+)\1/g;

/** What marks a file as depending on the depth by itself. */
const FAST_CHECK = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])fast-check\1/;
const DEPTH_VARIABLE = /MEEPLEKIT_TEST_DEPTH/;

/**
 * The test files (`*.test.ts`, relative to `dir`, sorted) whose cases depend on the depth.
 * `exclude(rel)` leaves a file out of the list (still followed as an import).
 */
export function depthFiles(dir, exclude = () => false) {
  const sources = new Map(tsFiles(dir).map((f) => [f, readFileSync(join(dir, f), 'utf8')]));
  const importsOf = (file) => {
    const out = [];
    for (const m of sources.get(file).matchAll(IMPORT)) {
      // `./x.js` names `x.ts`; paths are resolved from the importing file's folder.
      const target = normalize(join(dirname(file), m[2])).split(sep).join('/').replace(/\.js$/, '.ts');
      if (sources.has(target)) out.push(target);
    }
    return out;
  };
  const memo = new Map();
  const reaches = (file, seen) => {
    if (file === 'depth.ts') return true;
    const src = sources.get(file);
    if (FAST_CHECK.test(src) || DEPTH_VARIABLE.test(src)) return true;
    if (memo.has(file)) return memo.get(file);
    if (seen.has(file)) return false;
    seen.add(file);
    const r = importsOf(file).some((f) => reaches(f, seen));
    // A file found false inside a cycle may still reach the depth through the file that began it:
    // only a true answer is final before the walk that began it ends.
    if (r) memo.set(file, true);
    return r;
  };
  return [...sources.keys()].filter((f) => f.endsWith('.test.ts') && !exclude(f) && reaches(f, new Set())).sort();
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === normalize(process.argv[1])) {
  const dir = join(dirname(fileURLToPath(import.meta.url)), '..', 'test');
  // The browser tests run in their own step (npm run test:browser), not in either tier.
  const files = depthFiles(dir, (f) => f.startsWith('browser/'));
  if (files.length === 0) throw new Error('no test file depends on test/depth.ts: the full tier would run nothing');
  console.log(files.map((f) => relative(process.cwd(), join(dir, f)).split(sep).join('/')).join('\n'));
}
