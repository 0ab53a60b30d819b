/**
 * Small helpers for writing SVG text by hand: numbers in a fixed, short form (so that the same
 * input gives the same bytes on every platform) and escaped text.
 */

/** A number as SVG text: rounded to 2 decimals, never `-0`, never an exponent. */
export function num(n: number): string {
  const r = Math.round(n * 100) / 100;
  return r === 0 ? '0' : String(r);
}

/** Text or an attribute value escaped for XML. */
export function esc(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

/** A point in tile units (0..100 across a tile, y grows south). */
export interface Point {
  /** East. */
  readonly x: number;
  /** South. */
  readonly y: number;
}

/** `x,y` of a point. */
export function pt(p: Point): string {
  return `${num(p.x)},${num(p.y)}`;
}

/** An id safe to use in XML `id` attributes and CSS: letters, digits, `-` and `_` only. */
export function safeId(text: string): string {
  return text.replace(/[^A-Za-z0-9_-]/g, (c) => `_${c.charCodeAt(0).toString(16)}`);
}
