/**
 * The real `meeplekit serve` process (the sources through tsx): a session over stdio, a line
 * over the limit, a closed stdin and a closed stdout (EPIPE) ending it quietly, TCP on 127.0.0.1
 * with one session per connection, and its arguments.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import pkg from '../package.json' with { type: 'json' };
import { lineQueue as lines } from '../src/serve/transport.js';

const root = fileURLToPath(new URL('..', import.meta.url));

function start(args: string[] = []): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve', ...args], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
}

function exited(child: ChildProcessWithoutNullStreams): Promise<{ code: number | null; stderr: string }> {
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (d: string) => (stderr += d));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stderr })));
}

const EXPANSIONS = ['count', 'king-robber', 'princess-dragon', 'river', 'shrines', 'tower'];

describe('meeplekit serve, the process', () => {
  test('over stdio: hello, requests answered in order, a line over 16 MiB refused, a closed stdin ends it with code 0 and nothing on stderr', async () => {
    const child = start();
    const done = exited(child);
    const next = lines(child.stdout);
    expect(JSON.parse(await next())).toEqual({ hello: 'meeplekit', protocol: 1, version: pkg.version });
    child.stdin.write('{"id":1,"op":"info"}\n{"id":2,"op":"make_game","game":"classic","expansions":["river"],"options":{"river":{"set":"both"}},"players":3}\n');
    const info = JSON.parse(await next()) as Record<string, unknown>;
    expect(info).toMatchObject({ id: 1, ok: true, protocol: 1, version: pkg.version, games: ['classic', 'castle'], expansions: EXPANSIONS });
    expect(JSON.parse(await next())).toMatchObject({ id: 2, ok: true, game_id: 'g1', players: 3 });
    child.stdin.write(`{"id":3,"op":"info","pad":"${'x'.repeat(16 * 1024 * 1024)}"}\n`);
    expect(JSON.parse(await next())).toMatchObject({ id: null, ok: false, error: { code: 'protocol/too-large' } });
    child.stdin.write('garbage\n{"id":4,"op":"vec_make","game_id":"g1","num_envs":2,"seed":"cli"}\n');
    expect(JSON.parse(await next())).toMatchObject({ id: null, ok: false, error: { code: 'protocol/json' } });
    const made = JSON.parse(await next()) as Record<string, unknown>;
    expect(made).toMatchObject({ id: 4, ok: true, env_id: 'v1', num_envs: 2 });
    child.stdin.end('{"id":5,"op":"vec_step","env_id":"v1","actions":[-1,-1]}'); // the last line has no newline
    expect(JSON.parse(await next())).toMatchObject({ id: 5, ok: false, error: { code: 'protocol/illegal-action' } });
    expect(await done).toEqual({ code: 0, stderr: '' });
  });

  test('a closed stdout (EPIPE) ends it quietly', async () => {
    const child = start();
    const done = exited(child);
    const next = lines(child.stdout);
    await next();
    child.stdout.destroy();
    for (let i = 0; i < 50; i++) child.stdin.write(`{"id":${i},"op":"make_game"}\n`);
    const result = await done;
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  });

  test('--port 0: TCP on 127.0.0.1, the port on stdout, one session per connection', async () => {
    const child = start(['--port', '0']);
    const done = exited(child);
    const listening = JSON.parse(await lines(child.stdout)()) as { listening: { host: string; port: number } };
    expect(listening.listening.host).toBe('127.0.0.1');
    const session = async (): Promise<unknown[]> => {
      const socket = connect(listening.listening.port, '127.0.0.1');
      const next = lines(socket);
      const out: unknown[] = [JSON.parse(await next())];
      socket.write('{"id":1,"op":"make_game"}\n{"id":2,"op":"new_state","game_id":"g1","seed":3}\n');
      out.push(JSON.parse(await next()), JSON.parse(await next()));
      socket.end();
      return out;
    };
    const [a, b] = await Promise.all([session(), session()]);
    expect(a).toEqual(b); // each connection its own handles: both g1 and s1
    expect(a[0]).toMatchObject({ hello: 'meeplekit', protocol: 1 });
    expect(a[2]).toMatchObject({ id: 2, ok: true, state_id: 's1' });
    child.kill('SIGTERM');
    await done;
  });

  test.each([
    ['another host', ['--port', '0', '--host', '0.0.0.0'], /listens on 127\.0\.0\.1 only/],
    ['a port out of range', ['--port', '70000'], /--port must be a whole number from 0 to 65535/],
    ['a port that is no number', ['--port', 'http'], /--port must be/],
    ['an unknown flag', ['--workers', '2'], /Unknown option '--workers'/],
  ])('refuses %s with code 2 and its usage', async (_name, args, message) => {
    const child = start(args);
    const result = await exited(child);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toMatch(/usage: meeplekit serve/);
  });

  test('--help prints the usage', async () => {
    const child = start(['--help']);
    const out = lines(child.stdout);
    const result = await exited(child);
    expect(result).toEqual({ code: 0, stderr: '' });
    expect(await out()).toMatch(/^usage: meeplekit serve \[--port P\]/);
  });
});
