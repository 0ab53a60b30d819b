/**
 * A PostgreSQL database for the tests: MEEPLEKIT_PG_URL if set; otherwise a throw-away cluster
 * started here when Debian's postgresql package is installed (initdb and pg_ctl under
 * /usr/lib/postgresql/<version>/bin), removed after the file; otherwise none, and the file's
 * PostgreSQL tests are skipped with the reason this module gives.
 */
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';

function findPgBin(): string | null {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return null;
  for (const version of readdirSync(base).sort().reverse()) {
    const bin = join(base, version, 'bin');
    if (existsSync(join(bin, 'initdb')) && existsSync(join(bin, 'pg_ctl'))) return bin;
  }
  return null;
}

const given = process.env['MEEPLEKIT_PG_URL'];
const bin = given ? null : findPgBin();

/** Whether a database can be had; when not, `pgSkipReason` says why. */
export const pgAvailable = Boolean(given) || bin !== null;

/** Why the PostgreSQL tests are skipped, or null when they run. */
export const pgSkipReason: string | null = pgAvailable
  ? null
  : 'no PostgreSQL: set MEEPLEKIT_PG_URL, or install Debian\'s postgresql package (initdb and pg_ctl under /usr/lib/postgresql/<version>/bin)';

/** initdb refuses to run as root: as root, run PostgreSQL's tools as the postgres user. */
function pgTool(tool: string, args: string[]): void {
  const asRoot = userInfo().uid === 0;
  const [cmd, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', join(bin!, tool), ...args]] : [join(bin!, tool), args];
  execFileSync(cmd, argv, { stdio: 'ignore' });
}

/**
 * The database for this test file (registers its beforeAll and afterAll): `url` is set once the
 * file's tests start. Call it at the top of a test file.
 */
export function postgresForFile(): { readonly url: string } {
  let url = given ?? '';
  let cluster: string | null = null;
  beforeAll(async () => {
    if (!pgAvailable || given) return;
    cluster = mkdtempSync(join(tmpdir(), 'meeplekit-pg-'));
    if (userInfo().uid === 0) chownSync(cluster, Number(execFileSync('id', ['-u', 'postgres']).toString()), Number(execFileSync('id', ['-g', 'postgres']).toString()));
    const port = 20000 + Math.floor(Math.random() * 20000);
    pgTool('initdb', ['-D', join(cluster, 'data'), '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
    pgTool('pg_ctl', ['-D', join(cluster, 'data'), '-o', `-p ${port} -c listen_addresses=127.0.0.1 -k ${cluster}`, '-l', join(cluster, 'log'), '-w', 'start']);
    url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  });
  afterAll(async () => {
    if (cluster === null) return;
    try {
      pgTool('pg_ctl', ['-D', join(cluster, 'data'), '-m', 'immediate', 'stop']);
    } finally {
      rmSync(cluster, { recursive: true, force: true });
    }
  });
  return {
    get url() {
      return url;
    },
  };
}
