/**
 * The serve protocol's shared memory (docs/protocol.md, "Shared memory"): negotiation, the arrays
 * read back from the segment equal to the binary frames' bytes at every step of whole games,
 * refusals that change nothing, and a segment that is removed, shrinks or cannot be written.
 */
import { closeSync, existsSync, ftruncateSync, openSync, readdirSync, readlinkSync, readSync, rmSync, symlinkSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, test } from 'vitest';
import { createRandomSource } from '../src/index.js';
import { LIMITS } from '../src/serve/request.js';
import { createSession } from '../src/serve/session.js';
import { runSession } from '../src/serve/transport.js';
import { closeShm, openShm, planShm, SHM_DIR, SHM_ERROR_CODES, SHM_HEADER_BYTES, SHM_SLOT_HEADER_BYTES, writeShm } from '../src/serve/shm.js';
import { Client, TEST_CONFIG, type Response } from './serve-helpers.js';
import { byDepth } from './depth.js';

const HAVE_SHM = existsSync(SHM_DIR);
const created: string[] = [];
let counter = 0;

/** A segment as a client creates it: a file in /dev/shm of `bytes`, its token at the start. */
function segment(bytes: number, slots?: number): { name: string; token: string; slots?: number; fd: number } {
  const name = `meeplekit-test-${process.pid}-${++counter}`;
  const path = join(SHM_DIR, name);
  const fd = openSync(path, 'w+');
  ftruncateSync(fd, bytes);
  const token = randomBytes(16);
  writeSync(fd, token, 0, 16, 0);
  created.push(path);
  return { name, token: token.toString('hex'), ...(slots === undefined ? {} : { slots }), fd };
}

/** The `shm` field of a hello for a segment. */
function spec(s: { name: string; token: string; slots?: number }): Record<string, unknown> {
  return { name: s.name, token: s.token, ...(s.slots === undefined ? {} : { slots: s.slots }) };
}

afterEach(() => {
  for (const p of created.splice(0)) rmSync(p, { force: true });
});

interface Placed {
  dtype: string;
  shape: number[];
  shm?: number;
  frame?: number;
  b64?: string;
}

/** Every binary array of a response, in order (nested objects too), with its path. */
function arraysOf(r: Record<string, unknown>, path = ''): [string, Placed][] {
  const out: [string, Placed][] = [];
  for (const [k, v] of Object.entries(r)) {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) continue;
    const a = v as Record<string, unknown>;
    if (typeof a['dtype'] === 'string' && Array.isArray(a['shape'])) out.push([`${path}${k}`, a as unknown as Placed]);
    else out.push(...arraysOf(a, `${path}${k}.`));
  }
  return out;
}

const ITEM: Record<string, number> = { float32: 4, int32: 4, uint8: 1 };
const sizeOf = (a: Placed): number => a.shape.reduce((x, y) => x * y, 1) * ITEM[a.dtype]!;

/** The bytes of an array placed in the segment, read back from its file. */
function readBack(fd: number, a: Placed): Buffer {
  const out = Buffer.alloc(sizeOf(a));
  expect(readSync(fd, out, 0, out.length, a.shm!)).toBe(out.length);
  return out;
}

/** The sequence number in a slot's header. */
function slotSeq(fd: number, offset: number): bigint {
  const b = Buffer.alloc(8);
  readSync(fd, b, 0, 8, offset);
  return b.readBigUInt64LE(0);
}

/** The response of `client` to `req` as a parsed line, and the frames after it. */
function framed(client: Client, req: Record<string, unknown>, id: number): { r: Response; frames: readonly Uint8Array[] } {
  const r = JSON.parse(client.session.handle(JSON.stringify({ id, ...req }))) as Response;
  return { r, frames: [...client.session.frames!()].map((f) => Buffer.from(f)) };
}

/** Uniform legal actions of a batch with `masks: "list"` (its arrays as frames). */
function chooseFromFrames(r: Response, frames: readonly Uint8Array[], random: (n: number) => number): number[] {
  const legal = r['legal'] as { actions: Placed; offsets: Placed };
  const toInt = (f: Uint8Array): Int32Array => new Int32Array(new Uint8Array(f).buffer);
  const list = toInt(frames[legal.actions.frame!]!);
  const offsets = toInt(frames[legal.offsets.frame!]!);
  const out: number[] = [];
  for (let i = 0; i + 1 < offsets.length; i++) {
    const n = offsets[i + 1]! - offsets[i]!;
    out.push(n === 0 ? -1 : list[offsets[i]! + random(n)]!);
  }
  return out;
}

describe.skipIf(!HAVE_SHM)('serve: shared memory', () => {
  test('negotiation: the capability, hello with a segment describes its slots, hello without detaches it', () => {
    const c = new Client();
    expect(c.hello['capabilities']).toContain('shm');
    const s = segment(1 << 20, 3);
    const r = c.ok({ op: 'hello', binary: true, shm: spec(s) });
    const slotBytes = Math.floor((((1 << 20) - SHM_HEADER_BYTES) / 3) / 64) * 64;
    expect(r).toMatchObject({ protocol: 1, binary: true, shm: { name: s.name, bytes: 1 << 20, slots: 3, slot_bytes: slotBytes, slot_offset: SHM_HEADER_BYTES } });
    c.ok({ op: 'make_game', game: 'classic', players: 2 });
    c.ok({ op: 'vec_make', game_id: 'g1', num_envs: 2, seed: 'nego', masks: 'packed' });
    const step = c.ok({ op: 'vec_reset', env_id: 'v1' });
    expect(step['shm_seq']).toBe(1);
    expect(c.session.frames!()).toEqual([]);
    expect(c.ok({ op: 'hello' })).toMatchObject({ binary: false, shm: null });
    const inline = c.ok({ op: 'vec_reset', env_id: 'v1' });
    expect(inline['shm_seq']).toBeUndefined();
    expect((inline['current_player'] as Placed).b64).toBeTypeOf('string');
    // The segment is closed on the server's side; it is still the client's to remove.
    expect(existsSync(join(SHM_DIR, s.name))).toBe(true);
    closeSync(s.fd);
  });

  test.each([
    ['classic, 2 players, compact observations, packed masks', { game: 'classic', players: 2 }, { observations: 'compact', masks: 'packed' }, 2],
    ['classic, 3 players, float32 observations, dense masks', { game: 'classic', players: 3 }, { observations: 'float32', masks: 'dense' }, 2],
    // The fast tier plays this one's first 60 steps (3.3 s for whole games on a loaded machine).
    ['river and princess, 4 players, entity observations, list masks, 4 slots', { game: 'classic', players: 4, expansions: ['river', 'princess-dragon'] }, { observations: 'entity', masks: 'list' }, 4, byDepth(Infinity, 60)],
  ])('%s: every array of every step read back from the segment is the frames\' bytes, until the games end', (_name, game, options, slots, steps = Infinity) => {
    const ref = new Client();
    const shmClient = new Client();
    const s = segment(16 << 20, slots);
    ref.ok({ op: 'hello', binary: true });
    shmClient.ok({ op: 'hello', binary: true, shm: spec(s) });
    for (const c of [ref, shmClient]) {
      c.ok({ op: 'make_game', ...game });
      c.ok({ op: 'vec_make', game_id: 'g1', num_envs: 4, seed: 'shm-equal', auto_reset: false, ...options });
    }
    // vec_make's batch is inline (frames) on both: the list masks come from vec_reset on.
    const random = createRandomSource(`shm/${_name}`);
    let id = 10;
    let req: Record<string, unknown> = { op: 'vec_reset', env_id: 'v1' };
    let seq = 0;
    let finished = false;
    const slotBytes = Math.floor(((16 << 20) - SHM_HEADER_BYTES) / slots / 64) * 64;
    const lastSeen: { seq: number; at: number; placed: Placed[]; bytes: Buffer[] }[] = [];
    for (let step = 0; step < Math.min(400, steps) && !finished; step++) {
      id++;
      const a = framed(ref, req, id);
      const b = framed(shmClient, req, id);
      expect(a.r.ok, JSON.stringify(a.r.error)).toBe(true);
      expect(b.frames).toEqual([]);
      expect(b.r['shm_seq']).toBe(++seq);
      const refArrays = arraysOf(a.r);
      const shmArrays = arraysOf(b.r);
      expect(shmArrays.map(([p, x]) => [p, x.dtype, x.shape])).toEqual(refArrays.map(([p, x]) => [p, x.dtype, x.shape]));
      // The slot's header holds the response's sequence number; every array is aligned.
      const slotAt = SHM_HEADER_BYTES + (seq % slots) * slotBytes;
      expect(slotSeq(s.fd, slotAt)).toBe(BigInt(seq));
      const bytes: Buffer[] = [];
      for (let k = 0; k < refArrays.length; k++) {
        const placed = shmArrays[k]![1];
        expect(placed.shm! % 64).toBe(0);
        expect(placed.shm!).toBeGreaterThanOrEqual(slotAt + SHM_SLOT_HEADER_BYTES);
        expect(placed.shm! + sizeOf(placed)).toBeLessThanOrEqual(slotAt + slotBytes);
        const got = readBack(s.fd, placed);
        expect(got.equals(Buffer.from(a.frames[refArrays[k]![1].frame!]!)), refArrays[k]![0]).toBe(true);
        bytes.push(got);
      }
      // The arrays of the previous `slots - 1` responses are still there, untouched.
      for (const prev of lastSeen) {
        expect(slotSeq(s.fd, prev.at)).toBe(BigInt(prev.seq));
        prev.placed.forEach((p, k) => expect(readBack(s.fd, p).equals(prev.bytes[k]!)).toBe(true));
      }
      lastSeen.push({ seq, at: slotAt, placed: shmArrays.map(([, x]) => x), bytes });
      if (lastSeen.length > slots - 1) lastSeen.shift();
      // The next step's actions: from the list masks, or else any legal action the engine would
      // take; with packed/dense masks ask for list masks through a twin with the same seed.
      const actions = chooseActions(a.r, a.frames, options.masks, random);
      finished = actions.every((x) => x === -1);
      req = { op: 'vec_step', env_id: 'v1', actions };
    }
    expect(finished || steps !== Infinity).toBe(true);
    closeSync(s.fd);
  });

  /** A session with a game and a vector environment of 3 envs, binary frames on, and its state to compare. */
  function setUp(): Client {
    const c = new Client();
    c.ok({ op: 'hello', binary: true });
    c.ok({ op: 'make_game', game: 'classic', players: 2 });
    c.ok({ op: 'vec_make', game_id: 'g1', num_envs: 3, seed: 'refusals', masks: 'packed', observations: 'compact' });
    return c;
  }

  const badNames: [string, unknown][] = [
    ['a path up', '../etc/passwd'],
    ['a path', 'a/b'],
    ['an absolute path', '/dev/shm/x'],
    ['a hidden name', '.x'],
    ['a dot dot', '..'],
    ['an empty name', ''],
    ['a name of 256 characters', 'a'.repeat(256)],
    ['a name with a NUL', 'a\u0000b'],
    ['a name with a space', 'a b'],
    ['a number', 5],
  ];
  test.each(badNames)('a bad segment name (%s) is refused with protocol/request; the connection keeps its settings', (_what, name) => {
    const c = setUp();
    c.refused({ op: 'hello', binary: false, shm: { name, token: '0'.repeat(32) } }, 'protocol/request');
    // Still binary frames, still no segment.
    c.session.handle(JSON.stringify({ id: 99, op: 'vec_reset', env_id: 'v1' }));
    expect(c.session.frames!().length).toBeGreaterThan(0);
  });

  test('other refusals: fields, token, slots, a missing or foreign segment, a symbolic link, sizes, no /dev/shm', () => {
    const c = setUp();
    const good = segment(1 << 20);
    c.ok({ op: 'hello', binary: true, shm: spec(good) });
    const before = c.ok({ op: 'stats' })['handles'];
    const refusals: [unknown, string][] = [
      ['name', 'protocol/request'],
      [{ name: good.name }, 'protocol/request'],
      [{ name: good.name, token: 'XYZ' }, 'protocol/request'],
      [{ name: good.name, token: good.token, slots: 1 }, 'protocol/request'],
      [{ name: good.name, token: good.token, slots: 17 }, 'protocol/request'],
      [{ name: good.name, token: good.token, slots: 2.5 }, 'protocol/request'],
      [{ name: good.name, token: good.token, size: 5 }, 'protocol/request'],
      [{ name: `meeplekit-test-${process.pid}-missing`, token: good.token }, 'shm/not-found'],
      [{ name: good.name, token: 'f'.repeat(32) }, 'shm/mismatch'],
    ];
    for (const [shm, code] of refusals) c.refused({ op: 'hello', binary: false, shm }, code);
    // A symbolic link in /dev/shm is not followed.
    const link = `meeplekit-test-${process.pid}-link`;
    symlinkSync(join(SHM_DIR, good.name), join(SHM_DIR, link));
    created.push(join(SHM_DIR, link));
    c.refused({ op: 'hello', shm: { name: link, token: good.token } }, 'shm/not-found');
    // Too small for its slots, too large for the limit (a sparse file: nothing is allocated).
    const small = segment(SHM_HEADER_BYTES + 2 * 4096 - 64);
    c.refused({ op: 'hello', shm: spec(small) }, 'protocol/request');
    const huge = segment(LIMITS.shmBytes + 4096);
    c.refused({ op: 'hello', shm: spec(huge) }, 'protocol/too-large');
    closeSync(small.fd);
    closeSync(huge.fd);
    // None of that changed the connection: the first segment is still in use, binary still on.
    const r = c.ok({ op: 'vec_reset', env_id: 'v1' });
    expect(r['shm_seq']).toBe(1);
    expect(c.ok({ op: 'stats' })['handles']).toBe(before);
    // A machine without /dev/shm.
    const refused = openShm(spec(good), LIMITS.shmBytes, join(tmpdir(), `no-shm-here-${process.pid}`));
    expect(refused.ok ? 'opened' : refused.error.code).toBe('shm/unavailable');
    closeSync(good.fd);
  });

  test('a segment removed mid-game: the next step is refused with shm/gone and nothing moves; the connection goes on inline, and takes a new segment', () => {
    const ref = setUp();
    const c = setUp();
    const s = segment(4 << 20);
    c.ok({ op: 'hello', binary: true, shm: spec(s) });
    const random = createRandomSource('gone');
    const first = framed(ref, { op: 'vec_reset', env_id: 'v1' }, 49);
    expect(framed(c, { op: 'vec_reset', env_id: 'v1' }, 49).r['shm_seq']).toBe(1);
    let actions = chooseActions(first.r, first.frames, 'packed', random);
    const ahead = framed(ref, { op: 'vec_step', env_id: 'v1', actions }, 50);
    expect(ahead.r.ok).toBe(true);
    expect(framed(c, { op: 'vec_step', env_id: 'v1', actions }, 50).r['shm_seq']).toBe(2);
    actions = chooseActions(ahead.r, ahead.frames, 'packed', random);
    unlinkSync(join(SHM_DIR, s.name));
    const gone = framed(c, { op: 'vec_step', env_id: 'v1', actions }, 51).r;
    expect(gone.ok).toBe(false);
    expect(gone.error!.code).toBe('shm/gone');
    expect(gone.error!.message).toMatch(/removed.*nothing was done/);
    // The refused step did not move the envs: the same step again gives the reference's batch.
    const again = framed(c, { op: 'vec_step', env_id: 'v1', actions }, 52);
    const expected = framed(ref, { op: 'vec_step', env_id: 'v1', actions }, 52);
    expect(expected.r.ok).toBe(true);
    expect(again.r['shm_seq']).toBeUndefined();
    expect(again.r).toEqual(expected.r);
    expect(again.frames).toEqual(expected.frames);
    closeSync(s.fd);
    // A new segment is taken as the first was.
    const t = segment(4 << 20);
    c.ok({ op: 'hello', binary: true, shm: spec(t) });
    expect(framed(c, { op: 'vec_reset', env_id: 'v1' }, 60).r['shm_seq']).toBe(1);
    closeSync(t.fd);
  });

  test('a segment that shrank: shm/gone before anything is done; a segment too small for a batch: the arrays come inline', () => {
    const c = setUp();
    const s = segment(1 << 20);
    c.ok({ op: 'hello', binary: true, shm: spec(s) });
    expect(c.ok({ op: 'vec_reset', env_id: 'v1' })['shm_seq']).toBe(1);
    ftruncateSync(s.fd, 4096);
    c.refused({ op: 'vec_step', env_id: 'v1', actions: [0, 0, 0] }, 'shm/gone');
    closeSync(s.fd);
    // Slots of 4 KB cannot hold 3 compact observations (about 11 KB each): inline, as frames.
    const tiny = segment(SHM_HEADER_BYTES + 2 * 4096);
    c.ok({ op: 'hello', binary: true, shm: spec(tiny) });
    const r = framed(c, { op: 'vec_reset', env_id: 'v1' }, 70);
    expect(r.r['shm_seq']).toBeUndefined();
    expect(r.frames.length).toBeGreaterThan(0);
    // Responses of other operations carry their arrays inline too.
    const state = c.ok({ op: 'new_state', game_id: 'g1', seed: 'x' })['state_id'];
    const obs = framed(c, { op: 'observation_tensor', state_id: state, player: 0 }, 71);
    expect(obs.r.ok, JSON.stringify(obs.r)).toBe(true);
    expect(obs.r['shm_seq']).toBeUndefined();
    expect(obs.frames.length).toBe(1);
    closeSync(tiny.fd);
  });

  test('a write that fails is refused with shm/write and moves nothing on (writeShm on a segment it cannot write)', () => {
    const s = segment(1 << 20);
    const opened = openShm(spec(s), LIMITS.shmBytes);
    if (!opened.ok) throw new Error(opened.error.message);
    const seg = opened.value;
    // The file opened read-only in its place: every write fails (EBADF), as a full /dev/shm would (ENOSPC).
    closeShm(seg);
    seg.fd = openSync(join(SHM_DIR, s.name), 'r');
    const plan = planShm(seg, [16, 100]);
    expect(plan).not.toBeNull();
    const w = writeShm(seg, plan!, [new Uint8Array(16), new Uint8Array(100)]);
    expect(w.ok ? 'written' : w.error.code).toBe('shm/write');
    expect(seg.seq).toBe(0);
    closeShm(seg);
    closeShm(seg);
    expect(SHM_ERROR_CODES).toContain('shm/write');
    closeSync(s.fd);
  });

  test('a write that fails in a session: the step is made, its arrays come inline with shm_error, and the connection no longer uses the segment', () => {
    const ref = setUp();
    const c = setUp();
    const s = segment(4 << 20);
    c.ok({ op: 'hello', binary: true, shm: spec(s) });
    const path = join(SHM_DIR, s.name);
    // The session's descriptor of the segment, swapped for a read-only one of the same number
    // (descriptors are allocated lowest first): every write into it now fails, as in a full /dev/shm.
    const mine = readdirSync('/proc/self/fd').map(Number).filter((n) => n !== s.fd && (() => {
      try {
        return readlinkSync(`/proc/self/fd/${n}`) === path;
      } catch {
        return false;
      }
    })());
    expect(mine.length).toBe(1);
    closeSync(mine[0]!);
    // (vitest runs each file in a process of its own: nothing else takes the number meanwhile.)
    const held: number[] = [];
    for (;;) {
      const fd = openSync(path, 'r');
      if (fd === mine[0]) break;
      held.push(fd);
      if (held.length > 1000) throw new Error(`descriptor ${mine[0]} was not given back`);
    }
    for (const fd of held) closeSync(fd);
    const a = framed(ref, { op: 'vec_reset', env_id: 'v1' }, 80);
    const b = framed(c, { op: 'vec_reset', env_id: 'v1' }, 80);
    expect(b.r.ok).toBe(true);
    expect(b.r['shm_seq']).toBeUndefined();
    expect((b.r['shm_error'] as { code: string }).code).toBe('shm/write');
    const { shm_error: _dropped, ...rest } = b.r;
    expect(rest).toEqual(a.r);
    expect(b.frames).toEqual(a.frames);
    // The next batch is inline, without shm_error.
    const next = framed(c, { op: 'vec_reset', env_id: 'v1' }, 81);
    expect(next.r['shm_error']).toBeUndefined();
    expect(next.frames.length).toBeGreaterThan(0);
    closeSync(s.fd);
  });

  test('over a stream: a step with shared memory writes its line only, no frames', async () => {
    const s = segment(4 << 20);
    const input = new PassThrough();
    const output = new PassThrough();
    const chunks: Buffer[] = [];
    output.on('data', (c: Buffer) => chunks.push(c));
    const ended = new Promise<void>((resolve) => runSession(input, output, createSession(TEST_CONFIG), resolve));
    const lines = [
      { id: 1, op: 'hello', binary: true, shm: spec(s) },
      { id: 2, op: 'make_game', game: 'classic', players: 2 },
      { id: 3, op: 'vec_make', game_id: 'g1', num_envs: 2, seed: 'stream', observations: 'compact', masks: 'packed' },
      { id: 4, op: 'vec_reset', env_id: 'v1' },
    ];
    input.end(lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
    await ended;
    const all = Buffer.concat(chunks);
    // The hello line, three JSON responses, then vec_make's frames, then vec_reset's line: find the last line.
    const text = all.subarray(all.lastIndexOf('{"id":4')).toString('utf8');
    expect(text.endsWith('}\n')).toBe(true);
    const r = JSON.parse(text) as Response;
    expect(r['shm_seq']).toBe(1);
    expect((r['current_player'] as Placed).shm).toBeTypeOf('number');
    closeSync(s.fd);
  });
});

/** Legal actions of a batch from its masks (any mode), uniform; -1 for an env with none. */
function chooseActions(r: Response, frames: readonly Uint8Array[], masks: string, random: (n: number) => number): number[] {
  if (masks === 'list') return chooseFromFrames(r, frames, random);
  const key = masks === 'packed' ? 'mask_bits' : 'mask';
  const m = r[key] as Placed;
  const f = Buffer.from(frames[m.frame!]!);
  const [n, width] = m.shape as [number, number];
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const legal: number[] = [];
    for (let j = 0; j < width; j++) {
      const byte = f[i * width + j]!;
      if (masks === 'dense') {
        if (byte === 1) legal.push(j);
      } else for (let b = 0; b < 8; b++) if ((byte >> b) & 1) legal.push(8 * j + b);
    }
    out.push(legal.length === 0 ? -1 : legal[random(legal.length)]!);
  }
  return out;
}
