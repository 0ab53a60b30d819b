/**
 * The playground: play meeplekit's games in the browser, hot-seat or against the bots of
 * meeplekit/bots (thinking in a Web Worker), or online through the reference server
 * (examples/server). docs/playground.md is the guide.
 *
 * DOM contract (browser tests drive the page through these; keep them):
 * - Setup: `select#game` (`classic`, `castle`); `input[name=expansion][value=<id>]` checkboxes
 *   (river, king-robber, tower, princess-dragon, count, shrines); `select#players` (2..5); one
 *   `select[data-seat="<n>"]` per seat (`human`, `bot:1` ... `bot:5`); `input#seed` (optional);
 *   `button#start`. With `?server=ws://host:port` in the URL, Start creates the game on that server
 *   and joins its first human seat; `?server=...&game=<id>&seat=<token>` joins a seat (without
 *   `seat`: as a spectator).
 * - Play: `#board` holds the board's SVG. Each legal cell of the tile to place is
 *   `[data-cell="<x>,<y>"]`: a first click selects the cell and previews the tile on it (at the
 *   selected rotation if it fits there, else the next one that fits clockwise); a click on the
 *   selected cell (or `button#place`, or Enter) places it. `button#rotate` and R turn the tile
 *   through the rotations that fit the selected cell. Keys: arrows move the selection between
 *   legal cells, R rotates, Enter places, Escape clears the selection.
 * - Decisions: every legal move that is not a placement is a `button[data-move="<i>"]` in
 *   `#choices` (i an index into the choices, in `legalMoves` order), with a readable label; those
 *   with a place on the board (a follower's feature on the placed tile, a portal's or the
 *   princess's feature, a tower, the dragon's or the fairy's cell) are also
 *   `[data-target="<i>"]` on the board (same i).
 * - `button#undo`, `button#hint`, `button#analyse` ("what did my move cost"), `#cost` (the text of
 *   the last hint or analysis).
 * - `#status` with `data-state="setup|connecting|human|bot|waiting|over"`, `data-player="<seat
 *   deciding>"` (empty when none), `data-seq` (the view's seq: moves played) and, online,
 *   `data-version`; `#scores` (a row per player,
 *   `[data-player="<n>"]` with `data-score`), `#supply`, `#log` (one `li` per event line), `#error`
 *   (refusals and errors; empty when none). `input#colour-blind` switches the palette;
 *   `input#fit-board` (checked by default) scales the board to its panel, else it is shown at
 *   its natural size in a scrolling panel.
 * - Local games are saved in localStorage after every move and restored on reload (parseState
 *   checks them; a saved game that does not check shows a message in `#error` and the setup form).
 *   `?botDelay=<ms>` sets the pause before a bot's move is played (default 300).
 */
import type { Move, PublicView } from 'meeplekit';
import { COLOUR_BLIND_PALETTE, DEFAULT_PALETTE, legalPlacements, renderFollower, renderTile, type CellPlacements, type Palette } from 'meeplekit/render';
import { drawBoard, scrollToCell, targetsOf } from './board-view.js';
import { choicesOf, moveLabels } from './decisions.js';
import { bindKeys, fittingRotation, moveCursor, nextRotation, type Selection } from './input.js';
import { newLocalSession, resumeLocalSession } from './local-session.js';
import { onlineSession, type OnlineSession } from './online-session.js';
import { seatName } from './rules.js';
import type { Session } from './session.js';
import { readForm, syncSeats } from './setup-form.js';
import { clear, restore } from './storage.js';
import { botWorker, type BotWorker } from './worker-client.js';

const $ = <T extends HTMLElement>(id: string): T => {
  const el = document.getElementById(id);
  if (el === null) throw new Error(`the page has no #${id}`);
  return el as T;
};

const params = new URLSearchParams(location.search);
const server = params.get('server');
const botDelay = Math.max(0, Math.min(5000, Number(params.get('botDelay') ?? 300) || 0));

const form = $<HTMLFormElement>('setup');
const play = $('play');
const status = $('status');
const errorBox = $('error');
const boardBox = $('board');
const choicesBox = $('choices');
const costBox = $('cost');
const tileBox = $('tile');

let session: Session | null = null;
let unsubscribe: (() => void) | null = null;
let bots: BotWorker | null = null;
let selection: Selection | null = null;
let rotation = 0;
let hinted: { cell?: string; target?: number } | null = null;
/** The view the selection and hint belong to (a new view clears them). */
let shownSeq = -1;
let shownState = '';

function palette(): Palette {
  return $<HTMLInputElement>('colour-blind').checked ? COLOUR_BLIND_PALETTE : DEFAULT_PALETTE;
}

function tileSize(): number {
  return window.innerWidth < 600 ? 48 : 64;
}

/** Fits the board to its panel (the default), or shows it at its natural size, scrolling. */
function fitBoard(fit: boolean): void {
  $<HTMLInputElement>('fit-board').checked = fit;
  boardBox.classList.toggle('fit', fit);
}

function workerBots(): BotWorker {
  // A classic worker next to main.js (built by scripts/build-playground.ts).
  bots ??= botWorker(new Worker(new URL('./worker.js', document.baseURI)));
  return bots;
}

function setStatus(state: string, player: number | null, text: string, version: number | null = null, seq: number | null = null): void {
  status.dataset['state'] = state;
  if (seq === null) delete status.dataset['seq'];
  else status.dataset['seq'] = String(seq);
  status.dataset['player'] = player === null ? '' : String(player);
  if (version === null) delete status.dataset['version'];
  else status.dataset['version'] = String(version);
  status.textContent = text;
}

function showSetup(message = ''): void {
  session?.close();
  unsubscribe?.();
  session = null;
  form.hidden = false;
  play.hidden = true;
  errorBox.textContent = message;
  setStatus('setup', null, server === null ? 'Choose a game and press Start.' : `Choose a game and press Start: it is created on ${server}.`);
}

function start(s: Session): void {
  session?.close();
  unsubscribe?.();
  session = s;
  selection = null;
  hinted = null;
  shownSeq = -1;
  costBox.textContent = '';
  form.hidden = true;
  play.hidden = false;
  errorBox.textContent = '';
  $<HTMLButtonElement>('hint').disabled = !s.canAnalyse;
  $<HTMLButtonElement>('analyse').disabled = !s.canAnalyse;
  if (!s.canAnalyse) costBox.textContent = 'Online: hints and "what did my move cost" are not available (the game state stays on the server).';
  unsubscribe = s.subscribe(render);
  render();
}

/** The cells of the tile to place, when a local human places it. */
function cellsOf(s: Session, view: PublicView): readonly CellPlacements[] {
  if (s.state !== 'human' || s.rules === null || s.board === null || view.step.kind !== 'place-tile') return [];
  const cells = legalPlacements(s.rules, s.board);
  return cells.ok ? cells.value : [];
}

function render(): void {
  const s = session;
  if (s === null) return;
  const view = s.view;
  errorBox.textContent = s.error;
  if (view === null || s.rules === null) {
    setStatus(s.state, null, s.error === '' ? 'Connecting...' : 'Not connected.', s.version);
    renderLog(s);
    return;
  }
  if (view.seq !== shownSeq || s.state !== shownState) {
    selection = null;
    hinted = null;
    rotation = 0;
    shownSeq = view.seq;
    shownState = s.state;
  }
  const rules = s.rules;
  const cells = cellsOf(s, view);
  const choices = s.state === 'human' ? choicesOf(s.legal) : [];
  const labels = moveLabels(rules, view, choices);
  const placing = view.step.kind === 'place-tile' ? view.step.tile : null;

  // Status.
  const who = s.deciding === null ? null : seatName(s.deciding, s.seats[s.deciding]);
  const text =
    s.state === 'over'
      ? `Game over. ${view.step.kind === 'game-over' ? `Winner${view.step.winners.length > 1 ? 's' : ''}: ${view.step.winners.map((w) => `Player ${w + 1}`).join(', ')}.` : ''}`
      : s.state === 'human'
        ? `${who}: ${placing !== null ? `place tile ${placing}` : view.step.kind === 'deploy' ? 'a follower, or none' : `decide (${view.step.kind})`}.`
        : s.state === 'bot'
          ? `${who} is thinking...`
          : s.state === 'waiting'
            ? `Waiting for ${who}.`
            : 'Connecting...';
  setStatus(s.state, s.deciding, text, s.version, view.seq);

  // The board.
  drawBoard(boardBox, rules, s.board ?? view, {
    palette: palette(),
    tileSize: tileSize(),
    cells,
    tile: placing,
    selected: selection,
    targets: targetsOf(rules, view, choices, labels),
    hinted,
  });

  // The tile to place.
  if (placing !== null) {
    const shown = renderTile(rules, placing, ((selection?.rotation ?? rotation) & 3) as 0 | 1 | 2 | 3, { palette: palette(), tileSize: 96 });
    tileBox.innerHTML = shown.ok ? shown.value : '';
    tileBox.setAttribute('aria-label', `Tile ${placing}, turned ${(selection?.rotation ?? rotation) * 90}°`);
  } else tileBox.innerHTML = '';
  $('tile-panel').hidden = placing === null;
  $<HTMLButtonElement>('rotate').disabled = cells.length === 0;
  $<HTMLButtonElement>('place').disabled = selection === null;

  // The choices.
  choicesBox.replaceChildren(
    ...choices.map((move, i) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.dataset['move'] = String(i);
      b.textContent = labels[i]!;
      if (hinted?.target === i) b.classList.add('hinted');
      b.onclick = () => submit(move);
      return b;
    }),
  );
  $<HTMLButtonElement>('undo').disabled = !s.canUndo;

  renderPlayers(s, view);
  renderLog(s);
  renderInvites(s);
}

function renderPlayers(s: Session, view: PublicView): void {
  const rows: HTMLElement[] = [];
  const supply: HTMLElement[] = [];
  for (let p = 0; p < view.players; p++) {
    const row = document.createElement('tr');
    row.dataset['player'] = String(p);
    row.dataset['score'] = String(view.scores[p]);
    if (s.deciding === p) row.classList.add('deciding');
    const badge = renderFollower(p, { size: 18, palette: palette() });
    const name = document.createElement('td');
    name.innerHTML = badge.ok ? badge.value : '';
    name.append(` ${seatName(p, s.seats[p])}${s.mySeats.includes(p) && s.mode === 'online' ? ' (you)' : ''}`);
    const score = document.createElement('td');
    score.className = 'score';
    score.textContent = String(view.scores[p]);
    row.append(name, score);
    rows.push(row);
    const li = document.createElement('li');
    li.dataset['player'] = String(p);
    li.textContent = `Player ${p + 1}: ${view.supply[p]} follower${view.supply[p] === 1 ? '' : 's'} in supply${view.held[p] ? `, ${view.held[p]} held` : ''}`;
    supply.push(li);
  }
  $('scores').replaceChildren(...rows);
  const bag = document.createElement('li');
  bag.textContent = `${view.bag.total} tile${view.bag.total === 1 ? '' : 's'} left in the bag`;
  $('supply').replaceChildren(...supply, bag);
}

let loggedCount = -1;
let loggedSession: Session | null = null;
function renderLog(s: Session): void {
  const box = $('log');
  if (loggedSession !== s || s.log.length < loggedCount) {
    box.replaceChildren();
    loggedCount = 0;
    loggedSession = s;
  }
  for (const line of s.log.slice(loggedCount)) {
    const li = document.createElement('li');
    li.textContent = line;
    box.append(li);
  }
  if (s.log.length !== loggedCount) box.scrollTop = box.scrollHeight;
  loggedCount = s.log.length;
}

function renderInvites(s: Session): void {
  const box = $('invites');
  const online = s.mode === 'online' ? (s as OnlineSession) : null;
  if (online === null || (online.invites.length === 0 && online.ownUrl === null)) {
    box.replaceChildren();
    return;
  }
  const items = online.invites.map((i) => {
    const li = document.createElement('li');
    const a = document.createElement('a');
    a.href = i.url;
    a.textContent = `Player ${i.seat + 1}'s link`;
    a.dataset['seat'] = String(i.seat);
    li.append(a);
    return li;
  });
  const title = document.createElement('p');
  title.textContent = `Game ${online.game ?? ''}: send each player their link.`;
  const list = document.createElement('ul');
  list.append(...items);
  box.replaceChildren(title, list);
}

function submit(move: Move): void {
  session?.submit(move);
}

// Placing by mouse, touch and keyboard.
function currentCells(): readonly CellPlacements[] {
  const s = session;
  return s === null || s.view === null ? [] : cellsOf(s, s.view);
}

function select(cell: CellPlacements, keepRotation = true): void {
  const wanted = keepRotation && selection !== null ? selection.rotation : rotation;
  selection = { x: cell.x, y: cell.y, rotation: fittingRotation(cell, wanted) };
  rotation = selection.rotation;
  render();
  if (!boardBox.classList.contains('fit')) scrollToCell(boardBox, cell.x, cell.y);
}

function placeSelected(): void {
  const s = session;
  if (s === null || selection === null || s.deciding === null) return;
  const sel = selection;
  const move = s.legal.find((m) => m.type === 'place' && m.x === sel.x && m.y === sel.y && m.rotation === sel.rotation);
  if (move !== undefined) submit(move);
}

function rotate(): void {
  const cells = currentCells();
  if (cells.length === 0) return;
  if (selection === null) rotation = (rotation + 1) % 4;
  else {
    const cell = cells.find((c) => c.x === selection!.x && c.y === selection!.y);
    selection = { ...selection, rotation: nextRotation(cell, selection.rotation) };
    rotation = selection.rotation;
  }
  render();
}

boardBox.addEventListener('click', (event) => {
  const el = (event.target as Element).closest('[data-cell], [data-target]');
  if (el === null || session === null) return;
  const target = el.getAttribute('data-target');
  if (target !== null) {
    const move = choicesOf(session.legal)[Number(target)];
    if (move !== undefined) submit(move);
    return;
  }
  const [x, y] = (el.getAttribute('data-cell') ?? '').split(',').map(Number);
  const cell = currentCells().find((c) => c.x === x && c.y === y);
  if (cell === undefined) return;
  if (selection !== null && selection.x === cell.x && selection.y === cell.y) placeSelected();
  else select(cell, false);
});

bindKeys(document, {
  arrow(key) {
    const cell = moveCursor(currentCells(), selection, key);
    if (cell !== undefined) select(cell);
  },
  rotate,
  place: placeSelected,
  cancel() {
    selection = null;
    render();
  },
});

$('rotate').addEventListener('click', rotate);
$('place').addEventListener('click', placeSelected);
$('undo').addEventListener('click', () => session?.undo());
$('hint').addEventListener('click', () => {
  const s = session;
  if (s === null) return;
  costBox.textContent = 'Thinking about a hint...';
  void s.hint().then(({ move, text }) => {
    if (session !== s) return;
    costBox.textContent = text;
    if (move !== null && s.view !== null) {
      if (move.type === 'place') {
        const cell = currentCells().find((c) => c.x === move.x && c.y === move.y);
        if (cell !== undefined) {
          rotation = move.rotation;
          selection = { x: move.x, y: move.y, rotation: move.rotation };
          hinted = { cell: `${move.x},${move.y}` };
        }
      } else {
        const i = choicesOf(s.legal).findIndex((m) => JSON.stringify(m) === JSON.stringify(move));
        if (i >= 0) hinted = { target: i };
      }
      render();
    }
  });
});
$('analyse').addEventListener('click', () => {
  const s = session;
  if (s === null) return;
  costBox.textContent = 'Analysing your last move...';
  void s.cost().then((text) => {
    if (session === s) costBox.textContent = text;
  });
});
$('colour-blind').addEventListener('change', () => {
  try {
    localStorage.setItem('meeplekit-playground-palette', $<HTMLInputElement>('colour-blind').checked ? 'colour-blind' : 'default');
  } catch {
    // Not kept: fine.
  }
  render();
});
$('fit-board').addEventListener('change', () => {
  const fit = $<HTMLInputElement>('fit-board').checked;
  try {
    localStorage.setItem('meeplekit-playground-fit', fit ? 'fit' : 'natural');
  } catch {
    // Not kept: fine.
  }
  fitBoard(fit);
  render();
});
$('new-game').addEventListener('click', () => {
  if (session?.mode === 'local') clear(localStorage);
  if (server !== null && params.has('game')) {
    location.search = `?server=${encodeURIComponent(server)}`;
    return;
  }
  showSetup();
});

for (const id of ['game', 'players']) $(id).addEventListener('change', () => syncSeats(form));
form.addEventListener('submit', (event) => {
  event.preventDefault();
  const config = readForm(form);
  if (!config.ok) {
    errorBox.textContent = config.message;
    return;
  }
  if (server !== null) {
    start(
      onlineSession({
        server,
        create: config.value,
        linkFor: (game, token) => linkFor(game, token),
        onJoin: (game, token) => history.replaceState(null, '', linkFor(game, token)),
      }),
    );
    return;
  }
  const made = newLocalSession(config.value, { store: localStorage, bots: workerBots(), botDelay });
  if (!made.ok) errorBox.textContent = made.message;
  else start(made.value);
});

function linkFor(game: string, token: string | null): string {
  const url = new URL(location.href);
  url.search = '';
  url.searchParams.set('server', server ?? '');
  url.searchParams.set('game', game);
  if (token !== null) url.searchParams.set('seat', token);
  return url.toString();
}

window.addEventListener('resize', () => render());

// Start: an online game named in the URL, a saved local game, or the setup form.
try {
  $<HTMLInputElement>('colour-blind').checked = localStorage.getItem('meeplekit-playground-palette') === 'colour-blind';
  fitBoard(localStorage.getItem('meeplekit-playground-fit') !== 'natural');
} catch {
  // No storage: the default palette, the board fitted.
  fitBoard(true);
}
syncSeats(form);
const joinGame = params.get('game');
if (server !== null && joinGame !== null) {
  start(onlineSession({ server, join: { game: joinGame, token: params.get('seat') }, linkFor }));
} else if (server !== null) {
  showSetup();
} else {
  const saved = restore(localStorage);
  if (saved === null) showSetup();
  else if (!saved.ok) {
    clear(localStorage);
    showSetup(`The saved game could not be restored: ${saved.message}. Start a new one.`);
  } else start(resumeLocalSession(saved.value.config, saved.value.rules, saved.value.state, { store: localStorage, bots: workerBots(), botDelay }));
}
