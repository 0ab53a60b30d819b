/**
 * Each module's pieces on the board and its lines in the legend: the Tower's towers and
 * prisoners, the Princess and the Dragon's dragon (with the cells of a flight in progress) and
 * fairy, the Count and the followers in the City's quarters, the King and the Robber Baron.
 * The core knows no module: this file reads each module's public state slice by its id, with
 * types only (no module code is pulled into a bundle by it).
 */
import type { CountState, Quarter } from '../expansions/count/index.js';
import type { KingRobberState } from '../expansions/king-robber/index.js';
import type { PrincessDragonState } from '../expansions/princess-dragon/index.js';
import type { TowerState } from '../expansions/tower/index.js';
import type { Ruleset } from '../core/ruleset.js';
import type { GameView } from '../core/state.js';
import type { Immutable } from '../core/types.js';
import { artOf } from './catalogue.js';
import { countFigure, dragonFigure, fairyFigure, meeple } from './glyphs.js';
import type { Palette } from './palette.js';
import { playerStyle } from './palette.js';
import { num } from './svg.js';

function slice<T>(rules: Ruleset, state: Immutable<GameView>, id: string): Immutable<T> | null {
  return rules.expansions.some((e) => e.id === id) && Object.hasOwn(state.ext, id) ? (state.ext[id] as Immutable<T>) : null;
}

/**
 * Where each quarter lies in the City (its square's cell), as the City's squares are laid:
 * castle CO3, market CO8, blacksmith CO10, cathedral CO2 (see the Count's tile data).
 */
const QUARTER_CELLS: Readonly<Record<Quarter, readonly [number, number]>> = { castle: [2, 0], market: [3, 1], blacksmith: [1, 2], cathedral: [1, 0] };
const QUARTER_ORDER: readonly Quarter[] = ['castle', 'market', 'blacksmith', 'cathedral'];

/** The modules' pieces, drawn over the tiles and followers. */
export function moduleOverlays(rules: Ruleset, state: Immutable<GameView>, p: Palette): string {
  const out: string[] = [];
  const tower = slice<TowerState>(rules, state, 'tower');
  if (tower !== null) {
    for (const t of tower.towers) {
      if (t.height === 0) continue;
      const x = t.x * 100 + 50;
      const y = t.y * 100 + 50;
      // A stack of stones, its height written on it, the follower on top above.
      const h = Math.min(t.height, 6) * 3.2 + 8;
      out.push(`<g class="tower"><rect x="${num(x - 11)}" y="${num(y + 10 - h)}" width="22" height="${num(h)}" fill="${p.tower}" stroke="${p.line}" stroke-width="1.5"/>`);
      out.push(`<path d="M${num(x - 11)},${num(y + 10 - h)}v-4h5v4h4v-4h4v4h4v-4h5v4" fill="${p.tower}" stroke="${p.line}" stroke-width="1.2"/>`);
      out.push(`<text x="${num(x)}" y="${num(y + 7)}" font-size="13" font-weight="bold" text-anchor="middle" fill="#ffffff">${t.height}</text></g>`);
      if (t.top >= 0) out.push(meeple({ x, y: y - h - 2 }, playerStyle(p, t.top), false, 0.85));
    }
  }
  const pd = slice<PrincessDragonState>(rules, state, 'princess-dragon');
  if (pd !== null) {
    if (pd.flight !== null && pd.flight.visited.length > 1) {
      const path = pd.flight.visited.map((c) => `${c.x * 100 + 50},${c.y * 100 + 50}`).join('L');
      out.push(`<path d="M${path}" fill="none" stroke="${p.dragon}" stroke-width="4" stroke-dasharray="2 7" stroke-linecap="round"/>`);
      for (const c of pd.flight.visited) out.push(`<circle cx="${c.x * 100 + 50}" cy="${c.y * 100 + 50}" r="5" fill="${p.dragon}"/>`);
    }
    if (pd.fairy !== null) out.push(fairyFigure({ x: pd.fairy.x * 100 + 80, y: pd.fairy.y * 100 + 22 }, p));
    if (pd.dragon !== null) out.push(dragonFigure({ x: pd.dragon.x * 100 + 24, y: pd.dragon.y * 100 + 24 }, p));
  }
  const count = slice<CountState>(rules, state, 'count');
  if (count !== null) {
    for (const q of QUARTER_ORDER) {
      const [cx, cy] = QUARTER_CELLS[q];
      // Inside the City's wall: round the point of the square's inside where a piece has most room.
      const t = state.tiles.find((tile) => tile.x === cx && tile.y === cy);
      const inside = t === undefined ? null : artOf(rules, t.id).features.find((f) => f.kind === 'carcassonne');
      const c = inside === undefined || inside === null ? { x: 50, y: 50 } : inside.anchor;
      const x = cx * 100 + c.x;
      const y = cy * 100 + c.y;
      out.push(`<text x="${num(x)}" y="${num(y - 22)}" font-size="12" text-anchor="middle" fill="${p.text}" font-weight="bold">${q}</text>`);
      const counts = count.quarters[q];
      let k = 0;
      counts.forEach((n, player) => {
        for (let i = 0; i < n; i++, k++) out.push(meeple({ x: x - 24 + (k % 3) * 16, y: y + Math.floor(k / 3) * 18 }, playerStyle(p, player), false, 0.7));
      });
      if (count.count === q) out.push(countFigure({ x: x + 26, y: y + 10 }, p));
    }
  }
  return out.join('');
}

/** The modules' lines in the legend. */
export function moduleLegendLines(rules: Ruleset, state: Immutable<GameView>): string[] {
  const lines: string[] = [];
  const who = (player: number): string => (player < 0 ? 'nobody' : `player ${player + 1}`);
  const kr = slice<KingRobberState>(rules, state, 'king-robber');
  if (kr !== null) lines.push(`King: ${who(kr.king)}; Robber Baron: ${who(kr.robber)}`);
  const tower = slice<TowerState>(rules, state, 'tower');
  if (tower !== null) {
    const held = tower.prisoners
      .map((row, captor) => row.map((n, owner) => (n > 0 ? `player ${captor + 1} holds ${n} of player ${owner + 1}` : '')).filter((s) => s !== ''))
      .flat();
    lines.push(`Tower pieces: ${tower.pieces.map((n, i) => `player ${i + 1} ${n}`).join(', ')}${held.length > 0 ? `; prisoners: ${held.join(', ')}` : ''}`);
  }
  const pd = slice<PrincessDragonState>(rules, state, 'princess-dragon');
  if (pd !== null) {
    const dragon = pd.dragon === null ? 'off the board' : `at ${pd.dragon.x},${pd.dragon.y}`;
    const fairy = pd.fairy === null ? 'off the board' : `at ${pd.fairy.x},${pd.fairy.y}`;
    lines.push(`Dragon ${dragon}${pd.flight !== null ? ` (flying, ${pd.flight.visited.length - 1} of 6 steps)` : ''}; fairy ${fairy}`);
  }
  const count = slice<CountState>(rules, state, 'count');
  if (count !== null) lines.push(`The Count is in the ${count.count}`);
  return lines;
}

