/**
 * Finds the TypeScript code blocks of the project's markdown (README.md and docs/**\/*.md, not the
 * generated docs/api/) so that test/docs-snippets.test.ts can type-check and run them.
 *
 * A block is a fenced code block whose info string starts with `ts` or `typescript`. By default a
 * block is type-checked and run. An HTML comment on the line just before the fence says otherwise
 * (see "Docs snippets are tested" in docs/design.md):
 *
 *     <!-- docs-snippet: no-run: why -->     type-checked, not run
 *     <!-- docs-snippet: fragment: why -->   neither (a piece of a larger program)
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/** What the test does with a snippet. */
export type SnippetMode = 'run' | 'no-run' | 'fragment';

/** The modes a `docs-snippet` comment may name (`run` is the default and needs no comment). */
export const SNIPPET_MODES: readonly SnippetMode[] = ['run', 'no-run', 'fragment'];

/** One TypeScript code block of a markdown file. */
export interface Snippet {
  /** The markdown file, relative to the repository root, with `/` separators. */
  readonly file: string;
  /** The 1-based line of the opening fence. */
  readonly line: number;
  /** `file:line`, the name the test reports the snippet by. */
  readonly id: string;
  readonly mode: SnippetMode;
  /** The reason given in the `docs-snippet` comment, if any. */
  readonly reason: string;
  /** The code, with the fence's indentation removed; line `k` (0-based) is markdown line `line + 1 + k`. */
  readonly code: string;
}

/** A misuse of the conventions, reported by the test as a failure. */
export interface ExtractProblem {
  readonly file: string;
  readonly line: number;
  readonly message: string;
}

const FENCE = /^( {0,3})(`{3,}|~{3,})(.*)$/;
/** `<!-- docs-snippet: MODE: reason -->` (the colon after the mode is optional). */
const MARKER = /^\s*<!--\s*docs-snippet:\s*([^\s:]+):?\s*(.*?)\s*-->\s*$/;
/** Anything that looks like an attempt at a marker, so that a malformed one is reported, not ignored. */
const MARKER_LIKE = /<!--\s*docs-snippet/;
const TS_LANGS = new Set(['ts', 'typescript']);

/**
 * The TypeScript blocks of one markdown text, in order, and any misuse of the `docs-snippet`
 * comment (an unknown mode, or a comment that is not right before a TypeScript fence).
 */
export function extractSnippets(markdown: string, file: string): { snippets: Snippet[]; problems: ExtractProblem[] } {
  const lines = markdown.split(/\r?\n/);
  const snippets: Snippet[] = [];
  const problems: ExtractProblem[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    const marker = MARKER.exec(line);
    if (!marker && MARKER_LIKE.test(line)) {
      problems.push({ file, line: i + 1, message: 'a malformed docs-snippet comment: write <!-- docs-snippet: MODE: reason -->' });
    }
    if (marker) {
      const open = FENCE.exec(lines[i + 1] ?? '');
      const lang = open ? (open[3]!.trim().split(/\s+/)[0] ?? '').toLowerCase() : '';
      if (!open || !TS_LANGS.has(lang)) {
        problems.push({ file, line: i + 1, message: 'a docs-snippet comment must be on the line just before a ```ts fence' });
      }
      if (!(SNIPPET_MODES as readonly string[]).includes(marker[1]!)) {
        problems.push({ file, line: i + 1, message: `unknown docs-snippet mode "${marker[1]}" (known: ${SNIPPET_MODES.join(', ')})` });
      }
      if (marker[2] === '') problems.push({ file, line: i + 1, message: 'a docs-snippet comment must say why the snippet is not run' });
      i++;
      continue;
    }
    const open = FENCE.exec(line);
    if (!open) {
      i++;
      continue;
    }
    const [, indent, fence, info] = open as unknown as [string, string, string, string];
    // A backtick fence's info string may not contain backticks (CommonMark): then it is inline code.
    if (fence[0] === '`' && info.includes('`')) {
      i++;
      continue;
    }
    const closing = new RegExp(`^ {0,3}${fence[0] === '`' ? '`' : '~'}{${fence.length},}\\s*$`);
    let end = i + 1;
    while (end < lines.length && !closing.test(lines[end]!)) end++;
    const words = info.trim().split(/\s+/);
    const lang = (words[0] ?? '').toLowerCase();
    if (TS_LANGS.has(lang)) {
      if (words.length > 1) {
        problems.push({
          file,
          line: i + 1,
          message: `extra words in the info string "${info.trim()}": mark a snippet with a <!-- docs-snippet: ... --> comment instead`,
        });
      }
      // An invalid marker was reported above; the snippet is then tested in full.
      const previous = MARKER.exec(lines[i - 1] ?? '');
      const valid = previous !== null && (SNIPPET_MODES as readonly string[]).includes(previous[1]!);
      const mode = (valid ? previous[1] : 'run') as SnippetMode;
      const body = lines.slice(i + 1, end).map((l) => stripIndent(l, indent.length));
      snippets.push({ file, line: i + 1, id: `${file}:${i + 1}`, mode, reason: valid ? previous[2]! : '', code: body.join('\n') + '\n' });
    }
    i = end + 1;
  }
  return { snippets, problems };
}

/** Removes up to `n` leading spaces, as CommonMark does for the lines of an indented fence. */
function stripIndent(line: string, n: number): string {
  let k = 0;
  while (k < n && line[k] === ' ') k++;
  return line.slice(k);
}

/**
 * The markdown files whose snippets are tested, relative to `root`: README.md and every .md under
 * docs/, except the generated docs/api/. Sorted, `/` separators.
 */
export function docFiles(root: string): string[] {
  const found: string[] = ['README.md'];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      const rel = relative(root, path).split(sep).join('/');
      if (entry.isDirectory()) {
        if (rel !== 'docs/api') walk(path);
      } else if (entry.name.endsWith('.md')) {
        found.push(rel);
      }
    }
  };
  walk(join(root, 'docs'));
  return found.sort();
}

/** Every snippet of every tested markdown file under `root`. */
export function extractAll(root: string): { files: string[]; snippets: Snippet[]; problems: ExtractProblem[] } {
  const files = docFiles(root);
  const snippets: Snippet[] = [];
  const problems: ExtractProblem[] = [];
  for (const file of files) {
    const found = extractSnippets(readFileSync(join(root, file), 'utf8'), file);
    snippets.push(...found.snippets);
    problems.push(...found.problems);
  }
  return { files, snippets, problems };
}
