/**
 * The `meeplekit` command. Subcommands: `play`, `simulate`, `arena`, `hint`, `render`, `serve`; `--help`,
 * `--version`. A closed stdout (`meeplekit play | head -1`) ends play, simulate and render quietly
 * with code 0; SIGINT and SIGTERM stop simulate cleanly (its file keeps every finished game).
 */
import { isMainThread } from 'node:worker_threads';
import { runArenaCommand } from './arena.js';
import { topHelp } from './help.js';
import { runHint } from './hint.js';
import { runPlayCommand } from './play.js';
import { runRender } from './render.js';
import { runServe } from './serve.js';
import { runSimulate } from './simulate.js';
import { VERSION } from './version.js';

// Worker threads of `simulate` load this file too: only the main thread runs a command.
if (isMainThread) {
  const argv = process.argv.slice(2);
  // `meeplekit help simulate` is `meeplekit simulate --help`.
  const [command, ...rest] = argv[0] === 'help' && argv.length > 1 ? [...argv.slice(1), '--help'] : argv;
  // Stops simulate: SIGINT, SIGTERM, or stdout closed by its reader (EPIPE).
  const stop = new AbortController();
  /** A reader that closed stdout early (`| head -1`) ends the command quietly: no EPIPE trace. */
  const quietOnClosedPipe = (): void => {
    process.stdout.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code !== 'EPIPE') throw e;
      stop.abort('EPIPE');
      process.exitCode = 0;
    });
    process.stderr.on('error', () => {});
  };
  if (command === 'play') {
    quietOnClosedPipe();
    void runPlayCommand(rest).then((out) => {
      process.stdout.write(out.stdout);
      process.stderr.write(out.stderr);
      process.exitCode = out.code;
    });
  } else if (command === 'simulate') {
    quietOnClosedPipe();
    // The first Ctrl-C stops the run cleanly; a second one (the listener is gone) kills at once.
    const onSignal = (signal: NodeJS.Signals): void => stop.abort(signal);
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    const io = {
      stdout: (t: string) => {
        if (!stop.signal.aborted || stop.signal.reason !== 'EPIPE') process.stdout.write(t);
      },
      stderr: (t: string) => process.stderr.write(t),
      stderrIsTTY: process.stderr.isTTY === true,
      signal: stop.signal,
    };
    void runSimulate(rest, io).then((code) => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      process.exitCode = code;
    });
  } else if (command === 'arena') {
    quietOnClosedPipe();
    const io = { stdout: (t: string) => process.stdout.write(t), stderr: (t: string) => process.stderr.write(t), stderrIsTTY: process.stderr.isTTY === true };
    void runArenaCommand(rest, io).then((code) => {
      process.exitCode = code;
    });
  } else if (command === 'hint') {
    quietOnClosedPipe();
    void runHint(rest).then((out) => {
      process.stdout.write(out.stdout);
      process.stderr.write(out.stderr);
      process.exitCode = out.code;
    });
  } else if (command === 'render') {
    quietOnClosedPipe();
    void runRender(rest, { stdoutIsTTY: process.stdout.isTTY === true }).then((out) => {
      process.stdout.write(out.stdout);
      process.stderr.write(out.stderr);
      process.exitCode = out.code;
    });
  } else if (command === 'serve') {
    void runServe(rest).then((code) => {
      if (code !== undefined) process.exitCode = code;
    });
  } else if (command === '--version' || command === '-v' || command === 'version') {
    quietOnClosedPipe();
    process.stdout.write(`${VERSION}\n`);
  } else if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    quietOnClosedPipe();
    process.stdout.write(topHelp());
  } else {
    process.stderr.write(`meeplekit: unknown command '${command}' (commands: play, simulate, arena, hint, render, serve; meeplekit --help lists them)\n`);
    process.exitCode = 2;
  }
}
