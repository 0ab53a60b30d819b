/**
 * Vector environments, the protocol's fast path: N research simulators stepped together, chance
 * resolved inside the server from one seeded random source per environment (`<seed>/<i>`, or with
 * `seeds`, `<seeds[i]>/0`: environment i is then the one-environment vector environment of its own
 * seed), so a run reproduces from its seed(s). Every batch is written into buffers allocated once per vector
 * environment (the legal-action list grows when it must) and goes out as binary arrays.
 */
import { createRandomSource, type RandomSource } from '../core/rng.js';
import { err, ok } from '../core/result.js';
import {
  createResearchSimulator,
  entitySpec,
  newInitialState,
  writeObservationTensor,
  type CompactObservationBuffers,
  type EntityBuffers,
  type ResearchSimulator,
} from '../ai/index.js';
import { createCompactRowCache, writeCompactObservationCached, type CompactRowCache } from '../ai/compact-row-cache.js';
import { createEntityRowCache, writeEntityObservationCached, type EntityRowCache } from '../ai/entity-row-cache.js';
import { BinaryArray, readInt32Array } from './codec.js';
import type { GameEntry } from './games.js';
import type { Handles, Op } from './registry.js';
import { boolField, enumField, intField, LIMITS, MEMORY_ESTIMATE, refuse, seedField, show, type Checked, type Request } from './request.js';
import { illegalAction, includesSorted } from './states.js';

/**
 * How a batch lists the legal actions: not at all, as one concatenated list with offsets, as dense
 * masks (a byte per action) or as packed masks (a bit per action, least significant bit first).
 */
export const MASK_MODES = ['none', 'list', 'dense', 'packed'] as const;

/** One of {@link MASK_MODES}. */
export type MaskMode = (typeof MASK_MODES)[number];

/**
 * Which observations a batch carries: none, the float32 tensor (`true` in a request means this),
 * its compact encoding (`writeCompactObservation`), or entity observations (`writeEntityObservation`).
 */
export const OBSERVATION_MODES = ['none', 'float32', 'compact', 'entity'] as const;

/** One of {@link OBSERVATION_MODES}. */
export type ObservationMode = (typeof OBSERVATION_MODES)[number];

/** A vector environment: its simulators, their random sources and the buffers of its batches. */
export interface VecEntry {
  /** Always `'vec'`. */
  readonly kind: 'vec';
  /** Counts as one handle per environment. */
  readonly weight: number;
  /** Estimated bytes: {@link MEMORY_ESTIMATE}.game per environment and one more, and the batch's arrays. */
  readonly bytes: number;
  /** The game every environment plays. */
  readonly game: GameEntry;
  /** Number of environments. */
  readonly n: number;
  /** Whether a finished game is replaced by a new one in the same step. */
  readonly autoReset: boolean;
  /** Which observations batches carry (of the player to decide). */
  readonly observations: ObservationMode;
  /** How batches carry the legal actions. */
  readonly masks: MaskMode;
  /**
   * Environment i's simulator at the initial chance node, cloned for each of its new games: one
   * shared by every environment of a `seed`, one per distinct seed of `seeds`.
   */
  templates: ResearchSimulator[];
  /** The environments (replaced by a clone of their template at a reset). */
  readonly envs: ResearchSimulator[];
  /** One random source per environment: chance outcomes. */
  randoms: RandomSource[];
  /** Who decides in each environment (`TERMINAL_PLAYER`, -4, at the end of a game). */
  readonly player: Int32Array;
  /** Each environment's legal actions, ascending, one list after the other (always kept: `vec_step` checks actions against it). */
  legal: Int32Array;
  /** Environment i's legal actions are `legal[offsets[i] .. offsets[i + 1]]`. */
  readonly offsets: Int32Array;
  /** Dense masks, `n` rows of the game's action count (dense mode only). */
  readonly mask: Uint8Array | null;
  /** Views of `mask`'s rows. */
  readonly maskRows: readonly Uint8Array[];
  /** Packed masks, `n` rows of {@link packedMaskBytes} bytes (packed mode only). */
  readonly maskBits: Uint8Array | null;
  /** Score rewards of the last step, `n` rows of one entry per player. */
  readonly rewards: Float32Array;
  /** Final scores of the games that ended in the last step, else 0. */
  readonly returns: Float32Array;
  /** 1 where the game is over after the last step (with auto-reset: ended in it and was replaced). */
  readonly done: Uint8Array;
  /** Observations, `n` rows of the observation size (with observations only). */
  readonly obs: Float32Array | null;
  /** Views of `obs`'s rows. */
  readonly obsRows: readonly Float32Array[];
  /** Compact observations, a row per environment (compact mode only). */
  readonly compact: CompactObservationBuffers | null;
  /** What each compact row holds, so that a step rewrites only what changed (compact mode only). */
  readonly compactCaches: readonly CompactRowCache[];
  /** Entity observations, one per environment (entity mode only). */
  readonly entities: EntityBuffers | null;
  /** What each entity block holds, so that a step rewrites only what changed (entity mode only). */
  readonly entityCaches: readonly EntityRowCache[];
  /** Scratch space for the actions of a step. */
  readonly actions: Int32Array;
}

/**
 * Bytes of a packed mask of `actions` bits: whole 64-bit words (`8 * ceil(actions / 64)`), so
 * that a row can be read as words (numpy: `.view('<u8')`); the bits past the last action are 0.
 */
export function packedMaskBytes(actions: number): number {
  return 8 * Math.ceil(actions / 64);
}

/** A seed as requests give it: a string or a safe integer (checked by {@link seedField}). */
type Seed = string | number;

/**
 * How a vector environment's games are seeded: one `seed` for all (environment i's chance from
 * `<seed>/<i>`, every game a clone of `newInitialState` of `seed`), or `seeds`, one per environment
 * (environment i's chance from `<seeds[i]>/0`, its games clones of `newInitialState` of
 * `seeds[i]`: exactly the one-environment vector environment of `seed: seeds[i]`).
 */
type Seeding = { readonly seed: Seed } | { readonly seeds: readonly Seed[] };

/**
 * The `seed` or `seeds` field of `vec_make` for `n` environments: exactly one of them. `seed` and
 * each of `seeds` are checked as seeds are (`options/seed`, naming the index); an absent seed is
 * `options/seed` too; `seeds` not an array of `n`, or both fields, `protocol/request`.
 */
function seedingField(req: Request, n: number): Checked<Seeding> {
  const list = req['seeds'];
  if (list === undefined) {
    const seed = seedField(req, 'seed', true);
    if (!seed.ok) return err({ code: seed.error.code, message: `${seed.error.message} (or 'seeds', one per environment)` });
    return ok({ seed: seed.value! });
  }
  if (req['seed'] !== undefined) return refuse('protocol/request', `give 'seed' or 'seeds', not both`);
  if (!Array.isArray(list)) return refuse('protocol/request', `'seeds' must be an array of ${n} seeds, one per environment, got ${show(list)}`);
  if (list.length !== n) return refuse('protocol/request', `'seeds' must have one seed per environment (${n}), got ${list.length}`);
  const seeds: Seed[] = [];
  for (let i = 0; i < n; i++) {
    const seed = seedField({ [`seeds[${i}]`]: list[i] as unknown }, `seeds[${i}]`, true);
    if (!seed.ok) return seed;
    seeds.push(seed.value!);
  }
  return ok({ seeds });
}

/** The random sources of a seeding: `<seed>/0`, `<seed>/1`, ..., or `<seeds[0]>/0`, `<seeds[1]>/0`, ... */
function randomSources(seeding: Seeding, n: number): RandomSource[] {
  if ('seed' in seeding) return Array.from({ length: n }, (_, i) => createRandomSource(`${String(seeding.seed)}/${i}`));
  return seeding.seeds.map((s) => createRandomSource(`${String(s)}/0`));
}

/** The templates of a seeding: one for a `seed`, one per distinct seed of `seeds` (equal seeds share one). */
function templatesOf(game: GameEntry, seeding: Seeding, n: number): ResearchSimulator[] {
  const make = (seed: Seed): ResearchSimulator => createResearchSimulator(game.rules, newInitialState(game.rules, { players: game.players, seed }));
  if ('seed' in seeding) return new Array<ResearchSimulator>(n).fill(make(seeding.seed));
  const made = new Map<string, ResearchSimulator>();
  return seeding.seeds.map((s) => {
    // A string seed and a number seed of the same text are different seeds to the library.
    const key = `${typeof s}:${String(s)}`;
    let t = made.get(key);
    if (t === undefined) made.set(key, (t = make(s)));
    return t;
  });
}

/** How many distinct templates a seeding has (what its memory estimate counts). */
function templateCount(seeding: Seeding): number {
  return 'seed' in seeding ? 1 : new Set(seeding.seeds.map((s) => `${typeof s}:${String(s)}`)).size;
}

/** A new game in environment i, its chance nodes resolved: it stands at a player's decision. */
function newEpisode(v: VecEntry, i: number): void {
  const sim = v.templates[i]!.clone();
  const random = v.randoms[i]!;
  while (sim.isChanceNode()) sim.applyRandom(random);
  v.envs[i] = sim;
}

/**
 * Clears every environment's mask (dense or packed) of the actions its legal list holds: the
 * masks' bits of the last batch, before the next is written (a whole packed row is 10 KB, its
 * set bits a few dozen).
 */
function clearMasks(v: VecEntry): void {
  const { legal, offsets } = v;
  if (v.mask !== null) {
    const mask = v.mask;
    const A = v.game.actions;
    for (let i = 0; i < v.n; i++) {
      const row = i * A;
      for (let j = offsets[i]!; j < offsets[i + 1]!; j++) mask[row + legal[j]!] = 0;
    }
  } else if (v.maskBits !== null) {
    const bits = v.maskBits;
    const width = packedMaskBytes(v.game.actions);
    for (let i = 0; i < v.n; i++) {
      const start = i * width;
      for (let j = offsets[i]!; j < offsets[i + 1]!; j++) bits[start + (legal[j]! >> 3)] = 0;
    }
  }
}

/**
 * Writes environment i's part of the batch (who decides, its legal actions from `at` on, its mask
 * and observation); returns where the next environment's legal actions start. Its mask must hold
 * no bit on entry ({@link clearMasks}).
 */
function writeEnv(v: VecEntry, i: number, at: number): number {
  const sim = v.envs[i]!;
  v.player[i] = sim.currentPlayer();
  v.offsets[i] = at;
  const list = sim.legalActions();
  let legal = v.legal;
  if (at + list.length > legal.length) {
    const grown = new Int32Array(Math.max(2 * legal.length, at + list.length));
    grown.set(legal.subarray(0, at));
    legal = v.legal = grown;
  }
  legal.set(list, at);
  if (v.mask !== null) {
    const row = v.maskRows[i]!;
    for (let j = 0; j < list.length; j++) row[list[j]!] = 1;
  } else if (v.maskBits !== null) {
    const bits = v.maskBits;
    const start = i * packedMaskBytes(v.game.actions);
    for (let j = 0; j < list.length; j++) {
      const a = list[j]!;
      bits[start + (a >> 3)]! |= 1 << (a & 7);
    }
  }
  const observer = sim.isTerminal() ? 0 : sim.currentPlayer();
  if (v.obs !== null) writeObservationTensor(v.game.rules, sim.state, observer, v.obsRows[i]!);
  else if (v.compact !== null) writeCompactObservationCached(v.game.rules, sim.state, observer, v.compact, i, list, v.compactCaches[i]!);
  else if (v.entities !== null) writeEntityObservationCached(v.game.rules, sim.state, observer, v.entities, i, v.entityCaches[i]!);
  return at + list.length;
}

/** Writes the batch's part of every environment. */
function writeBatch(v: VecEntry): void {
  let at = 0;
  for (let i = 0; i < v.n; i++) at = writeEnv(v, i, at);
  v.offsets[v.n] = at;
}

/** The batch as a response: binary arrays of the buffers (stringify it before the next step). */
function batch(v: VecEntry): Record<string, unknown> {
  const P = v.game.players;
  const out: Record<string, unknown> = { current_player: new BinaryArray(v.player) };
  if (v.masks === 'list') out['legal'] = { actions: new BinaryArray(v.legal.subarray(0, v.offsets[v.n]!)), offsets: new BinaryArray(v.offsets) };
  else if (v.mask !== null) out['mask'] = new BinaryArray(v.mask, [v.n, v.game.actions]);
  else if (v.maskBits !== null) out['mask_bits'] = new BinaryArray(v.maskBits, [v.n, packedMaskBytes(v.game.actions)]);
  out['rewards'] = new BinaryArray(v.rewards, [v.n, P]);
  out['done'] = new BinaryArray(v.done);
  out['returns'] = new BinaryArray(v.returns, [v.n, P]);
  if (v.obs !== null) out['observations'] = new BinaryArray(v.obs, [v.n, v.game.spec.size]);
  else if (v.compact !== null) {
    const c = v.game.spec.compact;
    out['compact_observations'] = {
      bits: new BinaryArray(v.compact.bits, [v.n, c.bitBytes]),
      counts: new BinaryArray(v.compact.counts, [v.n, c.countBytes]),
      vector: new BinaryArray(v.compact.vector, [v.n, c.vector]),
    };
  } else if (v.entities !== null) {
    const e = entitySpec(v.game.rules, v.game.players);
    out['entity_observations'] = {
      rows: new BinaryArray(v.entities.rows, [v.n, e.maxRows, e.columns.length]),
      mask: new BinaryArray(v.entities.mask, [v.n, e.maxRows]),
      vector: new BinaryArray(v.entities.vector, [v.n, e.vector]),
    };
  }
  return out;
}

/** Starts a new game in every environment; rewards, returns and done are 0. */
function resetAll(v: VecEntry): void {
  v.mask?.fill(0);
  v.maskBits?.fill(0);
  for (let i = 0; i < v.n; i++) newEpisode(v, i);
  v.rewards.fill(0);
  v.returns.fill(0);
  v.done.fill(0);
  writeBatch(v);
}

/** Bytes of one observation in a batch. */
function observationBytes(game: GameEntry, observations: ObservationMode): number {
  const c = game.spec.compact;
  if (observations === 'entity') {
    const e = entitySpec(game.rules, game.players);
    return e.maxRows * (4 * e.columns.length + 1) + 4 * e.vector;
  }
  return observations === 'float32' ? 4 * game.spec.size : observations === 'compact' ? c.bitBytes + c.countBytes + 4 * c.vector : 0;
}

/** Bytes of one mask in a batch. */
function maskBytes(game: GameEntry, masks: MaskMode): number {
  return masks === 'dense' ? game.actions : masks === 'packed' ? packedMaskBytes(game.actions) : 0;
}

/** Bytes of one batch's fixed-size arrays (the legal-action list aside). */
function batchBytes(game: GameEntry, n: number, masks: MaskMode, observations: ObservationMode): number {
  return n * (4 + 4 + 1 + 8 * game.players + maskBytes(game, masks) + observationBytes(game, observations)) + 4;
}

/** The `observations` field of `vec_make`: false or absent (none), true (float32), or one of {@link OBSERVATION_MODES}. */
function observationField(req: Request): Checked<ObservationMode> {
  const v = req['observations'];
  if (v === undefined || v === false) return ok('none');
  if (v === true) return ok('float32');
  return enumField(req, 'observations', OBSERVATION_MODES);
}

function makeVec(req: Request, handles: Handles): Checked<Record<string, unknown>> {
  const g = handles.get(req['game_id'], 'game', 'game_id');
  if (!g.ok) return g;
  const game = g.value;
  const n = intField(req, 'num_envs', 1, handles.limits.numEnvs, undefined, 'protocol/too-large');
  if (!n.ok) return n;
  const seeding = seedingField(req, n.value);
  if (!seeding.ok) return seeding;
  const autoReset = boolField(req, 'auto_reset', true);
  if (!autoReset.ok) return autoReset;
  const observations = observationField(req);
  if (!observations.ok) return observations;
  const masks = enumField(req, 'masks', MASK_MODES, 'list');
  if (!masks.ok) return masks;
  const N = n.value;
  const bytes = batchBytes(game, N, masks.value, observations.value);
  if (bytes > LIMITS.batchBytes) {
    return refuse('protocol/too-large', `a batch of ${N} environments with these options needs ${bytes} bytes of arrays, over the limit of ${LIMITS.batchBytes}: fewer environments, packed masks or compact observations`);
  }
  // Checked before any game is built: a refused vec_make costs nothing.
  // A game per environment and one per template.
  const estimate = (N + templateCount(seeding.value)) * MEMORY_ESTIMATE.game + bytes;
  const fits = handles.room(N, estimate, `a vector environment of ${N} environments`);
  if (!fits.ok) return fits;
  const P = game.players;
  const A = game.actions;
  const size = game.spec.size;
  const mask = masks.value === 'dense' ? new Uint8Array(N * A) : null;
  const obs = observations.value === 'float32' ? new Float32Array(N * size) : null;
  const c = game.spec.compact;
  const compact = observations.value === 'compact' ? { bits: new Uint8Array(N * c.bitBytes), counts: new Uint8Array(N * c.countBytes), vector: new Float32Array(N * c.vector) } : null;
  const e = entitySpec(game.rules, P);
  const entities =
    observations.value === 'entity' ? { rows: new Float32Array(N * e.maxRows * e.columns.length), mask: new Uint8Array(N * e.maxRows), vector: new Float32Array(N * e.vector) } : null;
  const v: VecEntry = {
    kind: 'vec',
    weight: N,
    bytes: estimate,
    game,
    n: N,
    autoReset: autoReset.value,
    observations: observations.value,
    masks: masks.value,
    templates: templatesOf(game, seeding.value, N),
    envs: new Array<ResearchSimulator>(N),
    randoms: randomSources(seeding.value, N),
    player: new Int32Array(N),
    legal: new Int32Array(64 * N),
    offsets: new Int32Array(N + 1),
    mask,
    maskRows: mask === null ? [] : Array.from({ length: N }, (_, i) => mask.subarray(i * A, (i + 1) * A)),
    maskBits: masks.value === 'packed' ? new Uint8Array(N * packedMaskBytes(A)) : null,
    rewards: new Float32Array(N * P),
    returns: new Float32Array(N * P),
    done: new Uint8Array(N),
    obs,
    obsRows: obs === null ? [] : Array.from({ length: N }, (_, i) => obs.subarray(i * size, (i + 1) * size)),
    compact,
    compactCaches: compact === null ? [] : Array.from({ length: N }, () => createCompactRowCache()),
    entities,
    entityCaches: entities === null ? [] : Array.from({ length: N }, () => createEntityRowCache()),
    actions: new Int32Array(N),
  };
  resetAll(v);
  const id = handles.add('v', v);
  if (!id.ok) return id;
  return ok({ env_id: id.value, num_envs: N, players: P, ...batch(v) });
}

/**
 * One step of every environment: each plays its action (ignored for an environment whose game
 * is over and not reset), then its chance nodes are resolved; a finished game reports its final
 * scores and, with auto-reset, is replaced by a new one. All actions are checked first: one
 * illegal action refuses the whole step and changes nothing.
 */
function stepVec(req: Request, handles: Handles): Checked<Record<string, unknown>> {
  const e = handles.get(req['env_id'], 'vec', 'env_id');
  if (!e.ok) return e;
  const v = e.value;
  const actions = readInt32Array(req['actions'], 'actions', v.actions);
  if (!actions.ok) return actions;
  const { envs, legal, offsets, rewards, returns, done, randoms, n } = v;
  const a = actions.value;
  for (let i = 0; i < n; i++) {
    const sim = envs[i]!;
    if (sim.isTerminal()) continue;
    if (!includesSorted(legal, offsets[i]!, offsets[i + 1]!, a[i]!)) {
      return err(illegalAction(`${String(req['env_id'])} env ${i}`, v.game, sim, a[i]!, legal.subarray(offsets[i]!, offsets[i + 1]!)));
    }
  }
  // Each environment is stepped and its part of the batch written at once, while its state is
  // in the cache (the actions were all checked above: the old legal lists are no longer needed
  // once they have cleared the masks).
  clearMasks(v);
  const P = v.game.players;
  let at = 0;
  for (let i = 0; i < n; i++) {
    const sim = envs[i]!;
    const row = i * P;
    if (sim.isTerminal()) {
      // Without auto-reset a finished game stays finished: nothing more to reward.
      for (let p = 0; p < P; p++) rewards[row + p] = returns[row + p] = 0;
      done[i] = 1;
    } else {
      const before = sim.state.scores;
      for (let p = 0; p < P; p++) rewards[row + p] = -before[p]!;
      sim.applyAction(a[i]!);
      const random = randoms[i]!;
      while (sim.isChanceNode()) sim.applyRandom(random);
      const after = sim.state.scores;
      for (let p = 0; p < P; p++) rewards[row + p]! += after[p]!;
      if (sim.isTerminal()) {
        for (let p = 0; p < P; p++) returns[row + p] = after[p]!;
        done[i] = 1;
        if (v.autoReset) newEpisode(v, i);
      } else {
        for (let p = 0; p < P; p++) returns[row + p] = 0;
        done[i] = 0;
      }
    }
    at = writeEnv(v, i, at);
  }
  offsets[n] = at;
  return ok(batch(v));
}

/** The vector-environment operations by name. */
export const VECTOR_OPS: Readonly<Record<string, Op>> = {
  vec_make: { fields: ['game_id', 'num_envs', 'seed', 'seeds', 'auto_reset', 'observations', 'masks'], run: makeVec },
  vec_reset: {
    // No `seeds` here: the templates of per-environment seeds were counted against the memory
    // limits at vec_make, and a reset cannot grow what its handle was counted for.
    fields: ['env_id', 'seed'],
    run(req, handles) {
      const e = handles.get(req['env_id'], 'vec', 'env_id');
      if (!e.ok) return e;
      const v = e.value;
      const seed = seedField(req, 'seed', false);
      if (!seed.ok) return seed;
      if (seed.value !== undefined) {
        // As a new vec_make with this seed: one template of it, sources <seed>/<i>.
        const seeding = { seed: seed.value };
        v.templates = templatesOf(v.game, seeding, v.n);
        v.randoms = randomSources(seeding, v.n);
      }
      resetAll(v);
      return ok(batch(v));
    },
  },
  vec_step: { fields: ['env_id', 'actions'], run: stepVec },
  vec_close: {
    fields: ['env_id'],
    run(req, handles) {
      const e = handles.get(req['env_id'], 'vec', 'env_id');
      if (!e.ok) return e;
      const n = handles.remove([req['env_id']], 'env_id');
      return n.ok ? ok({ closed: n.value }) : n;
    },
  },
};
