/**
 * The setup form: the game (classic or The Castle), the expansions, the players and who plays
 * each seat (a person, or a bot at a level from 1 to 5), a seed. The Castle is for two players
 * without expansions: choosing it disables the rest.
 */
import { checkConfig, EXPANSION_IDS, type Checked, type GameConfig, type SeatKind } from './rules.js';

const $ = <T extends HTMLElement>(selector: string, root: ParentNode = document): T => {
  const el = root.querySelector<T>(selector);
  if (el === null) throw new Error(`the page has no ${selector}`);
  return el;
};

/** Keeps the seat selects in line with the number of players and the game. */
export function syncSeats(form: HTMLElement): void {
  const game = $<HTMLSelectElement>('select#game', form).value;
  const players = $<HTMLSelectElement>('select#players', form);
  if (game === 'castle') players.value = '2';
  players.disabled = game === 'castle';
  for (const box of Array.from(form.querySelectorAll<HTMLInputElement>('input[name=expansion]'))) box.disabled = game === 'castle';
  const n = Number(players.value);
  const seats = $<HTMLElement>('#seats', form);
  const existing = Array.from(seats.querySelectorAll<HTMLSelectElement>('select[data-seat]'));
  for (let i = existing.length; i < n; i++) {
    const label = document.createElement('label');
    label.textContent = `Player ${i + 1} `;
    const select = document.createElement('select');
    select.dataset['seat'] = String(i);
    select.setAttribute('aria-label', `Player ${i + 1}`);
    const human = new Option('Human', 'human');
    select.append(human);
    for (let level = 1; level <= 5; level++) select.append(new Option(`Bot, level ${level}`, `bot:${level}`));
    // By default the first seat is yours and the others are bots of level 2.
    select.value = i === 0 ? 'human' : 'bot:2';
    label.append(select);
    seats.append(label);
  }
  for (const [i, select] of existing.entries()) (select.parentElement as HTMLElement).hidden = i >= n;
  for (const [i, select] of Array.from(seats.querySelectorAll<HTMLSelectElement>('select[data-seat]')).entries()) {
    (select.parentElement as HTMLElement).hidden = i >= n;
  }
}

/** A seed when none is given: random, so that games differ. */
function randomSeed(): string {
  const bytes = new Uint8Array(8);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Reads the form into a configuration, checked. */
export function readForm(form: HTMLElement): Checked<GameConfig> {
  const game = $<HTMLSelectElement>('select#game', form).value;
  const expansions = game === 'castle' ? [] : EXPANSION_IDS.filter((id) => $<HTMLInputElement>(`input[name=expansion][value="${id}"]`, form).checked);
  const players = game === 'castle' ? 2 : Number($<HTMLSelectElement>('select#players', form).value);
  const seats: SeatKind[] = [];
  for (let i = 0; i < players; i++) {
    const v = $<HTMLSelectElement>(`select[data-seat="${i}"]`, form).value;
    seats.push(v === 'human' ? 'human' : { bot: Number(v.slice(4)) });
  }
  const seed = $<HTMLInputElement>('input#seed', form).value.trim();
  return checkConfig({ game, expansions, players, seats, seed: seed === '' ? randomSeed() : seed });
}
