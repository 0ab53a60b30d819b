#!/usr/bin/env node
// The release dry run (RELEASING.md): what a maintainer's `changeset version` and `npm publish`
// would do, checked without publishing or touching the repository.
//
// 1. `changeset status`: the pending changesets and the version they call for.
// 2. `changeset version` in a scratch copy of the repository's files: package.json's version
//    becomes the one status announced, CHANGELOG.md gains a section headed by that version that
//    holds the first line of every pending changeset, and the changeset files are consumed.
// 3. `npm pack --dry-run --json` on the repository: the tarball holds package.json, README.md,
//    CHANGELOG.md, LICENSE and dist/ only; every target of `exports`, `main`, `module`, `types`
//    and `bin` is in it; its size is printed (docs/benchmarks.md records it).
// 4. publishConfig: public access and provenance.
//
// Needs `npm run build` first (dist/ is what is packed). Exits 1, listing what is wrong.
// Usage: node scripts/check-release.mjs [--json]
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const problems = [];
const problem = (text) => problems.push(text);
const run = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, npm_config_update_notifier: 'false' } });
const changesetBin = join(root, 'node_modules', '@changesets', 'cli', 'bin.js');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

// 1. What the pending changesets call for.
const scratch = mkdtempSync(join(tmpdir(), 'meeplekit-release-'));
let status;
try {
  run(process.execPath, [changesetBin, 'status', `--output=${join(scratch, 'status.json')}`], root);
  status = JSON.parse(readFileSync(join(scratch, 'status.json'), 'utf8'));
} catch (e) {
  rmSync(scratch, { recursive: true, force: true });
  console.error(`changeset status failed: ${e.stderr || e.message}`);
  process.exit(1);
}
const release = status.releases.find((r) => r.name === pkg.name);
const pending = status.changesets;

// 2. `changeset version` in a scratch copy: the tracked files as they are in the work tree.
const copy = join(scratch, 'repo');
let after = null;
let changelogAfter = '';
try {
  const tracked = run('git', ['ls-files', '-z'], root).split('\0').filter((f) => f !== '' && existsSync(join(root, f)));
  for (const f of tracked) cpSync(join(root, f), join(copy, f));
  // Pending changeset files not yet committed count too (a contributor runs this before committing).
  for (const f of readdirSync(join(root, '.changeset'))) cpSync(join(root, '.changeset', f), join(copy, '.changeset', f));
  symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'), 'dir');
  run('git', ['init', '-q'], copy); // changesets reads the repository's root from git
  run(process.execPath, [changesetBin, 'version'], copy);
  after = JSON.parse(readFileSync(join(copy, 'package.json'), 'utf8'));
  changelogAfter = readFileSync(join(copy, 'CHANGELOG.md'), 'utf8');
  const left = readdirSync(join(copy, '.changeset')).filter((f) => f.endsWith('.md') && f !== 'README.md');
  if (left.length > 0) problem(`changeset version left ${left.length} changeset file(s): ${left.join(', ')}`);
} catch (e) {
  problem(`changeset version failed in a scratch copy: ${e.stderr || e.message}`);
}

if (pending.length === 0) {
  if (after !== null && after.version !== pkg.version) problem(`no changeset is pending, yet changeset version moved ${pkg.version} to ${after.version}`);
} else if (release === undefined) {
  problem(`${pending.length} changeset(s) pending, but changeset status releases nothing of ${pkg.name}`);
} else if (after !== null) {
  if (release.oldVersion !== pkg.version) problem(`changeset status starts from ${release.oldVersion}, package.json says ${pkg.version}`);
  if (after.version !== release.newVersion) problem(`changeset version wrote ${after.version}, changeset status announced ${release.newVersion} (${release.type})`);
  const heading = `\n## ${release.newVersion}\n`;
  const at = changelogAfter.indexOf(heading);
  if (at < 0) problem(`CHANGELOG.md has no "## ${release.newVersion}" section after changeset version`);
  else {
    const next = changelogAfter.indexOf('\n## ', at + heading.length);
    const section = changelogAfter.slice(at, next < 0 ? undefined : next);
    for (const c of pending) {
      const first = c.summary.split('\n')[0].trim();
      if (!section.includes(first)) problem(`CHANGELOG.md's ${release.newVersion} section lacks changeset ${c.id}: "${first.slice(0, 80)}"`);
    }
  }
  const before = readFileSync(join(root, 'CHANGELOG.md'), 'utf8');
  if (!changelogAfter.startsWith(before.split('\n')[0])) problem('CHANGELOG.md lost its first line');
}
rmSync(scratch, { recursive: true, force: true });

// 3. The tarball.
let tarball;
try {
  tarball = JSON.parse(run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], root))[0];
} catch (e) {
  console.error(`npm pack --dry-run failed: ${e.stderr || e.message}`);
  process.exit(1);
}
const files = new Set(tarball.files.map((f) => f.path));
const allowed = (p) => p.startsWith('dist/') || ['package.json', 'README.md', 'CHANGELOG.md', 'LICENSE'].includes(p);
for (const p of files) if (!allowed(p)) problem(`the tarball holds ${p}: only dist/, README.md, CHANGELOG.md and LICENSE belong in it`);
for (const p of ['package.json', 'README.md', 'CHANGELOG.md', 'LICENSE']) if (!files.has(p)) problem(`the tarball lacks ${p}`);

/** Every file path named by a field of package.json that resolves into the package. */
function targets(value, where, out) {
  if (typeof value === 'string') {
    if (value.startsWith('./') || !value.includes(':')) out.push([where, value.replace(/^\.\//, '')]);
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) targets(v, `${where}.${k}`, out);
  }
  return out;
}
const named = [
  ...targets(pkg.exports, 'exports', []),
  ...targets({ main: pkg.main, module: pkg.module, types: pkg.types }, 'package', []),
  ...targets(typeof pkg.bin === 'string' ? { [pkg.name]: pkg.bin } : pkg.bin, 'bin', []),
];
for (const [where, path] of named) if (!files.has(path)) problem(`${where} names ${path}, which is not in the tarball (run npm run build first?)`);

// 4. Ready for provenance.
if (pkg.publishConfig?.access !== 'public') problem('publishConfig.access must be "public"');
if (pkg.publishConfig?.provenance !== true) problem('publishConfig.provenance must be true');

const summary = {
  version: pkg.version,
  next: release ? { version: release.newVersion, type: release.type } : null,
  pendingChangesets: pending.length,
  tarball: { bytes: tarball.size, unpackedBytes: tarball.unpackedSize, files: tarball.entryCount, mapBytes: tarball.files.filter((f) => f.path.endsWith('.map')).reduce((n, f) => n + f.size, 0) },
  exportsChecked: named.length,
};
if (process.argv.includes('--json')) console.log(JSON.stringify(summary, null, 2));
if (problems.length > 0) {
  console.error(`release dry run: ${problems.length} problem(s):\n${problems.map((p) => `- ${p}`).join('\n')}`);
  process.exit(1);
}
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
console.log(
  `release dry run: ${pending.length} pending changeset(s) take ${pkg.version} to ${summary.next?.version ?? pkg.version}` +
    `${summary.next ? ` (${summary.next.type})` : ''}, CHANGELOG.md gains its section; tarball ${kb(tarball.size)} packed, ` +
    `${kb(tarball.unpackedSize)} unpacked (${kb(summary.tarball.mapBytes)} of source maps), ${tarball.entryCount} files, ` +
    `all ${named.length} package.json targets present`,
);
