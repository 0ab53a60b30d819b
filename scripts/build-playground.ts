/**
 * Builds the playground (playground/src, docs/playground.md) into the docs site:
 * docs/api/playground/ gets index.html, style.css, main.js (the page) and worker.js (the bots'
 * Web Worker), bundled by esbuild from the repository's sources (the package's names resolve to
 * src/ through playground/tsconfig.json). `npm run docs` runs it after typedoc (which empties
 * docs/api first); `npm run playground` runs it alone.
 *
 *   npx tsx scripts/build-playground.ts [out directory, default docs/api/playground]
 */
import { copyFileSync, mkdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const sources = join(root, 'playground/src');

/** What was written: each file and its size in bytes. */
export interface PlaygroundBuild {
  readonly dir: string;
  readonly files: Readonly<Record<string, number>>;
}

/** Bundles the playground into `outDir` (created if needed). */
export async function buildPlayground(outDir = join(root, 'docs/api/playground'), options: { readonly minify?: boolean } = {}): Promise<PlaygroundBuild> {
  const dir = resolve(outDir);
  mkdirSync(dir, { recursive: true });
  await build({
    entryPoints: { main: join(sources, 'main.ts'), worker: join(sources, 'bot-worker.ts') },
    bundle: true,
    // Classic scripts (not modules): the page's script and its worker load from any static server.
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    outdir: dir,
    tsconfig: join(root, 'playground/tsconfig.json'),
    minify: options.minify ?? true,
    legalComments: 'none',
    logLevel: 'warning',
  });
  for (const file of ['index.html', 'style.css']) copyFileSync(join(sources, file), join(dir, file));
  const files: Record<string, number> = {};
  for (const file of ['index.html', 'style.css', 'main.js', 'worker.js']) files[file] = statSync(join(dir, file)).size;
  return { dir, files };
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const built = await buildPlayground(process.argv[2]);
  console.log(`playground: ${built.dir} (${Object.entries(built.files).map(([f, n]) => `${f} ${n.toLocaleString('en')} bytes`).join(', ')})`);
}
