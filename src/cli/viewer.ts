/**
 * The replay viewer of `meeplekit render replay --html`: one self-contained HTML file (no
 * network, no external script, font or image) with the board, the scores, whose step it is, the
 * move and its events in plain words, and a slider with step buttons through every move.
 *
 * Every position (before the first move, then after each move) is rendered as its own board
 * (`symbols: 'external'`) next to one `renderSymbols()` block holding the tile pictures. The
 * boards of a game share most of their elements, so they are stored (JSON in a
 * `<script type="application/json">`) as a table of the distinct SVG tags, a tag that differs
 * little from an earlier one as an edit of it, and each position as the changes to the previous
 * position's list of tags; a small inline script rebuilds the boards' text when the page loads
 * and shows one at a time. Same replay, same bytes.
 */
import { applyMove, newGame } from '../core/engine/apply.js';
import type { Replay } from '../core/engine/serialize.js';
import type { ExpansionEvent, FeatureRef, GameEvent } from '../core/events.js';
import { err, ok, type Result } from '../core/result.js';
import type { Ruleset } from '../core/ruleset.js';
import type { GameState, Move, Step } from '../core/state.js';
import { DEFAULT_PALETTE, renderBoard, renderSymbols } from '../render/index.js';
import { FIGURE } from './play.js';

/** One position of a replay: the state after `index` moves, and the move and events that led to it. */
export interface Position {
  /** Moves played so far (0: the start of the game). */
  readonly index: number;
  /** The state. */
  readonly state: GameState;
  /** The move that led here (null at the start). */
  readonly move: Move | null;
  /** The step the move was played at (null at the start). */
  readonly before: Step | null;
  /** The move's events, in order (none at the start). */
  readonly events: readonly GameEvent[];
  /** Turns ended so far. */
  readonly turns: number;
}

/**
 * Every position of a replay, from the start of the game to the end of its moves: `moves.length + 1`
 * positions. The replay must have been validated by `replay()` (an illegal move is reported, not thrown).
 */
export function replayPositions(rules: Ruleset, data: Replay): Result<Position[], string> {
  // The game's definition: players, seed, and its chosen draws and The Castle's tokens if any.
  const game = newGame(rules, {
    players: data.players,
    seed: data.seed,
    ...(data.draws === undefined ? {} : { draws: data.draws }),
    ...(data.tokens === undefined ? {} : { tokens: data.tokens }),
  });
  if (!game.ok) return err(`${game.error.code}: ${game.error.message}`);
  const out: Position[] = [{ index: 0, state: game.value, move: null, before: null, events: [], turns: 0 }];
  let state = game.value;
  let turns = 0;
  for (let i = 0; i < data.moves.length; i++) {
    const move = data.moves[i]!;
    const next = applyMove(rules, state, move);
    if (!next.ok) return err(`move ${i} cannot be played: ${next.error.code}: ${next.error.message}`);
    turns += next.value.events.filter((e) => e.type === 'turn-ended').length;
    out.push({ index: i + 1, state: next.value.state, move, before: state.step, events: next.value.events, turns });
    state = next.value.state;
  }
  return ok(out);
}


/** A seat as the board's legend names it: `Player 1` for seat 0. */
function player(p: unknown): string {
  return typeof p === 'number' && p >= 0 ? `Player ${p + 1}` : 'nobody';
}

function featureWords(f: FeatureRef): string {
  return `the ${f.kind} ${f.feature} at ${f.x},${f.y}`;
}

function points(n: number): string {
  return `${n} ${Math.abs(n) === 1 ? 'point' : 'points'}`;
}

/** A JSON value in a few words: a cell or feature as `x,y`, a list joined by `/`. */
function valueWords(v: unknown): string | null {
  if (typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean') return String(v);
  if (v === null) return 'none';
  if (Array.isArray(v)) return v.map((x) => valueWords(x) ?? '?').join('/');
  if (typeof v === 'object' && 'x' in v && 'y' in v) {
    const f = v as { kind?: unknown; feature?: unknown; x: unknown; y: unknown };
    return `${f.kind === undefined ? '' : `${String(f.kind)} ${f.feature === undefined ? '' : `${String(f.feature)} `}at `}${String(f.x)},${String(f.y)}`;
  }
  return null;
}

/** The fields of an expansion's event or move other than `type` and `player`, as `name value` pairs. */
function fieldWords(o: Readonly<Record<string, unknown>>): string {
  const out: string[] = [];
  for (const [k, v] of Object.entries(o)) {
    if (k === 'type' || k === 'player' || k === 'kind') continue;
    const w = valueWords(v);
    if (w !== null) out.push(`${k} ${w}`);
  }
  return out.join(', ');
}

/** An event in plain words (`P0 scores 4 points for the completed city c1 at 1,0`). */
export function describeEvent(e: GameEvent): string {
  switch (e.type) {
    case 'tile-drawn':
      return `${player(e.player)} draws tile ${e.tile}`;
    case 'tile-discarded':
      return `tile ${e.tile} fits nowhere: it is discarded`;
    case 'tile-placed':
      return `${player(e.player)} places tile ${e.tile} at ${e.x},${e.y}, turned ${e.rotation * 90}°`;
    case 'follower-deployed':
      return `${player(e.player)} puts a ${FIGURE[e.at.kind] ?? 'follower'} on ${featureWords(e.at)}`;
    case 'feature-completed':
      return `${featureWords(e.feature)} is completed (${e.tiles} tiles)`;
    case 'scored': {
      const why =
        e.feature === null
          ? e.reason
          : e.reason === 'completed'
            ? `the completed ${e.feature.kind} ${e.feature.feature} at ${e.feature.x},${e.feature.y}`
            : e.reason === 'final'
              ? `the unfinished ${e.feature.kind} ${e.feature.feature} at ${e.feature.x},${e.feature.y}`
              : e.reason === 'farm'
                ? `the field ${e.feature.feature} at ${e.feature.x},${e.feature.y}`
                : `${e.reason}, ${featureWords(e.feature)}`;
      return `${player(e.player)} scores ${points(e.points)} for ${why}`;
    }
    case 'follower-returned':
      return `${player(e.player)}'s follower on ${featureWords(e.at)} returns to the supply`;
    case 'turn-ended':
      return `${player(e.player)}'s turn ends`;
    case 'undone':
      return `${e.moves.length === 1 ? 'a move is' : `${e.moves.length} moves are`} taken back`;
    case 'game-ended':
      return `the game ends: ${e.scores.map((s, p) => `${player(p)} ${s}`).join(', ')}; ${e.winners.length > 1 ? 'winners' : 'winner'} ${e.winners.map(player).join(', ')}`;
    default: {
      const x = e as ExpansionEvent;
      const details = fieldWords(x);
      return `${x['player'] === undefined ? '' : `${player(x['player'])}: `}${x.type}${details === '' ? '' : ` (${details})`}`;
    }
  }
}

/** A move in plain words; `before` is the step it was played at (for the placed tile's id). */
export function describeMove(move: Move, before: Step | null): string {
  switch (move.type) {
    case 'place': {
      const tile = before !== null && before.kind === 'place-tile' ? `tile ${before.tile}` : 'the tile';
      return `${player(move.player)} places ${tile} at ${move.x},${move.y}, turned ${move.rotation * 90}°`;
    }
    case 'deploy':
      return `${player(move.player)} deploys a follower on ${move.feature}`;
    case 'pass':
      return `${player(move.player)} passes`;
    default: {
      const details = fieldWords(move);
      return `${player(move.player)}: ${move.type}${details === '' ? '' : ` (${details})`}`;
    }
  }
}

/** The step a state waits for, in plain words. */
export function describeStep(step: Step): string {
  switch (step.kind) {
    case 'place-tile':
      return `${player(step.player)} to place tile ${step.tile}`;
    case 'deploy':
      return `${player(step.player)} to deploy a follower or pass`;
    case 'game-over':
      return `game over: ${step.winners.length > 1 ? 'winners' : 'winner'} ${step.winners.map(player).join(', ')}`;
    default: {
      const details = fieldWords(step);
      return `${player(step.player)} to decide ${step.kind}${details === '' ? '' : ` (${details})`}`;
    }
  }
}

/** What the page shows for one position besides its board. */
interface PositionText {
  /** Scores per player. */
  readonly s: readonly number[];
  /** Turns ended so far. */
  readonly t: number;
  /** Who decides the step (-1 when the game is over). */
  readonly w: number;
  /** Whose step it is, in words. */
  readonly step: string;
  /** The move, or null at the start. */
  readonly move: string | null;
  /** Its events. */
  readonly events: readonly string[];
}

/** SVG text cut between tags (`...><...`): joining the pieces gives the text back exactly. */
function tags(svg: string): string[] {
  return svg.split(/(?<=>)(?=<)/);
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** JSON safe inside a `<script>` element: no `<` at all (so no `</script>` and no `<!--`). */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

/**
 * A tag stored as an edit of an earlier one: `[base, keep, keepEnd, middle]` is the text of tag
 * `base` with its first `keep` and last `keepEnd` characters kept and `middle` between them (a
 * board outline that grew by one tile, a score that changed in the legend).
 */
type TagEdit = [base: number, keep: number, keepEnd: number, middle: string];

/** Characters two strings share at their start, and at their end without overlapping that. */
function shared(a: string, b: string): [number, number] {
  const max = Math.min(a.length, b.length);
  let p = 0;
  while (p < max && a.charCodeAt(p) === b.charCodeAt(p)) p++;
  let q = 0;
  while (q < max - p && a.charCodeAt(a.length - 1 - q) === b.charCodeAt(b.length - 1 - q)) q++;
  return [p, q];
}

/** What an edit must save, in characters, to be stored instead of the tag's text. */
const EDIT_GAIN = 24;

/**
 * The tag table: each distinct tag once, in order of first use, as its text or as an edit of an
 * earlier tag of the same element and first attribute (the last few such tags are tried).
 */
class TagTable {
  readonly entries: (string | TagEdit)[] = [];
  private readonly index = new Map<string, number>();
  private readonly texts: string[] = [];
  private readonly recent = new Map<string, number[]>();

  /** The index of a tag, added if new. */
  add(tag: string): number {
    const known = this.index.get(tag);
    if (known !== undefined) return known;
    const i = this.texts.length;
    const key = /^<\/?[\w:-]+(?:\s+[\w:-]+=)?/.exec(tag)?.[0] ?? tag.slice(0, 8);
    const candidates = this.recent.get(key) ?? [];
    let best: TagEdit | null = null;
    let bestGain = EDIT_GAIN;
    for (const c of candidates) {
      const [keep, keepEnd] = shared(this.texts[c]!, tag);
      const middle = tag.slice(keep, tag.length - keepEnd);
      const gain = tag.length - middle.length - String(c).length - String(keep).length - String(keepEnd).length - 6;
      if (gain > bestGain) {
        bestGain = gain;
        best = [c, keep, keepEnd, middle];
      }
    }
    this.entries.push(best ?? tag);
    this.texts.push(tag);
    this.index.set(tag, i);
    candidates.push(i);
    if (candidates.length > 4) candidates.shift();
    this.recent.set(key, candidates);
    return i;
  }
}

/**
 * A position's tags as changes to the previous position's: a number `n >= 0` is tag `n`; a
 * negative number `-s - 1` followed by a length `l` copies `l` tags of the previous position
 * from its `s`-th on. Boards of consecutive positions differ in a few tags.
 */
function encodeFrame(prev: readonly number[], frame: readonly number[]): number[] {
  const where = new Map<number, number[]>();
  prev.forEach((t, k) => {
    const list = where.get(t);
    if (list === undefined) where.set(t, [k]);
    else list.push(k);
  });
  const out: number[] = [];
  let i = 0;
  let expected = 0; // Where the last copied run ended in prev: most runs go on from there.
  while (i < frame.length) {
    let bestStart = -1;
    let bestLength = 0;
    const starts = where.get(frame[i]!) ?? [];
    const ordered = starts.includes(expected) ? [expected, ...starts] : starts;
    for (const s of ordered) {
      let l = 0;
      while (i + l < frame.length && s + l < prev.length && prev[s + l] === frame[i + l]) l++;
      if (l > bestLength) {
        bestLength = l;
        bestStart = s;
      }
      if (s === expected && l >= 8) break;
    }
    if (bestLength >= 2) {
      out.push(-bestStart - 1, bestLength);
      i += bestLength;
      expected = bestStart + bestLength;
    } else {
      out.push(frame[i]!);
      i++;
    }
  }
  return out;
}

/** A player's colours on the board (the renderer's default palette, styles reused in turn). */
function style(p: number): { readonly fill: string; readonly stroke: string } {
  return DEFAULT_PALETTE.players[p % DEFAULT_PALETTE.players.length]!;
}

/** A ruleset in words: its game, and its expansions in hook order (`classic with river, tower`). */
export function rulesetName(rules: Ruleset): string {
  const ids = rules.options.expansions.map((e) => e.id);
  return `${rules.options.game}${ids.length === 0 ? '' : ` with ${ids.join(', ')}`}`;
}

/** Options of {@link viewerHtml}. */
export interface ViewerOptions {
  /** Pixels per tile (default 48). */
  readonly tileSize?: number;
  /** The position shown first (default 0; the page's URL hash `#42` overrides it). */
  readonly start?: number;
}

/**
 * The viewer page for a validated replay: every position's board and text, the tile pictures
 * once, and the script that steps through them. Deterministic: same replay, same text.
 */
export function viewerHtml(rules: Ruleset, data: Replay, positions: readonly Position[], options: ViewerOptions = {}): Result<string, string> {
  const tileSize = options.tileSize ?? 48;
  const start = Math.max(0, Math.min(positions.length - 1, options.start ?? 0));
  const table = new TagTable();
  const frames: number[][] = [];
  let previous: number[] = [];
  const texts: PositionText[] = [];
  for (const pos of positions) {
    const board = renderBoard(rules, pos.state, { tileSize, symbols: 'external', lastTile: true });
    if (!board.ok) return err(`the board after move ${pos.index} cannot be drawn: ${board.error.code}: ${board.error.message}`);
    // The renderer's <title> describes the position (the board's accessible name).
    const frame = tags(board.value).map((t) => table.add(t));
    frames.push(encodeFrame(previous, frame));
    previous = frame;
    texts.push({
      s: pos.state.scores,
      t: pos.turns,
      w: pos.state.step.kind === 'game-over' ? -1 : pos.state.step.player,
      step: describeStep(pos.state.step),
      move: pos.move === null ? null : describeMove(pos.move, pos.before),
      events: pos.events.map(describeEvent),
    });
  }
  const last = positions[positions.length - 1]!;
  const title = `meeplekit replay: ${rulesetName(rules)}, ${data.players} players, seed ${JSON.stringify(data.seed)}`;
  const payload = { players: data.players, start, tags: table.entries, frames, positions: texts };
  const scoreRows = Array.from(
    { length: data.players },
    (_, p) => `<tr data-player="${p}"><th scope="row"><span class="swatch" style="background:${style(p).fill};border-color:${style(p).stroke}" aria-hidden="true"></span>${player(p)}</th><td class="score" data-player="${p}">${positions[start]!.state.scores[p] ?? 0}</td></tr>`,
  ).join('');
  const symbols = renderSymbols(rules);
  if (!symbols.ok) return err(`the tile pictures cannot be drawn: ${symbols.error.code}: ${symbols.error.message}`);
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="meeplekit">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<header>
<h1>${escapeHtml(title)}</h1>
<p class="meta">${data.moves.length} moves, ${last.turns} turns</p>
</header>
<main>
<div class="symbols" aria-hidden="true">${symbols.value}</div>
<section class="board-pane" aria-label="Board">
<div id="board" class="board"></div>
</section>
<section class="side">
<nav class="controls" aria-label="Moves">
<button type="button" id="first" aria-label="First position (Home)" title="First (Home)">${ICONS.first}</button>
<button type="button" id="prev" aria-label="Previous move (Left arrow)" title="Previous (Left arrow)">${ICONS.prev}</button>
<button type="button" id="next" aria-label="Next move (Right arrow)" title="Next (Right arrow)">${ICONS.next}</button>
<button type="button" id="last" aria-label="Last position (End)" title="Last (End)">${ICONS.last}</button>
<label class="slider"><span class="visually-hidden">Position</span><input type="range" id="slider" min="0" max="${data.moves.length}" step="1" value="${start}"></label>
<output id="position" for="slider" aria-live="polite"></output>
</nav>
<table class="scores" aria-label="Scores">
<caption>Scores</caption>
<tbody>${scoreRows}</tbody>
</table>
<p id="step" class="step"></p>
<section class="move" aria-label="Move" aria-live="polite">
<h2 id="move-title">Move</h2>
<p id="move"></p>
<ul id="events"></ul>
</section>
</section>
</main>
<script type="application/json" id="meeplekit-replay">${scriptJson(payload)}</script>
<script>${SCRIPT}</script>
</body>
</html>
`;
  return ok(html);
}

// The buttons' icons, drawn inline (a font may lack the media-control characters).
const icon = (d: string): string => `<svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" focusable="false"><path d="${d}" fill="currentColor"/></svg>`;
const ICONS = {
  first: icon('M2 2h2.5v12H2zM14 2v12L5.5 8z'),
  prev: icon('M13 2v12L3 8z'),
  next: icon('M3 2v12l10-6z'),
  last: icon('M11.5 2H14v12h-2.5zM2 2v12l8.5-6z'),
} as const;

const STYLE = `
:root{color-scheme:light;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f4f1ea;color:#222}
body{margin:0;padding:12px 16px}
h1{font-size:1.1rem;margin:0 0 2px}
h2{font-size:1rem;margin:0 0 4px}
.meta{margin:0 0 10px;color:#555;font-size:.85rem}
main{display:flex;gap:16px;align-items:flex-start;flex-wrap:wrap}
.symbols{position:absolute;width:0;height:0;overflow:hidden}
.board-pane{flex:1 1 480px;min-width:280px;overflow:auto;background:#e6e0d2;border-radius:6px;padding:8px}
.board svg{display:block;width:auto;height:auto;max-width:100%;max-height:calc(100vh - 110px);margin:auto}
.side{flex:0 1 360px;min-width:260px}
.controls{display:flex;flex-wrap:wrap;gap:6px;align-items:center;margin-bottom:10px}
.controls button{display:inline-flex;align-items:center;justify-content:center;min-width:2.6rem;min-height:2rem;padding:4px 8px;border:1px solid #888;border-radius:4px;background:#fff;color:#222;cursor:pointer}
.controls button:disabled{opacity:.4;cursor:default}
.controls button:focus-visible,.slider input:focus-visible{outline:2px solid #1d4ed8;outline-offset:2px}
.slider{flex:1 1 100%;display:flex}
.slider input{width:100%}
#position{font-variant-numeric:tabular-nums;font-size:.9rem}
.scores{border-collapse:collapse;margin-bottom:10px;min-width:140px}
.scores caption{text-align:left;font-weight:600}
.scores th,.scores td{padding:2px 8px;text-align:left;border-bottom:1px solid #ccc}
.scores td{text-align:right;font-variant-numeric:tabular-nums}
.scores tr.turn th::after{content:' \\25C0';font-size:.8em}
.swatch{display:inline-block;width:.8em;height:.8em;border-radius:50%;margin-right:6px;vertical-align:-1px;border:1px solid}
.step{font-weight:600}
.move ul{margin:4px 0;padding-left:1.2em;font-size:.9rem}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
`;

// The page's script: plain ES2017, no dependency. Positions are shown by index; the URL hash
// (#42) opens a given position.
const SCRIPT = `
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('meeplekit-replay').textContent);
  var board = document.getElementById('board');
  var slider = document.getElementById('slider');
  var output = document.getElementById('position');
  var stepEl = document.getElementById('step');
  var moveEl = document.getElementById('move');
  var moveTitle = document.getElementById('move-title');
  var eventsEl = document.getElementById('events');
  var buttons = { first: document.getElementById('first'), prev: document.getElementById('prev'), next: document.getElementById('next'), last: document.getElementById('last') };
  var cells = document.querySelectorAll('.scores td.score');
  // Tags: text, or [base, keep, keepEnd, middle], an edit of an earlier tag.
  var tags = data.tags;
  for (var t = 0; t < tags.length; t++) {
    var e = tags[t];
    if (typeof e !== 'string') { var base = tags[e[0]]; tags[t] = base.slice(0, e[1]) + e[3] + base.slice(base.length - e[2]); }
  }
  // Frames: tag numbers, or -s-1 then l: l tags of the previous frame from its s-th on.
  var frames = [];
  var prev = [];
  for (var f = 0; f < data.frames.length; f++) {
    var enc = data.frames[f], frame = [];
    for (var j = 0; j < enc.length; j++) {
      var x = enc[j];
      if (x >= 0) frame.push(x);
      else { var from = -x - 1, n = enc[++j]; for (var m = 0; m < n; m++) frame.push(prev[from + m]); }
    }
    frames.push(frame);
    prev = frame;
  }
  var last = frames.length - 1;
  var current = -1;
  function show(i) {
    i = Math.max(0, Math.min(last, i));
    if (i === current) return;
    current = i;
    var frame = frames[i];
    var parts = new Array(frame.length);
    for (var k = 0; k < frame.length; k++) parts[k] = tags[frame[k]];
    board.innerHTML = parts.join('');
    var p = data.positions[i];
    for (var c = 0; c < cells.length; c++) {
      cells[c].textContent = String(p.s[c]);
      var row = cells[c].parentNode;
      if (c === p.w) { row.className = 'turn'; row.setAttribute('aria-current', 'step'); } else { row.className = ''; row.removeAttribute('aria-current'); }
    }
    slider.value = String(i);
    output.textContent = 'Move ' + i + ' of ' + last + ' \\u00b7 ' + p.t + (p.t === 1 ? ' turn' : ' turns') + ' played';
    stepEl.textContent = p.step;
    moveTitle.textContent = i === 0 ? 'Start of the game' : 'Move ' + i;
    moveEl.textContent = p.move === null ? 'No move yet.' : p.move;
    eventsEl.textContent = '';
    for (var e = 0; e < p.events.length; e++) {
      var li = document.createElement('li');
      li.textContent = p.events[e];
      eventsEl.appendChild(li);
    }
    buttons.first.disabled = buttons.prev.disabled = i === 0;
    buttons.next.disabled = buttons.last.disabled = i === last;
    document.body.setAttribute('data-position', String(i));
  }
  buttons.first.addEventListener('click', function () { show(0); });
  buttons.prev.addEventListener('click', function () { show(current - 1); });
  buttons.next.addEventListener('click', function () { show(current + 1); });
  buttons.last.addEventListener('click', function () { show(last); });
  slider.addEventListener('input', function () { show(Number(slider.value)); });
  document.addEventListener('keydown', function (ev) {
    if (ev.target === slider || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    var to = ev.key === 'ArrowLeft' ? current - 1 : ev.key === 'ArrowRight' ? current + 1 : ev.key === 'Home' ? 0 : ev.key === 'End' ? last : null;
    if (to === null) return;
    ev.preventDefault();
    show(to);
  });
  var hash = /^#(\\d+)$/.exec(location.hash);
  show(hash ? Number(hash[1]) : data.start);
})();
`;
