/**
 * COLOUR_BLIND_PALETTE (meeplekit/render): a complete palette the render functions accept, whose
 * ground colours a player must tell apart differ in lightness, not only in hue, and whose players
 * keep the default's distinct marks.
 */
import { describe, expect, test } from 'vitest';
import { createRuleset, newGame } from '../src/index.js';
import { COLOUR_BLIND_PALETTE, DEFAULT_PALETTE, renderBoard, renderTile } from '../src/render/index.js';

/** WCAG relative luminance of a #rrggbb colour. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}
/** WCAG contrast ratio of two colours (1 to 21). */
function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

describe('COLOUR_BLIND_PALETTE', () => {
  test('has every entry of the default palette, and the render functions accept it', () => {
    expect(Object.keys(COLOUR_BLIND_PALETTE).sort()).toEqual(Object.keys(DEFAULT_PALETTE).sort());
    const rules = createRuleset({ game: 'classic' });
    if (!rules.ok) throw new Error(rules.error.message);
    const game = newGame(rules.value, { players: 2, seed: 'palette' });
    if (!game.ok) throw new Error(game.error.message);
    const board = renderBoard(rules.value, game.value, { palette: COLOUR_BLIND_PALETTE });
    expect(board.ok).toBe(true);
    if (board.ok) expect(board.value).toContain(COLOUR_BLIND_PALETTE.city);
    expect(renderTile(rules.value, 'D', 1, { palette: COLOUR_BLIND_PALETTE }).ok).toBe(true);
  });

  test('features a player tells apart differ in lightness (contrast ratio), not by hue alone', () => {
    const p = COLOUR_BLIND_PALETTE;
    expect(contrast(p.field, p.city)).toBeGreaterThanOrEqual(2.5);
    expect(contrast(p.field, p.water)).toBeGreaterThanOrEqual(1.5);
    expect(contrast(p.road, p.roadEdge)).toBeGreaterThanOrEqual(7);
    expect(contrast(p.city, p.wall)).toBeGreaterThanOrEqual(3);
    for (const ground of [p.field, p.city, p.road]) expect(contrast(ground, p.highlight)).toBeGreaterThanOrEqual(3);
    // Default's fields and cities are close in lightness: the reason for this palette.
    expect(contrast(DEFAULT_PALETTE.field, DEFAULT_PALETTE.city)).toBeLessThan(contrast(p.field, p.city));
  });

  test('players keep distinct marks, so no one needs to tell their colours apart', () => {
    const marks = COLOUR_BLIND_PALETTE.players.map((s) => s.mark);
    expect(new Set(marks).size).toBe(marks.length);
  });
});
