/**
 * Transports of the serve protocol: JSON lines over a pair of streams (stdin and stdout, or one
 * TCP connection on 127.0.0.1), one session per connection. Lines are cut at `\n`; a line over
 * the limit is skipped and answered with `protocol/too-large`; blank lines are ignored. Output
 * that can no longer be written (a closed pipe: EPIPE) ends the session quietly.
 */
import { createServer, type Server, type Socket } from 'node:net';
import type { Readable, Writable } from 'node:stream';
import { LIMITS } from './request.js';
import { createSession, type Session } from './session.js';
import type { ServeConfig } from './games.js';

/** Splits a byte stream into lines of at most `limit` bytes. */
export interface LineReader {
  /** Takes the next chunk; calls back for each complete line (or line over the limit). */
  push(chunk: Buffer): void;
  /** The input ended: a last line without a newline is still a line. */
  end(): void;
}

/** A {@link LineReader} calling `onLine` with each line (UTF-8 decoded) and `onOversized` once for each line over `limit` bytes. */
export function createLineReader(limit: number, onLine: (line: string) => void, onOversized: (bytes: number) => void): LineReader {
  let parts: Buffer[] = [];
  let size = 0;
  let skipping = false;
  let skipped = 0;
  const take = (piece: Buffer): void => {
    if (skipping) {
      skipped += piece.length;
      return;
    }
    if (size + piece.length > limit) {
      // Answered at once; the rest of the line is dropped as it comes.
      skipping = true;
      skipped = size + piece.length;
      parts = [];
      size = 0;
      onOversized(skipped);
      return;
    }
    parts.push(piece);
    size += piece.length;
  };
  const finish = (): void => {
    if (!skipping && (parts.length > 0 || size > 0)) {
      const line = parts.length === 1 ? parts[0]!.toString('utf8') : Buffer.concat(parts, size).toString('utf8');
      parts = [];
      size = 0;
      onLine(line);
    }
    skipping = false;
    skipped = 0;
  };
  return {
    push(chunk) {
      let start = 0;
      for (;;) {
        const nl = chunk.indexOf(10, start);
        if (nl === -1) {
          if (start < chunk.length) take(chunk.subarray(start));
          return;
        }
        // A complete line held in one chunk is decoded straight from it.
        if (!skipping && size === 0 && nl - start <= limit) {
          if (nl > start) onLine(chunk.toString('utf8', start, nl));
        } else {
          take(chunk.subarray(start, nl));
          finish();
        }
        start = nl + 1;
      }
    },
    end() {
      finish();
    },
  };
}

/**
 * The lines of a byte stream one at a time, for the other side of the protocol (the benchmark and
 * the tests drive a server with it): each call resolves with the next line, in order.
 */
export function lineQueue(stream: Readable): () => Promise<string> {
  const ready: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  const reader = createLineReader(
    Infinity,
    (line) => {
      const w = waiting.shift();
      if (w === undefined) ready.push(line);
      else w(line);
    },
    () => {},
  );
  stream.on('data', (chunk: Buffer) => reader.push(chunk));
  return () => (ready.length > 0 ? Promise.resolve(ready.shift()!) : new Promise((resolve) => waiting.push(resolve)));
}

const BLANK = /^\s*$/;

/**
 * Runs a session over a pair of streams: writes the hello line, then answers each request line in
 * order. Reading pauses while the output is full (a slow TCP client). `onEnd` is called when the
 * input ends, after the last answer is written.
 */
export function runSession(input: Readable, output: Writable, session: Session, onEnd: () => void): void {
  let closed = false;
  output.on('close', () => {
    closed = true;
  });
  const write = (line: string): void => {
    if (closed) return;
    const t = performance.now();
    const room = output.write(`${line}\n`);
    session.recordWrite(performance.now() - t);
    if (!room && !input.isPaused()) {
      input.pause();
      output.once('drain', () => input.resume());
    }
  };
  const reader = createLineReader(
    LIMITS.lineBytes,
    (line) => {
      if (!BLANK.test(line)) write(session.handle(line));
    },
    (bytes) => write(session.oversized(bytes)),
  );
  write(session.hello);
  input.on('data', (chunk: Buffer) => {
    if (!closed) reader.push(chunk);
  });
  input.on('end', () => {
    reader.end();
    onEnd();
  });
}

/**
 * Serves one session over stdin and stdout until stdin closes. A closed stdout (the reader went
 * away: EPIPE) ends the process quietly with code 0.
 */
export function serveStdio(config: ServeConfig): void {
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE' || e.code === 'ERR_STREAM_DESTROYED') process.exit(0);
    process.stderr.write(`meeplekit serve: cannot write to stdout: ${e.message}\n`);
    process.exit(1);
  });
  runSession(process.stdin, process.stdout, createSession(config), () => {
    // Nothing keeps the process alive once stdin is done: it exits when stdout is flushed.
  });
}

/** The only host `serve --port` listens on: the protocol has no authentication. */
export const SERVE_HOST = '127.0.0.1';

/**
 * Listens on 127.0.0.1 at `port` (0: a free port), one session per connection. Resolves with the
 * server once it listens (its `address()` has the port), or rejects (a port in use).
 */
export function serveTcp(port: number, config: ServeConfig): Promise<Server> {
  const server = createServer((socket: Socket) => {
    socket.setNoDelay(true);
    // A client that goes away (ECONNRESET, EPIPE) ends its session only.
    socket.on('error', () => socket.destroy());
    runSession(socket, socket, createSession(config), () => socket.end());
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, SERVE_HOST, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}
