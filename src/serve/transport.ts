/**
 * Transports of the serve protocol: JSON lines over a pair of streams (stdin and stdout, or one
 * TCP connection on 127.0.0.1), one session per connection, within the server's limits on
 * connections and memory. Lines are cut at `\n`; a line over the limit is skipped and answered
 * with `protocol/too-large`; blank lines are ignored. No request is handled while the output is
 * full, nor while a request is answered in the background (a bot search: other connections are
 * served meanwhile). Output that can no longer be written (a closed pipe: EPIPE) ends the session
 * quietly, and aborts such a request.
 */
import { createServer, type Server, type Socket } from 'node:net';
import type { Readable, Writable } from 'node:stream';
import { LIMITS } from './request.js';
import { createSession, type Session } from './session.js';
import { serveLimits, type ServeConfig } from './games.js';
import type { ServerLoad } from './registry.js';

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

/** A response as {@link frameQueue} reads it: its line, and the binary frames that followed it. */
export interface FramedResponse {
  /** The response line, without its newline. */
  readonly line: string;
  /** The frames its `"frames"` announced, in order (empty for a line without). */
  readonly frames: readonly Buffer[];
}

/** The end of a line with frames: `"frames":[n0,...]}`, which the server writes last. */
const FRAMES_AT_END = /"frames":\[([0-9,]*)\]\}$/;

/**
 * As {@link lineQueue}, for a connection that asked for binary frames (docs/protocol.md, "Binary
 * frames"): each call resolves with the next response line and the bytes of the frames it
 * announces. A stream that ends within a frame leaves the call waiting: a client of its own
 * needs a bound (the benchmark and the tests read a server they started).
 */
export function frameQueue(stream: Readable): () => Promise<FramedResponse> {
  const ready: FramedResponse[] = [];
  const waiting: ((r: FramedResponse) => void)[] = [];
  // The bytes received and not yet taken, as they came: joined only when a whole line or frame
  // is there (joining at every chunk would copy a frame of megabytes once per chunk).
  let parts: Buffer[] = [];
  let size = 0;
  /** The response being read: its line and the lengths of the frames still to come. */
  let line: string | null = null;
  let lengths: number[] = [];
  let frames: Buffer[] = [];
  const joined = (): Buffer => {
    if (parts.length > 1) parts = [Buffer.concat(parts, size)];
    return parts[0] ?? Buffer.alloc(0);
  };
  const take = (n: number, skip: number): Buffer => {
    const all = joined();
    const out = all.subarray(0, n);
    parts = all.length > n + skip ? [all.subarray(n + skip)] : [];
    size -= n + skip;
    return out;
  };
  stream.on('data', (chunk: Buffer) => {
    parts.push(chunk);
    size += chunk.length;
    for (;;) {
      if (line === null) {
        // At a line's start everything up to the newline is the line's text: no frame bytes.
        if (chunk.indexOf(10) === -1 && parts.length > 1) return;
        const nl = joined().indexOf(10);
        if (nl === -1) return;
        line = take(nl, 1).toString('utf8');
        const m = FRAMES_AT_END.exec(line);
        lengths = m === null || m[1] === '' ? [] : m[1]!.split(',').map(Number);
      } else if (frames.length < lengths.length) {
        const n = lengths[frames.length]!;
        if (size < n) return;
        frames.push(take(n, 0));
      } else {
        const r = { line, frames };
        line = null;
        frames = [];
        const w = waiting.shift();
        if (w === undefined) ready.push(r);
        else w(r);
      }
    }
  });
  return () => (ready.length > 0 ? Promise.resolve(ready.shift()!) : new Promise((resolve) => waiting.push(resolve)));
}

const BLANK = /^\s*$/;

/**
 * Runs a session over a pair of streams: writes the hello line, then answers each request line
 * with exactly one response line, in order. A request answered in the background (a bot search)
 * holds the next lines until its answer is written; reading pauses meanwhile.
 *
 * Back-pressure: no request is handled while the output is full (a write returned false, or
 * `writableNeedDrain`); handling resumes on `'drain'`. The lines already read but not yet handled
 * wait in a queue, and reading pauses while that queue is not empty, so the queue holds at most the
 * lines of the chunks read before the pause, and the output at most its buffer plus one response.
 *
 * When the input ends, the lines still queued are answered as long as the output can be written;
 * then `onEnd` is called. If the output closes first (the reader went away), the queued lines are
 * dropped, and the rest of the input is read and ignored. `session.close()` is called once, when
 * the input has ended and every line is answered, or when the output closes.
 */
export function runSession(input: Readable, output: Writable, session: Session, onEnd: () => void): void {
  /** Lines read and not yet handled: a line, or the byte count of a line over the limit. */
  let queue: (string | number | undefined)[] = [];
  let head = 0;
  let closed = false;
  let inputEnded = false;
  let waitingForDrain = false;
  let released = false;
  let over = false;
  /** A request is being answered in the background (a bot search): the next waits for it. */
  let busy = false;
  const release = (): void => {
    if (released) return;
    released = true;
    session.close();
  };
  const finish = (): void => {
    if (over) return;
    over = true;
    release();
    onEnd();
  };
  const write = (line: string): void => {
    if (closed) return;
    const t = performance.now();
    const frames = session.frames?.() ?? [];
    if (frames.length === 0) output.write(`${line}\n`);
    else {
      // The line and its frames in one buffer: a copy, since the frames are views of buffers the
      // next request writes again, while the stream may still hold what it was given.
      const head = Buffer.from(`${line}\n`, 'utf8');
      let size = head.length;
      for (const f of frames) size += f.byteLength;
      const out = Buffer.allocUnsafe(size);
      head.copy(out, 0);
      let at = head.length;
      for (const f of frames) {
        out.set(f, at);
        at += f.byteLength;
      }
      output.write(out);
    }
    session.recordWrite(performance.now() - t);
  };
  /** Handles queued lines until the queue is empty, the output is full or a request runs in the background. */
  const pump = (): void => {
    if (busy) return;
    while (head < queue.length) {
      if (closed) break;
      if (output.writableNeedDrain) {
        if (!waitingForDrain) {
          waitingForDrain = true;
          output.once('drain', () => {
            waitingForDrain = false;
            pump();
          });
        }
        if (!inputEnded && !input.isPaused()) input.pause();
        return;
      }
      const item = queue[head];
      queue[head++] = undefined;
      const out = typeof item === 'string' ? session.answer(item) : session.oversized(item!);
      if (typeof out !== 'string') {
        // Answered later: reading pauses, and the next line waits, so answers stay in order.
        busy = true;
        if (!inputEnded && !input.isPaused()) input.pause();
        void out.then((line) => {
          busy = false;
          write(line);
          pump();
        });
        return;
      }
      write(out);
    }
    queue = [];
    head = 0;
    if (inputEnded) finish();
    else if (input.isPaused()) input.resume();
  };
  const reader = createLineReader(
    LIMITS.lineBytes,
    (line) => {
      if (!BLANK.test(line)) queue.push(line);
    },
    (bytes) => queue.push(bytes),
  );
  output.on('close', () => {
    closed = true;
    queue = [];
    head = 0;
    release();
    // Nothing more can be answered: the rest of the input is read and dropped.
    if (!inputEnded && input.isPaused()) input.resume();
    if (inputEnded) finish();
  });
  write(session.hello);
  input.on('data', (chunk: Buffer) => {
    if (closed) return;
    reader.push(chunk);
    if (!waitingForDrain && !busy) pump();
    else if (!input.isPaused()) input.pause();
  });
  input.on('end', () => {
    inputEnded = true;
    if (!closed) reader.end();
    if (!waitingForDrain || closed) pump();
  });
  // Destroyed without an end (a reset connection): nothing more will come.
  input.on('close', () => {
    if (inputEnded) return;
    inputEnded = true;
    if (!waitingForDrain || closed) pump();
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
 * Listens on 127.0.0.1 at `port` (0: a free port), one session per connection, at most
 * `connections` of them at a time (the config's limits): a connection over that gets one
 * `protocol/too-many-connections` line and is closed. The sessions share the server's memory
 * limit. Resolves with the server once it listens (its `address()` has the port), or rejects (a
 * port in use).
 */
export function serveTcp(port: number, config: ServeConfig): Promise<Server> {
  const limits = serveLimits(config);
  const load: ServerLoad = { bytes: 0 };
  let open = 0;
  // Half-open: a client may end its side after its last request and still read every answer.
  const server = createServer({ allowHalfOpen: true }, (socket: Socket) => {
    socket.setNoDelay(true);
    // A client that goes away (ECONNRESET, EPIPE) ends its session only.
    socket.on('error', () => socket.destroy());
    if (open >= limits.connections) {
      const error = { code: 'protocol/too-many-connections', message: `this server serves at most ${limits.connections} connections at a time: close one, retry later, or start another server` };
      // What the client sends is read and dropped, so that closing sends no reset before the line;
      // a client that never closes its side is let go after a minute of silence.
      socket.resume();
      socket.setTimeout(60_000, () => socket.destroy());
      socket.end(`${JSON.stringify({ id: null, ok: false, error })}\n`);
      return;
    }
    open++;
    socket.once('close', () => open--);
    runSession(socket, socket, createSession(config, load), () => socket.end());
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, SERVE_HOST, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}
