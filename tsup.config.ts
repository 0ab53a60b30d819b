import { readdirSync } from 'node:fs';
import { defineConfig } from 'tsup';

// One subpath per expansion folder: src/expansions/<id>/index.ts -> dist/expansions/<id>.{js,cjs,d.ts,d.cts},
// exported as `meeplekit/expansions/<id>` (test/package.test.ts checks package.json lists each one).
const expansions = Object.fromEntries(
  readdirSync('src/expansions', { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => [`expansions/${d.name}`, `src/expansions/${d.name}/index.ts`]),
);

// The research interface is the `meeplekit/ai` subpath (src/ai/index.ts -> dist/ai.*), the bots
// `meeplekit/bots` (src/bots/index.ts -> dist/bots.*); pictures are
// `meeplekit/render` (src/render/index.ts -> dist/render.*).
// Two module formats: ESM (`.js`, `.d.ts`) for `import`, CJS (`.cjs`, `.d.cts`) for `require`.
// The CLI is ESM only: it is run, never imported.
export default defineConfig([
  {
    entry: { index: 'src/index.ts', ai: 'src/ai/index.ts', bots: 'src/bots/index.ts', render: 'src/render/index.ts', 'games/classic': 'src/games/classic/entry.ts', 'games/castle': 'src/games/castle/entry.ts', ...expansions },
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: true,
    clean: true,
    target: 'node20',
    treeshake: true,
    // The `authoring` namespace of the main entry (`export * as authoring`) is an object built by a
    // call (esbuild's `__export`) that names every helper, so wherever it lands an app's bundler
    // must keep it and all it names, used or not (0.9 KB min+gzip of a classic-only app). Built
    // as an entry of its own (ESM only: not in "exports", nothing imports it by name), the object
    // gets a chunk of its own, which an app that never reads `authoring` drops with it
    // (`sideEffects: false`). CommonJS has no chunks and is not tree-shaken: nothing to gain.
    esbuildOptions(options, { format }) {
      if (format === 'esm') options.entryPoints = { ...(options.entryPoints as Record<string, string>), authoring: 'src/authoring.ts' };
    },
  },
  {
    entry: { cli: 'src/cli/main.ts' },
    format: ['esm'],
    target: 'node20',
    banner: { js: '#!/usr/bin/env node' },
    sourcemap: true,
  },
]);
