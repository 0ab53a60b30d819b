/**
 * What every `meeplekit` command does with its arguments before its own checks: `--help`/`-h`,
 * values that start with a minus sign (`--players -2`), comma lists with spaces, whole numbers,
 * and `node:util`'s `parseArgs` with its error turned into a message.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';

/** Whether the arguments ask for help: `--help` or `-h` anywhere before a `--`. */
export function wantsHelp(args: readonly string[]): boolean {
  for (const a of args) {
    if (a === '--') return false;
    if (a === '--help' || a === '-h') return true;
  }
  return false;
}

/**
 * The arguments with `--flag -2` written `--flag=-2` for flags that take a value, so that a
 * negative number reaches the command's own check ("--players must be from 2 to 5 ...") instead
 * of `parseArgs`'s "argument is ambiguous".
 */
export function joinNegativeValues(args: readonly string[], valueFlags: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const next = args[i + 1];
    if (a.startsWith('--') && valueFlags.includes(a.slice(2)) && next !== undefined && /^-\d/.test(next)) {
      out.push(`${a}=${next}`);
      i++;
    } else out.push(a);
  }
  return out;
}

/** The parsed values and positionals, or `parseArgs`'s message. */
export function parseFlags<T extends NonNullable<ParseArgsConfig['options']>>(
  args: readonly string[],
  options: T,
  allowPositionals: boolean,
): ReturnType<typeof parseArgs<{ options: T; strict: true; allowPositionals: boolean }>> | string {
  const valueFlags = Object.entries(options)
    .filter(([, o]) => o.type === 'string')
    .map(([name]) => name);
  try {
    return parseArgs({ args: joinNegativeValues(args, valueFlags), options, strict: true, allowPositionals });
  } catch (e) {
    return (e as Error).message;
  }
}

/** A comma-separated list, each item trimmed (`"river, shrines"`); an empty text is no items. */
export function splitList(text: string): string[] {
  return text.trim() === '' ? [] : text.split(',').map((s) => s.trim());
}

/** A whole number written in decimal digits (a safe integer), or null. */
export function wholeNumber(text: string): number | null {
  const t = text.trim();
  return /^\d+$/.test(t) && Number.isSafeInteger(Number(t)) ? Number(t) : null;
}

/** `from 2 to 5` or, for a single value, `2`. */
export function range(min: number, max: number): string {
  return min === max ? `${min}` : `from ${min} to ${max}`;
}

/** A word of text for the shell: as is when safe, else in single quotes. */
export function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Whether a value is a JSON object (not null, not an array). */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
