/**
 * A state as plain text, for logs, debugging and language-model agents: who is to decide what,
 * scores and supplies, the bag, the board drawn with three characters a side per tile, the
 * followers, and each module's public part.
 */
import { tileAt } from '../core/board.js';
import type { Ruleset } from '../core/ruleset.js';
import { cellKey, type GameView } from '../core/state.js';
import type { Immutable } from '../core/types.js';
import { assertRuleset } from '../core/engine/query.js';
import { CHANCE_STEP, isChanceNode } from './chance.js';

/** Ports at the middle of each side (north, east, south, west), and the two ends of the side each corner joins. */
const SIDE_MIDDLE = [1, 4, 7, 10] as const;
/** Corner (north-west, north-east, south-east, south-west) -> the two ports that meet there. */
const CORNER_PORTS = [
  [0, 11],
  [2, 3],
  [5, 6],
  [8, 9],
] as const;

/** Largest board drawn as a picture (cells a side); a larger one is listed only. */
const MAX_DRAWN = 60;

/**
 * The state as readable text: the ruleset, the turn and who is to decide what (a chance node's
 * kind), scores and followers in supply per player, the tiles left in the bag, the board (each
 * tile as 3x3 characters, north up: the edges' feature codes in the middle of each side, a city
 * code in a corner that a city touches, `.` for field or nothing; in the centre the owner's
 * digit of a follower on the tile, `*` for several, else a cloister's code), the followers with
 * their features, and the public part of every module (its `ext` slice). It takes a state or a
 * player's observation and shows only what it is given: an observation's text leaks nothing.
 *
 * @example
 * ```ts
 * import { createRuleset, newGame } from 'meeplekit';
 * import { stateToString } from 'meeplekit/ai';
 *
 * const rules = createRuleset({ game: 'classic' });
 * if (!rules.ok) throw new Error(rules.error.message);
 * const game = newGame(rules.value, { players: 2, seed: 'text' });
 * if (!game.ok) throw new Error(game.error.message);
 * console.log(stateToString(rules.value, game.value));
 * // classic, 2 players, turn 0: player 0 places tile ...
 * ```
 */
export function stateToString(rules: Ruleset, state: Immutable<GameView>): string {
  assertRuleset(rules, state);
  const lines: string[] = [`${rules.id}, ${state.players} players, turn ${state.turn}: ${describeStep(state)}`];
  lines.push(`scores: ${state.scores.map((v, p) => `P${p} ${v}`).join(', ')}`);
  lines.push(`followers in supply: ${state.supply.map((v, p) => `P${p} ${v}`).join(', ')}`);
  let left = 0;
  const kinds: string[] = [];
  state.bag.forEach((n, k) => {
    left += n;
    if (n > 0) kinds.push(`${rules.tiles[k]!.def.id}x${n}`);
  });
  lines.push(`bag: ${left} tiles${left > 0 ? ` (${kinds.join(' ')})` : ''}`);
  const discarded = state.discarded.reduce((a, b) => a + b, 0);
  if (discarded > 0) lines.push(`discarded: ${discarded} tiles`);
  lines.push(...drawBoard(rules, state));
  lines.push(`tiles (${state.tiles.length}, in the order laid): ${state.tiles.map((t) => `${t.id}@${t.x},${t.y}r${t.rotation}`).join(' ')}`);
  if (state.followers.length > 0) {
    lines.push('followers:');
    for (const f of state.followers) {
      const placed = state.tiles[f.tile]!;
      const tile = rules.tiles[placed.kind]!;
      const feature = tile.def.features[f.local]!;
      lines.push(`  P${f.player} on ${feature.kind} ${feature.id} of ${placed.id} at ${placed.x},${placed.y}`);
    }
  }
  for (const e of rules.expansions) {
    if (!Object.hasOwn(state.ext, e.id)) continue;
    lines.push(`${e.id}: ${JSON.stringify(state.ext[e.id])}`);
  }
  return `${lines.join('\n')}\n`;
}

function describeStep(state: Immutable<GameView>): string {
  const step = state.step;
  if (step.kind === 'game-over') return `game over, winners ${step.winners.map((p) => `P${p}`).join(' and ') || 'none'}`;
  if (step.kind === CHANCE_STEP) return `chance node: the next tile is drawn for player ${state.active}`;
  if (isChanceNode(state)) return `chance node ${step.kind}`;
  if (step.kind === 'place-tile') return `player ${step.player} places tile ${step.tile}`;
  if (step.kind === 'deploy') return `player ${step.player} may deploy a follower on the tile just placed, or pass`;
  return `player ${step.player} decides ${step.kind}`;
}

/** The board as lines of text, framed by column numbers, or a note when it is too large to draw. */
function drawBoard(rules: Ruleset, state: Immutable<GameView>): string[] {
  const tiles = state.tiles;
  if (tiles.length === 0) return ['board: empty'];
  let x0 = Infinity;
  let x1 = -Infinity;
  let y0 = Infinity;
  let y1 = -Infinity;
  for (const t of tiles) {
    if (t.x < x0) x0 = t.x;
    if (t.x > x1) x1 = t.x;
    if (t.y < y0) y0 = t.y;
    if (t.y > y1) y1 = t.y;
  }
  if (x1 - x0 >= MAX_DRAWN || y1 - y0 >= MAX_DRAWN) return [`board: x ${x0}..${x1}, y ${y0}..${y1} (too large to draw)`];
  const onTile = new Map<number, number[]>();
  for (const f of state.followers) {
    const list = onTile.get(f.tile);
    if (list === undefined) onTile.set(f.tile, [f.player]);
    else list.push(f.player);
  }
  const width = Math.max(String(x0).length, String(x1).length, 3);
  const out = [`board: x ${x0}..${x1} (west to east), y ${y0}..${y1} (north to south); each tile 3x3, north up`];
  out.push(`${' '.repeat(5)}${range(x0, x1).map((x) => String(x).padStart(width).padEnd(width + 1)).join('')}`.trimEnd());
  for (let y = y0; y <= y1; y++) {
    const rows = ['', '', ''];
    for (let x = x0; x <= x1; x++) {
      const index = tileAt(state, cellKey(x, y));
      const glyph = index < 0 ? ['   ', '   ', '   '] : tileGlyph(rules, state, index, onTile.get(index));
      for (let r = 0; r < 3; r++) rows[r] += glyph[r]!.padEnd(width + 1);
    }
    out.push(`${String(y).padStart(4)} ${rows[0]!.trimEnd()}`, `     ${rows[1]!.trimEnd()}`, `     ${rows[2]!.trimEnd()}`);
  }
  return out;
}

function range(a: number, b: number): number[] {
  const out: number[] = [];
  for (let i = a; i <= b; i++) out.push(i);
  return out;
}

/** A placed tile as three rows of three characters. */
function tileGlyph(rules: Ruleset, state: Immutable<GameView>, index: number, owners: readonly number[] | undefined): [string, string, string] {
  const placed = state.tiles[index]!;
  const tile = rules.tiles[placed.kind]!;
  const r = placed.rotation;
  const codeAt = (port: number): string => {
    const local = tile.portFeature[r * 12 + port]!;
    return local < 0 ? '.' : rules.kinds[tile.kinds[local]!]!.code.toUpperCase();
  };
  const side = SIDE_MIDDLE.map((p) => codeAt(p));
  const corner = CORNER_PORTS.map(([a, b]) => {
    const ca = codeAt(a);
    const cb = codeAt(b);
    // A corner shows a city (or any kind other than field) that reaches it; else field.
    if (ca !== 'F' && ca !== '.') return ca;
    if (cb !== 'F' && cb !== '.') return cb;
    return '.';
  });
  let centre = '.';
  if (owners !== undefined) centre = owners.length === 1 ? String(owners[0]) : '*';
  else if (tile.areaFeature >= 0) centre = rules.kinds[tile.kinds[tile.areaFeature]!]!.code.toUpperCase();
  const show = (c: string): string => (c === 'F' ? '.' : c);
  return [`${corner[0]}${show(side[0]!)}${corner[1]}`, `${show(side[3]!)}${centre}${show(side[1]!)}`, `${corner[3]}${show(side[2]!)}${corner[2]}`];
}
