/**
 * Comparing plain JSON values: where two differ. Used to match a move against the moves offered
 * (legal.ts, play.ts) and a replay's rules against a ruleset (serialize.ts); in a module of its own
 * so that the rules do not import serialization.
 */

/** The path of the first difference between two JSON values, or null if they are equal. @internal */
export function firstDifference(a: unknown, b: unknown, path: string): string | null {
  if (a === b) return null;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return path;
  if (Array.isArray(a) !== Array.isArray(b)) return path;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    if (a.length !== bb.length) return `${path}.length`;
    for (let i = 0; i < a.length; i++) {
      const d = firstDifference(a[i], bb[i], `${path}[${i}]`);
      if (d !== null) return d;
    }
    return null;
  }
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  const ka = Object.keys(ra);
  const kb = Object.keys(rb);
  for (const k of kb) if (!Object.hasOwn(ra, k)) return `${path}.${k}`;
  if (ka.length !== kb.length) return `${path}.${ka.find((k) => !Object.hasOwn(rb, k))}`;
  for (const k of ka) {
    const d = firstDifference(ra[k], rb[k], `${path}.${k}`);
    if (d !== null) return d;
  }
  return null;
}
