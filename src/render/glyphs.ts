/**
 * Small pictures drawn on tiles and boards: followers, buildings, symbols. Each returns SVG text
 * centred on a point, in tile units (a tile is 100 across).
 */
import type { Palette, PlayerStyle } from './palette.js';
import { num, pt, type Point } from './svg.js';

/** A follower standing (or lying, on a field) at `at`, in a player's style. `scale` 1 is about a fifth of a tile. */
export function meeple(at: Point, style: PlayerStyle, lying = false, scale = 1): string {
  const t = `translate(${pt(at)})${scale === 1 ? '' : ` scale(${num(scale)})`}${lying ? ' rotate(-90)' : ''}`;
  const body =
    'M0,-11.5a3.8,3.8 0 0 1 3.8,3.8c0,1.4 -0.6,2.4 -1.5,3.1c3,0.6 6.6,1.6 8.4,3.4c1,1 0.4,2.6 -1,2.6h-4.4l4.2,8.6h-6.2l-3.3,-5.6l-3.3,5.6h-6.2l4.2,-8.6h-4.4c-1.4,0 -2,-1.6 -1,-2.6c1.8,-1.8 5.4,-2.8 8.4,-3.4c-0.9,-0.7 -1.5,-1.7 -1.5,-3.1a3.8,3.8 0 0 1 3.8,-3.8z';
  return `<g transform="${t}"><path d="${body}" fill="${style.fill}" stroke="${style.stroke}" stroke-width="1.1" stroke-linejoin="round"/>${mark(style)}</g>`;
}

/** The mark that tells a player's pieces apart without colour, on a follower's body. */
function mark(style: PlayerStyle): string {
  const ink = style.ink;
  switch (style.mark) {
    case 'bar':
      return `<rect x="-4.2" y="0.2" width="8.4" height="2.2" fill="${ink}"/>`;
    case 'dot':
      return `<circle cx="0" cy="1.3" r="2" fill="${ink}"/>`;
    case 'ring':
      return `<circle cx="0" cy="1.3" r="2.1" fill="none" stroke="${ink}" stroke-width="1.1"/>`;
    case 'cross':
      return `<path d="M-2.2,-0.9L2.2,3.5M2.2,-0.9L-2.2,3.5" stroke="${ink}" stroke-width="1.3"/>`;
    case 'triangle':
      return `<path d="M0,-1.4L2.6,3.2H-2.6Z" fill="${ink}"/>`;
    default:
      return '';
  }
}

/** A cloister: a chapel with a red roof and a cross. */
export function cloister(at: Point, p: Palette): string {
  return (
    `<g transform="translate(${pt(at)})">` +
    `<rect x="-11" y="-4" width="22" height="15" fill="${p.building}" stroke="${p.line}" stroke-width="1.2"/>` +
    `<path d="M-13,-3L0,-13L13,-3Z" fill="${p.roof}" stroke="${p.line}" stroke-width="1.2" stroke-linejoin="round"/>` +
    `<rect x="-3" y="3" width="6" height="8" fill="${p.line}"/>` +
    `<path d="M0,-19v8M-3,-16h6" stroke="${p.line}" stroke-width="1.4"/></g>`
  );
}

/** A shrine: a round temple with a domed purple roof (told apart from a cloister by shape, not only colour). */
export function shrine(at: Point, p: Palette): string {
  return (
    `<g transform="translate(${pt(at)})">` +
    `<rect x="-11" y="-2" width="22" height="13" fill="${p.building}" stroke="${p.line}" stroke-width="1.2"/>` +
    `<path d="M-12,-2A12,11 0 0 1 12,-2Z" fill="${p.shrineRoof}" stroke="${p.line}" stroke-width="1.2"/>` +
    `<path d="M-6,11v-9M0,11v-9M6,11v-9" stroke="${p.line}" stroke-width="1.4"/>` +
    `<circle cx="0" cy="-14.5" r="2" fill="${p.shrineRoof}" stroke="${p.line}" stroke-width="1"/></g>`
  );
}

/** A volcano: a brown cone with a glowing crater. */
export function volcano(at: Point, p: Palette): string {
  return (
    `<g transform="translate(${pt(at)})">` +
    `<path d="M-17,12L-5,-8H5L17,12Z" fill="${p.volcano}" stroke="${p.line}" stroke-width="1.2" stroke-linejoin="round"/>` +
    `<path d="M-5,-8Q0,-4 5,-8L3,-2Q0,0 -3,-2Z" fill="${p.dragon}"/>` +
    `<path d="M-2,-11Q0,-16 -3,-19M2,-11Q4,-15 2,-19" fill="none" stroke="${p.line}" stroke-width="1.2"/></g>`
  );
}

/** A tower foundation: a grey square of stones in the middle of a tile. */
export function foundation(at: Point, p: Palette): string {
  return (
    `<g transform="translate(${pt(at)})">` +
    `<rect x="-10" y="-10" width="20" height="20" fill="${p.tower}" stroke="${p.line}" stroke-width="1.4"/>` +
    `<path d="M-10,0H10M0,-10V10" stroke="${p.line}" stroke-width="0.8"/></g>`
  );
}

/** Where three or more roads meet: a small house. */
export function junction(at: Point, p: Palette): string {
  return (
    `<g transform="translate(${pt(at)})">` +
    `<rect x="-6" y="-3" width="12" height="9" fill="${p.building}" stroke="${p.line}" stroke-width="1.1"/>` +
    `<path d="M-7.5,-2.5L0,-8.5L7.5,-2.5Z" fill="${p.roof}" stroke="${p.line}" stroke-width="1.1" stroke-linejoin="round"/></g>`
  );
}

/** A lake or a spring where a river ends. */
export function lake(at: Point, p: Palette): string {
  return `<ellipse cx="${num(at.x)}" cy="${num(at.y)}" rx="13" ry="10" fill="${p.water}" stroke="${p.waterEdge}" stroke-width="1.4"/>`;
}

/** A pennant (coat of arms) on a city. */
export function pennant(at: Point, p: Palette): string {
  return (
    `<g transform="translate(${pt(at)})">` +
    `<path d="M-5,-6H5V0Q5,5 0,7Q-5,5 -5,0Z" fill="${p.pennant}" stroke="#ffffff" stroke-width="1.1"/>` +
    `<path d="M0,-5V5M-4,-1H4" stroke="#ffffff" stroke-width="1"/></g>`
  );
}

/** A well on a path (The Castle). */
export function well(at: Point, p: Palette): string {
  return `<g transform="translate(${pt(at)})"><circle r="4.5" fill="${p.water}" stroke="${p.line}" stroke-width="1.3"/><circle r="1.6" fill="${p.waterEdge}"/></g>`;
}

/** A market stall in a court (The Castle). */
export function market(at: Point, p: Palette): string {
  return (
    `<g transform="translate(${pt(at)})">` +
    `<rect x="-6" y="-1" width="12" height="6" fill="${p.building}" stroke="${p.line}" stroke-width="1"/>` +
    `<path d="M-8,-1L-5,-6H5L8,-1Z" fill="${p.roof}" stroke="${p.line}" stroke-width="1"/></g>`
  );
}

/** A princess: a small figure with a crown. */
export function princess(at: Point, p: Palette): string {
  return (
    `<g transform="translate(${pt(at)})">` +
    `<path d="M-5,8L-2,-1H2L5,8Z" fill="#f2a7c3" stroke="${p.line}" stroke-width="0.9"/>` +
    `<circle cx="0" cy="-3.5" r="2.6" fill="#f6d7b5" stroke="${p.line}" stroke-width="0.8"/>` +
    `<path d="M-2.6,-6.3L-2.6,-9L-1.2,-7.4L0,-9.4L1.2,-7.4L2.6,-9L2.6,-6.3Z" fill="#f2c200" stroke="${p.line}" stroke-width="0.5"/></g>`
  );
}

/** The dragon symbol printed on a tile: a small red dragon's head. */
export function dragonSymbol(at: Point, p: Palette): string {
  return `<g transform="translate(${pt(at)})"><circle r="7.5" fill="#ffffff" stroke="${p.dragon}" stroke-width="1.4"/>${dragonHead(p, 0.55)}</g>`;
}

/** A magic portal: a purple arch. */
export function portal(at: Point, p: Palette): string {
  return (
    `<g transform="translate(${pt(at)})">` +
    `<path d="M-7,8V-1A7,7 0 0 1 7,-1V8" fill="none" stroke="${p.portal}" stroke-width="3"/>` +
    `<path d="M-3.5,8V0A3.5,3.5 0 0 1 3.5,0V8Z" fill="#d9c6f5"/></g>`
  );
}

function dragonHead(p: Palette, scale: number): string {
  return (
    `<g transform="scale(${num(scale)})">` +
    `<path d="M-9,6L-6,-4L-9,-11L-2,-6L6,-8L11,-2L8,1L11,5L3,4L-1,9Z" fill="${p.dragon}" stroke="${p.line}" stroke-width="1.2" stroke-linejoin="round"/>` +
    `<circle cx="3" cy="-3" r="1.4" fill="#ffec80"/></g>`
  );
}

/** The dragon figure on the board (larger than the symbol). */
export function dragonFigure(at: Point, p: Palette): string {
  return `<g transform="translate(${pt(at)})"><circle r="15" fill="#ffffff" fill-opacity="0.85" stroke="${p.dragon}" stroke-width="2.2"/>${dragonHead(p, 1.15)}</g>`;
}

/** The fairy figure on the board: a white figure with wings. */
export function fairyFigure(at: Point, p: Palette): string {
  return (
    `<g transform="translate(${pt(at)})">` +
    `<path d="M-1,-2C-10,-12 -14,0 -3,2M1,-2C10,-12 14,0 3,2" fill="#d6f0ff" stroke="${p.line}" stroke-width="1"/>` +
    `<path d="M-4,10L-1.5,-2H1.5L4,10Z" fill="${p.fairy}" stroke="${p.line}" stroke-width="1"/>` +
    `<circle cx="0" cy="-5" r="2.8" fill="${p.fairy}" stroke="${p.line}" stroke-width="1"/></g>`
  );
}

/** The Count: a larger purple figure with a crown. */
export function countFigure(at: Point, p: Palette): string {
  return (
    `<g transform="translate(${pt(at)})">` +
    `<path d="M-8,12L-4,-2H4L8,12Z" fill="${p.count}" stroke="${p.line}" stroke-width="1.2"/>` +
    `<circle cx="0" cy="-6" r="4.5" fill="${p.count}" stroke="${p.line}" stroke-width="1.2"/>` +
    `<path d="M-4.5,-10L-4.5,-15L-2,-12.5L0,-16L2,-12.5L4.5,-15L4.5,-10Z" fill="#f2c200" stroke="${p.line}" stroke-width="0.8"/></g>`
  );
}
