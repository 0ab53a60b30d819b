/**
 * The bench scripts' command lines: `--help` (or `-h`) prints the script's opening comment, which
 * documents its options, and an unknown or malformed option ends the script with one line naming
 * it (exit code 2) instead of a stack trace.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The opening comment of the script at `url`, without its comment marks. */
function usage(url: string): string {
  const text = readFileSync(fileURLToPath(url), 'utf8');
  const match = /^\/\*\*([\s\S]*?)\*\//.exec(text);
  if (match === null) return '(no usage comment)';
  return match[1]!
    .split('\n')
    .map((line) => line.replace(/^\s*\* ?/, ''))
    .join('\n')
    .trim();
}

/**
 * Parses a bench script's options with `parse` (a call of `node:util`'s `parseArgs`), answering
 * `--help` from the script's opening comment and refusing bad options in one line.
 */
export function benchOptions<T>(url: string, parse: () => T, argv: readonly string[] = process.argv.slice(2)): T {
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(usage(url));
    process.exit(0);
  }
  try {
    return parse();
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    if (typeof code !== 'string' || !code.startsWith('ERR_PARSE_ARGS_')) throw e;
    console.error(`${(e as Error).message} (--help lists the options)`);
    process.exit(2);
  }
}
