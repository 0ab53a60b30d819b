/**
 * CI's full tier runs only the test files whose cases depend on the depth (.ci/depth-files.mjs,
 * docs/design.md "CI runs each case once where the tiers agree"): a file the finder misses would
 * never run its full-depth cases in CI. These cases build small test folders and check what it finds.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { depthFiles } from '../.ci/depth-files.mjs';

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A test folder with these files (path relative to the folder: contents). */
function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'meeplekit-depth-files-'));
  made.push(dir);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

const DEPTH = "export const FULL = process.env['MEEPLEKIT_TEST_DEPTH'] === 'full';\n";

describe('.ci/depth-files.mjs', () => {
  it('follows every form of relative import, in subfolders too', () => {
    const dir = folder({
      'depth.ts': DEPTH,
      'direct.test.ts': "import { FULL } from './depth.js';\n",
      'double-quotes.test.ts': 'import { FULL } from "./depth.js";\n',
      'dynamic.test.ts': "const { FULL } = await import('./depth.js');\n",
      'side-effect.test.ts': "import './helpers/setup-depth.js';\n",
      'helpers/setup-depth.ts': "import { FULL } from '../depth.js';\n",
      'through-helper.test.ts': "import { suite } from './helpers/suite.js';\n",
      'helpers/suite.ts': "export { FULL as suite } from '../depth.js';\n",
      'plain.test.ts': "import { it } from 'vitest';\nimport { x } from './helpers/plain.js';\n",
      'helpers/plain.ts': "export const x = 1; // mentions depth.ts in a comment only\n",
    });
    expect(depthFiles(dir)).toEqual(['direct.test.ts', 'double-quotes.test.ts', 'dynamic.test.ts', 'side-effect.test.ts', 'through-helper.test.ts']);
  });

  it('counts fast-check and a file reading the depth variable itself', () => {
    const dir = folder({
      'props.test.ts': 'import fc from "fast-check";\n',
      'props-dynamic.test.ts': "const fc = await import('fast-check');\n",
      'env.test.ts': "const deep = process.env['MEEPLEKIT_TEST_DEPTH'] === 'full';\n",
      'other.test.ts': "import { it } from 'vitest';\n",
    });
    expect(depthFiles(dir)).toEqual(['env.test.ts', 'props-dynamic.test.ts', 'props.test.ts']);
  });

  it('finds the depth through an import cycle whichever file the walk starts from', () => {
    const dir = folder({
      'depth.ts': DEPTH,
      'a.test.ts': "import './b.js';\n",
      'b.ts': "import './c.js';\nimport './depth.js';\n",
      'c.ts': "import './b.js';\n",
      'c.test.ts': "import './c.js';\n",
      'loop.test.ts': "import './x.js';\n",
      'x.ts': "import './y.js';\n",
      'y.ts': "import './x.js';\n",
    });
    expect(depthFiles(dir)).toEqual(['a.test.ts', 'c.test.ts']);
  });

  it('leaves out what the caller excludes, and lists this repository\'s property suites', () => {
    const dir = folder({ 'depth.ts': DEPTH, 'browser/page.test.ts': "import '../depth.js';\n", 'unit.test.ts': "import './depth.js';\n" });
    expect(depthFiles(dir, (f) => f.startsWith('browser/'))).toEqual(['unit.test.ts']);
    const here = join(dirname(new URL(import.meta.url).pathname));
    const listed = depthFiles(here, (f) => f.startsWith('browser/'));
    const properties = readdirSync(here).filter((f) => /^properties.*\.test\.ts$/.test(f));
    expect(properties.length).toBeGreaterThan(0);
    for (const f of properties) expect(listed).toContain(f);
    // The finder reads text: an import written inside a string counts too (this file's folders are
    // such strings), so it errs on the side of running a file at both depths, never of skipping one.
    expect(listed).toContain('ci-depth-files.test.ts');
  });
});
