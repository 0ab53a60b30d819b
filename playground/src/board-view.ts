/**
 * The board: meeplekit/render's SVG of the public view, with the page's own layer on top: each
 * legal cell for the tile to place (`[data-cell="x,y"]`, clickable), the tile previewed on the
 * selected cell at the selected rotation, and the decision targets (`[data-target="i"]`, i an
 * index into the choices): a follower's feature on the placed tile where a follower on it would
 * stand, a portal's or the princess's feature on any tile, a cell for the dragon, the fairy or a
 * tower piece. Where a feature stands on a tile is read from renderTile's feature labels, the
 * same spots the renderer draws followers on.
 */
import type { GameView, Immutable, Move, PublicView, Rotation, Ruleset } from 'meeplekit';
import { renderBoard, renderTile, type CellPlacements, type Palette } from 'meeplekit/render';

const SVG = 'http://www.w3.org/2000/svg';

/** A point in board units (100 per cell). */
interface Point {
  readonly x: number;
  readonly y: number;
}

const anchorCache = new WeakMap<Ruleset, Map<string, Map<string, Point>>>();

/** Where each feature of a tile kind turned `rotation` has its follower spot, in tile units (0..100). */
export function featureSpots(rules: Ruleset, tile: string, rotation: number): Map<string, Point> {
  let byTile = anchorCache.get(rules);
  if (byTile === undefined) anchorCache.set(rules, (byTile = new Map()));
  const key = `${tile}/${rotation}`;
  const known = byTile.get(key);
  if (known !== undefined) return known;
  const spots = new Map<string, Point>();
  const svg = renderTile(rules, tile, (rotation & 3) as Rotation, { labels: true });
  if (svg.ok) {
    const doc = new DOMParser().parseFromString(svg.value, 'image/svg+xml');
    for (const text of Array.from(doc.querySelectorAll('text'))) {
      const id = text.textContent ?? '';
      // The label's baseline is 3 units below the spot (renderTile's labels).
      spots.set(id, { x: Number(text.getAttribute('x')), y: Number(text.getAttribute('y')) - 3 });
    }
  }
  byTile.set(key, spots);
  return spots;
}

/** A clickable decision on the board. */
export interface Target {
  /** Index into the choices. */
  readonly index: number;
  /** Where, in board units. */
  readonly at: Point;
  /** The choice's label (the target's accessible name). */
  readonly label: string;
}

/** The board positions of the choices that have one. */
export function targetsOf(rules: Ruleset, view: PublicView, choices: readonly Move[], labels: readonly string[]): Target[] {
  const step = view.step as unknown as Record<string, unknown>;
  const out: Target[] = [];
  choices.forEach((move, index) => {
    const m = move as unknown as Record<string, unknown>;
    let x = typeof m['x'] === 'number' ? m['x'] : null;
    let y = typeof m['y'] === 'number' ? m['y'] : null;
    if (move.type === 'deploy' && x === null && typeof step['x'] === 'number' && typeof step['y'] === 'number') {
      x = step['x'];
      y = step['y'];
    }
    if (x === null || y === null) return;
    const feature = typeof m['feature'] === 'string' ? m['feature'] : null;
    const tile = view.tiles.find((t) => t.x === x && t.y === y);
    let spot: Point = { x: 50, y: 50 };
    if (feature !== null && feature !== 'top' && tile !== undefined) spot = featureSpots(rules, tile.tile, tile.rotation).get(feature) ?? spot;
    out.push({ index, at: { x: x * 100 + spot.x, y: y * 100 + spot.y }, label: labels[index] ?? move.type });
  });
  // Several targets on one spot (a feature scored with or without a token, two owners' followers): spread them round it.
  const groups = new Map<string, Target[]>();
  for (const t of out) {
    const k = `${Math.round(t.at.x)},${Math.round(t.at.y)}`;
    groups.set(k, [...(groups.get(k) ?? []), t]);
  }
  const spread: Target[] = [];
  for (const group of groups.values()) {
    group.forEach((t, i) => {
      const a = (2 * Math.PI * i) / group.length;
      spread.push(group.length === 1 ? t : { ...t, at: { x: t.at.x + 14 * Math.cos(a), y: t.at.y + 14 * Math.sin(a) } });
    });
  }
  return spread.sort((a, b) => a.index - b.index);
}

/** What the board shows besides the view. */
export interface BoardLayer {
  readonly palette: Palette;
  readonly tileSize: number;
  /** Legal cells of the tile to place (empty when not placing). */
  readonly cells: readonly CellPlacements[];
  /** The tile to place, previewed on `selected`. */
  readonly tile: string | null;
  /** The selected cell and rotation. */
  readonly selected: { readonly x: number; readonly y: number; readonly rotation: number } | null;
  /** Decision targets. */
  readonly targets: readonly Target[];
  /** A cell or target to mark as the hint's. */
  readonly hinted: { readonly cell?: string; readonly target?: number } | null;
}

/** The board picture each container shows, so that a redraw of the same picture only replaces the page's layer. */
const shown = new WeakMap<HTMLElement, string>();

/**
 * Draws the board into `container`: the picture is replaced when it changed, and the page's layer
 * (cells, preview, targets) every time. How big it is shown is style.css's: scaled to the
 * container, keeping its aspect, while the container has the class `fit`; else at `tileSize`
 * pixels a cell, the container scrolling.
 */
export function drawBoard(container: HTMLElement, rules: Ruleset, view: Immutable<GameView> | PublicView, layer: BoardLayer): void {
  const board = renderBoard(rules, view, { highlightCells: layer.cells.map((c) => ({ x: c.x, y: c.y })), palette: layer.palette, tileSize: layer.tileSize });
  if (!board.ok) {
    container.textContent = `The board cannot be drawn (${board.error.code}): ${board.error.message}`;
    shown.delete(container);
    return;
  }
  const scrollLeft = container.scrollLeft;
  const scrollTop = container.scrollTop;
  let svg = container.querySelector('svg');
  if (svg === null || shown.get(container) !== board.value) {
    // A new picture: parsing it is most of a redraw's time, so only when it changed.
    container.innerHTML = board.value;
    shown.set(container, board.value);
    svg = container.querySelector('svg');
    if (svg === null) return;
    svg.setAttribute('role', 'img');
  } else svg.querySelector(':scope > g.overlay')?.remove();
  const overlay = document.createElementNS(SVG, 'g');
  overlay.setAttribute('class', 'overlay');
  for (const c of layer.cells) {
    const key = `${c.x},${c.y}`;
    const rect = document.createElementNS(SVG, 'rect');
    const selected = layer.selected !== null && layer.selected.x === c.x && layer.selected.y === c.y;
    rect.setAttribute('class', `cell${selected ? ' selected' : ''}${layer.hinted?.cell === key ? ' hinted' : ''}`);
    rect.setAttribute('data-cell', key);
    rect.setAttribute('x', String(c.x * 100 + 2));
    rect.setAttribute('y', String(c.y * 100 + 2));
    rect.setAttribute('width', '96');
    rect.setAttribute('height', '96');
    rect.setAttribute('rx', '6');
    const title = document.createElementNS(SVG, 'title');
    title.textContent = `Cell ${key}: turns ${c.rotations.map((r) => r * 90).join('°, ')}°`;
    rect.append(title);
    overlay.append(rect);
  }
  if (layer.selected !== null && layer.tile !== null) {
    const preview = renderTile(rules, layer.tile, (layer.selected.rotation & 3) as Rotation, { palette: layer.palette });
    if (preview.ok) {
      const doc = new DOMParser().parseFromString(preview.value, 'image/svg+xml');
      const el = document.importNode(doc.documentElement, true);
      el.setAttribute('x', String(layer.selected.x * 100));
      el.setAttribute('y', String(layer.selected.y * 100));
      el.setAttribute('width', '100');
      el.setAttribute('height', '100');
      el.setAttribute('class', 'preview');
      // Below the cells' layer, so that the selected cell still takes the click.
      overlay.prepend(el);
    }
  }
  for (const t of layer.targets) {
    const g = document.createElementNS(SVG, 'g');
    g.setAttribute('class', `target${layer.hinted?.target === t.index ? ' hinted' : ''}`);
    g.setAttribute('data-target', String(t.index));
    g.setAttribute('role', 'button');
    g.setAttribute('aria-label', t.label);
    const circle = document.createElementNS(SVG, 'circle');
    circle.setAttribute('cx', String(t.at.x));
    circle.setAttribute('cy', String(t.at.y));
    circle.setAttribute('r', '10');
    const title = document.createElementNS(SVG, 'title');
    title.textContent = t.label;
    g.append(circle, title);
    overlay.append(g);
  }
  svg.append(overlay);
  container.scrollLeft = scrollLeft;
  container.scrollTop = scrollTop;
}

/**
 * Scrolls the board (the container only, never the page: the status line stays where it is) so
 * that a cell (board units) is in view, if it is not.
 */
export function scrollToCell(container: HTMLElement, x: number, y: number): void {
  const el = container.querySelector(`[data-cell="${x},${y}"]`) ?? container.querySelector(`[data-target]`);
  if (el === null) return;
  const box = container.getBoundingClientRect();
  const r = el.getBoundingClientRect();
  if (r.left < box.left) container.scrollLeft -= box.left - r.left + 8;
  else if (r.right > box.right) container.scrollLeft += r.right - box.right + 8;
  if (r.top < box.top) container.scrollTop -= box.top - r.top + 8;
  else if (r.bottom > box.bottom) container.scrollTop += r.bottom - box.bottom + 8;
}
