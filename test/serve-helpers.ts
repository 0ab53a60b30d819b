/**
 * Helpers of the serve tests: a session driven in process, request by request, and binary arrays
 * decoded as a client would.
 */
import { expect } from 'vitest';
import { SERVE_CONFIG } from '../src/cli/serve.js';
import type { ServeConfig } from '../src/serve/games.js';
import type { ServerLoad } from '../src/serve/registry.js';
import { createSession, type Session } from '../src/serve/session.js';

/** The command's games and expansions (the command line's tables), with the version `test`. */
export const TEST_CONFIG: ServeConfig = { ...SERVE_CONFIG, version: 'test' };

/** A binary array as it arrives. */
export interface Binary {
  dtype: 'float32' | 'uint8' | 'int32';
  shape: number[];
  b64: string;
}

/** A response line parsed. */
export type Response = Record<string, unknown> & { id: unknown; ok: boolean; error?: { code: string; message: string; path?: string } };

/** The typed array a binary array holds (its shape checked against its length). */
export function decode(a: unknown): Float32Array | Uint8Array | Int32Array {
  const b = a as Binary;
  const bytes = Buffer.from(b.b64, 'base64');
  const buf = new ArrayBuffer(bytes.length);
  new Uint8Array(buf).set(bytes);
  const out = b.dtype === 'float32' ? new Float32Array(buf) : b.dtype === 'int32' ? new Int32Array(buf) : new Uint8Array(buf);
  expect(out.length).toBe(b.shape.reduce((x, y) => x * y, 1));
  return out;
}

/** A session in process: `send` a request object (or a raw line) and get its parsed response. */
export class Client {
  readonly session: Session;
  readonly hello: Record<string, unknown>;
  #id = 0;
  /** A session of `config` (the test config by default), sharing `load` with others of the same server when given. */
  constructor(config: ServeConfig = TEST_CONFIG, load?: ServerLoad) {
    this.session = createSession(config, load);
    this.hello = JSON.parse(this.session.hello) as Record<string, unknown>;
  }
  /** Sends a raw line, returns the parsed response (the line must be exactly one JSON object). */
  raw(line: string): Response {
    const out = this.session.handle(line);
    expect(out.includes('\n')).toBe(false);
    return JSON.parse(out) as Response;
  }
  /** Sends a request with a fresh id; returns the response (its id checked). */
  send(req: Record<string, unknown>): Response {
    const id = ++this.#id;
    const r = this.raw(JSON.stringify({ id, ...req }));
    expect(r.id).toBe(id);
    return r;
  }
  /** Sends a request that must succeed. */
  ok(req: Record<string, unknown>): Response {
    const r = this.send(req);
    if (!r.ok) throw new Error(`${String(req['op'])} failed: ${r.error?.code}: ${r.error?.message}`);
    return r;
  }
  /** Sends a request that must fail with `code`; returns the error. */
  refused(req: Record<string, unknown>, code: string): { code: string; message: string; path?: string } {
    const r = this.send(req);
    expect(r.ok, JSON.stringify(r)).toBe(false);
    expect(r.error!.code, r.error!.message).toBe(code);
    expect(r.error!.message.length).toBeGreaterThan(0);
    return r.error!;
  }
}
