/**
 * `npm run bench:serve [-- --batch 256 --seconds 10 --masks list|packed|dense --observations [float32|compact|entity] --binary --shm --inflight 1 --server dist|tsx]`:
 * actions per second through `meeplekit serve`'s protocol. It spawns the server as a child process
 * (`node dist/cli.js serve` after `npm run build`, or the sources through tsx), makes a vector
 * environment of `--batch` games and plays them with a uniform random agent over the pipe, then
 * reports actions/s and where the time goes: the server's own parse, compute, encode and write
 * times (its `stats` op), the client's time (decoding, choosing, encoding), and the rest (the
 * pipe, and each side waiting for the other). With `--inflight K` the client keeps K vector
 * environments of `--batch` games each in flight (K x `--batch` games in all; bench_vector.py's
 * `--inflight` splits its `--envs` instead), so that it chooses for one while the server steps another.
 * `--observations` alone asks for the float32 observations (as before `compact` existed);
 * `--binary` asks for binary frames (the `hello` op) instead of base64 in JSON; `--shm` creates a
 * shared-memory segment in /dev/shm and names it in the `hello` op, so that the batches' arrays are
 * written there and the response lines carry only their offsets (the client reads each array back
 * with one `read`, a copy, as it copies a frame; Python maps the segment instead).
 *
 * An action is one agent's decision: every environment decides once per step (the chance nodes
 * are resolved inside the server and not counted), so actions = steps x batch.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, ftruncateSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { benchOptions } from './options.js';
import { createRandomSource } from '../src/index.js';
import { frameQueue } from '../src/serve/transport.js';
import { LIMITS } from '../src/serve/request.js';

// `--observations` without a value keeps its old meaning: the float32 observations.
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) if (argv[i] === '--observations' && (i + 1 === argv.length || argv[i + 1]!.startsWith('--'))) argv.splice(i + 1, 0, 'float32');

const { values } = benchOptions(import.meta.url, () => parseArgs({
  args: argv,
  options: {
    batch: { type: 'string', default: '256' },
    seconds: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '2' },
    masks: { type: 'string', default: 'list' },
    observations: { type: 'string', default: 'none' },
    binary: { type: 'boolean', default: false },
    shm: { type: 'boolean', default: false },
    inflight: { type: 'string', default: '1' },
    players: { type: 'string', default: '2' },
    game: { type: 'string', default: 'classic' },
    expansions: { type: 'string', default: '' },
    server: { type: 'string', default: 'dist' },
    actions: { type: 'string', default: 'b64' },
    json: { type: 'boolean', default: false },
  },
}));
const batch = Number(values.batch);
const inflight = Number(values.inflight);
if (!['list', 'dense', 'packed'].includes(values.masks)) throw new Error('--masks list, packed or dense: the random agent needs the legal actions');
if (!['none', 'float32', 'compact', 'entity'].includes(values.observations)) throw new Error('--observations float32, compact or entity (alone: float32)');
if (values.server !== 'dist' && values.server !== 'tsx') throw new Error('--server dist or tsx');
if (values.server === 'dist' && !existsSync('dist/cli.js')) throw new Error('no dist/cli.js: run npm run build first, or pass --server tsx');

const command = values.server === 'dist' ? [process.execPath, 'dist/cli.js', 'serve'] : [process.execPath, '--import', 'tsx', 'src/cli/main.ts', 'serve'];
const child = spawn(command[0]!, command.slice(1), { stdio: ['pipe', 'pipe', 'inherit'] });

const nextResponse = frameQueue(child.stdout);

interface Binary {
  dtype: string;
  shape: number[];
  b64?: string;
  frame?: number;
  /** Its offset in the shared-memory segment. */
  shm?: number;
  /** The frame's bytes, put in by {@link next}. */
  data?: Buffer;
}
interface Response {
  id: number;
  ok: boolean;
  error?: { code: string; message: string };
  [k: string]: unknown;
}

/** Puts each frame's bytes into the binary array that refers to it (`data`), nested objects too. */
function attach(o: Record<string, unknown>, frames: readonly Buffer[]): void {
  for (const v of Object.values(o)) {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) continue;
    const a = v as Binary & Record<string, unknown>;
    if (typeof a.frame === 'number') a.data = frames[a.frame]!;
    else attach(a, frames);
  }
}

/** The next response, parsed, its frames' bytes in its binary arrays. */
async function next(): Promise<Response> {
  const { line, frames } = await nextResponse();
  const r = JSON.parse(line) as Response;
  if (frames.length > 0) attach(r, frames);
  return r;
}

let nextId = 0;
async function call(req: Record<string, unknown>): Promise<Response> {
  child.stdin.write(`${JSON.stringify({ id: ++nextId, ...req })}\n`);
  const r = await next();
  if (!r.ok) throw new Error(`${String(req['op'])}: ${r.error!.code}: ${r.error!.message}`);
  return r;
}

/** The shared-memory segment of `--shm`: a sparse file in /dev/shm (pages are allocated as written). */
const segment = values.shm ? { name: `meeplekit-bench-${process.pid}`, fd: -1, token: randomBytes(16) } : null;
if (segment !== null) {
  segment.fd = openSync(`/dev/shm/${segment.name}`, 'w+');
  ftruncateSync(segment.fd, LIMITS.shmBytes);
  writeSync(segment.fd, segment.token, 0, 16, 0);
  process.on('exit', () => {
    closeSync(segment.fd);
    rmSync(`/dev/shm/${segment.name}`, { force: true });
  });
}

const ITEM_BYTES: Record<string, number> = { float32: 4, int32: 4, uint8: 1 };

/**
 * Buffers for the arrays read from the segment, by offset and length: an array's place in the
 * segment repeats with its slot, and each is read before the next response, so a buffer is reused
 * rather than allocated (megabytes a step: allocating them made the client most of the wall time).
 */
const shmBuffers = new Map<string, ArrayBuffer>();

/** The bytes of a binary array (base64, its frame, or read from the segment), in a buffer aligned for typed-array views. */
function bytes(a: Binary): ArrayBuffer {
  if (a.shm !== undefined) {
    const length = a.shape.reduce((x, y) => x * y, 1) * ITEM_BYTES[a.dtype]!;
    const key = `${a.shm}/${length}`;
    let out = shmBuffers.get(key);
    if (out === undefined) shmBuffers.set(key, (out = new ArrayBuffer(length)));
    readSync(segment!.fd, new Uint8Array(out), 0, length, a.shm);
    return out;
  }
  const b = a.data ?? Buffer.from(a.b64!, 'base64');
  const out = new ArrayBuffer(b.length);
  new Uint8Array(out).set(b);
  return out;
}

const random = createRandomSource('bench/serve');
const actions = new Int32Array(batch);
/** Scratch space: the set bits of a batch's packed masks. */
let legalBits = new Int32Array(64 * batch);

/** Chooses a uniform legal action for every environment of a batch; returns the request line. */
function choose(envId: string, r: Response): string {
  if (values.masks === 'list') {
    const legal = r['legal'] as { actions: Binary; offsets: Binary };
    const list = new Int32Array(bytes(legal.actions));
    const offsets = new Int32Array(bytes(legal.offsets));
    for (let i = 0; i < batch; i++) {
      const lo = offsets[i]!;
      const n = offsets[i + 1]! - lo;
      actions[i] = n === 0 ? -1 : list[lo + random(n)]!;
    }
  } else if (values.masks === 'packed') {
    // Every set bit of the batch's packed masks in one pass over 32-bit words (most are 0), then
    // a uniform pick among each environment's.
    const packed = r['mask_bits'] as Binary;
    const buffer = bytes(packed);
    const rowBits = 8 * packed.shape[1]!;
    const words = new Uint32Array(buffer, 0, buffer.byteLength >> 2);
    const tail = new Uint8Array(buffer);
    let found = 0;
    const take = (bit: number): void => {
      if (found === legalBits.length) {
        const grown = new Int32Array(2 * legalBits.length);
        grown.set(legalBits);
        legalBits = grown;
      }
      legalBits[found++] = bit;
    };
    for (let w = 0; w < words.length; w++) {
      let x = words[w]!;
      while (x !== 0) {
        const low = x & -x;
        take(32 * w + 31 - Math.clz32(low));
        x ^= low;
      }
    }
    for (let b = 4 * words.length; b < tail.length; b++) for (let k = 0; k < 8; k++) if ((tail[b]! >> k) & 1) take(8 * b + k);
    let at = 0;
    for (let i = 0; i < batch; i++) {
      const start = at;
      while (at < found && legalBits[at]! < (i + 1) * rowBits) at++;
      actions[i] = at === start ? -1 : legalBits[start + random(at - start)]! - i * rowBits;
    }
  } else {
    const mask = new Uint8Array(bytes(r['mask'] as Binary));
    const A = (r['mask'] as Binary).shape[1]!;
    for (let i = 0; i < batch; i++) {
      let n = 0;
      for (let a = i * A; a < (i + 1) * A; a++) n += mask[a]!;
      let k = n === 0 ? -1 : random(n);
      actions[i] = -1;
      for (let a = i * A; k >= 0 && a < (i + 1) * A; a++) if (mask[a] === 1 && k-- === 0) actions[i] = a - i * A;
    }
  }
  // Decoded, as a learner would (the compact ones as they come: unpacking them is the learner's).
  if (values.observations === 'float32') bytes(r['observations'] as Binary);
  else if (values.observations !== 'none') for (const part of Object.values(r[`${values.observations}_observations`] as Record<string, Binary>)) bytes(part);
  const sent =
    values.actions === 'json'
      ? Array.from(actions)
      : { dtype: 'int32', shape: [batch], b64: Buffer.from(actions.buffer, actions.byteOffset, actions.byteLength).toString('base64') };
  return `${JSON.stringify({ id: ++nextId, op: 'vec_step', env_id: envId, actions: sent })}\n`;
}

function finished(r: Response): number {
  const done = new Uint8Array(bytes(r['done'] as Binary));
  let n = 0;
  for (const d of done) n += d;
  return n;
}

async function main(): Promise<void> {
  const hello = (await nextResponse()).line;
  if (values.binary || segment !== null) {
    await call({ op: 'hello', binary: values.binary, ...(segment === null ? {} : { shm: { name: segment.name, token: segment.token.toString('hex'), slots: Math.max(2, inflight + 1) } }) });
  }
  const game = await call({
    op: 'make_game',
    game: values.game,
    expansions: values.expansions === '' ? [] : values.expansions.split(','),
    players: Number(values.players),
  });
  const envs: { id: string; last: Response }[] = [];
  for (let k = 0; k < inflight; k++) {
    const r = await call({ op: 'vec_make', game_id: game['game_id'], num_envs: batch, seed: `bench/${k}`, masks: values.masks, observations: values.observations });
    envs.push({ id: r['env_id'] as string, last: r });
  }

  let steps = 0;
  let games = 0;
  let clientMs = 0;
  /** Steps every env in flight until `ms` have passed; returns the wall time taken. */
  async function run(ms: number): Promise<number> {
    const t0 = performance.now();
    // Send a step for every env, then keep each in flight: answer k, send k's next step at once.
    for (const e of envs) {
      const c = performance.now();
      child.stdin.write(choose(e.id, e.last));
      clientMs += performance.now() - c;
    }
    let k = 0;
    for (;;) {
      const r = await next();
      const c = performance.now();
      if (!r.ok) throw new Error(`vec_step: ${r.error!.code}: ${r.error!.message}`);
      const e = envs[k]!;
      e.last = r;
      steps++;
      games += finished(r);
      const over = performance.now() - t0 >= ms;
      // When time is up, stop sending; collect what is still in flight.
      if (!over) child.stdin.write(choose(e.id, r));
      clientMs += performance.now() - c;
      k = (k + 1) % envs.length;
      if (over) {
        for (let left = envs.length - 1; left > 0; left--) {
          const r2 = await next();
          envs[k]!.last = r2;
          steps++;
          games += finished(r2);
          k = (k + 1) % envs.length;
        }
        return performance.now() - t0;
      }
    }
  }

  await run(Number(values.warmup) * 1000);
  await call({ op: 'stats', reset: true });
  steps = games = clientMs = 0;
  const wall = await run(Number(values.seconds) * 1000);
  const stats = (await call({ op: 'stats' })) as unknown as {
    write_ms: number;
    chars_out: number;
    shm_bytes_out?: number;
    ops: Record<string, { count: number; parse_ms: number; compute_ms: number; encode_ms: number }>;
  };
  child.stdin.end();

  const step = stats.ops['vec_step']!;
  const server = step.parse_ms + step.compute_ms + step.encode_ms + stats.write_ms;
  const actionsPerSecond = (steps * batch * 1000) / wall;
  const result = {
    server: JSON.parse(hello) as unknown,
    config: {
      game: values.game,
      expansions: values.expansions,
      players: Number(values.players),
      batch,
      masks: values.masks,
      observations: values.observations,
      binary: values.binary,
      shm: values.shm,
      inflight,
      actions: values.actions,
      via: values.server,
    },
    seconds: wall / 1000,
    steps,
    actionsPerSecond: Math.round(actionsPerSecond),
    gamesPerSecond: Math.round((games * 1000) / wall),
    bytesPerStep: Math.round(stats.chars_out / step.count),
    shmBytesPerStep: Math.round((stats.shm_bytes_out ?? 0) / step.count),
    msPerStep: {
      wall: wall / steps,
      serverParse: step.parse_ms / step.count,
      serverCompute: step.compute_ms / step.count,
      serverEncode: step.encode_ms / step.count,
      serverWrite: stats.write_ms / step.count,
      client: clientMs / steps,
    },
    share: {
      serverCompute: step.compute_ms / wall,
      serverEncodeParseWrite: (step.parse_ms + step.encode_ms + stats.write_ms) / wall,
      client: clientMs / wall,
      // With one request in flight the two sides take turns; the rest is the pipe and waiting.
      pipeAndIdle: Math.max(0, 1 - (server + (inflight === 1 ? clientMs : 0)) / wall),
    },
  };
  if (values.json) {
    console.log(JSON.stringify(result));
    return;
  }
  const f = (x: number): string => x.toFixed(3);
  const pct = (x: number): string => `${(100 * x).toFixed(1)} %`;
  console.log(`meeplekit serve: ${result.config.game}${values.expansions === '' ? '' : `+${values.expansions}`}, ${result.config.players} players, batch ${batch}, masks ${values.masks}${values.observations === 'none' ? '' : `, ${values.observations} observations`}${values.shm ? ', shared memory' : ''}${values.binary ? ', binary frames' : values.shm ? '' : ', base64'}, ${inflight} in flight, actions as ${values.actions}, server from ${values.server}`);
  console.log(`  ${result.actionsPerSecond.toLocaleString('en-US')} actions/s, ${result.gamesPerSecond.toLocaleString('en-US')} games/s (${steps} steps in ${f(wall / 1000)} s, ${result.bytesPerStep.toLocaleString('en-US')} bytes per response${values.shm ? `, ${result.shmBytesPerStep.toLocaleString('en-US')} in shared memory` : ''})`);
  const m = result.msPerStep;
  console.log(`  per step (ms): wall ${f(m.wall)}; server: parse ${f(m.serverParse)}, compute ${f(m.serverCompute)}, encode ${f(m.serverEncode)}, write ${f(m.serverWrite)}; client ${f(m.client)}`);
  console.log(`  share of the wall time: server compute ${pct(result.share.serverCompute)}, server parse+encode+write ${pct(result.share.serverEncodeParseWrite)}, client ${pct(result.share.client)}${inflight === 1 ? `, pipe and idle ${pct(result.share.pipeAndIdle)}` : ''}`);
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    child.kill();
    process.exit(1);
  },
);
