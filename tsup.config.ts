import { defineConfig } from 'tsup';

// One build, two module formats: ESM (`.js`, `.d.ts`) for `import`, CJS (`.cjs`, `.d.cts`)
// for `require`. The CLI is ESM only: it is run, never imported.
export default defineConfig([
  {
    entry: { index: 'src/index.ts' },
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: true,
    clean: true,
    target: 'node20',
    treeshake: true,
  },
  {
    entry: { cli: 'src/cli/main.ts' },
    format: ['esm'],
    target: 'node20',
    banner: { js: '#!/usr/bin/env node' },
    sourcemap: true,
  },
]);
