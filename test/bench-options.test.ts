/**
 * The bench scripts' command lines (bench/options.ts): `--help` prints the script's opening
 * comment and exits 0; an unknown option ends it with one line and exit code 2; anything else
 * thrown while parsing is not swallowed.
 */
import { parseArgs } from 'node:util';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { benchOptions } from '../bench/options.js';

const ARENA = new URL('../bench/arena.ts', import.meta.url).href;

/** Runs `benchOptions` with process.exit and the console captured; the exit code or null. */
function run(argv: string[], parse: () => unknown = () => parseArgs({ args: argv, options: { deals: { type: 'string' } } })): { code: number | null; out: string; err: string } {
  let out = '';
  let err = '';
  vi.spyOn(console, 'log').mockImplementation((s: unknown) => void (out += String(s)));
  vi.spyOn(console, 'error').mockImplementation((s: unknown) => void (err += String(s)));
  vi.spyOn(process, 'exit').mockImplementation(((code: number) => {
    throw Object.assign(new Error('exit'), { exitCode: code });
  }) as never);
  try {
    benchOptions(ARENA, parse, argv);
    return { code: null, out, err };
  } catch (e) {
    const code = (e as { exitCode?: number }).exitCode;
    if (code === undefined) throw e;
    return { code, out, err };
  }
}

afterEach(() => vi.restoreAllMocks());

describe('bench scripts: --help and bad options', () => {
  test('--help prints the opening comment of the script, without its comment marks', () => {
    const { code, out } = run(['--help']);
    expect(code).toBe(0);
    expect(out.startsWith('`npm run arena`: bots play each other')).toBe(true);
    expect(out).toContain('--deals 10');
    expect(out).not.toMatch(/^\s*\*/m);
  });

  test('an unknown option: one line naming it, exit code 2', () => {
    const { code, err } = run(['--nope']);
    expect(code).toBe(2);
    expect(err).toBe("Unknown option '--nope' (--help lists the options)");
  });

  test('good options parse as parseArgs would', () => {
    const { code } = run(['--deals', '3']);
    expect(code).toBeNull();
  });

  test('an error that is not about the options is thrown on', () => {
    expect(() =>
      run([], () => {
        throw new RangeError('something else');
      }),
    ).toThrow('something else');
  });
});
