/**
 * The `meeplekit` command. Subcommands: `play`, `simulate`, `render`.
 */
import { isMainThread } from 'node:worker_threads';
import { runPlay } from './play.js';
import { runRender } from './render.js';
import { runSimulate } from './simulate.js';

const HELP = `meeplekit: rules engine for the Carcassonne family of tile-laying games

usage:
  meeplekit play [--game classic] [--expansions river,king-robber,shrines] [--river-set I|II|both]
                 [--players N] [--seed S] [--bots random,greedy] [--json] [--replay game.json]
      plays a seeded game between bots and prints each turn and the final scores
      (--json: one JSON object with ruleset, seed, players, scores, winners, turns;
      --replay: also writes the game's replay file, which render replay reads)
  meeplekit simulate [--game classic|castle] [--expansions ...] [--river-set I|II|both] [--players N]
                     [--games K] [--seed S] [--workers W] [--bots random,greedy] [--out results.jsonl] [--quiet]
      plays K seeded games (game i from seed S/i) on W worker threads, with a progress bar on
      stderr; writes one JSON line per game (game, seed, scores, winners, turns), in game order:
      the same file for any W (--out -, the default, writes to stdout)
  meeplekit render tile <id> [--game classic|castle] [--expansions ...] [--rotation 0..3] [--out file] [--png]
      draws one tile kind as SVG (--png: PNG, with the optional package @resvg/resvg-js)
  meeplekit render game [--game ...] [--expansions ...] [--river-set ...] [--players N] [--seed S]
                        [--bots ...] [--turn N] [--out file] [--png]
      draws the board of the game meeplekit play plays with the same flags, after turn N (default: the end)
  meeplekit render replay <file> [--turn N] [--out file] [--html] [--png]
      checks a replay file move by move and draws its board at the end (or after turn N);
      --html writes a self-contained web page that steps through every move instead
  meeplekit help
`;

// Worker threads of `simulate` load this file too: only the main thread runs a command.
if (isMainThread) {
  const [command, ...rest] = process.argv.slice(2);
  if (command === 'play') {
    const out = runPlay(rest);
    process.stdout.write(out.stdout);
    process.stderr.write(out.stderr);
    process.exitCode = out.code;
  } else if (command === 'simulate') {
    void runSimulate(rest, { stdout: (t) => process.stdout.write(t), stderr: (t) => process.stderr.write(t) }).then((code) => {
      process.exitCode = code;
    });
  } else if (command === 'render') {
    void runRender(rest, { stdoutIsTTY: process.stdout.isTTY === true }).then((out) => {
      process.stdout.write(out.stdout);
      process.stderr.write(out.stderr);
      process.exitCode = out.code;
    });
  } else if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    process.stdout.write(HELP);
  } else {
    process.stderr.write(`meeplekit: unknown command '${command}'\n${HELP}`);
    process.exitCode = 2;
  }
}
