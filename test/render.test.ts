/**
 * meeplekit/render: every tile kind of every game and module in every rotation, and every
 * position of a few seeded games, drawn as well-formed SVG with finite numbers and stable bytes;
 * pictures that agree with the rules (each follower drawn on its own feature, every tile in its
 * cell, a highlighted feature spans exactly the tiles `featureAt` names); options and states
 * checked, with a clear error and nothing drawn.
 */
import { describe, expect, it } from 'vitest';
import { createRuleset, featureAt, legalMoves, newGame, applyMove, observe, publicView, type Cell, type GameState, type PublicView, type Ruleset, type Expansion } from '../src/index.js';
import { count } from '../src/expansions/count/index.js';
import { kingRobber } from '../src/expansions/king-robber/index.js';
import { princessDragon } from '../src/expansions/princess-dragon/index.js';
import { river } from '../src/expansions/river/index.js';
import { shrines } from '../src/expansions/shrines/index.js';
import { tower } from '../src/expansions/tower/index.js';
import { DEFAULT_PALETTE, legalPlacements, renderBoard, renderFollower, renderSymbols, renderTile, tileSymbolId } from '../src/render/index.js';
import { artOf } from '../src/render/catalogue.js';
import { bandHalfWidth } from '../src/render/art.js';
import { distanceToBand, insidePolygon } from '../src/render/geometry.js';
import { cellOf } from '../src/render/raster.js';
import { xmlProblem } from './xml.js';
import { castle } from '../src/games/castle/entry.js';
import { must } from './helpers.js';

function rules(game: 'classic' | 'castle', expansions: Expansion[] = []): Ruleset {
  const r = createRuleset({ game: game === 'castle' ? castle() : game, expansions });
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

const RULESETS: readonly [string, () => Ruleset][] = [
  ['classic', () => rules('classic')],
  ['castle', () => rules('castle')],
  ['river (both sets)', () => rules('classic', [river({ set: 'both' })])],
  ['river I', () => rules('classic', [river({ set: 'I' })])],
  ['every other module', () => rules('classic', [kingRobber(), shrines(), count(), tower(), princessDragon()])],
  ['river with the Tower and the Dragon', () => rules('classic', [river(), tower(), princessDragon(), kingRobber(), shrines()])],
];

/** Numbers the SVG must never hold, and well-formed XML. */
function expectSound(svg: string): void {
  expect(svg).not.toMatch(/NaN|undefined|Infinity|null|\[object/);
  expect(xmlProblem(svg)).toBeNull();
  expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
}

describe('every tile kind of every game and module', () => {
  for (const [name, make] of RULESETS) {
    it(`${name}: each kind in each rotation is sound and stable`, () => {
      const r = make();
      for (const t of r.tiles) {
        for (const rot of [0, 1, 2, 3] as const) {
          const svg = must(renderTile(r, t.def.id, rot, { labels: true }));
          expectSound(svg);
          expect(must(renderTile(r, t.def.id, rot, { labels: true }))).toBe(svg);
          // Every feature is named where a follower on it would stand.
          for (const f of t.def.features) expect(svg).toContain(`>${f.id}</text>`);
        }
      }
    });

    it(`${name}: a follower on any feature is drawn on that feature`, () => {
      const r = make();
      for (const t of r.tiles) {
        const art = artOf(r, t.def.id);
        art.features.forEach((f) => {
          const where = `${t.def.id} ${f.id} at ${f.anchor.x},${f.anchor.y}`;
          if (f.role === 'band') expect(distanceToBand(f.anchor, f.band!), where).toBeLessThan(bandHalfWidth(f.kind) + 0.01);
          // A monk stands by the door of the building in the middle, not on its roof.
          else if (f.role === 'centre') expect(Math.hypot(f.anchor.x - 50, f.anchor.y - 50), where).toBeGreaterThan(16);
          else if (f.region !== null && f.region.some((c) => c === 1)) expect(f.region[cellOf(f.anchor)], where).toBe(1);
          // Every follower stands on its tile (a follower is about 23 units tall).
          expect(Math.min(f.anchor.x, f.anchor.y, 100 - f.anchor.x, 100 - f.anchor.y), where).toBeGreaterThanOrEqual(11);
          // An area's follower stands inside its outline (not on a band or in the middle).
          if (f.role === 'area' && f.outline !== null && art.ground !== art.features.indexOf(f)) expect(insidePolygon(f.anchor, f.outline.polygon), where).toBe(true);
        });
      }
    });
  }

  it("The Castle has no fields: none of its tiles shows field green (a tile without a court is drawn on its largest area)", () => {
    const r = rules('castle');
    for (const t of r.tiles) expect(must(renderTile(r, t.def.id)), t.def.id).not.toContain(DEFAULT_PALETTE.field);
  });

  it('draws each printed symbol of the modules (Rulebook: the tiles of each box)', () => {
    const r = rules('classic', [kingRobber(), shrines(), count(), tower(), princessDragon()]);
    const has = (id: string, text: string): void => expect(must(renderTile(r, id)), `${id} shows ${text}`).toContain(text);
    has('PD-01', DEFAULT_PALETTE.volcano); // a volcano
    has('PD-07', DEFAULT_PALETTE.dragon); // a dragon symbol
    has('PD-18', DEFAULT_PALETTE.portal); // a magic portal
    has('PD-24', '#f2a7c3'); // a princess
    has('TO-02', DEFAULT_PALETTE.tower); // a tower foundation
    has('SH-01', DEFAULT_PALETTE.shrineRoof); // a shrine
    has('C', DEFAULT_PALETTE.pennant); // a pennant
    has('CO6', DEFAULT_PALETTE.carcassonne); // the City's inside
    expect(must(renderTile(r, 'B'))).not.toContain(DEFAULT_PALETTE.volcano);
  });
});

/** Every position of a seeded game of random legal moves. */
function positions(r: Ruleset, players: number, seed: string, limit = 400): GameState[] {
  const out: GameState[] = [];
  let s = must(newGame(r, { players, seed }));
  out.push(s);
  let n = 0;
  while (s.step.kind !== 'game-over' && n < limit) {
    const moves = legalMoves(r, s);
    s = must(applyMove(r, s, moves[(n * 7 + 3) % moves.length]!)).state;
    out.push(s);
    n++;
  }
  return out;
}

describe('every position of a few seeded games', () => {
  const GAMES: readonly [string, () => Ruleset, number][] = [
    ['classic, 3 players', () => rules('classic'), 3],
    ['The Castle', () => rules('castle'), 2],
    ['every module but the River', () => rules('classic', [kingRobber(), shrines(), count(), tower(), princessDragon()]), 4],
    ['the River with the Tower and the Dragon', () => rules('classic', [river(), tower(), princessDragon(), kingRobber(), shrines()]), 2],
  ];
  for (const [name, make, players] of GAMES) {
    it(`${name}: sound, stable, every tile and follower drawn`, () => {
      const r = make();
      const all = positions(r, players, `render-${name}`);
      expect(all.length).toBeGreaterThan(30);
      for (const s of all) {
        const svg = must(renderBoard(r, s, { coordinates: true }));
        expectSound(svg);
        expect(must(renderBoard(r, s, { coordinates: true }))).toBe(svg);
        const uses = svg.match(/<use xlink:href="#mk-tile-/g)?.length ?? 0;
        const inside = r.game.game === 'castle' ? s.tiles.filter((t) => t.player >= 0).length : s.tiles.length;
        expect(uses).toBeGreaterThanOrEqual(inside);
        // Every follower on a tile: one body each in the followers group.
        const group = /<g class="followers">(.*?)<\/g><\/g>|<g class="followers">(.*?)<\/g>/.exec(svg)?.[0] ?? '';
        expect(group.match(/<path d="M0,-11.5/g)?.length ?? 0).toBe(s.followers.length);
      }
      // A player's view draws the same board (all of it is public but The Castle's face-down tokens, drawn as '?').
      const last = all[all.length - 1]!;
      expect(must(renderBoard(r, observe(r, last, 0)))).toBe(must(renderBoard(r, last)));
    });
  }
});

describe('what the board shows', () => {
  it('highlights a whole feature: the tiles featureAt names, no more', () => {
    const r = rules('classic');
    const all = positions(r, 2, 'highlight', 60);
    const s = all[all.length - 1]!;
    // The start tile's city (D: c1) and every tile it spans.
    const info = must(featureAt(r, s, { x: 0, y: 0, feature: 'c1' }));
    const svg = must(renderBoard(r, s, { highlightFeature: { x: 0, y: 0, feature: 'c1' } }));
    const lit = svg.match(/fill="#ffd400" fill-opacity="0.55"/g)?.length ?? 0;
    expect(lit).toBe(info.tiles.length);
    expect(info.tiles.length).toBeGreaterThan(0);
  });

  it('highlights the cells asked for, and the last tile placed', () => {
    const r = rules('classic');
    const s = positions(r, 2, 'cells', 1)[1]!; // after the first placement
    const cells = [{ x: 3, y: 4 }, { x: -2, y: 0 }];
    const svg = must(renderBoard(r, s, { highlightCells: cells }));
    expect(svg.match(/stroke-dasharray="10 6"/g)?.length).toBe(2);
    expect(svg).toContain(`x="304" y="404"`);
    const placed = s.tiles[s.tiles.length - 1]!;
    expect(svg).toContain(`<rect x="${placed.x * 100 + 2}" y="${placed.y * 100 + 2}" width="96" height="96" fill="none" stroke="#111111"`);
    expect(must(renderBoard(r, s, { lastTile: false }))).not.toContain('stroke="#111111" stroke-width="3"');
  });

  it('sizes the picture by tileSize and shares the tile pictures when asked', () => {
    const r = rules('classic');
    const s = positions(r, 2, 'sizes', 10).pop()!;
    const small = must(renderBoard(r, s, { tileSize: 32, legend: false }));
    const big = must(renderBoard(r, s, { tileSize: 128, legend: false }));
    const width = (svg: string): number => Number(/width="([\d.]+)"/.exec(svg)![1]);
    expect(width(big)).toBeCloseTo(width(small) * 4, 1);
    const external = must(renderBoard(r, s, { symbols: 'external' }));
    expect(external).not.toContain('<defs>');
    const symbols = must(renderSymbols(r));
    expectSound(symbols);
    for (const t of r.tiles) expect(symbols).toContain(`id="${tileSymbolId(t.def.id)}"`);
  });

  it("The Castle's board says its layout is a reconstruction, and shows the face-down tokens", () => {
    const r = rules('castle');
    const s = must(newGame(r, { players: 2, seed: 'castle-picture' }));
    const svg = must(renderBoard(r, s));
    expect(svg).toContain('a reconstruction, not the printed board');
    // 13 face-down tokens on the towers (tower 0/1 has none), drawn as '?' in both views.
    expect(svg.match(/>\?<\/text>/g)?.length).toBe(13);
    expect(must(renderBoard(r, observe(r, s, 1))).match(/>\?<\/text>/g)?.length).toBe(13);
  });

  it('uses a palette passed in, and gives each player a mark as well as a colour', () => {
    const r = rules('classic');
    const s = positions(r, 2, 'palette', 6).pop()!;
    const svg = must(renderBoard(r, s, { palette: { field: '#123456' } }));
    expect(svg).toContain('#123456');
    const marks = new Set(DEFAULT_PALETTE.players.map((p) => p.mark));
    expect(marks.size).toBe(DEFAULT_PALETTE.players.length);
    const f0 = must(renderFollower(0));
    const f1 = must(renderFollower(1));
    expectSound(f1);
    expect(f1).not.toBe(f0.replace('Player 1', 'Player 2'));
  });
});

describe('drawn from a public view: the same picture as from the state', () => {
  const GAMES: readonly [string, () => Ruleset, number][] = [
    ['classic', () => rules('classic'), 3],
    ['The Castle', () => rules('castle'), 2],
    ['the River', () => rules('classic', [river({ set: 'both' })]), 2],
    ['the King and the Robber Baron', () => rules('classic', [kingRobber()]), 3],
    ['the Shrines', () => rules('classic', [shrines()]), 2],
    ['the Count', () => rules('classic', [count()]), 4],
    ['the Tower', () => rules('classic', [tower()]), 3],
    ['the Princess and the Dragon', () => rules('classic', [princessDragon()]), 3],
    ['all six expansions', () => rules('classic', [river(), kingRobber(), shrines(), count(), tower(), princessDragon()]), 5],
  ];
  for (const [name, make, players] of GAMES) {
    it(`${name}: a spectator's and a player's public view draw what the state draws`, () => {
      const r = make();
      const all = positions(r, players, `view-${name}`);
      all.forEach((s, i) => {
        // The cells and rotations where the tile may go, from the view alone: legalMoves' placements.
        const expected: { x: number; y: number; rotations: number[] }[] = [];
        for (const m of legalMoves(r, s)) {
          if (m.type !== 'place') continue;
          const last = expected[expected.length - 1];
          if (last !== undefined && last.x === m.x && last.y === m.y) last.rotations.push(m.rotation);
          else expected.push({ x: m.x, y: m.y, rotations: [m.rotation] });
        }
        const seen = must(publicView(r, s, s.step.kind === 'game-over' ? null : s.step.player));
        expect(must(legalPlacements(r, seen)), `position ${i}`).toEqual(expected);
        expect(must(legalPlacements(r, s)), `position ${i}`).toEqual(expected);
        // Every position near the end (most pieces on the board), every fifth before.
        if (i % 5 !== 0 && i < all.length - 6) return;
        const fromState = must(renderBoard(r, s, { coordinates: true }));
        const spectator = must(publicView(r, s, null));
        expect(must(renderBoard(r, spectator, { coordinates: true })), `position ${i}`).toBe(fromState);
        const player = must(publicView(r, s, i % players));
        expect(must(renderBoard(r, player, { coordinates: true })), `position ${i}`).toBe(fromState);
        // A view that went through the network.
        expect(must(renderBoard(r, JSON.parse(JSON.stringify(spectator)) as PublicView, { coordinates: true }))).toBe(fromState);
        // A highlighted feature is the whole connected feature the rules know.
        const f = s.followers[s.followers.length - 1];
        if (f !== undefined) {
          const t = s.tiles[f.tile]!;
          const highlightFeature = { x: t.x, y: t.y, feature: r.tiles[t.kind]!.def.features[f.local]!.id };
          expect(must(renderBoard(r, spectator, { highlightFeature }))).toBe(must(renderBoard(r, s, { highlightFeature })));
        }
      });
      if (r.game.game === 'castle') {
        // Keeps were placed and drawn, from the view's cell-and-feature names.
        expect(must(renderBoard(r, must(publicView(r, all[all.length - 1]!, null))))).toContain('class="keep"');
      }
    });
  }

  it('refuses a malformed view with a code, and never needs a hidden field', () => {
    const r = rules('castle');
    const s = positions(r, 2, 'view-bad', 40).pop()!;
    const view = must(publicView(r, s, 0));
    const code = (x: { ok: boolean; error?: { code: string } }): string | undefined => (x.ok ? undefined : x.error!.code);
    const bad = (f: (x: Record<string, unknown>) => void): string | undefined => {
      const copy = JSON.parse(JSON.stringify(view)) as Record<string, unknown>;
      f(copy);
      return code(renderBoard(r, copy as never));
    };
    expect(bad(() => undefined)).toBeUndefined();
    // The view holds no seed and no generator: it draws all the same.
    expect(Object.hasOwn(view, 'seed') || Object.hasOwn(view, 'rng')).toBe(false);
    expect(bad((x) => ((x['tiles'] as { tile: string }[])[8]!.tile = 'ZZ'))).toBe('render/malformed-state');
    expect(bad((x) => ((x['tiles'] as { rotation: number }[])[8]!.rotation = 5))).toBe('render/malformed-state');
    expect(bad((x) => (x['tiles'] as unknown[]).push((x['tiles'] as unknown[])[8]))).toBe('render/malformed-state');
    expect(bad((x) => (x['followers'] = [{ player: 0, x: 99, y: 99, feature: 'c1' }]))).toBe('render/malformed-state');
    expect(bad((x) => (x['followers'] = [{ player: 0, x: (x['tiles'] as Cell[])[8]!.x, y: (x['tiles'] as Cell[])[8]!.y, feature: 'zz' }]))).toBe('render/malformed-state');
    expect(bad((x) => (x['followers'] = [{ player: 7, x: (x['tiles'] as Cell[])[8]!.x, y: (x['tiles'] as Cell[])[8]!.y, feature: 'c1' }]))).toBe('render/malformed-state');
    expect(bad((x) => (x['scores'] = [1]))).toBe('render/malformed-state');
    expect(bad((x) => (x['version'] = 99))).toBe('render/malformed-state');
    expect(bad((x) => delete x['step'])).toBe('render/malformed-state');
    expect(bad((x) => ((x['modules'] as Record<string, unknown>)['castle'] = { wall: 'x' }))).toBe('render/malformed-state');
    expect(bad((x) => ((x['modules'] as { castle: { keep: unknown[] } }).castle.keep = [{ x: 99, y: 99, feature: 'c1', tiles: 2 }, null]))).toBe('render/malformed-state');
    expect(bad((x) => (x['ruleset'] = 'classic'))).toBe('state/ruleset-mismatch');
    const place = (f: (x: Record<string, unknown>) => void): string | undefined => {
      const copy = JSON.parse(JSON.stringify(view)) as Record<string, unknown>;
      f(copy);
      return code(legalPlacements(r, copy as never));
    };
    expect(place((x) => (x['step'] = { kind: 'place-tile', player: 0, tile: 'ZZ' }))).toBe('render/malformed-state');
    expect(place((x) => ((x['tiles'] as { tile: string }[])[8]!.tile = 'ZZ'))).toBe('render/malformed-state');
    expect(place((x) => (x['step'] = { kind: 'game-over', winners: [0] }))).toBeUndefined();
    expect(must(legalPlacements(r, { ...view, step: { kind: 'game-over', winners: [0] } }))).toEqual([]);
  });
});

describe('bad input: a clear error, nothing drawn', () => {
  const r = rules('classic');
  const s = positions(r, 2, 'bad', 8).pop()!;
  const code = (x: { ok: boolean; error?: { code: string } }): string | undefined => (x.ok ? undefined : x.error!.code);

  it('refuses unknown tiles, bad rotations and bad options', () => {
    expect(code(renderTile(r, 'ZZ'))).toBe('render/unknown-tile');
    expect(code(renderTile(r, 'PD-01'))).toBe('render/unknown-tile');
    expect(code(renderTile(r, 'D', 4 as never))).toBe('render/bad-rotation');
    expect(code(renderTile(r, 'D', 0, { tileSize: NaN }))).toBe('render/bad-options');
    expect(code(renderTile(r, 'D', 0, { coordinates: true } as never))).toBe('render/bad-options');
    expect(code(renderBoard(r, s, { tileSize: 1e9 }))).toBe('render/bad-options');
    expect(code(renderBoard(r, s, { nope: 1 } as never))).toBe('render/bad-options');
    expect(code(renderBoard(r, s, { highlightCells: Array.from({ length: 10_001 }, () => ({ x: 0, y: 0 })) }))).toBe('render/bad-options');
    expect(code(renderBoard(r, s, { highlightCells: [{ x: 0.5, y: 0 }] }))).toBe('render/bad-options');
    expect(code(renderBoard(r, s, { highlightFeature: { x: 0, y: 0 } as never }))).toBe('render/bad-options');
    expect(code(renderBoard(r, s, { symbols: 'maybe' as never }))).toBe('render/bad-options');
    expect(code(renderFollower(-1))).toBe('render/bad-options');
  });

  it('refuses colours that would break out of an attribute', () => {
    expect(code(renderBoard(r, s, { palette: { field: '"/><script>alert(1)</script>' } }))).toBe('render/bad-options');
    expect(code(renderBoard(r, s, { palette: { players: [{ fill: 'red', stroke: 'x" onload="y', ink: '#fff', mark: 'dot' }] } }))).toBe('render/bad-options');
    expect(code(renderBoard(r, s, { palette: { players: [] } }))).toBe('render/bad-options');
    expect(code(renderBoard(r, s, { palette: { grass: '#00ff00' } as never }))).toBe('render/bad-options');
    // A title is text, escaped.
    expect(must(renderBoard(r, s, { title: '<b>&' }))).toContain('<title>&lt;b&gt;&amp;</title>');
  });

  it('refuses a state of another ruleset, and malformed or tampered states', () => {
    const castle = rules('castle');
    expect(code(renderBoard(castle, s))).toBe('state/ruleset-mismatch');
    const tampered = (f: (x: Record<string, unknown>) => void): unknown => {
      const copy = JSON.parse(JSON.stringify(s)) as Record<string, unknown>;
      f(copy);
      return renderBoard(r, copy as never);
    };
    expect(code(tampered((x) => ((x['tiles'] as { id: string }[])[0]!.id = 'ZZ')) as never)).toBe('render/malformed-state');
    expect(code(tampered((x) => ((x['tiles'] as { rotation: number }[])[0]!.rotation = 7)) as never)).toBe('render/malformed-state');
    expect(code(tampered((x) => (x['followers'] = [{ player: 0, tile: 0, local: 99 }])) as never)).toBe('render/malformed-state');
    expect(code(tampered((x) => (x['followers'] = [{ player: 5, tile: 0, local: 0 }])) as never)).toBe('render/malformed-state');
    expect(code(tampered((x) => (x['scores'] = [1])) as never)).toBe('render/malformed-state');
    expect(code(tampered((x) => delete x['features']) as never)).toBe('render/malformed-state');
    expect(code(renderBoard(r, null as never))).toBe('render/malformed-state');
  });
});
