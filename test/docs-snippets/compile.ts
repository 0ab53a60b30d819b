/**
 * Type-checks documentation snippets with the TypeScript compiler API: one Program for all of them,
 * each snippet a module of its own (a virtual file), with the package's import paths (`meeplekit`,
 * `meeplekit/ai`, `meeplekit/expansions/<id>`, `meeplekit/render`) resolved to the sources in src/.
 * The compiler options are the project's tsconfig.json (strict, noUncheckedIndexedAccess,
 * exactOptionalPropertyTypes, verbatimModuleSyntax, ...), so a snippet is held to the same standard
 * as the code.
 */
import { join } from 'node:path';
import ts from 'typescript';
import type { Snippet } from './extract.js';

/** The package's import paths and the source file each one stands for, relative to the root (`*`: one path segment). */
export const IMPORT_PATHS: Readonly<Record<string, string>> = {
  meeplekit: 'src/index.ts',
  'meeplekit/ai': 'src/ai/index.ts',
  'meeplekit/bots': 'src/bots/index.ts',
  'meeplekit/render': 'src/render/index.ts',
  'meeplekit/games/*': 'src/games/*/entry.ts',
  'meeplekit/expansions/*': 'src/expansions/*/index.ts',
};

/** A compiler message about a snippet, placed in its markdown file. */
export interface SnippetDiagnostic {
  readonly snippet: Snippet;
  /** The 1-based line in the markdown file. */
  readonly line: number;
  readonly code: number;
  readonly message: string;
}

/** The file name a snippet gets, in the program and on disk: `README.md:60` -> `README.md.L60.ts`. */
export function snippetFileName(snippet: Snippet): string {
  return `${snippet.file.replaceAll('/', '__')}.L${snippet.line}.ts`;
}

/**
 * The compiler options for the snippets: the project's tsconfig.json, every file a module
 * (`moduleDetection: force`), and `paths` from the package names to src/ (absolute, so no baseUrl).
 */
export function snippetCompilerOptions(root: string): ts.CompilerOptions {
  const configPath = join(root, 'tsconfig.json');
  const read = ts.readConfigFile(configPath, (p) => ts.sys.readFile(p));
  if (read.error) throw new Error(ts.flattenDiagnosticMessageText(read.error.messageText, '\n'));
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, root, undefined, configPath);
  const paths: Record<string, string[]> = {};
  for (const [name, file] of Object.entries(IMPORT_PATHS)) paths[name] = [join(root, file)];
  return {
    ...parsed.options,
    noEmit: true,
    declaration: false,
    moduleDetection: ts.ModuleDetectionKind.Force,
    paths,
  };
}

/**
 * Type-checks `snippets` (fragments excluded by the caller or not: every snippet given is checked)
 * as virtual files in `dir` (a directory under the root, so that node_modules resolve as for the
 * project's own files). Returns the diagnostics of the snippet files only, in snippet order, plus
 * any problem with the options themselves (as messages).
 */
export function typeCheckSnippets(
  root: string,
  snippets: readonly Snippet[],
  dir = join(root, 'test', 'docs-snippets', '.virtual'),
): { diagnostics: SnippetDiagnostic[]; optionErrors: string[] } {
  const options = snippetCompilerOptions(root);
  const virtual = new Map<string, Snippet>();
  for (const s of snippets) virtual.set(join(dir, snippetFileName(s)), s);
  const host = ts.createCompilerHost(options, true);
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (f) => virtual.has(f) || fileExists.call(host, f);
  host.readFile = (f) => virtual.get(f)?.code ?? readFile.call(host, f);
  host.getSourceFile = (f, languageVersion, onError, shouldCreate) => {
    const s = virtual.get(f);
    if (s) return ts.createSourceFile(f, s.code, languageVersion, true);
    return getSourceFile.call(host, f, languageVersion, onError, shouldCreate);
  };
  const program = ts.createProgram({ rootNames: [...virtual.keys()], options, host });
  const optionErrors = [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics()].map((d) =>
    ts.flattenDiagnosticMessageText(d.messageText, '\n'),
  );
  const diagnostics: SnippetDiagnostic[] = [];
  for (const [fileName, snippet] of virtual) {
    const sf = program.getSourceFile(fileName);
    if (!sf) {
      optionErrors.push(`${snippet.id}: not in the program`);
      continue;
    }
    for (const d of [...program.getSyntacticDiagnostics(sf), ...program.getSemanticDiagnostics(sf)]) {
      const at = d.start === undefined ? 0 : sf.getLineAndCharacterOfPosition(d.start).line;
      diagnostics.push({
        snippet,
        line: snippet.line + 1 + at,
        code: d.code,
        message: ts.flattenDiagnosticMessageText(d.messageText, '\n'),
      });
    }
  }
  return { diagnostics, optionErrors };
}

/** One line per diagnostic: `docs/x.md:12 (snippet at docs/x.md:10): TS2322 ...`. */
export function formatDiagnostics(diagnostics: readonly SnippetDiagnostic[]): string {
  return diagnostics.map((d) => `${d.snippet.file}:${d.line} (snippet at line ${d.snippet.line}): TS${d.code} ${d.message}`).join('\n');
}
