/**
 * Binary arrays of the serve protocol: a typed array travels as `{ dtype, shape, b64 }`, its bytes
 * little-endian and base64-encoded. Responses carry them as {@link BinaryArray} values that encode
 * themselves when the response is stringified (so the session can time the encoding apart from
 * the computation); requests may send an int32 array either as a plain JSON array or as such an
 * object.
 */
import { err, ok, type Result } from '../core/result.js';
import { protocolError, type ServeError } from './request.js';

/** Element types of binary arrays. */
export const DTYPES = ['float32', 'uint8', 'int32'] as const;

/** One of {@link DTYPES}. */
export type Dtype = (typeof DTYPES)[number];

/** A typed array of one of the protocol's {@link DTYPES}. */
export type TypedArray = Float32Array | Uint8Array | Int32Array;

/** The JSON form of a binary array. */
export interface BinaryArrayJson {
  /** Element type. */
  readonly dtype: Dtype;
  /** Dimensions, outermost first (row-major); their product is the number of elements. */
  readonly shape: readonly number[];
  /** The elements' bytes, little-endian, in standard base64 with padding. */
  readonly b64: string;
}

// Every machine Node runs on today is little-endian; a big-endian one swaps bytes on the way out.
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

function dtypeOf(data: TypedArray): Dtype {
  return data instanceof Float32Array ? 'float32' : data instanceof Int32Array ? 'int32' : 'uint8';
}

/** The bytes of a typed array in little-endian order: a view of it where the machine is little-endian. */
function littleEndianBytes(data: TypedArray): Buffer {
  const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  if (LITTLE_ENDIAN || data.BYTES_PER_ELEMENT === 1) return bytes;
  const copy = Buffer.from(bytes);
  copy.swap32();
  return copy;
}

/**
 * A typed array on its way into a response: `JSON.stringify` writes it as a
 * {@link BinaryArrayJson}. It holds a view, not a copy: stringify the response before the array's
 * buffer is written again.
 */
export class BinaryArray {
  /** Element type. */
  readonly dtype: Dtype;
  /** Dimensions, outermost first. */
  readonly shape: readonly number[];
  /** The elements (a view). */
  readonly data: TypedArray;

  /** Wraps `data` with its `shape` (the product of `shape` must be `data.length`). */
  constructor(data: TypedArray, shape: readonly number[] = [data.length]) {
    this.data = data;
    this.shape = shape;
    this.dtype = dtypeOf(data);
  }

  /** The JSON form, base64 from a view of the typed array's bytes (no copy on little-endian machines). */
  toJSON(): BinaryArrayJson {
    return { dtype: this.dtype, shape: this.shape, b64: littleEndianBytes(this.data).toString('base64') };
  }
}

/**
 * The JSON text of a response: as `JSON.stringify` writes it, but each {@link BinaryArray}'s
 * base64 is put in as it is rather than scanned for characters to escape (it has none), which for
 * arrays of megabytes is most of the cost of a response. Binary arrays may stand as values of
 * plain objects (nested too); anything else is written by `JSON.stringify`.
 *
 * With `frames` (a connection that asked for binary frames: docs/protocol.md, "Binary frames"),
 * each binary array is written as `{"dtype","shape","frame":k}` instead, its little-endian bytes
 * pushed onto `frames` as frame k, and the response ends with `"frames":[<byte length of each>]`.
 *
 * With `shm` (a connection with a shared-memory segment: docs/protocol.md, "Shared memory"), each
 * binary array is written as `{"dtype","shape","shm":<offset>}` (the offsets of `shm`, in order;
 * the caller writes the bytes there) and the response ends with `"shm_seq":<seq>`.
 */
export function stringifyResponse(value: Readonly<Record<string, unknown>>, frames?: Uint8Array[], shm?: ShmPlacement): string {
  if (shm !== undefined) {
    const body = stringifyObject(value, undefined, { offsets: shm.offsets, next: 0 });
    return `${body.slice(0, -1)},"shm_seq":${shm.seq}}`;
  }
  const body = stringifyObject(value, frames, undefined);
  if (frames === undefined || frames.length === 0) return body;
  return `${body.slice(0, -1)},"frames":[${frames.map((f) => f.byteLength).join(',')}]}`;
}

/**
 * Where the arrays of a response written into a shared-memory segment are (docs/protocol.md,
 * "Shared memory"): the response's sequence number, and each array's offset in the segment, in the
 * order of {@link responseArrays}.
 */
export interface ShmPlacement {
  /** The response's sequence number (its `"shm_seq"`). */
  readonly seq: number;
  /** The offset of each array, in the order {@link responseArrays} lists them. */
  readonly offsets: readonly number[];
}

/**
 * The little-endian bytes of every {@link BinaryArray} of a response, in the order
 * {@link stringifyResponse} writes them (views where the machine is little-endian).
 */
export function responseArrays(value: Readonly<Record<string, unknown>>, out: Uint8Array[] = []): Uint8Array[] {
  for (const key of Object.keys(value)) {
    const v = value[key];
    if (v instanceof BinaryArray) out.push(littleEndianBytes(v.data));
    else if (isPlainObject(v)) responseArrays(v, out);
  }
  return out;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;
}

/** {@link stringifyResponse} of one object (nested objects included). */
function stringifyObject(value: Readonly<Record<string, unknown>>, frames: Uint8Array[] | undefined, shm: { offsets: readonly number[]; next: number } | undefined): string {
  let out = '{';
  let first = true;
  for (const key of Object.keys(value)) {
    const v = value[key];
    if (v === undefined) continue;
    out += `${first ? '' : ','}${JSON.stringify(key)}:`;
    first = false;
    if (v instanceof BinaryArray) {
      if (shm !== undefined) {
        const at = shm.offsets[shm.next++];
        if (at === undefined) throw new Error('stringifyResponse: more arrays than shared-memory offsets');
        out += `{"dtype":"${v.dtype}","shape":${JSON.stringify(v.shape)},"shm":${at}}`;
      } else if (frames !== undefined) {
        out += `{"dtype":"${v.dtype}","shape":${JSON.stringify(v.shape)},"frame":${frames.length}}`;
        frames.push(littleEndianBytes(v.data));
      } else out += `{"dtype":"${v.dtype}","shape":${JSON.stringify(v.shape)},"b64":"${littleEndianBytes(v.data).toString('base64')}"}`;
    } else if (isPlainObject(v)) {
      out += stringifyObject(v, frames, shm);
    } else out += JSON.stringify(v);
  }
  return `${out}}`;
}

// Standard base64 with padding, nothing else: Buffer's decoder would skip anything it does not know.
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Whether a value is a 32-bit signed integer. */
function isInt32(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= -2147483648 && v <= 2147483647;
}

/**
 * Reads an int32 array of exactly `out.length` elements from a request field (`name`, for the
 * message) into `out`: a JSON array of integers, or a binary array object of dtype `int32` and
 * shape `[out.length]`. On a refusal `out` may hold part of the input: callers decode into scratch
 * space, never into state.
 */
export function readInt32Array(value: unknown, name: string, out: Int32Array): Result<Int32Array, ServeError> {
  const n = out.length;
  if (Array.isArray(value)) {
    if (value.length !== n) return err(protocolError('protocol/request', `'${name}' must hold ${n} integers, got ${value.length}`));
    for (let i = 0; i < n; i++) {
      const v: unknown = value[i];
      if (!isInt32(v)) return err(protocolError('protocol/request', `'${name}'[${i}] must be a 32-bit integer, got ${JSON.stringify(v) ?? typeof v}`));
      out[i] = v;
    }
    return ok(out);
  }
  if (typeof value !== 'object' || value === null) {
    return err(protocolError('protocol/request', `'${name}' must be an array of integers or {"dtype":"int32","shape":[${n}],"b64":...}`));
  }
  const o = value as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    if (k !== 'dtype' && k !== 'shape' && k !== 'b64') return err(protocolError('protocol/request', `'${name}' has an unknown field '${k}' (a binary array has dtype, shape, b64)`));
  }
  if (o['dtype'] !== 'int32') return err(protocolError('protocol/request', `'${name}'.dtype must be "int32", got ${JSON.stringify(o['dtype']) ?? 'nothing'}`));
  const shape = o['shape'];
  if (!Array.isArray(shape) || shape.length !== 1 || shape[0] !== n) {
    return err(protocolError('protocol/request', `'${name}'.shape must be [${n}], got ${JSON.stringify(shape) ?? 'nothing'}`));
  }
  const b64 = o['b64'];
  if (typeof b64 !== 'string' || !BASE64.test(b64)) return err(protocolError('protocol/request', `'${name}'.b64 must be standard base64 with padding`));
  const bytes = Buffer.from(b64, 'base64');
  if (bytes.length !== 4 * n) return err(protocolError('protocol/request', `'${name}'.b64 must hold ${4 * n} bytes (${n} int32), got ${bytes.length}`));
  for (let i = 0; i < n; i++) out[i] = bytes.readInt32LE(4 * i);
  return ok(out);
}
