/**
 * Lines of the event log: a game's events (meeplekit's `GameEvent`) in plain words, the events of
 * every expansion and of The Castle included ("Player 2 uses the magic portal: a follower on the
 * city at 0,3"), and the reasons of points in words too ("the King's cities"). No line shows an
 * event's raw type (`princess-dragon/portal-used`). Pure: no DOM.
 */
import type { GameEvent } from 'meeplekit';

type Fields = Readonly<Record<string, unknown>>;

const player = (p: unknown): string => `Player ${Number(p) + 1}`;
const players = (ps: unknown): string => {
  const list = Array.isArray(ps) ? ps.map(player) : [];
  return list.length <= 1 ? (list[0] ?? 'nobody') : `${list.slice(0, -1).join(', ')} and ${list.at(-1)!}`;
};
const cell = (c: unknown): string => {
  const r = (typeof c === 'object' && c !== null ? c : {}) as Fields;
  return `${String(r['x'])},${String(r['y'])}`;
};
/** "the city at 0,3": a feature named by kind and cell. */
const at = (f: unknown): string => {
  if (typeof f !== 'object' || f === null) return 'a feature';
  const r = f as Fields;
  return `the ${typeof r['kind'] === 'string' ? r['kind'] : 'feature'} at ${cell(r)}`;
};
/** "the feature f1 at 0,3" when only a feature id and a cell are known. */
const spot = (x: unknown, y: unknown, feature: unknown): string => `${typeof feature === 'string' ? `feature ${feature} of the tile` : 'the tile'} at ${String(x)},${String(y)}`;
const plural = (n: unknown, one: string, many = `${one}s`): string => `${String(n)} ${Number(n) === 1 ? one : many}`;
const capital = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

/** The Count's quarters, as the rulebook names them. */
const QUARTER_NAMES: Readonly<Record<string, string>> = {
  castle: 'castle quarter',
  market: 'market quarter',
  blacksmith: 'blacksmith quarter',
  cathedral: 'cathedral quarter',
};
const quarter = (q: unknown): string => `the ${QUARTER_NAMES[String(q)] ?? `${String(q)} quarter`}`;

/** Why points were scored, in words ("completed", "the King's cities"). */
export const REASON_WORDS: Readonly<Record<string, string>> = {
  completed: 'completed',
  final: 'unfinished at the end',
  farm: 'field',
  'king-robber/king': "the King's cities",
  'king-robber/robber': "the Robber Baron's roads",
  'princess-dragon/fairy': 'the fairy',
  'tower/ransom': 'a ransom',
  'castle/keep': 'the keep',
  'castle/court': 'the court',
  'castle/token': 'a wall token',
};

function reason(r: unknown): string {
  const known = REASON_WORDS[String(r)];
  if (known !== undefined) return known;
  // An expansion's reason this page has no words for: its name without the expansion's id.
  return String(r).replace(/^[^/]*\//, '').replace(/-/g, ' ');
}

/** The words of every expansion's and The Castle's events, by type. */
const EXPANSION_LINES: Readonly<Record<string, (e: Fields) => string>> = {
  'king-robber/king-taken': (e) => `${player(e['player'])} takes the King${e['from'] !== null && e['from'] !== undefined && Number(e['from']) >= 0 ? ` from ${player(e['from'])}` : ''} (a city of ${plural(e['tiles'], 'tile')})`,
  'king-robber/robber-taken': (e) => `${player(e['player'])} takes the Robber Baron${e['from'] !== null && e['from'] !== undefined && Number(e['from']) >= 0 ? ` from ${player(e['from'])}` : ''} (a road of ${plural(e['tiles'], 'tile')})`,
  'tower/built': (e) => `${player(e['player'])} builds the tower at ${cell(e)} up to ${plural(e['height'], 'piece')}`,
  'tower/capped': (e) => `${player(e['player'])} puts a follower on top of the tower at ${cell(e)}`,
  'tower/captured': (e) => `${player(e['player'])} captures ${player(e['owner'])}'s follower on ${spot(e['x'], e['y'], e['feature'])}`,
  'tower/exchanged': (e) => `${players(e['players'])} exchange their prisoners`,
  'tower/ransomed': (e) => `${player(e['player'])} pays ${player(e['captor'])} a ransom and gets a follower back`,
  'tower/top-returned': (e) => `${player(e['player'])}'s follower on top of the tower at ${cell(e)} comes home`,
  'princess-dragon/dragon-landed': (e) => `The dragon lands on the volcano at ${cell(e['to'])}`,
  'princess-dragon/dragon-moved': (e) => `${player(e['player'])} moves the dragon from ${cell(e['from'])} to ${cell(e['to'])}`,
  'princess-dragon/flight-ended': (e) => `The dragon stops at ${cell(e['at'])} after ${plural(e['steps'], 'step')}`,
  'princess-dragon/fairy-moved': (e) => `${player(e['player'])} moves the fairy to ${cell(e['to'])}`,
  'princess-dragon/portal-used': (e) => `${player(e['player'])} goes through the magic portal to ${spot(e['x'], e['y'], e['feature'])}`,
  'princess-dragon/princess': (e) => `The princess sends ${player(e['owner'])}'s knight on ${spot(e['x'], e['y'], e['feature'])} home (${player(e['player'])})`,
  'count/entered': (e) => `${player(e['player'])} puts a follower in ${quarter(e['quarter'])} of Carcassonne`,
  'count/count-moved': (e) => `${player(e['player'])} moves the Count from ${quarter(e['from'])} to ${quarter(e['to'])}`,
  'count/moved-out': (e) =>
    `${player(e['player'])} moves ${plural(e['count'], 'follower')} out of ${quarter(e['quarter'])}${typeof e['feature'] === 'object' && e['feature'] !== null ? ` onto ${at(e['feature'])}` : ''}`,
  'count/declined': (e) => `${player(e['player'])} declines the Count's offer`,
  'count/to-feature': (e) => `${player(e['player'])} moves a follower from ${quarter(e['quarter'])} onto ${at(e['feature'])}`,
  'count/to-field': (e) => `${player(e['player'])} moves a follower from the market quarter onto ${at(e['feature'])}`,
  'shrines/challenge-won': (e) => `${capital(at(e['feature']))} wins its challenge against ${at(e['against'])} (${players(e['players'])})`,
  'shrines/challenge-lost': (e) => `${capital(at(e['feature']))} loses its challenge against ${at(e['against'])}: ${players(e['players'])}'s followers go home unscored`,
  'castle/token-taken': (e) => `${player(e['player'])} takes wall token ${String(e['token'])}`,
  'castle/token-used': (e) => `${player(e['player'])} uses wall token ${String(e['token'])}${typeof e['feature'] === 'object' && e['feature'] !== null ? ` on ${at(e['feature'])}` : ''}`,
  'castle/wall-cleared': (e) => `The last ${plural(e['tokens'], 'token')} on the wall ${Number(e['tokens']) === 1 ? 'is' : 'are'} cleared`,
  'castle/keep-placed': (e) => `${player(e['player'])} sets up a keep on ${at(e['feature'])} (${plural(e['tiles'], 'tile')})`,
  'castle/keep-moved': (e) => `${player(e['player'])} moves the keep to ${at(e['feature'])} (${plural(e['tiles'], 'tile')})`,
};

/** The event types of the expansions and The Castle that have their own words. */
export const WORDED_EXPANSION_EVENTS: readonly string[] = Object.keys(EXPANSION_LINES);

/** One event in words, or null for events not worth a line (a turn's end). */
export function eventLine(e: GameEvent): string | null {
  const x = e as unknown as Fields;
  switch (e.type) {
    case 'tile-drawn':
      return `${player(e.player)} draws tile ${e.tile}`;
    case 'tile-discarded':
      return `Tile ${e.tile} fits nowhere: discarded`;
    case 'tile-placed':
      return `${player(e.player)} places tile ${e.tile} at ${e.x},${e.y}`;
    case 'follower-deployed':
      return `${player(e.player)} puts a follower on ${at(e.at)}`;
    case 'feature-completed':
      return `${capital(at(e.feature))} is completed`;
    case 'scored':
      return `${player(e.player)} scores ${e.points} (${e.feature === null ? reason(e.reason) : `${reason(e.reason)}: ${at(e.feature)}`})`;
    case 'follower-returned':
      return `${player(e.player)}'s follower on ${at(e.at)} comes home`;
    case 'turn-ended':
      return null;
    case 'undone':
      return `Undo: ${e.moves.length} move${e.moves.length === 1 ? '' : 's'} taken back`;
    case 'game-ended':
      return `Game over: ${e.scores.map((s, p) => `${player(p)} ${s}`).join(', ')}`;
    default: {
      const words = EXPANSION_LINES[String(x['type'])];
      if (words !== undefined) return words(x);
      // An event of a module this page has no words for: its name in words, never the raw type.
      const type = String(x['type']);
      const slash = type.indexOf('/');
      const name = (slash < 0 ? type : type.slice(slash + 1)).replace(/-/g, ' ');
      return `${typeof x['player'] === 'number' ? `${player(x['player'])}: ` : ''}${capital(name)}`;
    }
  }
}

/** The lines of a list of events. */
export function eventLines(events: readonly GameEvent[]): string[] {
  return events.map(eventLine).filter((l): l is string => l !== null);
}
