/**
 * `meeplekit serve`: the research interface for any language, as JSON lines over stdin/stdout, or
 * over TCP on 127.0.0.1 with `--port`. The protocol is docs/protocol.md; the server is src/serve/.
 */
import { parseArgs } from 'node:util';
import type { ServeConfig } from '../serve/games.js';
import { LIMITS, PROTOCOL_VERSION, type ServeLimits } from '../serve/request.js';
import { SERVE_HOST, serveStdio, serveTcp } from '../serve/transport.js';
import { CLI_GAMES, EXPANSION_FACTORIES, expansionFactories, loadExpansionModules, moduleLoadMessage, NO_MODULES, type ExpansionModules } from './expansions.js';
import { VERSION } from './version.js';

/** The server's version and modules: the command line's games and expansions. */
export const SERVE_CONFIG: ServeConfig = {
  version: VERSION,
  games: Object.fromEntries(Object.entries(CLI_GAMES).map(([name, g]) => [name, g.make])),
  expansions: EXPANSION_FACTORIES,
};

/**
 * The server's config with the expansions of `--expansion-module` files too (after the built-in
 * ones, in the order given), for `info` to list and `make_game` to build.
 */
export function serveConfig(modules: ExpansionModules = NO_MODULES, limits: Partial<ServeLimits> = {}): ServeConfig {
  return { ...SERVE_CONFIG, expansions: expansionFactories(modules), limits };
}

const MiB = 1024 * 1024;

const USAGE = `usage: meeplekit serve [--port P] [--max-connections N] [--max-memory MIB]
                       [--max-server-memory MIB] [--max-envs N] [--max-bot-iterations N]
                       [--max-bot-ms MS] [--expansion-module FILE]... [--help]
  speaks the meeplekit protocol (version ${PROTOCOL_VERSION}, docs/protocol.md): JSON lines, one request per line,
  one response per line, after a hello line
  without --port: over stdin and stdout, until stdin closes
  --port P: over TCP on ${SERVE_HOST} only (no authentication: never exposed), one session per
            connection; P 0 takes a free port; the first line on stdout says which:
            {"listening":{"host":"${SERVE_HOST}","port":P}}
  --max-connections N: connections served at a time, with --port (default ${LIMITS.connections})
  --max-memory MIB: estimated MiB of the handles of one connection (default ${LIMITS.memoryBytes / MiB})
  --max-server-memory MIB: estimated MiB of the handles of all connections (default ${LIMITS.serverMemoryBytes / MiB})
  --max-envs N: environments of one vector environment, the work of one request (default ${LIMITS.numEnvs})
  --max-bot-iterations N: searches of one bot or analyse request (default ${LIMITS.botIterations})
  --max-bot-ms MS: wall-clock milliseconds of one bot or analyse request: its time_ms, and the
            most any search runs before it answers its best move so far (default ${LIMITS.botMs})
  --expansion-module FILE: load an expansion of your own from an ES module file (repeatable), for
            make_game to build by its id and info to list; the file's code runs with your rights
            (docs/cli.md); no request can load one
`;

/** The limit flags: each flag's key in {@link ServeLimits}, its range and the unit its value is multiplied by. */
const LIMIT_FLAGS = {
  'max-connections': { key: 'connections', max: 10_000, unit: 1 },
  'max-memory': { key: 'memoryBytes', max: 1024 * 1024, unit: MiB },
  'max-server-memory': { key: 'serverMemoryBytes', max: 1024 * 1024, unit: MiB },
  'max-envs': { key: 'numEnvs', max: 65_536, unit: 1 },
  'max-bot-iterations': { key: 'botIterations', max: 1_000_000, unit: 1 },
  'max-bot-ms': { key: 'botMs', max: 3_600_000, unit: 1 },
} as const satisfies Record<string, { key: keyof ServeLimits; max: number; unit: number }>;

/** What `serve`'s arguments ask for. */
export interface ServeArgs {
  /** The TCP port, or null for stdio. */
  readonly port: number | null;
  /** `--help`: print the usage. */
  readonly help: boolean;
  /** The limits the flags set (the others keep their defaults). */
  readonly limits: Partial<ServeLimits>;
  /** The files of `--expansion-module`, in order (not loaded yet). */
  readonly modules: readonly string[];
}

/** Parses `serve`'s arguments, or returns the message for bad ones. */
export function parseServeArgs(args: readonly string[]): ServeArgs | string {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...args],
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
        'max-connections': { type: 'string' },
        'max-memory': { type: 'string' },
        'max-server-memory': { type: 'string' },
        'max-envs': { type: 'string' },
        'max-bot-iterations': { type: 'string' },
        'max-bot-ms': { type: 'string' },
        'expansion-module': { type: 'string', multiple: true, default: [] },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (e) {
    return (e as Error).message;
  }
  if (values.host !== undefined && values.host !== SERVE_HOST && values.host !== 'localhost') {
    return `--host ${values.host}: the server listens on ${SERVE_HOST} only (the protocol has no authentication); reach it from elsewhere through an SSH tunnel`;
  }
  if (values.host !== undefined && values.port === undefined) return '--host needs --port';
  let port: number | null = null;
  if (values.port !== undefined) {
    if (!/^\d{1,5}$/.test(values.port) || Number(values.port) > 65535) return `--port must be a whole number from 0 to 65535, got '${values.port}'`;
    port = Number(values.port);
  }
  if (values['max-connections'] !== undefined && values.port === undefined) return '--max-connections needs --port (over stdio there is one connection)';
  const limits: { -readonly [K in keyof ServeLimits]?: number } = {};
  for (const [flag, { key, max, unit }] of Object.entries(LIMIT_FLAGS)) {
    const v = values[flag as keyof typeof LIMIT_FLAGS];
    if (v === undefined) continue;
    if (!/^\d{1,7}$/.test(v) || Number(v) < 1 || Number(v) > max) return `--${flag} must be a whole number from 1 to ${max}, got '${v}'`;
    limits[key] = Number(v) * unit;
  }
  if (values['expansion-module'].includes('')) return '--expansion-module needs a file name';
  return { port, help: values.help, limits, modules: values['expansion-module'] };
}

/**
 * Runs `meeplekit serve`: resolves to the exit code for `--help` (0), bad arguments or an
 * `--expansion-module` file that does not load (2: before the hello line, nothing served), else
 * to undefined once the server runs (the process ends with it).
 */
export async function runServe(args: readonly string[]): Promise<number | undefined> {
  const parsed = parseServeArgs(args);
  if (typeof parsed === 'string') {
    process.stderr.write(`meeplekit serve: ${parsed}\n${USAGE}`);
    return 2;
  }
  if (parsed.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const modules = await loadExpansionModules(parsed.modules);
  if (!modules.ok) {
    process.stderr.write(`meeplekit serve: ${moduleLoadMessage(modules.error)}\n`);
    return 2;
  }
  const config = serveConfig(modules.value, parsed.limits);
  if (parsed.port === null) {
    serveStdio(config);
    return undefined;
  }
  serveTcp(parsed.port, config).then(
    (server) => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : parsed.port;
      process.stdout.write(`${JSON.stringify({ listening: { host: SERVE_HOST, port } })}\n`);
    },
    (e: Error) => {
      process.stderr.write(`meeplekit serve: cannot listen on ${SERVE_HOST}:${parsed.port}: ${e.message}\n`);
      process.exitCode = 2;
    },
  );
  return undefined;
}
