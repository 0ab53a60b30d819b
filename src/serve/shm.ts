/**
 * Shared memory for the arrays of the serve protocol (docs/protocol.md, "Shared memory"): a client
 * on the same machine creates a segment (a file in /dev/shm, as Python's
 * `multiprocessing.shared_memory` does), writes a random token at its start and names it in the
 * `hello` op; the server opens the file and writes the arrays of the vector environment's batches
 * into it, one slot per response in turn, while the response line carries only where each array
 * is. Node has no mmap: the arrays are written with one `writev` per response (one copy, into the
 * pages the client has mapped).
 *
 * Layout: a header of {@link SHM_HEADER_BYTES} bytes (the client's token in its first
 * {@link SHM_TOKEN_BYTES}), then `slots` slots of `slotBytes` each. A slot starts with its own
 * header of {@link SHM_SLOT_HEADER_BYTES} bytes, the sequence number of the response written into
 * it as a little-endian uint64, then the arrays, each at an offset that is a multiple of
 * {@link SHM_ALIGN}. Response `seq` (1, 2, ...) goes to slot `seq % slots`.
 */
import { closeSync, constants, fstatSync, openSync, readSync, statSync, writevSync } from 'node:fs';
import { err, ok } from '../core/result.js';
import { refuse, show, type Checked } from './request.js';

/**
 * Error codes of shared memory: `shm/unavailable` (no /dev/shm on this machine), `shm/not-found`
 * (no segment of that name), `shm/mismatch` (a segment that is not the client's), `shm/gone` (the
 * segment was removed or shrank), `shm/write` (an array could not be written into it).
 */
export const SHM_ERROR_CODES = ['shm/unavailable', 'shm/not-found', 'shm/mismatch', 'shm/gone', 'shm/write'] as const;

/** One of {@link SHM_ERROR_CODES}. */
export type ShmErrorCode = (typeof SHM_ERROR_CODES)[number];

/** A failed {@link Checked} with a shared-memory error (`shm/<what>`). */
export function shmError(what: ShmErrorCode extends `shm/${infer W}` ? W : never, message: string): Checked<never> {
  return err({ code: `shm/${what}`, message });
}

/** Where POSIX shared memory lives on Linux; a platform without it refuses segments (`shm/unavailable`). */
export const SHM_DIR = '/dev/shm';

/** Bytes of the segment's header; the token is at its start. */
export const SHM_HEADER_BYTES = 64;

/** Bytes of the client's token (sent as twice as many hexadecimal digits). */
export const SHM_TOKEN_BYTES = 16;

/** Bytes of each slot's header: the sequence number of the response written into the slot (uint64, little-endian). */
export const SHM_SLOT_HEADER_BYTES = 64;

/** Every array starts at a multiple of this many bytes from the segment's start (a cache line). */
export const SHM_ALIGN = 64;

/** How many slots a segment may have. */
export const SHM_SLOTS = { min: 2, max: 16 } as const;

/** The smallest slot: its header and one small array. */
export const SHM_MIN_SLOT_BYTES = 4096;

/**
 * The operations whose responses' arrays go to the segment: the vector environment's batches,
 * which are where the bytes are. Every other response (`vec_make`'s first batch included, which a
 * client keeps for its first reset) carries its arrays inline, as frames or base64.
 */
export const SHM_OPS: ReadonlySet<string> = new Set(['vec_step', 'vec_reset']);

/** A segment name: an identifier, never a path (no `/`, no leading `.`), at most 255 characters (a file name). */
export const SHM_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,254}$/;

const TOKEN = /^[0-9a-f]{32}$/;

/** A segment a session writes into. */
export interface ShmSegment {
  /** The name of its file in {@link SHM_DIR}. */
  readonly name: string;
  /** The file's size when it was opened: it must not shrink below. */
  readonly bytes: number;
  /** How many slots. */
  readonly slots: number;
  /** Bytes of each slot (a multiple of {@link SHM_ALIGN}). */
  readonly slotBytes: number;
  /** The open file (closed by {@link closeShm}). */
  fd: number;
  /** The sequence number of the last response written (0: none yet). */
  seq: number;
}

/** What the `hello` response says of a segment. */
export interface ShmDescription {
  /** Its name. */
  readonly name: string;
  /** Its size in bytes. */
  readonly bytes: number;
  /** How many slots. */
  readonly slots: number;
  /** Bytes of each slot. */
  readonly slot_bytes: number;
  /** Where slot 0 starts; slot `k` starts at `slot_offset + k * slot_bytes`. */
  readonly slot_offset: number;
}

/** The `hello` response's description of a segment. */
export function describeShm(s: ShmSegment): ShmDescription {
  return { name: s.name, bytes: s.bytes, slots: s.slots, slot_bytes: s.slotBytes, slot_offset: SHM_HEADER_BYTES };
}

/** Where slot `k` of a segment starts. */
export function slotOffset(s: ShmSegment, k: number): number {
  return SHM_HEADER_BYTES + k * s.slotBytes;
}

/**
 * Opens the segment a `hello` request's `shm` field names: `{"name", "token", "slots"}` (slots
 * optional: 2). Refused with `protocol/request` (a malformed field or name, a segment too small
 * for its slots), `protocol/too-large` (over `maxBytes`), `shm/unavailable` (no `dir` on
 * this machine), `shm/not-found` (no such regular file: symbolic links are not followed),
 * `shm/mismatch` (its first bytes are not the token: another segment of that name, or
 * another machine's /dev/shm). Nothing is left open on a refusal.
 */
export function openShm(spec: unknown, maxBytes: number, dir: string = SHM_DIR): Checked<ShmSegment> {
  if (typeof spec !== 'object' || spec === null || Array.isArray(spec)) {
    return refuse('protocol/request', `'shm' must be {"name", "token", "slots"} or null, got ${show(spec)}`);
  }
  const o = spec as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    if (k !== 'name' && k !== 'token' && k !== 'slots') return refuse('protocol/request', `'shm' has an unknown field '${k}' (fields: name, token, slots)`);
  }
  const name = o['name'];
  if (typeof name !== 'string' || !SHM_NAME.test(name)) {
    return refuse('protocol/request', `'shm.name' must be a segment name (letters, digits, '_', '.', '-'; not starting with '.'; at most 255 characters; no path), got ${show(name)}`);
  }
  const token = o['token'];
  if (typeof token !== 'string' || !TOKEN.test(token)) return refuse('protocol/request', `'shm.token' must be ${2 * SHM_TOKEN_BYTES} lowercase hexadecimal digits, got ${show(token)}`);
  const slots = o['slots'] ?? 2;
  if (typeof slots !== 'number' || !Number.isInteger(slots) || slots < SHM_SLOTS.min || slots > SHM_SLOTS.max) {
    return refuse('protocol/request', `'shm.slots' must be an integer from ${SHM_SLOTS.min} to ${SHM_SLOTS.max}, got ${show(slots)}`);
  }
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    isDir = false;
  }
  if (!isDir) return shmError('unavailable', `this machine has no ${dir} for shared memory: use binary frames (the hello op's binary) instead`);
  let fd: number;
  try {
    fd = openSync(`${dir}/${name}`, constants.O_RDWR | constants.O_NOFOLLOW);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? 'unknown';
    return shmError('not-found', `cannot open the segment ${show(name)} in ${dir} (${code}): the client must create it first, on this machine`);
  }
  const fail = (error: Checked<never>): Checked<never> => {
    closeSync(fd);
    return error;
  };
  const st = fstatSync(fd);
  if (!st.isFile()) return fail(shmError('not-found', `${show(name)} in ${dir} is not a shared-memory segment (not a regular file)`));
  const bytes = st.size;
  if (bytes > maxBytes) return fail(refuse('protocol/too-large', `the segment ${show(name)} has ${bytes} bytes, over the limit of ${maxBytes}`));
  const slotBytes = Math.floor((bytes - SHM_HEADER_BYTES) / slots / SHM_ALIGN) * SHM_ALIGN;
  if (slotBytes < SHM_MIN_SLOT_BYTES) {
    return fail(refuse('protocol/request', `the segment ${show(name)} has ${bytes} bytes, too few for ${slots} slots of at least ${SHM_MIN_SLOT_BYTES} bytes and its header of ${SHM_HEADER_BYTES}`));
  }
  const head = Buffer.alloc(SHM_TOKEN_BYTES);
  const got = readSync(fd, head, 0, SHM_TOKEN_BYTES, 0);
  if (got !== SHM_TOKEN_BYTES || head.toString('hex') !== token) {
    return fail(shmError('mismatch', `the segment ${show(name)} does not start with the token sent: it is not the client's (another segment of that name, or another machine's ${dir})`));
  }
  return ok({ name, bytes, slots, slotBytes, fd, seq: 0 });
}

/**
 * Checks, before a response is computed, that the segment is still there to be written: not
 * removed from its directory and not shrunk. Refused with `shm/gone` otherwise (the caller
 * then closes it).
 */
export function checkShm(s: ShmSegment): Checked<void> {
  let nlink: number;
  let size: number;
  try {
    const st = fstatSync(s.fd);
    nlink = st.nlink;
    size = st.size;
  } catch (e) {
    return shmError('gone', `the segment ${show(s.name)} can no longer be read (${(e as NodeJS.ErrnoException).code ?? 'unknown'})`);
  }
  if (nlink === 0) return shmError('gone', `the segment ${show(s.name)} was removed`);
  if (size < s.bytes) return shmError('gone', `the segment ${show(s.name)} shrank from ${s.bytes} to ${size} bytes`);
  return ok(undefined);
}

/** Rounds up to a multiple of {@link SHM_ALIGN}. */
export function alignShm(n: number): number {
  return Math.ceil(n / SHM_ALIGN) * SHM_ALIGN;
}

/** The bytes a slot needs for arrays of these byte lengths: its header, and each array aligned. */
export function shmSlotNeeds(lengths: readonly number[]): number {
  let at = SHM_SLOT_HEADER_BYTES;
  for (const n of lengths) at = alignShm(at) + n;
  return at;
}

/** Where a response's arrays go: its sequence number, its slot and the offset of each array. */
export interface ShmPlan {
  /** The response's sequence number. */
  readonly seq: number;
  /** Its slot. */
  readonly slot: number;
  /** The offset from the segment's start of each array, in order. */
  readonly offsets: readonly number[];
}

/**
 * Where the arrays of the next response go (arrays of these byte lengths, in order), or null when
 * they do not fit in a slot (the response then carries them inline).
 */
export function planShm(s: ShmSegment, lengths: readonly number[]): ShmPlan | null {
  if (shmSlotNeeds(lengths) > s.slotBytes) return null;
  const seq = s.seq + 1;
  const slot = seq % s.slots;
  const base = slotOffset(s, slot);
  const offsets: number[] = [];
  let at = SHM_SLOT_HEADER_BYTES;
  for (const n of lengths) {
    at = alignShm(at);
    offsets.push(base + at);
    at += n;
  }
  return { seq, slot, offsets };
}

/**
 * Writes a planned response's arrays into its slot, its header first, in one `writev`; returns the
 * bytes written. A failed or short write (no space left in /dev/shm: ENOSPC) is refused with
 * `shm/write`; the segment's sequence number moves on only after a complete write.
 */
export function writeShm(s: ShmSegment, plan: ShmPlan, arrays: readonly Uint8Array[]): Checked<number> {
  const base = slotOffset(s, plan.slot);
  const header = Buffer.alloc(SHM_SLOT_HEADER_BYTES);
  header.writeBigUInt64LE(BigInt(plan.seq), 0);
  const parts: Uint8Array[] = [header];
  let at = base + SHM_SLOT_HEADER_BYTES;
  for (let i = 0; i < arrays.length; i++) {
    const gap = plan.offsets[i]! - at;
    if (gap > 0) parts.push(new Uint8Array(gap));
    parts.push(arrays[i]!);
    at = plan.offsets[i]! + arrays[i]!.byteLength;
  }
  const total = at - base;
  let written: number;
  try {
    written = writevSync(s.fd, parts, base);
  } catch (e) {
    return shmError('write', `cannot write into the segment ${show(s.name)} (${(e as NodeJS.ErrnoException).code ?? 'unknown'}): ${(e as Error).message}`);
  }
  if (written !== total) return shmError('write', `wrote ${written} of ${total} bytes into the segment ${show(s.name)}`);
  s.seq = plan.seq;
  return ok(total);
}

/** Closes a segment's file (the client removes the segment itself). Idempotent. */
export function closeShm(s: ShmSegment): void {
  if (s.fd < 0) return;
  try {
    closeSync(s.fd);
  } catch {
    // Already closed: nothing to release.
  }
  s.fd = -1;
}
