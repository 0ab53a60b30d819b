/**
 * Writes the documentation's pictures (docs/images/*.svg) and the tile catalogue page
 * (docs/tiles.md) from the rules' own data, with `meeplekit/render`:
 *
 * - one catalogue picture per tile set (every tile kind with its feature ids, its id and count)
 *   and a table per set in docs/tiles.md;
 * - the 12-port notation (docs/images/ports.svg);
 * - The Castle's board, empty and part-way through a seeded game of bots;
 * - a picture of each rules example the rules pages show, built move by move through the public
 *   `applyMove` from the same turns as the test row it illustrates (named next to each builder),
 *   with the row's outcome checked here too, so a picture cannot show another position.
 *
 * Deterministic: the same source gives the same bytes. test/docs-pictures.test.ts runs it into a
 * temporary directory and compares every file with the committed one.
 *
 * Usage: `npx tsx scripts/docs-pictures.ts [root]` (default: the repository; files go to
 * `<root>/docs/images/` and `<root>/docs/tiles.md`). `npm run docs:pictures` runs it.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  applyMove,
  createRandomSource,
  createRuleset,
  greedyBot,
  legalMoves,
  newGame,
  PORTS,
  type Cell,
  type CompiledTile,
  type Expansion,
  type GameState,
  type Move,
  type Port,
  type Rotation,
  type Ruleset,
} from '../src/index.js';
import { DEFAULT_PALETTE, renderBoard, renderFollower, renderTile, type BoardRenderOptions } from '../src/render/index.js';
import { cloneState } from '../src/core/engine/clone.js';
import { keyX, keyY } from '../src/core/state.js';
import { count, type CountState, type Quarter } from '../src/expansions/count/index.js';
import { kingRobber, type KingRobberState } from '../src/expansions/king-robber/index.js';
import { princessDragon } from '../src/expansions/princess-dragon/index.js';
import { DRAGON_TILES, PORTAL_TILES, PRINCESS_TILES, VOLCANO_TILES } from '../src/expansions/princess-dragon/tiles.js';
import { river, RIVER_I_TILES, RIVER_II_TILES } from '../src/expansions/river/index.js';
import { shrines } from '../src/expansions/shrines/index.js';
import { reachOf, tower, TOWER_TILES } from '../src/expansions/tower/index.js';
import { castle as castleModule, RECONSTRUCTED_LAYOUT, type CastleLayoutData, type CastleSlice, type CastleTileSetData } from '../src/games/castle/entry.js';

// ---------------------------------------------------------------------------------------------
// Small helpers

function must<T>(r: { ok: true; value: T } | { ok: false; error: { code: string; message: string } }, what: string): T {
  if (!r.ok) throw new Error(`${what}: ${r.error.code}: ${r.error.message}`);
  return r.value;
}

/** Fails the generator: a picture would not show what its text says. */
function check(condition: boolean, what: string): void {
  if (!condition) throw new Error(`docs-pictures: ${what}`);
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Text escaped for XML. */
function esc(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const FONT = 'DejaVu Sans, Verdana, Arial, sans-serif';

function classic(...expansions: Expansion[]): Ruleset {
  return must(createRuleset({ game: 'classic', expansions }), 'classic ruleset');
}

/** One turn: tile id, x, y, rotation and the local feature to deploy on (omitted: pass), as the tests write it. */
type Turn = readonly [tile: string, x: number, y: number, rotation: Rotation, feature?: string];

/**
 * A game built move by move, with each draw rigged to the tile a turn names (the drawn tile goes
 * back into the bag), as test/helpers.ts `Scenario` does; every move goes through `applyMove`.
 */
class Game {
  state: GameState;
  constructor(
    readonly rules: Ruleset,
    players = 2,
    seed = 'scenario',
  ) {
    this.state = must(newGame(rules, { players, seed }), 'newGame');
  }

  get player(): number {
    const step = this.state.step;
    if (step.kind === 'game-over') throw new Error('game over');
    return step.player;
  }

  play(move: Move): this {
    this.state = must(applyMove(this.rules, this.state, move), `move ${JSON.stringify(move)}`).state;
    return this;
  }

  /** Replaces the pending draw by tile `id`. */
  rigDraw(id: string): this {
    const step = this.state.step;
    if (step.kind !== 'place-tile') throw new Error(`rigDraw: step is ${step.kind}`);
    const s = cloneState(this.state);
    s.bag[this.rules.tileIndex[step.tile]!]!++;
    const want = this.rules.tileIndex[id];
    if (want === undefined || s.bag[want]! <= 0) throw new Error(`rigDraw: no ${id} left`);
    s.bag[want]!--;
    s.step = { kind: 'place-tile', player: step.player, tile: id };
    this.state = s;
    return this;
  }

  /** Changes the state directly, as the tests' rigged positions do. */
  rig(change: (s: GameState) => void): this {
    const s = cloneState(this.state);
    change(s);
    this.state = s;
    return this;
  }

  /** Places the tile (rigged draw) and leaves whatever step follows. */
  lay(id: string, x: number, y: number, rotation: Rotation): this {
    this.rigDraw(id);
    return this.play({ type: 'place', player: this.player, x, y, rotation });
  }

  /** A whole turn: place, then deploy on `feature` or pass. */
  turn([id, x, y, rotation, feature]: Turn): this {
    this.lay(id, x, y, rotation);
    if (this.state.step.kind === 'deploy') {
      const player = this.player;
      this.play(feature === undefined ? { type: 'pass', player } : { type: 'deploy', player, feature });
    } else if (feature !== undefined) throw new Error(`no deploy step after placing ${id}`);
    return this;
  }

  turns(list: readonly Turn[]): this {
    for (const t of list) this.turn(t);
    return this;
  }

  /** The turn played as the last tile of the game (the bag emptied after the rigged draw). */
  last(t: Turn): this {
    this.rigDraw(t[0]);
    this.state.bag.fill(0);
    this.state.bagSize = 0;
    return this.turn(t);
  }

  /** A copy that can be played on without changing this one. */
  fork(): Game {
    const g = Object.create(Game.prototype) as Game;
    Object.assign(g, { rules: this.rules, state: this.state });
    return g;
  }
}

/** What to write under a board: a line of scores (with each player's follower) and lines of text. */
interface Caption {
  readonly scores?: { readonly label: string; readonly values: readonly number[] };
  readonly lines?: readonly string[];
}

/** A part of a board to show, in cells (inclusive), for boards much larger than their example. */
interface Crop {
  readonly x0: number;
  readonly y0: number;
  readonly x1: number;
  readonly y1: number;
}

const ROOT = /^<svg ([^>]*?)width="([0-9.]+)" height="([0-9.]+)" viewBox="([-0-9. ]+)"/;

/**
 * A board picture from `renderBoard` (default tile size 100, no legend: the boards of the examples
 * are narrower than its lines), optionally cropped to some cells, with a caption strip under it
 * whose facts are read from the game.
 */
function board(rules: Ruleset, state: GameState, options: BoardRenderOptions, caption: Caption = {}, crop?: Crop): string {
  let svg = must(renderBoard(rules, state, { tileSize: 100, legend: false, ...options }), 'renderBoard');
  const scale = (options.tileSize ?? 100) / 100;
  if (crop !== undefined) {
    const pad = 40;
    const x = crop.x0 * 100 - pad;
    const y = crop.y0 * 100 - pad;
    const w = (crop.x1 - crop.x0 + 1) * 100 + 2 * pad;
    const h = (crop.y1 - crop.y0 + 1) * 100 + 2 * pad;
    check(ROOT.test(svg), 'a board picture starts with its size and viewBox');
    svg = svg.replace(ROOT, (_m, rest: string) => `<svg ${rest}width="${w * scale}" height="${h * scale}" viewBox="${x} ${y} ${w} ${h}"`);
  }
  const lines = caption.lines ?? [];
  if (caption.scores === undefined && lines.length === 0) return svg;
  const m = ROOT.exec(svg);
  if (m === null) throw new Error('docs-pictures: a board picture starts with its size and viewBox');
  const bw = Number(m[2]);
  const bh = Number(m[3]);
  const LINE = 22;
  const texts: string[] = [];
  let y = bh + 8;
  let widest = 0;
  if (caption.scores !== undefined) {
    y += LINE;
    const { label, values } = caption.scores;
    let x = 12;
    texts.push(`<text x="${x}" y="${y}" font-size="15" fill="#222222">${esc(label)}</text>`);
    x += label.length * 8.2 + 8;
    values.forEach((v, i) => {
      const icon = must(renderFollower(i, { size: 18 }), 'renderFollower');
      texts.push(`<g transform="translate(${Math.round(x)} ${y - 15})">${icon}</g>`);
      texts.push(`<text x="${Math.round(x + 22)}" y="${y}" font-size="15" fill="#222222">${esc(`player ${i + 1}: ${v}`)}</text>`);
      x += 22 + `player ${i + 1}: ${v}`.length * 8.2 + 16;
    });
    widest = Math.max(widest, x);
  }
  for (const line of lines) {
    y += LINE;
    texts.push(`<text x="12" y="${y}" font-size="15" fill="#222222">${esc(line)}</text>`);
    widest = Math.max(widest, 24 + line.length * 8.2);
  }
  const width = Math.ceil(Math.max(bw, widest));
  const height = Math.ceil(y + 12);
  const title = /<title>([^<]*)<\/title>/.exec(svg)?.[1] ?? '';
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="${FONT}">`,
    `<title>${title}</title>`,
    `<rect width="${width}" height="${height}" fill="${DEFAULT_PALETTE.background}"/>`,
    `<g transform="translate(${Math.floor((width - bw) / 2)} 0)">${svg}</g>`,
    ...texts,
    '</svg>',
  ].join('\n');
}

/** Distinct cells of the legal placements at a place-tile step. */
function placementCells(rules: Ruleset, state: GameState): Cell[] {
  const seen = new Set<string>();
  const out: Cell[] = [];
  for (const m of legalMoves(rules, state)) {
    if (m.type !== 'place' || seen.has(`${m.x},${m.y}`)) continue;
    seen.add(`${m.x},${m.y}`);
    out.push({ x: m.x, y: m.y });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Tile sets and the catalogue

interface TileSet {
  /** File name stem and anchor. */
  readonly key: string;
  readonly title: string;
  /** Where its rules are documented (relative to docs/), and that page's name. */
  readonly page: string;
  readonly pageTitle: string;
  readonly rules: Ruleset;
  readonly ids: readonly string[];
  readonly intro: string;
  /** Columns of the catalogue picture. */
  readonly columns: number;
}

/** The tile kinds a ruleset adds to the classic base set, in catalogue order. */
function added(rules: Ruleset, base: Ruleset): string[] {
  return rules.tiles.map((t) => t.def.id).filter((id) => !base.tileById.has(id));
}

function tileSets(): TileSet[] {
  const base = classic();
  const castle = must(createRuleset({ game: castleModule() }), 'castle ruleset');
  const riverI = classic(river({ set: 'I' }));
  const riverII = classic(river({ set: 'II' }));
  const kr = classic(kingRobber());
  const sh = classic(shrines());
  const co = classic(count());
  const tw = classic(tower());
  const pd = classic(princessDragon());
  return [
    {
      key: 'classic',
      title: 'Classic base game',
      page: 'rules/classic.md',
      pageTitle: 'classic rules',
      rules: base,
      ids: base.tiles.map((t) => t.def.id),
      intro: 'The 72 land tiles of the base game (2nd edition), in 24 kinds A to X. One D is the start tile, laid at 0,0 before the first turn.',
      columns: 6,
    },
    {
      key: 'castle',
      title: 'The Castle',
      page: 'rules/castle.md',
      pageTitle: "The Castle's rules",
      rules: castle,
      ids: castle.tiles.map((t) => t.def.id).filter((id) => !id.startsWith('@')),
      intro:
        "The 60 castle tiles of the shipped reconstruction (`RECONSTRUCTED_TILES`, provenance `reconstructed`): the real tile list is printed only on the game's components, so these tiles satisfy every known fact of them and invent the rest. Paths (`p`), towers (`t`), houses (`h`) and courts (`c`); a `+` on a path is a well, in a court a market.",
      columns: 8,
    },
    {
      key: 'river-1',
      title: 'River I',
      page: 'expansions/river.md',
      pageTitle: 'the River',
      rules: riverI,
      ids: added(riverI, base),
      intro: `The ${RIVER_I_TILES.reduce((n, r) => n + r[1], 0)} river tiles of River I: the spring (the start tile), the course and the lake. The river (\`w\`) takes no follower.`,
      columns: 5,
    },
    {
      key: 'river-2',
      title: 'River II',
      page: 'expansions/river.md',
      pageTitle: 'the River',
      rules: riverII,
      ids: added(riverII, base),
      intro: `The ${RIVER_II_TILES.reduce((n, r) => n + r[1], 0)} river tiles of River II: the spring, the fork (laid first), the course and two lakes (the volcano lake comes last).`,
      columns: 6,
    },
    {
      key: 'king-robber',
      title: 'King and Robber Baron',
      page: 'expansions/king-robber.md',
      pageTitle: 'King and Robber Baron',
      rules: kr,
      ids: added(kr, base),
      intro: 'The 5 extra land tiles of King and Robber Baron, shuffled in with the base tiles. KR-05 holds two cities crossing on a bridge.',
      columns: 5,
    },
    {
      key: 'shrines',
      title: 'Shrines',
      page: 'expansions/shrines.md',
      pageTitle: 'Shrines',
      rules: sh,
      ids: added(sh, base),
      intro: 'The 5 shrine tiles (`h`: a shrine, scored like a cloister; its follower is a heretic).',
      columns: 5,
    },
    {
      key: 'count',
      title: "The Count: the City of Carcassonne",
      page: 'expansions/count.md',
      pageTitle: 'the Count of Carcassonne',
      rules: co,
      ids: added(co, base),
      intro:
        "The 12 squares of the City of Carcassonne, laid at x 0..3, y 0..2 unturned in place of the start tile, shown here in that order. Their inside (`k1`) is one complete feature that takes no follower; the rim's fields, roads and city caps take followers as usual.",
      columns: 4,
    },
    {
      key: 'tower',
      title: 'The Tower',
      page: 'expansions/tower.md',
      pageTitle: 'the Tower',
      rules: tw,
      ids: added(tw, base),
      intro: 'The 18 tiles of the Tower (17 kinds), each with a tower foundation (the grey square in the middle; not a feature: roads that reach it end there). TO-08 carries its road over its city on a bridge.',
      columns: 6,
    },
    {
      key: 'princess-dragon',
      title: 'The Princess and the Dragon',
      page: 'expansions/princess-dragon.md',
      pageTitle: 'the Princess and the Dragon',
      rules: pd,
      ids: added(pd, base),
      intro:
        'The 30 tiles of the Princess and the Dragon (29 kinds): 6 volcanoes, 12 dragon symbols, 6 magic portals and 6 princesses. PD-10 is a cloister inside a city; PD-15 carries its road under its city in a tunnel.',
      columns: 6,
    },
  ];
}

const CATALOGUE_TILE = 112;
const CATALOGUE_GAP = 14;
const CAPTION = 22;
const HEADER = 40;

function catalogueSvg(set: TileSet): string {
  const n = set.ids.length;
  const cols = Math.min(set.columns, n);
  const rows = Math.ceil(n / cols);
  const cell = CATALOGUE_TILE + CATALOGUE_GAP;
  const total = set.ids.reduce((s, id) => s + set.rules.tileById.get(id)!.def.count, 0);
  const heading = `${set.title}: ${n} tile kinds, ${total} tiles`;
  // Wide enough for the heading (bold 17 px: about 10.5 px a character).
  const width = Math.max(CATALOGUE_GAP + cols * cell, Math.ceil(2 * CATALOGUE_GAP + heading.length * 10.5));
  const height = HEADER + rows * (cell + CAPTION);
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="${FONT}">`,
    `<title>${esc(`Tile catalogue: ${set.title}, ${n} tile kinds, ${total} tiles`)}</title>`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="${CATALOGUE_GAP}" y="26" font-size="17" font-weight="bold" fill="#222222">${esc(heading)}</text>`,
  ];
  set.ids.forEach((id, i) => {
    const x = CATALOGUE_GAP + (i % cols) * cell;
    const y = HEADER + Math.floor(i / cols) * (cell + CAPTION);
    const svg = must(renderTile(set.rules, id, 0, { tileSize: CATALOGUE_TILE, labels: true }), `renderTile ${id}`);
    out.push(`<g transform="translate(${x} ${y})">${svg}</g>`);
    const copies = set.rules.tileById.get(id)!.def.count;
    out.push(`<text x="${x + CATALOGUE_TILE / 2}" y="${y + CATALOGUE_TILE + 17}" font-size="14" text-anchor="middle" fill="#222222"><tspan font-weight="bold">${esc(id)}</tspan> × ${copies}</text>`);
  });
  out.push('</svg>');
  return out.join('\n') + '\n';
}

/** A feature's ports, a whole side written as its letter (`N` for N1, N2, N3), as the tile spec writes them. */
function portText(ports: readonly Port[]): string {
  const out: string[] = [];
  const has = new Set(ports);
  const done = new Set<Port>();
  for (const p of ports) {
    if (done.has(p)) continue;
    const side = p[0]!;
    const whole = [1, 2, 3].every((k) => has.has(`${side}${k}` as Port));
    if (whole) {
      out.push(side);
      for (const k of [1, 2, 3]) done.add(`${side}${k}` as Port);
    } else {
      out.push(p);
      done.add(p);
    }
  }
  return out.join(' ');
}

const EMBLEM: Readonly<Record<string, [string, string]>> = {
  city: ['pennant', 'pennants'],
  path: ['well', 'wells'],
  court: ['market', 'markets'],
};

/** The features of a tile kind as moves name them: `c1` city (N), a pennant; ... */
function featureText(tile: CompiledTile, rules: Ruleset): string {
  return tile.def.features
    .map((f) => {
      const parts = [`\`${f.id}\` ${f.kind}`];
      if (f.ports.length > 0) parts.push(`(${portText(f.ports)})`);
      else if (rules.kinds[tile.kinds[tile.def.features.indexOf(f)]!]!.completion !== 'surroundings') parts.push('(inside the tile)');
      let text = parts.join(' ');
      if (f.pennants > 0) {
        const [one, many] = EMBLEM[f.kind] ?? ['pennant', 'pennants'];
        text += f.pennants === 1 ? ` with a ${one}` : ` with ${f.pennants} ${many}`;
      }
      if (f.adjacent.length > 0) text += `, touching ${f.adjacent.map((a) => `\`${a}\``).join(', ')}`;
      return text;
    })
    .join('; ');
}

/** The symbols printed on a tile kind besides its features. */
function symbolText(id: string): string {
  const out: string[] = [];
  if (VOLCANO_TILES.includes(id)) out.push('volcano');
  if (DRAGON_TILES.includes(id)) out.push('dragon');
  if (PORTAL_TILES.includes(id)) out.push('magic portal');
  if (Object.hasOwn(PRINCESS_TILES, id)) out.push(`princess (in \`${PRINCESS_TILES[id]}\`)`);
  if (TOWER_TILES.some(([t]) => t === id)) out.push('tower foundation');
  if (id === 'TO-08') out.push('bridge (road over the city)');
  if (id === 'KR-05') out.push('bridge (the cities cross)');
  if (id === 'PD-15') out.push('tunnel (road under the city)');
  return out.join(', ');
}

function catalogueTable(set: TileSet): string {
  const symbols = set.ids.some((id) => symbolText(id) !== '');
  const lines = [symbols ? '| Tile | Count | Features (local id, kind, ports) | Symbols |' : '| Tile | Count | Features (local id, kind, ports) |', symbols ? '|---|---|---|---|' : '|---|---|---|'];
  for (const id of set.ids) {
    const tile = set.rules.tileById.get(id)!;
    const row = [`**${id}**`, String(tile.def.count), featureText(tile, set.rules)];
    if (symbols) row.push(symbolText(id));
    lines.push(`| ${row.join(' | ')} |`);
  }
  return lines.join('\n');
}

// ---------------------------------------------------------------------------------------------
// The 12-port notation

const PORT_TILE = 220;

/** Where port `p`'s label goes round a tile drawn at `x0, y0` with side `size`, and its text anchor. */
function portLabel(p: Port, x0: number, y0: number, size: number): { x: number; y: number; anchor: string; tick: [number, number, number, number] } {
  const i = PORTS.indexOf(p);
  const side = Math.floor(i / 3);
  const k = i % 3; // 0, 1, 2 clockwise along the side
  const t = (k * 2 + 1) / 6; // middle of the port's third
  const gap = 16;
  switch (side) {
    case 0: // N: west to east
      return { x: x0 + t * size, y: y0 - gap, anchor: 'middle', tick: [x0 + t * size, y0, x0 + t * size, y0 - 7] };
    case 1: // E: north to south
      return { x: x0 + size + gap - 4, y: y0 + t * size + 5, anchor: 'start', tick: [x0 + size, y0 + t * size, x0 + size + 7, y0 + t * size] };
    case 2: // S: east to west
      return { x: x0 + (1 - t) * size, y: y0 + size + gap + 10, anchor: 'middle', tick: [x0 + (1 - t) * size, y0 + size, x0 + (1 - t) * size, y0 + size + 7] };
    default: // W: south to north
      return { x: x0 - gap + 4, y: y0 + (1 - t) * size + 5, anchor: 'end', tick: [x0, y0 + (1 - t) * size, x0 - 7, y0 + (1 - t) * size] };
  }
}

function portsSvg(): string {
  const rules = classic();
  const d = rules.tileById.get('D')!;
  const width = 960;
  const height = 480;
  const left = { x: 130, y: 80 };
  const right = { x: 590, y: 80 };
  const kindColour: Readonly<Record<string, string>> = { city: DEFAULT_PALETTE.wall, road: DEFAULT_PALETTE.roadEdge, field: '#3d6b1f' };
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="${FONT}">`,
    '<title>The 12-port notation: each edge cut in three, ports N1 to W3 clockwise from the north-west corner; tile D owns them as r:E2,W2 c:N f:E1,W3&gt;c1 f:E3,S,W1</title>',
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="${left.x + PORT_TILE / 2}" y="24" font-size="16" font-weight="bold" text-anchor="middle" fill="#222222">12 ports, clockwise from the north-west corner</text>`,
    `<text x="${right.x + PORT_TILE / 2}" y="24" font-size="16" font-weight="bold" text-anchor="middle" fill="#222222">Tile D: which feature owns each port</text>`,
  ];
  // Left: an empty tile with its ports.
  out.push(`<rect x="${left.x}" y="${left.y}" width="${PORT_TILE}" height="${PORT_TILE}" fill="#f3efe6" stroke="#5b5348" stroke-width="2"/>`);
  for (let s = 0; s < 4; s++) {
    for (const k of [1, 2]) {
      const t = (k / 3) * PORT_TILE;
      const [x1, y1, x2, y2] = s === 0 ? [left.x + t, left.y, left.x + t, left.y + 14] : s === 1 ? [left.x + PORT_TILE, left.y + t, left.x + PORT_TILE - 14, left.y + t] : s === 2 ? [left.x + t, left.y + PORT_TILE, left.x + t, left.y + PORT_TILE - 14] : [left.x, left.y + t, left.x + 14, left.y + t];
      out.push(`<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" stroke="#5b5348" stroke-width="2"/>`);
    }
  }
  // Arrow round the inside: clockwise from the north-west corner.
  out.push(
    `<path d="M${left.x + 40},${left.y + 50} H${left.x + PORT_TILE - 50} Q${left.x + PORT_TILE - 40},${left.y + 50} ${left.x + PORT_TILE - 40},${left.y + 60} V${left.y + PORT_TILE - 50}" fill="none" stroke="#888888" stroke-width="2" marker-end="url(#arrow)"/>`,
  );
  out.push('<defs><marker id="arrow" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="7" markerHeight="7" orient="auto"><path d="M0,0L10,5L0,10z" fill="#888888"/></marker></defs>');
  out.push(`<text x="${left.x + PORT_TILE / 2}" y="${left.y + PORT_TILE / 2 + 30}" font-size="13" text-anchor="middle" fill="#555555">port 2 is the middle</text>`);
  out.push(`<text x="${left.x + PORT_TILE / 2}" y="${left.y + PORT_TILE / 2 + 48}" font-size="13" text-anchor="middle" fill="#555555">of its edge</text>`);
  out.push(`<g font-size="14" font-weight="bold" fill="#222222">`);
  for (const p of PORTS) {
    const l = portLabel(p, left.x, left.y, PORT_TILE);
    out.push(`<text x="${l.x}" y="${l.y}" text-anchor="${l.anchor}">${p}</text>`);
  }
  out.push('</g>');
  // Right: tile D, its features labelled, each port labelled with its owner.
  const tile = must(renderTile(rules, 'D', 0, { tileSize: PORT_TILE, labels: true }), 'renderTile D');
  out.push(`<g transform="translate(${right.x} ${right.y})">${tile}</g>`);
  out.push('<g font-size="13">');
  for (const p of PORTS) {
    const owner = d.def.features.find((f) => f.ports.includes(p))!;
    const l = portLabel(p, right.x, right.y, PORT_TILE);
    const [x1, y1, x2, y2] = l.tick;
    out.push(`<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" stroke="${kindColour[owner.kind] ?? '#222222'}" stroke-width="3"/>`);
    out.push(`<text x="${l.x}" y="${l.y}" text-anchor="${l.anchor}" fill="${kindColour[owner.kind] ?? '#222222'}"><tspan font-weight="bold">${p}</tspan> ${owner.id}</text>`);
  }
  out.push('</g>');
  // The spec under D.
  const specY = right.y + PORT_TILE + 70;
  out.push(`<text x="${right.x + PORT_TILE / 2}" y="${specY}" font-size="15" text-anchor="middle" font-family="DejaVu Sans Mono, Consolas, monospace" fill="#222222">r:E2,W2 c:N f:E1,W3&gt;c1 f:E3,S,W1</text>`);
  const rows = d.def.features.map((f) => `${f.id} ${f.kind}: ${portText(f.ports)}${f.adjacent.length > 0 ? ` (touches ${f.adjacent.join(', ')})` : ''}`);
  rows.forEach((row, i) => {
    out.push(`<text x="${right.x + PORT_TILE / 2}" y="${specY + 22 + i * 19}" font-size="13" text-anchor="middle" fill="#444444">${esc(row)}</text>`);
  });
  // Under the left tile: across an edge.
  const noteY = left.y + PORT_TILE + 70;
  const notes = ['Turning a tile r quarter turns clockwise', 'moves port p to (p + 3r) mod 12.', 'Across a shared edge the middles meet', 'and the corners swap: N1 touches', "the northern neighbour's S3."];
  notes.forEach((n, i) => out.push(`<text x="${left.x + PORT_TILE / 2}" y="${noteY + i * 19}" font-size="13" text-anchor="middle" fill="#444444">${esc(n)}</text>`));
  out.push('</svg>');
  return out.join('\n') + '\n';
}

// ---------------------------------------------------------------------------------------------
// The Castle's board

function castleBoards(): Record<string, string> {
  const rules = must(createRuleset({ game: castleModule() }), 'castle ruleset');
  const empty = must(newGame(rules, { players: 2, seed: 'docs-castle' }), 'newGame castle');
  let state: GameState = empty;
  const random = createRandomSource('docs-castle-bots');
  const bot = greedyBot(random);
  while (state.turn < 20 && state.step.kind !== 'game-over') {
    state = must(applyMove(rules, state, bot(rules, state)), 'castle bot move').state;
  }
  check(state.turn === 20 && state.step.kind === 'place-tile', 'castle game part-way: 20 turns played');
  return {
    'castle-board-empty.svg': board(rules, empty, {
      tileSize: 64,
      title: "The Castle's board before the first tile: the play area of 76 cells inside the wall, the 7 start fields on the wall, the score track of 100 spaces with its 14 towers and 13 face-down wall tokens (the shipped reconstruction)",
    }),
    'castle-board.svg': board(rules, state, {
      tileSize: 64,
      legend: true,
      title: `The Castle after 20 turns of two greedy bots (seed docs-castle): scores ${state.scores.join(' and ')}`,
    }),
  };
}

/** The landing page's picture: a whole 2-player classic game of two greedy bots, at its end. */
function landingBoard(): Pictures {
  const rules = must(createRuleset({ game: 'classic' }), 'classic ruleset');
  let state: GameState = must(newGame(rules, { players: 2, seed: 'docs-landing' }), 'newGame classic');
  const bot = greedyBot(createRandomSource('docs-landing-bots'));
  while (state.step.kind !== 'game-over') state = must(applyMove(rules, state, bot(rules, state)), 'classic bot move').state;
  check(state.tiles.length === rules.tileCount, 'the landing game placed every tile');
  return {
    'classic-game.svg': board(rules, state, {
      tileSize: 48,
      legend: true,
      title: `A whole 2-player classic game of two greedy bots (seed docs-landing), final scores ${state.scores.join(' and ')}`,
    }),
  };
}

// ---------------------------------------------------------------------------------------------
// Rules examples. Each builder names the test row whose turns it plays, and checks the row's
// outcome before drawing.

type Pictures = Record<string, string>;

/** The scores after the pictured turn ends (the deploy step passed), for a caption. */
function scoresAfterPass(g: Game): number[] {
  return [...g.fork().play({ type: 'pass', player: g.player }).state.scores];
}

function classicExamples(): Pictures {
  const rules = classic();
  const out: Pictures = {};

  // classic-rules.test.ts: "road: a three-tile road closed by two junctions scores 3".
  {
    const g = new Game(rules).turn(['W', 1, 0, 0, 'r3']).lay('W', -1, 0, 0);
    const after = scoresAfterPass(g);
    check(g.state.step.kind === 'deploy' && g.state.followers.length === 1 && same(after, [3, 0]), 'road example: the thief scores 3');
    out['classic-road.svg'] = board(
      rules,
      g.state,
      { highlightFeature: { x: 0, y: 0, feature: 'r1' }, title: "A road closed at both ends by junctions: W, D, W. Player 1's thief on it scores 3, one per tile." },
      { scores: { label: 'Scores after the turn:', values: after } },
    );
  }

  // "city: a complete city of 3 tiles with a pennant scores 2 per tile + 2 per pennant = 8".
  {
    const g = new Game(rules).turn(['F', 0, -1, 1, 'c1']).lay('E', 0, -2, 2);
    const after = scoresAfterPass(g);
    check(same(after, [8, 0]), 'city example scores 8');
    out['classic-city.svg'] = board(
      rules,
      g.state,
      { highlightFeature: { x: 0, y: 0, feature: 'c1' }, title: "A city of 3 tiles with one pennant, closed by the cap at the top: player 1's knight scores 2 x 3 + 2 = 8." },
      { scores: { label: 'Scores after the turn:', values: after } },
    );
  }

  // "cloister: a cloister with all 8 neighbours scores 9".
  {
    const g = new Game(rules).turns([
      ['B', 0, 1, 0, 'm1'],
      ['U', 1, 0, 0],
      ['U', -1, 0, 0],
      ['V', -1, 1, 0],
      ['V', 1, 1, 3],
      ['V', -1, 2, 1],
      ['E', 0, 2, 2],
    ]);
    g.lay('V', 1, 2, 2);
    const after = scoresAfterPass(g);
    check(same(after, [9, 0]), 'cloister example scores 9');
    out['classic-cloister.svg'] = board(
      rules,
      g.state,
      { highlightFeature: { x: 0, y: 1, feature: 'm1' }, title: "A cloister with all 8 neighbours: the last one, at the bottom right, completes it and player 1's monk scores 9." },
      { scores: { label: 'Scores after the turn:', values: after } },
    );
  }

  // "farmers: at the end a field scores 3 per completed city it touches; the incomplete city gives nothing".
  {
    const g = new Game(rules).turn(['H', 0, -1, 0, 'f1']).last(['U', 1, 0, 0]);
    check(g.state.step.kind === 'game-over' && same(g.state.scores, [3, 0]), 'farm example scores 3');
    out['classic-farm.svg'] = board(
      rules,
      g.state,
      { highlightFeature: { x: 0, y: -1, feature: 'f1' }, title: "Final scoring: player 1's farmer on the field of H touches two cities; only the completed one (H's south cap with D's) counts: 3 points." },
      { scores: { label: 'Final scores:', values: g.state.scores } },
    );
  }

  // "final scoring: incomplete city, road, cloister and a farm scored together equal the projection before the last tile: 6 and 5".
  {
    const g = new Game(rules)
      .turns([
        ['F', 0, -1, 1, 'c1'],
        ['U', 1, 0, 0, 'r1'],
        ['B', 0, 1, 0, 'm1'],
        ['E', 1, -1, 0, 'f1'],
        ['E', 1, -2, 2],
      ])
      .last(['V', -1, -1, 0]);
    check(g.state.step.kind === 'game-over' && same(g.state.scores, [6, 5]), 'final scoring example: 6 and 5');
    out['classic-final.svg'] = board(
      rules,
      g.state,
      {
        highlightFeature: { x: 1, y: -1, feature: 'f1' },
        title: 'Final scoring: player 1 scores the open city (2 tiles + 1 pennant = 3) and the cloister (1 + 2 neighbours = 3); player 2 the open road (2) and the farm (lit) touching one completed city (3).',
      },
      { scores: { label: 'Final scores:', values: g.state.scores } },
    );
  }

  // "placement: a tile touching two tiles must match both edges at once": every cell where E fits.
  {
    const g = new Game(rules).turns([
      ['U', 1, 0, 0],
      ['F', 0, -1, 1],
    ]);
    g.rigDraw('E');
    const cells = placementCells(rules, g.state);
    check(cells.length === 5 && cells.some((c) => c.x === 1 && c.y === -1), 'placement example: E fits in 5 cells, 1,-1 among them (docs/rules/classic.md says five)');
    out['classic-placement.svg'] = board(
      rules,
      g.state,
      {
        highlightCells: cells,
        coordinates: true,
        title: `Where the drawn tile E (a city cap) can go: the ${cells.length} dashed cells, each one where some turn of E matches every neighbour.`,
      },
      { lines: [`Tile E can go in ${cells.length} cells (legalMoves)`] },
    );
    out['classic-placement-tile.svg'] = must(renderTile(rules, 'E', 0, { tileSize: 100, labels: true }), 'renderTile E');
  }
  return out;
}

// The Castle's rules examples use the test data of test/castle-rules.test.ts: the reconstructed
// wall with start fields of their own, and a test tile set (they prove the rules, not our
// reconstruction).
const TEST_LAYOUT: CastleLayoutData = {
  provenance: 'test',
  notes: 'castle-rules.test.ts: the reconstructed area, track and towers, with start fields of its own.',
  area: RECONSTRUCTED_LAYOUT.area,
  track: RECONSTRUCTED_LAYOUT.track,
  towers: RECONSTRUCTED_LAYOUT.towers,
  pieces: RECONSTRUCTED_LAYOUT.pieces ?? [],
  startFields: [
    { x: 4, y: 0, side: 'N', spec: 'p:N2' },
    { x: 7, y: 1, side: 'E', spec: 'c:E' },
    { x: 0, y: 2, side: 'N', spec: 't:N1,N2 h:N3' },
    { x: 1, y: 5, side: 'W', spec: 'c:W1 p:W2 c:W3' },
    { x: 8, y: 5, side: 'E', spec: 't:E' },
    { x: 0, y: 8, side: 'W', spec: 'h:W' },
    { x: 3, y: 9, side: 'S', spec: 'c+:S' },
  ],
};

const TEST_TILE_KINDS: readonly (readonly [id: string, count: number, spec: string])[] = [
  ['S', 4, 'p:N2,S2 c:N3,E,S1 c:S3,W,N1'],
  ['SW', 3, 'p+:N2,S2 c:N3,E,S1 c:S3,W,N1'],
  ['E', 4, 'p:N2 c:N3,E,S,W,N1'],
  ['Q3', 1, 'p:N2 p:E2 p:S2 c:N3,E1 c:E3,S1 c:S3,W,N1'],
  ['B3', 1, 'p:N2,E2,S2 c:N3,E1 c:E3,S1 c:S3,W,N1'],
  ['CR', 4, 'p:N2,E2 c:N3,E1 c:E3,S,W,N1'],
  ['PH', 1, 'p:N2 h:S c:N3,E c:W,N1'],
  ['TC', 4, 't:E,S c:W,N'],
  ['TH', 4, 't:N c:E,S,W'],
  ['TT', 1, 't:N,S c:E c:W'],
  ['T3', 1, 't:N,E,S c:W'],
  ['H', 5, 'h:N c:E,S,W'],
  ['M', 5, 'c+:N,E,S,W'],
  ['MT', 1, 't:N c+:E,S,W'],
  ['PCH', 1, 'p:N2,S2 c+:N3,E,S1 h:S3,W,N1'],
  ['MB', 1, 't:N1,N2 h:N3,E c:S,W'],
  ['TX', 1, 't:E h:S c:N,W'],
  ['X4', 1, 'p:N2 p:E2 p:S2 p:W2 c:N3,E1 c:E3,S1 c:S3,W1 c:W3,N1'],
];
const TEST_TILES: CastleTileSetData = {
  provenance: 'test',
  tiles: [...TEST_TILE_KINDS.map(([id, n, spec]) => ({ id, count: n, spec })), { id: 'CC', count: 60 - TEST_TILE_KINDS.reduce((s, [, n]) => s + n, 0), spec: 'c:N,E,S,W' }],
};

function castleOf(s: GameState): CastleSlice {
  return s.ext['castle'] as CastleSlice;
}

/** The north-east corner of The Castle's board, where most rulebook examples of the tests lie. */
const NORTH_EAST: Crop = { x0: 3, y0: -1, x1: 9, y1: 3 };

function castleExamples(): Pictures {
  const rules = must(createRuleset({ game: castleModule({ layout: TEST_LAYOUT, tiles: TEST_TILES })}), 'castle test ruleset');
  const out: Pictures = {};

  // castle-rules.test.ts: 'rulebook example: a closed road of 3 tiles and the road gate, with a well: black scores 8'.
  {
    const g = new Game(rules).turns([
      ['SW', 4, 0, 0, 'p1'],
      ['S', 4, 1, 0],
    ]);
    g.lay('E', 4, 2, 0);
    const after = scoresAfterPass(g);
    check(same(after, [8, 0]), 'castle road example scores 8');
    out['castle-path.svg'] = board(
      rules,
      g.state,
      { title: "A path from the road gate in the wall over 3 tiles, ending at a square: with a well beside it every tile counts 2, the gate too; black's herald scores 8.", highlightFeature: { x: 4, y: 0, feature: 'p1' } },
      { scores: { label: 'Scores after the turn:', values: after } },
      NORTH_EAST,
    );
  }

  // 'rulebook example: a closed tower of 4 tiles: white scores 8'.
  {
    const g = new Game(rules).turns([
      ['TC', 7, 1, 1],
      ['TC', 6, 1, 0, 't1'],
      ['TC', 6, 2, 3],
    ]);
    g.lay('TC', 7, 2, 2);
    const after = scoresAfterPass(g);
    check(same(after, [0, 8]), 'castle tower example scores 8');
    out['castle-tower.svg'] = board(
      rules,
      g.state,
      { highlightFeature: { x: 6, y: 1, feature: 't1' }, title: "A tower of 4 tiles, closed by the last corner: white's knight scores 2 per tile, 8." },
      { scores: { label: 'Scores after the turn:', values: after } },
      NORTH_EAST,
    );
  }

  // 'rulebook example: a 1-tile house, touching another house only at a corner, is closed: white scores 1 and places the keep'.
  {
    const g = new Game(rules).turns([
      ['CC', 7, 1, 0],
      ['H', 6, 1, 2],
      ['CC', 6, 0, 0],
      ['H', 7, 2, 0, 'h1'],
    ]);
    check(same(g.state.scores, [0, 1]) && castleOf(g.state).keep[1] !== null && castleOf(g.state).keep[0] === null, 'castle house example: white scores 1 and places the keep');
    out['castle-keep.svg'] = board(
      rules,
      g.state,
      { highlightFeature: { x: 7, y: 2, feature: 'h1' }, title: 'A house of one tile closed by the court above it (the house at its corner does not join it): white scores 1 and puts the keep on it.' },
      { scores: { label: 'Scores:', values: g.state.scores }, lines: ["White's keep stands on the closed house"] },
      NORTH_EAST,
    );
  }

  // 'rulebook example: 60 tiles placed leave 16 empty cells; the largest group has 11 cells: the larger keep scores 11'.
  {
    const endRules = must(
      createRuleset({
        game: castleModule({
          layout: TEST_LAYOUT,
          tiles: {
            provenance: 'test',
            tiles: [
              { id: 'EH', count: 3, spec: 'h:N c:E,S,W' },
              { id: 'EC', count: 57, spec: 'c:N,E,S,W' },
            ],
          },
        }),
      }),
      'castle end ruleset',
    );
    const empty = ['2,0', '3,0', '4,0', '5,0', '6,0', '7,0', '2,1', '3,1', '4,1', '5,1', '6,1', '1,4', '1,5', '1,6', '2,4', '2,5'];
    const special = new Set(['4,4', '4,5', '6,6', '8,3']);
    const area = TEST_LAYOUT.area;
    const courts: string[] = [];
    for (let y = 0; y < area.length; y++) for (let x = 0; x < area[y]!.length; x++) if (area[y]![x] === '#' && !empty.includes(`${x},${y}`) && !special.has(`${x},${y}`)) courts.push(`${x},${y}`);
    // Plain courts in breadth-first order from 3,9, so that each touches one placed before.
    const order: string[] = ['3,9'];
    for (let i = 0; i < order.length; i++) {
      const [x, y] = order[i]!.split(',').map(Number) as [number, number];
      for (const [dx, dy] of [
        [0, -1],
        [1, 0],
        [0, 1],
        [-1, 0],
      ] as const) {
        const n = `${x + dx},${y + dy}`;
        if (courts.includes(n) && !order.includes(n)) order.push(n);
      }
    }
    const g = new Game(endRules);
    for (const c of order) {
      const [x, y] = c.split(',').map(Number) as [number, number];
      g.turn(['EC', x, y, 0]);
    }
    g.turns([
      ['EH', 4, 4, 2, 'h1'],
      ['EH', 6, 6, 0, 'h1'],
      ['EH', 4, 5, 0],
    ]);
    g.last(['EC', 8, 3, 0]);
    check(g.state.step.kind === 'game-over' && same(g.state.scores, [13, 1]), 'castle end example: 13 and 1');
    const largest = empty.slice(0, 11).map((c) => {
      const [x, y] = c.split(',').map(Number) as [number, number];
      return { x, y };
    });
    out['castle-keep-area.svg'] = board(
      endRules,
      g.state,
      {
        tileSize: 64,
        highlightCells: largest,
        title: "The end of the game: 16 cells stay empty, in two groups; the larger group (11 cells, dashed) goes to the larger keep: black's 2-tile keep beats white's 1-tile keep and scores 11.",
      },
      { scores: { label: 'Final scores:', values: g.state.scores }, lines: ["Black's keep: 2 tiles (middle); white's keep: 1 tile (lower right)"] },
    );
  }
  return out;
}

function riverExamples(): Pictures {
  const out: Pictures = {};
  // A seeded game of River I (greedy bots): the whole course, from the spring to the lake.
  {
    const rules = classic(river({ set: 'I' }));
    const riverIds = new Set(RIVER_I_TILES.map(([id]) => id));
    let state = must(newGame(rules, { players: 2, seed: 'docs-river' }), 'newGame river');
    const bot = greedyBot(createRandomSource('docs-river-moves'));
    while (state.step.kind !== 'game-over' && (state.step.kind !== 'place-tile' || riverIds.has(state.step.tile))) {
      state = must(applyMove(rules, state, bot(rules, state)), 'river move').state;
    }
    const laid = state.tiles.filter((t) => riverIds.has(t.id)).length;
    check(laid === 12, `river course: all 12 river tiles laid (${laid})`);
    out['river-course.svg'] = board(rules, state, {
      tileSize: 72,
      title: 'A River I course from a seeded game of two bots: the spring, 10 course tiles and the lake, laid before any land tile; no two curves in a row turn the same way.',
    });
  }
  // river-count.test.ts: the spring laid beside the City at set-up, the river going on from it
  // (a seeded game of River I with the Count, greedy bots, up to the first land tile).
  {
    const rules = classic(river({ set: 'I' }), count());
    const riverIds = new Set(RIVER_I_TILES.map(([id]) => id));
    let state = must(newGame(rules, { players: 2, seed: 'docs-river-count' }), 'newGame river and count');
    const bot = greedyBot(createRandomSource('docs-river-count-moves'));
    while (state.step.kind !== 'game-over' && (state.step.kind !== 'place-tile' || riverIds.has(state.step.tile))) {
      state = must(applyMove(rules, state, bot(rules, state)), 'river and count move').state;
    }
    const spring = state.tiles[12]!;
    const laid = state.tiles.filter((t) => riverIds.has(t.id)).length;
    const discarded = RIVER_I_TILES.reduce((n, [id]) => n + state.discarded[rules.tileIndex[id]!]!, 0);
    check(spring.id === 'R1-01' && spring.player === 0 && laid + discarded === 12, `river and count: the spring at set-up, every river tile laid or discarded (${laid} + ${discarded})`);
    out['river-count.svg'] = board(rules, state, {
      tileSize: 56,
      highlightCells: [{ x: spring.x, y: spring.y }],
      title: `The City of Carcassonne with the River: the starting player laid the spring (yellow) beside the City at set-up; the river went on from it (${laid} river tiles laid${discarded > 0 ? `, ${discarded} discarded` : ''}) before any land tile.`,
    });
  }
  // river.test.ts: 'fork closed by both lakes: the volcano lake R2-03 and the lake at a city R2-04 each close a branch; no open end is left'.
  {
    const rules = classic(river({ set: 'II' }));
    const g = new Game(rules).turns([
      ['R2-02', 1, 0, 0],
      ['R2-12', 1, -1, 3],
      ['R2-06', 2, 0, 0],
      ['R2-03', 2, -1, 0],
    ]);
    g.lay('R2-04', 3, 0, 0);
    check(same((g.state.ext['river'] as { ends: object }).ends, {}), 'river fork example: no open end left');
    out['river-fork.svg'] = board(rules, g.state, {
      highlightFeature: { x: 1, y: 0, feature: 'w1' },
      coordinates: true,
      title: 'River II: the spring at 0,0, the fork at 1,0 splitting the river, each branch ended by a lake: the volcano lake at 2,-1 and the lake at a city at 3,0.',
    });
  }
  return out;
}

function kingRobberExamples(): Pictures {
  const rules = classic(kingRobber());
  const out: Pictures = {};
  const holders = (s: GameState): string => {
    const k = s.ext['king-robber'] as KingRobberState;
    const who = (p: number): string => (p < 0 ? 'nobody' : `player ${p + 1}`);
    return `King: ${who(k.king)} (largest city ${k.kingTiles} tiles); Robber Baron: ${who(k.robber)}${k.robber < 0 ? '' : ` (longest road ${k.robberTiles} tiles)`}`;
  };
  // king-robber.test.ts: 'robber and king: one tile completing a city and a road hands over both, each against its own record'.
  {
    const g = new Game(rules).turns([
      ['A', -1, 0, 3],
      ['F', 0, -1, 1],
      ['E', 1, -1, 2],
      ['KR-03', 1, 0, 0],
    ]);
    check(same(g.state.ext['king-robber'], { king: 1, kingTiles: 2, robber: 1, robberTiles: 3 }), 'king and robber example');
    out['king-robber.svg'] = board(
      rules,
      g.state,
      {
        highlightFeature: { x: 1, y: 0, feature: 'r1' },
        title: 'KR-03, laid last at the right, closes a 2-tile city and the 3-tile road (lit) at once: its player takes both the King and the Robber Baron, with no follower on either.',
      },
      { lines: [holders(g.state)] },
    );
  }
  // 'king: a later city of the same size does not take it; a strictly larger one does' (its turns), ended
  // as in 'final: the King scores 1 per completed city on the board, whoever completed it'.
  {
    const g = new Game(rules)
      .turns([
        ['E', 0, -1, 2],
        ['E', 1, -1, 0],
        ['U', 1, 0, 0],
        ['E', 1, -2, 2],
        ['D', -1, 0, 0],
        ['F', -1, -1, 1],
        ['U', 2, 0, 0],
        ['E', -1, -2, 2],
      ])
      .last(['B', 0, 1, 0]);
    const s = g.state.ext['king-robber'] as KingRobberState;
    check(s.king === 1 && s.kingTiles === 3 && same(g.state.scores, [0, 3]), 'king three cities example');
    out['king-three-cities.svg'] = board(
      rules,
      g.state,
      {
        highlightFeature: { x: -1, y: 0, feature: 'c1' },
        title: "Three completed cities. Player 1 closed the first (2 tiles) and took the King; player 2's 2-tile city was not larger; player 2's 3-tile city (lit) was. At the end the King scores 1 per completed city: 3.",
      },
      { scores: { label: 'Final scores:', values: g.state.scores }, lines: [holders(g.state)] },
    );
  }
  return out;
}

function shrineExamples(): Pictures {
  const rules = classic(shrines());
  // shrines.test.ts: 'challenge: won by the shrine; the heretic scores 9, the monk returns without points'.
  const g = new Game(rules).turns([
    ['SH-01', 0, 1, 0, 'h1'],
    ['B', 1, 1, 0, 'm1'],
    ['U', 1, 0, 0],
    ['U', -1, 0, 0],
    ['V', -1, 1, 0],
    ['V', -1, 2, 1],
    ['E', 0, 2, 2],
  ]);
  g.lay('V', 1, 2, 3);
  const after = g.fork().play({ type: 'pass', player: g.player }).state;
  check(same(after.scores, [9, 0]) && after.followers.length === 0, 'shrine challenge: 9 for the heretic, both followers home');
  return {
    'shrines-challenge.svg': board(
      rules,
      g.state,
      {
        highlightFeature: { x: 0, y: 1, feature: 'h1' },
        title: "A challenge: player 1's heretic on the shrine (lit) against player 2's monk in the cloister next to it. The last tile, at the bottom right, completes the shrine first: the heretic scores 9, the monk goes home with nothing.",
      },
      { scores: { label: 'Scores after the turn:', values: after.scores }, lines: ['Both followers go home'] },
    ),
  };
}

function countExamples(): Pictures {
  const rules = classic(count());
  const out: Pictures = {};
  const FILLER: Turn = ['U', -1, 1, 1];
  // count.test.ts: 'example 1: red closes a city, blue scores 4, red may put a follower into any quarter and then move the Count'.
  {
    const g = new Game(rules).turns([FILLER, ['E', 1, 3, 2, 'c1'], ['E', 1, 4, 0]]);
    check(g.state.step.kind === 'count/enter' && same(g.state.scores, [0, 4]), 'count example 1: red may enter');
    g.play({ type: 'count/enter', player: 0, quarter: 'blacksmith' } as Move);
    g.play({ type: 'count/move-count', player: 0, quarter: 'market' } as Move);
    const c = g.state.ext['count'] as CountState;
    check(same(c.quarters.blacksmith, [1, 0]) && c.count === 'market', 'count example 1: red in the blacksmith, the Count in the market');
    out['count-enter.svg'] = board(
      rules,
      g.state,
      {
        highlightFeature: { x: 1, y: 3, feature: 'c1' },
        title: "Example 1: red (player 1) closed blue's city below the City (lit): blue scored 4 and red nothing, so red put a follower into the blacksmith and moved the Count to the market.",
      },
      { scores: { label: 'Scores:', values: g.state.scores }, lines: [`The Count is in the ${c.count}`] },
    );
  }
  // 'example 2: blue declines, red moves two followers from the blacksmith onto the road, takes the majority and 3 points; all three return'.
  {
    const g = new Game(rules).rig((s) => {
      const c = s.ext['count'] as CountState;
      const q: Quarter = 'blacksmith';
      c.quarters[q][0]! += 2;
      c.quarters[q][1]! += 1;
      s.supply[0]! -= 2;
      s.supply[1]! -= 1;
      c.count = 'castle';
    });
    g.turns([FILLER, ['U', 2, 3, 1, 'r1'], ['A', 2, 4, 2]]);
    check(g.state.step.kind === 'count/move-out', 'count example 2: at the move-out step');
    const after = g
      .fork()
      .play({ type: 'count/move-out', player: 1, count: 0 } as Move)
      .play({ type: 'count/move-out', player: 0, count: 2 } as Move).state;
    check(same(after.scores, [3, 0]), 'count example 2: red scores 3');
    out['count-move-out.svg'] = board(
      rules,
      g.state,
      {
        highlightFeature: { x: 2, y: 2, feature: 'r1' },
        title: "Example 2: red (player 1) closes blue's road (lit) with the cloister. Before it scores, blue and then red may move followers from the blacksmith onto it: red moves both, wins the majority 2 to 1 and scores 3.",
      },
      { scores: { label: 'Scores after red moves two followers out:', values: after.scores } },
    );
  }
  return out;
}

function towerExamples(): Pictures {
  const rules = classic(tower());
  const out: Pictures = {};
  /** Board A of tower.test.ts. */
  const boardA = (): Game =>
    new Game(rules, 2, 'tower-a').turns([
      ['U', -1, 0, 0],
      ['TO-02', 0, 1, 0, 'f1'],
      ['U', 1, 0, 0],
      ['B', -1, 1, 0, 'm1'],
      ['U', -2, 0, 0],
      ['B', 1, 1, 0, 'm1'],
      ['U', -3, 0, 0],
      ['B', 0, 2, 0, 'm1'],
      ['U', -4, 0, 0],
      ['E', 2, 1, 0, 'c1'],
      ['V', 0, 3, 0, 'r1'],
      ['E', -2, 1, 3, 'c1'],
    ]);
  const cellsOf = (keys: readonly number[]): Cell[] => keys.map((k) => ({ x: keyX(k), y: keyY(k) }));
  const build = (g: Game, x: number): Game => {
    g.lay('U', x, 0, 0);
    return g.play({ type: 'tower/build', player: g.player, x: 0, y: 1 } as Move);
  };
  const targets = (g: Game): number => legalMoves(rules, g.state).filter((m) => m.type === 'tower/capture').length;
  const area: Crop = { x0: -3, y0: 0, x1: 2, y1: 3 };
  // tower.test.ts: "capture: the first floor reaches the tower's own tile and the four next to it".
  {
    const g = build(boardA(), -5);
    check(g.state.step.kind === 'tower/capture' && targets(g) === 4, 'tower example 1: 4 followers in reach');
    out['tower-capture-1.svg'] = board(
      rules,
      g.state,
      {
        highlightCells: cellsOf(reachOf(g.state, 0, 1, 1)),
        title: "Player 1 builds the tower on the foundation at 0,1 to height 1: it reaches its own tile and the four next to it (dashed). Player 1 may capture one of player 2's followers there: the farmer or one of the three monks.",
      },
      { lines: [`Height 1: ${targets(g)} of player 2's followers in reach`] },
      area,
    );
  }
  // "capture: the second floor reaches the nine cells of the cross".
  {
    const g = build(boardA(), -5).play({ type: 'tower/decline', player: 0 } as Move);
    g.lay('U', -6, 0, 0).play({ type: 'pass', player: 1 });
    build(g, -7);
    check(g.state.step.kind === 'tower/capture' && targets(g) === 6, 'tower example 2: 6 followers in reach');
    out['tower-capture-2.svg'] = board(
      rules,
      g.state,
      {
        highlightCells: cellsOf(reachOf(g.state, 0, 1, 2)),
        title: 'At height 2 the tower reaches two cells in each straight direction (dashed); the empty cell north of D stops it there. Both knights are in reach now too.',
      },
      { lines: [`Height 2: ${targets(g)} of player 2's followers in reach`] },
      area,
    );
  }
  return out;
}

function dragonExamples(): Pictures {
  const rules = classic(princessDragon());
  const out: Pictures = {};
  // princess-dragon.test.ts: 'flight: the four-player example of the rulebook, step by step (up, left, down, left: not right, up, up)'.
  const g = new Game(rules, 4, 'four-players').turns([
    ['U', 1, 0, 0],
    ['B', 1, 1, 0, 'm1'],
    ['B', 0, 1, 0, 'f1'],
    ['U', -1, 0, 0, 'r1'],
    ['B', 2, 1, 0],
    ['B', 0, 2, 0],
    ['E', 1, 2, 2],
  ]);
  g.lay('PD-01', 2, 2, 0);
  g.lay('PD-12', -2, 0, 0).play({ type: 'pass', player: 0 });
  check(g.state.step.kind === 'princess-dragon/dragon', 'dragon example: the flight starts');
  const legal = legalMoves(rules, g.state).flatMap((m) => (m.type === 'princess-dragon/move-dragon' ? [{ x: (m as unknown as Cell).x, y: (m as unknown as Cell).y }] : []));
  check(same(legal, [{ x: 2, y: 1 }, { x: 1, y: 2 }]), 'dragon example: the first step goes up or left');
  out['dragon-start.svg'] = board(
    rules,
    g.state,
    {
      highlightCells: legal,
      title: "The rulebook's four-player flight, before its first step: the dragon on the volcano at the bottom right; player 1 has just laid a dragon tile (top left). The dashed cells are where the dragon may go first.",
    },
    { scores: { label: 'Scores:', values: g.state.scores } },
  );
  const steps: readonly [number, number][] = [
    [2, 1],
    [1, 1],
    [1, 2],
    [0, 2],
    [0, 1],
  ];
  for (const [x, y] of steps) g.play({ type: 'princess-dragon/move-dragon', player: g.player, x, y } as Move);
  const last = legalMoves(rules, g.state).flatMap((m) => (m.type === 'princess-dragon/move-dragon' ? [{ x: (m as unknown as Cell).x, y: (m as unknown as Cell).y }] : []));
  check(g.state.followers.length === 1 && same(last, [{ x: 0, y: 0 }]), 'dragon example: the farmer went home; the last step goes up');
  out['dragon-steps.svg'] = board(
    rules,
    g.state,
    {
      highlightCells: last,
      title: 'Five steps later (up, left, down, left, up: one step per player in turn): the farmer on the field the dragon entered went home. The sixth and last step goes up (dashed).',
    },
    { lines: ['The dotted line is the flight so far'] },
  );
  return out;
}

// ---------------------------------------------------------------------------------------------
// docs/tiles.md

function tilesPage(sets: readonly TileSet[]): string {
  const parts: string[] = [
    '---',
    'title: Tile catalogue',
    'group: Guides',
    '---',
    '',
    '<!-- Generated by scripts/docs-pictures.ts (npm run docs:pictures) from the rules\' tile data: do not edit by hand. -->',
    '',
    '# Tile catalogue',
    '',
    'Every tile kind of every game and expansion meeplekit plays, drawn by `meeplekit/render` from the same',
    'tile data the rules read. On each tile the label of a feature stands where a follower on it would',
    'stand, and names it as moves do: `{ type: \'deploy\', feature: \'c1\' }` puts a follower on the first city',
    'of the tile just placed. Tiles are shown north up (rotation 0); a local id does not change when',
    'the tile is turned.',
    '',
    'Feature codes: `c` city, `r` road, `f` field, `m` cloister; the River adds `w` (the river, no',
    'follower), Shrines `h` (a shrine), the Count `k` (the inside of the City of Carcassonne); The',
    'Castle has `p` path, `t` tower, `h` house and `c` court. Local ids number each kind in order:',
    'the first city is `c1`, the second `c2`.',
    '',
    '## The 12-port notation',
    '',
    '![The 12 ports of a tile, N1 to W3 clockwise from the north-west corner, and tile D with the feature owning each port](images/ports.svg)',
    '',
    'Each edge of a tile is cut in three, so a tile has 12 ports: `N1 N2 N3 E1 E2 E3 S1 S2 S3 W1 W2 W3`,',
    'clockwise from the north-west corner. Port 2 is the middle of its edge: roads and rivers leave a',
    'tile there, while the corner ports 1 and 3 carry the fields on either side of a road. Every port',
    'belongs to exactly one feature of the tile, and that is the whole tile definition: a tile is',
    'written as its features, each with the ports it owns (a bare side letter stands for all three of',
    'its ports), `+` for each pennant, and `>` for the cities a field touches (for farmers).',
    '',
    'Tile D, the start tile, is `r:E2,W2 c:N f:E1,W3>c1 f:E3,S,W1`: a road `r1` through the middles',
    'of the east and west edges, a city `c1` on the whole north edge, the field `f1` north of the',
    'road (its corner ports E1 and W3, touching the city) and the field `f2` south of the road. A',
    'cloister owns no port. Turning a tile r quarter turns clockwise moves port p to',
    '(p + 3r) mod 12. Where two tiles meet, the middles meet and the corners swap: my `N1` touches',
    'the `S3` of the tile north of me. Two fields on either side of a road therefore never join',
    'across it, and a road splits the field it crosses.',
    '',
    'Queries take ports too: `featureAt(rules, state, { x, y, port: \'W3\' })` names the feature at',
    'that port of the tile at x, y, as the board shows it (after turning).',
    '',
    '## Contents',
    '',
    ...sets.map((s) => `- [${s.title}](#${anchor(s.title)})`),
    '',
  ];
  for (const set of sets) {
    const n = set.ids.length;
    const total = set.ids.reduce((s, id) => s + set.rules.tileById.get(id)!.def.count, 0);
    parts.push(
      `## ${set.title}`,
      '',
      `${set.intro} ${n} kinds, ${total} tiles. Rules: [${set.pageTitle}](${set.page}).`,
      '',
      `![${set.title}: every tile kind with its feature ids, its id and how many copies the set has](images/tiles-${set.key}.svg)`,
      '',
      catalogueTable(set),
      '',
    );
  }
  return parts.join('\n');
}

/** The anchor GitHub and typedoc give a heading. */
function anchor(title: string): string {
  return title
    .toLowerCase()
    .replace(/[^a-z0-9 -]/g, '')
    .replace(/ /g, '-');
}

// ---------------------------------------------------------------------------------------------
// All of it

/** Every generated file, by path relative to the repository root. */
export function generate(): Map<string, string> {
  const files = new Map<string, string>();
  const image = (name: string, svg: string): void => {
    if (files.has(`docs/images/${name}`)) throw new Error(`two pictures named ${name}`);
    files.set(`docs/images/${name}`, svg.endsWith('\n') ? svg : `${svg}\n`);
  };
  const sets = tileSets();
  for (const set of sets) image(`tiles-${set.key}.svg`, catalogueSvg(set));
  image('ports.svg', portsSvg());
  for (const group of [landingBoard(), castleBoards(), classicExamples(), castleExamples(), riverExamples(), kingRobberExamples(), shrineExamples(), countExamples(), towerExamples(), dragonExamples()]) {
    for (const [name, svg] of Object.entries(group)) image(name, svg);
  }
  files.set('docs/tiles.md', tilesPage(sets));
  return files;
}

/** Writes every generated file under `root`; returns their paths relative to it. */
export function writePictures(root: string): string[] {
  const files = generate();
  for (const [path, text] of files) {
    const target = join(root, path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, text);
  }
  return [...files.keys()];
}

const here = dirname(fileURLToPath(import.meta.url));
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const root = resolve(process.argv[2] ?? join(here, '..'));
  const written = writePictures(root);
  console.log(`docs-pictures: ${written.length} files written under ${root}`);
}
