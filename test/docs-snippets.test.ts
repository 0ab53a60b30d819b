/**
 * Every TypeScript snippet of README.md and docs/**\/*.md (not the generated docs/api/) is
 * type-checked with the project's strict compiler options and run, so the documentation cannot
 * drift from the code. `meeplekit` and its subpaths resolve to the sources in src/.
 *
 * A snippet that cannot run on its own is marked by an HTML comment on the line before its fence,
 * `<!-- docs-snippet: no-run: why -->` (type-checked only) or `<!-- docs-snippet: fragment: why -->`
 * (neither); see "Docs snippets are tested" in docs/design.md. Failures are reported by markdown
 * file and line.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import { formatDiagnostics, IMPORT_PATHS, typeCheckSnippets, type SnippetDiagnostic } from './docs-snippets/compile.js';
import { extractAll, extractSnippets, type Snippet } from './docs-snippets/extract.js';
import { runSnippets, type RunResult } from './docs-snippets/run.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const docs = extractAll(root);
const checked = docs.snippets.filter((s) => s.mode !== 'fragment');
const runnable = docs.snippets.filter((s) => s.mode === 'run');

/** Snippets that must fail, checked and run together with the real ones: the test can fail. */
const selfCheck = extractSnippets(
  [
    '# Self-check',
    '',
    '```ts',
    "import { createRuleset } from 'meeplekit';",
    "const rules = createRuleset({ game: 'classic' });",
    "const id: number = rules.ok ? rules.value.id : 'none';",
    '```',
    '',
    '```ts',
    "import { noSuchExport } from 'meeplekit';",
    'console.log(noSuchExport);',
    '```',
    '',
    '```ts',
    "import { createRuleset } from 'meeplekit';",
    "const rules = createRuleset({ game: 'classic' });",
    "if (rules.ok) throw new Error('thrown on purpose');",
    '```',
    '',
  ].join('\n'),
  'self-check.md',
).snippets;
const [wrongType, wrongImport, throws] = selfCheck as [Snippet, Snippet, Snippet];

let diagnostics: SnippetDiagnostic[] = [];
let optionErrors: string[] = [];
let runs: RunResult[] = [];

beforeAll(async () => {
  ({ diagnostics, optionErrors } = typeCheckSnippets(root, [...checked, ...selfCheck]));
  runs = await runSnippets(root, [...runnable, throws]);
});

const of = (s: Snippet): SnippetDiagnostic[] => diagnostics.filter((d) => d.snippet === s);
const runOf = (s: Snippet): RunResult => runs.find((r) => r.snippet === s)!;

describe('docs snippets: finding them', () => {
  test('the markdown files are README.md and docs/**/*.md without docs/api/', () => {
    expect(docs.files).toContain('README.md');
    expect(docs.files).toContain('docs/getting-started.md');
    expect(docs.files.some((f) => f.startsWith('docs/api/'))).toBe(false);
  });

  test('every ```ts / ```typescript fence of every file is found (counted independently, line by line)', () => {
    for (const file of docs.files) {
      const opening = readFileSync(`${root}/${file}`, 'utf8')
        .split('\n')
        .filter((l) => /^ {0,3}(`{3,}|~{3,})\s*(ts|typescript)\s*$/i.test(l)).length;
      // Each block has one opening fence with a language; closing fences are bare.
      expect(docs.snippets.filter((s) => s.file === file).length, file).toBe(opening);
    }
    expect(docs.snippets.filter((s) => s.file === 'README.md').length).toBeGreaterThan(0);
    expect(docs.snippets.filter((s) => s.file === 'docs/getting-started.md').length).toBeGreaterThan(0);
  });

  test('the docs-snippet comments are well placed and name a known mode', () => {
    expect(docs.problems).toEqual([]);
  });

  test('the extractor: tildes, indentation, longer fences, markers, misuse', () => {
    const md = [
      '<!-- docs-snippet: no-run a declaration -->', //       1
      '```ts', //                                             2
      'declare const a: number;', //                          3
      '```', //                                               4
      '  ~~~typescript', //                                   5
      '  const b = 1;', //                                    6
      '  ~~~', //                                             7
      '````ts', //                                            8
      '```', //                                               9: content, not a close
      '````', //                                             10
      '```js', //                                            11
      'not typescript', //                                   12
      '```', //                                              13
      '<!-- docs-snippet: fragment: shell -->', //           14: not before a ts fence
      '```sh', //                                            15
      'echo', //                                             16
      '```', //                                              17
      '<!-- docs-snippet: skip: unknown mode -->', //        18
      '```ts no-run', //                                     19: words after the language
      'x', //                                                20
      '```', //                                              21
      '<!-- docs-snippet: fragment -->', //                  22: no reason
      '<!-- docs-snippet fragment -->', //                   23: malformed
      '```ts', //                                            24
      'y', //                                                25
      '```', //                                              26
    ].join('\n');
    const { snippets, problems } = extractSnippets(md, 'm.md');
    expect(snippets.map((s) => [s.line, s.mode, s.reason, s.code])).toEqual([
      [2, 'no-run', 'a declaration', 'declare const a: number;\n'],
      [5, 'run', '', 'const b = 1;\n'],
      [8, 'run', '', '```\n'],
      [19, 'run', '', 'x\n'],
      [24, 'run', '', 'y\n'],
    ]);
    expect(problems.map((p) => p.line)).toEqual([14, 18, 19, 22, 22, 23]);
  });

  test('the import paths cover every subpath the package exports', () => {
    const pkg = JSON.parse(readFileSync(`${root}/package.json`, 'utf8')) as { exports: Record<string, unknown> };
    const patterns = Object.keys(IMPORT_PATHS).map((p) => new RegExp(`^${p.replace('*', '[^/]+')}$`));
    for (const key of Object.keys(pkg.exports)) {
      if (key === './package.json') continue;
      const name = key === '.' ? 'meeplekit' : `meeplekit/${key.slice(2)}`;
      expect(patterns.some((p) => p.test(name)), name).toBe(true);
    }
  });
});

describe('docs snippets: type-check', () => {
  test('self-check: a wrong snippet gives diagnostics at its markdown line', () => {
    expect(of(wrongType).map((d) => [d.line, d.code])).toEqual([[6, 2322]]);
    expect(of(wrongImport).map((d) => [d.line, d.code])).toEqual([[10, 2305]]);
    expect(of(throws)).toEqual([]);
  });

  test('every snippet (fragments aside) type-checks under the project tsconfig, meeplekit resolved to src/', () => {
    expect(optionErrors).toEqual([]);
    expect(checked.length).toBeGreaterThan(0);
    const real = diagnostics.filter((d) => !selfCheck.includes(d.snippet));
    expect(formatDiagnostics(real), `${real.length} diagnostics`).toBe('');
  });
});

describe('docs snippets: run', () => {
  test('self-check: a snippet that throws fails, with its markdown line', () => {
    const r = runOf(throws);
    expect(r.ok).toBe(false);
    expect(r.stderr).toContain('thrown on purpose');
    expect(r.stderr).toContain('self-check.md:17');
  });

  test('every runnable snippet runs to the end without throwing', () => {
    expect(runnable.length).toBeGreaterThan(0);
    const failed = runs
      .filter((r) => r.snippet !== throws && !r.ok)
      .map((r) => `${r.snippet.id}: ${r.timedOut ? 'timed out' : `exit code ${r.exitCode}`}\n${r.stderr.trim()}`);
    expect(failed.join('\n\n'), `${failed.length} of ${runnable.length} snippets failed`).toBe('');
  });
});

describe('the docs site (typedoc.json)', () => {
  const config = JSON.parse(readFileSync(`${root}/typedoc.json`, 'utf8')) as { entryPoints: string[]; projectDocuments: string[] };
  const glob = (pattern: string): RegExp => new RegExp(`^${pattern.replaceAll('.', '\\.').replaceAll('*', '[^/]+')}$`);

  test('every guide (docs/**/*.md but docs/api/) is a document of the site, once', () => {
    const guides = docs.files.filter((f) => f !== 'README.md');
    expect([...config.projectDocuments].sort(), 'typedoc.json: projectDocuments must list each guide once (add a new one where it belongs)').toEqual(guides);
  });

  test('every subpath the package exports is an entry point of the site', () => {
    const pkg = JSON.parse(readFileSync(`${root}/package.json`, 'utf8')) as { exports: Record<string, unknown> };
    const entries = config.entryPoints.map(glob);
    for (const key of Object.keys(pkg.exports)) {
      if (key === './package.json') continue;
      const name = key === '.' ? 'meeplekit' : `meeplekit/${key.slice(2)}`;
      const [pattern, file] = Object.entries(IMPORT_PATHS).find(([p]) => glob(p).test(name)) ?? [name, ''];
      const source = pattern.includes('*') ? file.replace('*', name.split('/').at(-1)!) : file;
      expect(entries.some((e) => e.test(source)), `${name} (${source})`).toBe(true);
    }
  });
});
