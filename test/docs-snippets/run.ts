/**
 * Runs documentation snippets: each one is written to a file and run with tsx's loader in a Node
 * process of its own, with the package's import paths mapped to src/ by a generated tsconfig.json (the same
 * mapping the type-check uses). A snippet passes when its process exits with code 0 in time.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { IMPORT_PATHS, snippetFileName } from './compile.js';
import type { Snippet } from './extract.js';

/** How a run went. */
export interface RunResult {
  readonly snippet: Snippet;
  readonly ok: boolean;
  /** The exit code, or null when the process was killed (by the timeout). */
  readonly exitCode: number | null;
  readonly timedOut: boolean;
  /** stderr, with the snippet file's positions rewritten as markdown lines. */
  readonly stderr: string;
  readonly ms: number;
}

/**
 * Writes `snippets` into `dir` (created) with a tsconfig.json mapping the import paths to src/, and
 * a link to the project's node_modules, so that a snippet's other imports resolve as they do for
 * the type-check. (`dir` cannot lie inside node_modules: tsx, like tsc, applies `paths` to no file
 * there.)
 */
export async function writeSnippets(root: string, dir: string, snippets: readonly Snippet[]): Promise<void> {
  mkdirSync(dir, { recursive: true });
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
  const paths = await bundleEntries(root, join(dir, '_meeplekit'));
  const tsconfig = { compilerOptions: { target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler', strict: true, paths } };
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
  // The snippets are ES modules (they use import and top-level await).
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module', private: true }));
  for (const s of snippets) writeFileSync(join(dir, snippetFileName(s)), s.code);
}

/**
 * The package's entries (the {@link IMPORT_PATHS} the type-check maps to src/) bundled from the
 * sources once, with esbuild, into `out` (shared chunks, dependencies left to node_modules), and
 * the `paths` that map the import names to them. Each snippet's process then loads plain
 * JavaScript instead of compiling the sources again with tsx: the same code, built by the same
 * compiler (esbuild, which tsx uses too), a second of start-up less per snippet.
 */
async function bundleEntries(root: string, out: string): Promise<Record<string, string[]>> {
  const entryPoints: Record<string, string> = {};
  const paths: Record<string, string[]> = {};
  for (const [name, file] of Object.entries(IMPORT_PATHS)) {
    if (!name.endsWith('/*')) {
      const key = name === 'meeplekit' ? 'index' : name.slice('meeplekit/'.length);
      entryPoints[key] = join(root, file);
      paths[name] = [join(out, `${key}.js`)];
      continue;
    }
    // A wildcard: every folder the pattern's star stands for (src/games/<name>/entry.ts, ...).
    const [before, after] = file.split('*') as [string, string];
    const prefix = name.slice('meeplekit/'.length, -1);
    for (const d of readdirSync(join(root, before), { withFileTypes: true })) {
      if (!d.isDirectory() || !existsSync(join(root, before, d.name + after))) continue;
      entryPoints[`${prefix}${d.name}`] = join(root, before, d.name + after);
    }
    paths[name] = [join(out, `${prefix}*.js`)];
  }
  await build({ entryPoints, outdir: out, bundle: true, splitting: true, format: 'esm', platform: 'node', target: 'node20', packages: 'external', logLevel: 'silent' });
  return paths;
}

/** Runs one snippet file (already written by {@link writeSnippets}) with tsx's loader. */
export function runSnippet(root: string, dir: string, snippet: Snippet, timeoutMs: number): Promise<RunResult> {
  const file = snippetFileName(snippet);
  const started = Date.now();
  return new Promise((resolve) => {
    // tsx's loader in this process (its CLI would start a second one).
    const tsx = pathToFileURL(createRequire(join(root, 'package.json')).resolve('tsx')).href;
    const child = spawn(process.execPath, ['--import', tsx, file], {
      cwd: dir,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, NODE_OPTIONS: '', FORCE_COLOR: '0', TSX_TSCONFIG_PATH: join(dir, 'tsconfig.json') },
    });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < 20_000) stderr += chunk;
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('close', (exitCode) => {
      clearTimeout(timer);
      resolve({
        snippet,
        ok: exitCode === 0 && !timedOut,
        exitCode,
        timedOut,
        stderr: toMarkdownPositions(stderr, snippet),
        ms: Date.now() - started,
      });
    });
  });
}

/** Rewrites `.../README.md.L60.ts:5:3` in a stack trace as `README.md:65`, the markdown line. */
function toMarkdownPositions(text: string, snippet: Snippet): string {
  const name = snippetFileName(snippet).replaceAll('.', '\\.');
  return text.replace(new RegExp(`(?:file://)?[^\\s()]*${name}:(\\d+)(?::\\d+)?`, 'g'), (_, line: string) => `${snippet.file}:${snippet.line + Number(line)}`);
}

/**
 * Runs every snippet, a few at a time (one per core, at most 4), in a fresh temporary directory,
 * which is removed afterwards. Results are in the order of `snippets`.
 */
export async function runSnippets(root: string, snippets: readonly Snippet[], timeoutMs = 300_000): Promise<RunResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'meeplekit-docs-snippets-'));
  await writeSnippets(root, dir, snippets);
  try {
    const results: RunResult[] = new Array(snippets.length);
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < snippets.length) {
        const k = next++;
        results[k] = await runSnippet(root, dir, snippets[k]!, timeoutMs);
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(availableParallelism(), 4)) }, worker));
    return results;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
