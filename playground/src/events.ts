/** Lines of the event log: a game's events (meeplekit's `GameEvent`) in plain words. Pure: no DOM. */
import type { GameEvent } from 'meeplekit';

const player = (p: unknown): string => `Player ${Number(p) + 1}`;
const at = (f: { kind?: unknown; feature?: unknown; x?: unknown; y?: unknown } | null | undefined): string =>
  f === null || f === undefined ? '' : `the ${String(f.kind ?? 'feature')} at ${String(f.x)},${String(f.y)}`;

/** One event in words, or null for events not worth a line (a turn's end). */
export function eventLine(e: GameEvent): string | null {
  const x = e as unknown as Record<string, unknown>;
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
      return `${at(e.feature).replace(/^t/, 'T')} is completed`;
    case 'scored':
      return `${player(e.player)} scores ${e.points} (${e.feature === null ? e.reason : `${e.reason}: ${at(e.feature)}`})`;
    case 'follower-returned':
      return `${player(e.player)}'s follower on ${at(e.at)} comes home`;
    case 'turn-ended':
      return null;
    case 'undone':
      return `Undo: ${e.moves.length} move${e.moves.length === 1 ? '' : 's'} taken back`;
    case 'game-ended':
      return `Game over: ${e.scores.map((s, p) => `${player(p)} ${s}`).join(', ')}`;
    default: {
      const fields = Object.entries(x)
        .filter(([k]) => k !== 'type' && k !== 'player')
        .map(([k, v]) => `${k} ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`)
        .join(', ');
      return `${typeof x['player'] === 'number' ? `${player(x['player'])}: ` : ''}${String(x['type'])}${fields === '' ? '' : ` (${fields})`}`;
    }
  }
}

/** The lines of a list of events. */
export function eventLines(events: readonly GameEvent[]): string[] {
  return events.map(eventLine).filter((l): l is string => l !== null);
}
