/**
 * The page: a 2-player classic game where Player 2 is the search bot in a Web Worker
 * (bot.worker.ts) and Player 1 the page's own greedy bot (standing in for a human player). The
 * page posts the state as plain JSON and checks each move it gets back with `isLegal` before
 * playing it; "Move now" stops the search, which answers the best move so far. The clock is
 * redrawn every frame: it keeps moving while the bot thinks.
 *
 * Build it with esbuild, which does not follow `new URL(...)` to the worker: the worker is an
 * entry of its own, written next to main.js (in this repository, after `npm run build`):
 *
 *   npx esbuild examples/browser-bot/main.ts examples/browser-bot/bot.worker.ts --bundle \
 *     --format=esm --outdir=out && cp examples/browser-bot/index.html out/
 *
 * and serve `out/` over HTTP (a module worker does not load from file://). Vite and webpack 5
 * follow `new URL('./bot.worker.ts', import.meta.url)` (the source's name) and bundle the worker
 * themselves. test/browser/bot-worker.test.ts builds it as above and plays a game in Chromium.
 */
import { applyMove, createRandomSource, createRuleset, greedyBot, isLegal, newGame, type GameState, type Move } from 'meeplekit';
import { renderBoard } from 'meeplekit/render';
import type { BotReply } from '../bot-messages.js';
import { workerBot } from './bot-client.js';

/** The seat the worker's bot plays. */
const BOT = 1;
const NAMES = ['Player 1 (greedy, in the page)', 'Player 2 (search bot, in the worker)'];

const $ = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;
const status = $('status');

const created = createRuleset({ game: 'classic' });
if (!created.ok) throw new Error(created.error.message);
const rules = created.value;

// The worker bundled by esbuild next to main.js (with Vite or webpack 5: new URL('./bot.worker.ts', import.meta.url)).
const bot = workerBot(new Worker(new URL('./bot.worker.js', import.meta.url), { type: 'module' }));

function show(text: string): void {
  status.textContent = text;
}

function draw(state: GameState): void {
  const board = renderBoard(rules, state);
  if (board.ok) $('board').innerHTML = board.value;
  $('scores').textContent = NAMES.map((name, p) => `${name}: ${state.scores[p]}`).join(' · ');
  document.body.dataset['step'] = state.step.kind;
}

function log(player: number, move: Move, note: string, reply?: BotReply & { ok: true }): void {
  const li = document.createElement('li');
  li.textContent = `${NAMES[player]}: ${move.type === 'place' ? `place at ${move.x},${move.y}` : move.type}${note}`;
  li.dataset['player'] = String(player);
  li.dataset['move'] = JSON.stringify(move);
  if (reply !== undefined) {
    li.dataset['iterations'] = String(reply.iterations);
    li.dataset['aborted'] = String(reply.aborted);
  }
  $('log').append(li);
}

/** The search request being waited for, which "Move now" stops. */
let thinking: number | null = null;
/** The game being played: a new game ends the loop of the one before. */
let game = 0;

$('now').onclick = () => {
  if (thinking !== null) bot.stop(thinking);
};

$('settings').onsubmit = (event) => {
  event.preventDefault();
  void play(++game);
};

async function play(me: number): Promise<void> {
  // The game before ends: its search answers at once, and its loop stops at `me !== game`.
  if (thinking !== null) bot.stop(thinking);
  thinking = null;
  delete document.body.dataset['thinking'];
  const seed = $<HTMLInputElement>('seed').value;
  const iterations = Number($<HTMLInputElement>('iterations').value);
  const started = newGame(rules, { players: 2, seed });
  if (!started.ok) return show(started.error.message);
  let state = started.value;
  const greedy = greedyBot(createRandomSource(seed));
  $('log').replaceChildren();
  draw(state);
  while (state.step.kind !== 'game-over') {
    const player = state.step.player;
    let move: Move;
    let answer: (BotReply & { ok: true }) | undefined;
    if (player === BOT) {
      show(`${NAMES[BOT]} is thinking…`);
      const { id, reply } = bot.ask({ game: 'classic', expansions: [], state, iterations, seed });
      thinking = id;
      document.body.dataset['thinking'] = 'true';
      const r = await reply;
      if (me !== game) return;
      thinking = null;
      delete document.body.dataset['thinking'];
      if (!r.ok) return show(`the bot failed: ${r.error.code}: ${r.error.message}`);
      // A message is data from elsewhere: play it only if it is legal here.
      if (!isLegal(rules, state, r.move)) return show(`the bot answered an illegal move: ${JSON.stringify(r.move)}`);
      [move, answer] = [r.move, r];
    } else {
      // Let the page paint between the greedy bot's moves, as between a player's clicks.
      await new Promise((resolve) => setTimeout(resolve, 0));
      if (me !== game) return;
      move = greedy(rules, state);
    }
    const next = applyMove(rules, state, move);
    if (!next.ok) return show(next.error.message);
    state = next.value.state;
    log(player, move, answer === undefined ? '' : ` (${answer.iterations} searches${answer.aborted ? ', moved now' : ''})`, answer);
    draw(state);
  }
  show(`Game over: ${state.step.winners.map((p) => NAMES[p]).join(' and ')} won.`);
}

// The clock: redrawn every frame, so a frozen page shows at once.
const start = performance.now();
const tick = (now: number): void => {
  $('clock').textContent = ((now - start) / 1000).toFixed(2);
  requestAnimationFrame(tick);
};
requestAnimationFrame(tick);
show('Press "New game".');
