/**
 * `meeplekit --help`: every command's usage, the games and expansions with their options (from
 * the command line's tables, so that a new expansion or option shows without editing this text),
 * and the flags that choose a game.
 */
import { ARENA_SYNOPSIS } from './arena.js';
import { GAME_FLAGS_HELP, modulesHelp } from './expansions.js';
import { HINT_SYNOPSIS } from './hint.js';
import { PLAY_SYNOPSIS } from './play.js';
import { RENDER_SYNOPSIS } from './render.js';
import { SIMULATE_SYNOPSIS } from './simulate.js';
import { VERSION } from './version.js';

/** A usage line (written for a 7-character `usage: ` prefix) under `prefix` instead. */
function under(prefix: string, synopsis: string): string {
  return `${prefix}${synopsis.replace(/\n {7}/g, `\n${' '.repeat(prefix.length)}`)}`;
}

/** The top-level help. */
export function topHelp(): string {
  return `meeplekit ${VERSION}: rules engine for the Carcassonne family of tile-laying games

usage:
${under('  ', PLAY_SYNOPSIS)}
      plays a seeded game between bots and prints each turn and the final scores
      (--json: one JSON object; --replay: also writes the game's replay file)
${under('  ', SIMULATE_SYNOPSIS)}
      plays K seeded games (game i from seed S/i) on W worker threads and writes JSON lines: a header,
      one line per game in game order as each is done, a summary ending with the run's timing;
      the same file for any W, timing aside.
      Ctrl-C stops it (the file keeps every finished game); --resume continues it
${under('  ', ARENA_SYNOPSIS)}
      plays bots against each other over seeded deals, seats rotated, and prints their ratings
      (Bradley-Terry, Elo scale, 95% intervals) and each pair's results (--json: one JSON object)
${under('  ', HINT_SYNOPSIS)}
      the search bot's advice for a saved state or a replay's position after turn N: the best
      move and the top candidates with their expected score margins (--json: one JSON object)
${under('  ', RENDER_SYNOPSIS['tile']!)}
${under('  ', RENDER_SYNOPSIS['game']!)}
${under('  ', RENDER_SYNOPSIS['replay']!)}
      pictures of a tile kind, of the board of play's game, of a replay file, as SVG (--png: PNG);
      render replay --html writes the replay viewer, one self-contained web page
  meeplekit serve [--port P]
      answers JSON-lines requests on stdio for any language (docs/protocol.md)
  meeplekit <command> --help    a command's flags (also meeplekit help <command>)
  meeplekit --version           the version

${modulesHelp()}
choosing the game (play, simulate, arena, render tile, render game; hint for a saved state):
${GAME_FLAGS_HELP}

Exit codes: 0 done, 2 bad argument or file, 1 internal error; simulate stopped by Ctrl-C 130.
docs/cli.md has everything.
`;
}
