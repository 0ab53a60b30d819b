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
    return withSuggestion((e as Error).message, Object.keys(options));
  }
}

/**
 * `parseArgs`'s "Unknown option '--seeed'" with the nearest flag the command takes, when one is
 * near enough to be what was meant: "Unknown option '--seeed'. Did you mean --seed?". Other
 * messages are returned as they are.
 */
export function withSuggestion(message: string, flags: readonly string[]): string {
  const unknown = /^Unknown option '--?([^'=]+)'/.exec(message);
  if (unknown === null) return message;
  const typed = unknown[1]!.toLowerCase();
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const flag of flags) {
    const d = editDistance(typed, flag.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [flag, d];
  }
  // Near enough: a third of the flag's letters, at least one and at most three edits.
  if (best === null || bestDistance > Math.min(3, Math.max(1, Math.floor(best.length / 3)))) return message;
  return `${message.replace(/\.?\s*$/, '')}. Did you mean --${best}?`;
}

/** Levenshtein distance (insert, delete, substitute and swap of neighbours each cost one). */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    rows.push([i]);
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        rows[0]!.push(j);
        continue;
      }
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      rows[i]!.push(d);
    }
  }
  return rows[a.length]![b.length]!;
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
