/**
 * Set-up done once for the whole run (vitest.config.ts `globalSetup`): the `meeplekit` command
 * bundled from src/cli/main.ts with esbuild, as tsup bundles dist/cli.js, so that the tests that
 * start it as a real process (test/cli-process.test.ts, test/serve-cli.test.ts, the command tests
 * of test/cli-render.test.ts) start a plain Node script in a tenth of a second instead of
 * compiling the sources through tsx in every process. It is written under node_modules/.cache
 * (so that its dependencies resolve from the project's node_modules), one file per run, removed
 * at the end. Tests read its path with `inject('cli')` (test/cli-command.ts).
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The path of the `meeplekit` command bundled for this run. */
    cli: string;
  }
}

const root = fileURLToPath(new URL('..', import.meta.url));

export default async function setup(project: TestProject): Promise<() => void> {
  const dir = join(root, 'node_modules', '.cache', 'meeplekit-test');
  mkdirSync(dir, { recursive: true });
  const outfile = join(dir, `cli-${process.pid}-${Date.now()}.mjs`);
  await build({
    entryPoints: [join(root, 'src/cli/main.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'silent',
  });
  project.provide('cli', outfile);
  return () => rmSync(outfile, { force: true });
}
