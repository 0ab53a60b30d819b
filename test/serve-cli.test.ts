/**
 * The real `meeplekit serve` process (the sources through tsx): a session over stdio, a line
 * over the limit, a closed stdin and a closed stdout (EPIPE) ending it quietly, TCP on 127.0.0.1
 * with one session per connection, and its arguments. Also the transport's back-pressure, in
 * process: over a writable that holds its writes, and over a real TCP connection.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { PassThrough, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import pkg from '../package.json' with { type: 'json' };
import { parseServeArgs } from '../src/cli/serve.js';
import { LIMITS, MEMORY_ESTIMATE } from '../src/serve/request.js';
import { createSession, type Session } from '../src/serve/session.js';
import { lineQueue as lines, runSession, serveTcp } from '../src/serve/transport.js';
import { TEST_CONFIG } from './serve-helpers.js';
import { cliCommand } from './cli-command.js';

const root = fileURLToPath(new URL('..', import.meta.url));

function start(args: string[] = []): ChildProcessWithoutNullStreams {
  return spawn(cliCommand()[0], [cliCommand()[1], 'serve', ...args], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
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
    expect(JSON.parse(await next())).toEqual({ hello: 'meeplekit', protocol: 1, version: pkg.version, capabilities: ['binary-frames', 'compact-observations', 'packed-masks', 'vec-seeds', 'shm'] });
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
    ['no connection allowed', ['--port', '0', '--max-connections', '0'], /--max-connections must be a whole number from 1 to 10000, got '0'/],
    ['--max-connections over stdio', ['--max-connections', '4'], /--max-connections needs --port/],
  ])('refuses %s with code 2 and its usage', async (_name, args, message) => {
    const child = start(args);
    const result = await exited(child);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toMatch(/usage: meeplekit serve/);
  });

  test('the limit flags: info reports them, and vec_make is held to --max-envs', async () => {
    const child = start(['--max-envs', '2', '--max-memory', '64', '--max-server-memory', '128']);
    const done = exited(child);
    const next = lines(child.stdout);
    await next();
    child.stdin.end('{"id":1,"op":"info"}\n{"id":2,"op":"make_game"}\n{"id":3,"op":"vec_make","game_id":"g1","num_envs":3,"seed":1}\n');
    expect(JSON.parse(await next())).toMatchObject({ id: 1, limits: { ...LIMITS, numEnvs: 2, memoryBytes: 64 * 1024 * 1024, serverMemoryBytes: 128 * 1024 * 1024 } });
    await next();
    expect(JSON.parse(await next())).toMatchObject({ id: 3, ok: false, error: { code: 'protocol/too-large' } });
    expect(await done).toEqual({ code: 0, stderr: '' });
  });

  test.each([
    [['--max-envs', '65537'], /--max-envs must be a whole number from 1 to 65536, got '65537'/],
    [['--max-memory', '1.5'], /--max-memory must be a whole number from 1 to 1048576/],
    [['--max-server-memory=-1'], /--max-server-memory must be/],
    [['--max-envs', ''], /--max-envs must be/],
    [['--max-memory', '0x10'], /--max-memory must be/],
  ])('refuses the limit flags %j', (args, message) => {
    const parsed = parseServeArgs(args);
    expect(typeof parsed).toBe('string');
    expect(parsed).toMatch(message);
  });

  test('the limit flags set the limits, memory in MiB', () => {
    expect(parseServeArgs(['--port', '0', '--max-connections', '3', '--max-memory', '1', '--max-server-memory', '2', '--max-envs', '16'])).toEqual({
      port: 0,
      help: false,
      limits: { connections: 3, memoryBytes: 1024 * 1024, serverMemoryBytes: 2 * 1024 * 1024, numEnvs: 16 },
      modules: [],
    });
    expect(parseServeArgs([])).toEqual({ port: null, help: false, limits: {}, modules: [] });
  });

  test('--help prints the usage', async () => {
    const child = start(['--help']);
    const out = lines(child.stdout);
    const result = await exited(child);
    expect(result).toEqual({ code: 0, stderr: '' });
    expect(await out()).toMatch(/^usage: meeplekit serve \[--port P\]/);
  });
});

/** A session that counts the request lines it has handled (and whether it was closed). */
function counted(session: Session): Session & { handled: number; closed: boolean } {
  const out = {
    hello: session.hello,
    handled: 0,
    closed: false,
    handle(line: string): string {
      out.handled++;
      return session.handle(line);
    },
    answer(line: string): string | Promise<string> {
      out.handled++;
      return session.answer(line);
    },
    oversized: (bytes: number) => session.oversized(bytes),
    recordWrite: (ms: number) => session.recordWrite(ms),
    close() {
      out.closed = true;
      session.close();
    },
  };
  return out;
}

/** A writable whose writes stay unfinished until {@link Held.release}: always full after one line. */
class Held extends Writable {
  readonly lines: string[] = [];
  readonly #pending: (() => void)[] = [];
  constructor() {
    super({ highWaterMark: 1 });
  }
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
    this.lines.push(chunk.toString('utf8'));
    this.#pending.push(done);
  }
  /** Finishes the oldest write (the stream emits 'drain' once none is left). */
  release(): void {
    this.#pending.shift()?.();
  }
}

/** Lets streams deliver what they hold (their events run on later ticks). */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
}

/** Waits, polling, until `ready()` (a generous bound: the machine may be slow). */
async function until(ready: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 30_000 && !ready(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  if (!ready()) throw new Error(`timed out waiting for ${what}`);
}

/** Requests with large responses: a game, a vector environment of `n` games with observations, then `resets` resets of it. */
function heavyRequests(n: number, resets: number): string {
  const out = ['{"id":1,"op":"make_game"}', `{"id":2,"op":"vec_make","game_id":"g1","num_envs":${n},"seed":"bp","observations":true}`];
  for (let i = 0; i < resets; i++) out.push(`{"id":${3 + i},"op":"vec_reset","env_id":"v1"}`);
  return `${out.join('\n')}\n`;
}

describe('serve: back-pressure', () => {
  test('no line is handled while the output is full; one more per drain; the lines of a closed input are still answered, in order, then the session ends', async () => {
    const input = new PassThrough();
    const output = new Held();
    const session = counted(createSession(TEST_CONFIG));
    let ended = false;
    runSession(input, output, session, () => (ended = true));
    expect(output.lines).toHaveLength(1); // the hello line, not yet finished: the output is full
    input.write(heavyRequests(2, 20));
    await settle();
    expect(session.handled).toBe(0);
    expect(input.isPaused()).toBe(true);
    input.end('{"id":23,"op":"info"}'); // the last line has no newline
    await settle();
    expect(session.handled).toBe(0);
    expect(ended).toBe(false);
    for (let n = 1; n <= 23; n++) {
      output.release();
      await settle();
      expect(session.handled).toBe(n);
      expect(output.lines).toHaveLength(n + 1);
      // The session ends once its last answer is handed to the output.
      expect(ended).toBe(n === 23);
    }
    expect(ended).toBe(true);
    expect(session.closed).toBe(true);
    const responses = output.lines.slice(1).map((l) => JSON.parse(l) as { id: number; ok: boolean });
    expect(responses.map((r) => r.id)).toEqual(Array.from({ length: 23 }, (_, i) => i + 1));
    expect(responses.every((r) => r.ok)).toBe(true);
  });

  test('over TCP: a client that does not read holds the server to a few unread responses; then every response arrives, in order', async () => {
    let session: ReturnType<typeof counted> | undefined;
    let serverSocket: Socket | undefined;
    const server = createServer({ allowHalfOpen: true }, (socket) => {
      serverSocket = socket;
      session = counted(createSession(TEST_CONFIG));
      runSession(socket, socket, session, () => socket.end());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const client = connect((server.address() as AddressInfo).port, '127.0.0.1');
      client.pause();
      // 20 games with observations: about 3.8 MB per response, far over the sockets' buffers.
      const resets = 40;
      client.write(heavyRequests(20, resets));
      await until(() => serverSocket !== undefined && serverSocket.isPaused(), 'the server to stop reading');
      let received = 0;
      let worst = 0;
      const ids: number[] = [];
      const next = lines(client);
      client.resume(); // paused explicitly: a 'data' listener alone does not resume it
      expect(JSON.parse(await next())).toMatchObject({ hello: 'meeplekit' });
      for (let i = 0; i < resets + 2; i++) {
        const r = JSON.parse(await next()) as { id: number; ok: boolean };
        received++;
        ids.push(r.id);
        expect(r.ok).toBe(true);
        // Handled but not yet read by the client: what the server and the sockets hold.
        worst = Math.max(worst, session!.handled - received);
      }
      expect(ids).toEqual(Array.from({ length: resets + 2 }, (_, i) => i + 1));
      expect(worst).toBeLessThanOrEqual(20);
      client.end();
      await until(() => session!.closed, 'the session to end');
    } finally {
      server.close();
    }
  });

  test('over stdio: requests with large responses, stdin closed before any is read: all answered in order, then the process ends with code 0', async () => {
    const child = start();
    const done = exited(child);
    child.stdout.pause();
    child.stdin.end(heavyRequests(20, 10));
    // Nothing is read until the server has had the time to answer everything it can.
    await until(() => child.stdin.writableFinished, 'stdin to be written');
    const next = lines(child.stdout);
    child.stdout.resume();
    expect(JSON.parse(await next())).toMatchObject({ hello: 'meeplekit' });
    for (let i = 1; i <= 12; i++) expect(JSON.parse(await next())).toMatchObject({ id: i, ok: true });
    expect(await done).toEqual({ code: 0, stderr: '' });
  });
});

describe('serve: limits of a TCP server', () => {
  /** A connection and its lines; `closed` resolves when the server has closed it. */
  function open(port: number): { socket: Socket; next: () => Promise<string>; closed: Promise<void> } {
    const socket = connect(port, '127.0.0.1');
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.on('error', () => {});
    return { socket, next: lines(socket), closed };
  }

  test('a connection over --max-connections gets one protocol/too-many-connections line and is closed; the connections share the server\'s memory, freed when one ends', async () => {
    const games = 20;
    const server = await serveTcp(0, { ...TEST_CONFIG, limits: { connections: 2, serverMemoryBytes: 2 * MEMORY_ESTIMATE.gameHandle + games * MEMORY_ESTIMATE.game } });
    try {
      const port = (server.address() as AddressInfo).port;
      const a = open(port);
      const b = open(port);
      expect(JSON.parse(await a.next())).toMatchObject({ hello: 'meeplekit' });
      expect(JSON.parse(await b.next())).toMatchObject({ hello: 'meeplekit' });
      const c = open(port);
      c.socket.write('{"id":1,"op":"info"}\n');
      expect(JSON.parse(await c.next())).toMatchObject({ id: null, ok: false, error: { code: 'protocol/too-many-connections' } });
      await c.closed;

      a.socket.write('{"id":1,"op":"make_game"}\n{"id":2,"op":"vec_make","game_id":"g1","num_envs":15,"seed":1}\n');
      expect(JSON.parse(await a.next())).toMatchObject({ id: 1, ok: true });
      expect(JSON.parse(await a.next())).toMatchObject({ id: 2, ok: true });
      b.socket.write('{"id":1,"op":"make_game"}\n{"id":2,"op":"vec_make","game_id":"g1","num_envs":15,"seed":1}\n');
      expect(JSON.parse(await b.next())).toMatchObject({ id: 1, ok: true });
      expect(JSON.parse(await b.next())).toMatchObject({ id: 2, ok: false, error: { code: 'protocol/server-full' } });

      // a ends: its session's handles are freed, and its place is free.
      a.socket.end();
      await a.closed;
      let made: { ok: boolean; error?: { code: string } } = { ok: false };
      for (let id = 3; !made.ok; id++) {
        b.socket.write(`{"id":${id},"op":"vec_make","game_id":"g1","num_envs":15,"seed":1}\n`);
        made = JSON.parse(await b.next()) as typeof made;
        if (!made.ok) expect(made.error!.code).toBe('protocol/server-full');
        if (id > 3) await new Promise((resolve) => setTimeout(resolve, 10));
        if (id > 6000) throw new Error('the memory of a closed connection was never freed');
      }
      let first: { hello?: string } = {};
      for (let i = 0; first.hello === undefined; i++) {
        const d = open(port);
        first = JSON.parse(await d.next()) as typeof first;
        if (first.hello === undefined) await d.closed;
        else d.socket.destroy();
        if (i > 6000) throw new Error('the place of a closed connection was never freed');
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      b.socket.destroy();
    } finally {
      server.close();
    }
  });
});
