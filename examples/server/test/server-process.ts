/**
 * A server in a child process (so that a test can SIGKILL it), started as `npm start` starts it,
 * and a temporary SQLite file for it. No test framework in here: the screenshot script uses it too.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const root = new URL('..', import.meta.url).pathname;

/** A new SQLite file's path in a new temporary folder. */
export function tempDb(): string {
  return join(mkdtempSync(join(tmpdir(), 'meeplekit-server-')), 'games.sqlite');
}

/** A running server process: its port, `stop` (SIGTERM, a clean shutdown) and `kill` (SIGKILL). */
export interface ServerProcess {
  readonly port: number;
  readonly child: ChildProcess;
  readonly url: string;
  stop(): Promise<void>;
  kill(): Promise<void>;
}

/** Starts `src/main.ts` (as `npm start` does, without npm in between) and waits for it to listen. */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: root,
    env: { ...process.env, PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const port = await new Promise<number>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', (line) => resolve((JSON.parse(line) as { listening: number }).listening));
    child.once('exit', (code) => reject(new Error(`server exited (${code}) before listening`)));
  });
  return {
    port,
    child,
    url: `ws://127.0.0.1:${port}`,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
    async kill() {
      child.kill('SIGKILL');
      await exited;
    },
  };
}

