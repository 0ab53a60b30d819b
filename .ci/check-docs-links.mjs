#!/usr/bin/env node
// Checks the built API site (docs/api, from `npm run docs`) for broken links: every href and src
// of every page that is not an external URL must name a file of the site, and a #fragment must
// name an id (or name) on the page it points to. External-looking links are checked offline for
// what goes wrong in a generated site: a host that is a file name auto-linked by markdown
// (`design.md` becomes http://design.md), a host without a dot, a link to a local server, and a
// URL that does not parse. The external hosts linked are listed. Exits 1, listing them, if any is
// broken.
// Usage: node .ci/check-docs-links.mjs [site directory, default docs/api]
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const site = resolve(process.argv[2] ?? 'docs/api');
if (!existsSync(join(site, 'index.html'))) {
  console.error(`${relative(process.cwd(), site)}/index.html not found: run npm run docs first`);
  process.exit(1);
}

/** Every file under `dir`. */
function files(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)]));
}

const pages = files(site).filter((f) => f.endsWith('.html'));
const idsCache = new Map();
/** The ids and names of the elements of an html page. */
function idsOf(page) {
  let ids = idsCache.get(page);
  if (!ids) {
    const html = readFileSync(page, 'utf8');
    ids = new Set([...html.matchAll(/\s(?:id|name)="([^"]*)"/g)].map((m) => decodeHtml(m[1])));
    idsCache.set(page, ids);
  }
  return ids;
}

function decodeHtml(s) {
  return s.replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>');
}

/**
 * Endings of file names that markdown's auto-linking takes for top-level domains (Moldova's .md,
 * Paraguay's .py, ...) or that name no host at all: a link to `http://<name>.<ending>` is a file
 * name turned into a dead link.
 */
const FILE_ENDINGS = new Set(['md', 'markdown', 'ts', 'tsx', 'mts', 'cts', 'js', 'mjs', 'cjs', 'json', 'txt', 'py', 'sh', 'html', 'svg', 'png', 'yaml', 'yml', 'toml', 'csv', 'lock', 'rs', 'cs']);
const hosts = new Map();

/** Why an external-looking link is dead without fetching it, or null. */
function externalProblem(link) {
  const scheme = link.startsWith('//') ? 'https:' : link.slice(0, link.indexOf(':') + 1).toLowerCase();
  if (!['http:', 'https:'].includes(scheme)) return null; // mailto:, data:, javascript: links are not pages
  let url;
  try {
    url = new URL(link.startsWith('//') ? `https:${link}` : link);
  } catch {
    return 'not a URL';
  }
  const host = url.hostname.toLowerCase();
  hosts.set(host, (hosts.get(host) ?? 0) + 1);
  const labels = host.split('.');
  if (labels.length < 2) return `host "${host}" has no dot: not a public site`;
  if (host === 'localhost' || host.endsWith('.localhost') || /^(127\.|0\.0\.0\.0|\[::1\])/.test(host)) return 'a local server, not reachable by readers';
  if (FILE_ENDINGS.has(labels[labels.length - 1])) return `host "${host}" is a file name auto-linked as a web address: link the file or put it in backticks`;
  return null;
}

const broken = [];
let checked = 0;
for (const page of pages) {
  const html = readFileSync(page, 'utf8');
  for (const m of html.matchAll(/\s(href|src)="([^"]*)"/g)) {
    const link = decodeHtml(m[2]);
    if (/^[a-z][a-z0-9+.-]*:/i.test(link) || link.startsWith('//')) {
      const problem = externalProblem(link);
      if (problem !== null) broken.push(`${relative(site, page)}: ${m[1]}="${link}": ${problem}`);
      continue;
    }
    checked++;
    const hash = link.indexOf('#');
    const path = decodeURIComponent((hash < 0 ? link : link.slice(0, hash)).split('?')[0]);
    const fragment = hash < 0 ? '' : decodeURIComponent(link.slice(hash + 1));
    let target = path === '' ? page : resolve(dirname(page), path);
    // A link to a folder is a link to its index.html (as a web server serves it).
    if (existsSync(target) && statSync(target).isDirectory()) target = join(target, 'index.html');
    const where = `${relative(site, page)}: ${m[1]}="${link}"`;
    if (!(target === site || target.startsWith(site + sep)) || !existsSync(target)) {
      broken.push(`${where}: no such file`);
    } else if (fragment !== '' && target.endsWith('.html') && !idsOf(target).has(fragment)) {
      broken.push(`${where}: no id "${fragment}" on ${relative(site, target)}`);
    }
  }
}

if (broken.length > 0) {
  console.error(`${broken.length} broken link(s) in ${relative(process.cwd(), site)}:\n${broken.join('\n')}`);
  process.exit(1);
}
const external = [...hosts].sort((a, b) => b[1] - a[1]).map(([h, n]) => `${h} (${n})`);
console.log(`docs site: ${checked} local links in ${pages.length} pages, none broken; external hosts: ${external.join(', ') || 'none'}`);
