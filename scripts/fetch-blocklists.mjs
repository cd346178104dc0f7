#!/usr/bin/env node
// Fetches the maintained block lists the worker image ships (infra/docker/render-worker.Dockerfile) into the
// folder given, with the licence texts they are dual licensed under and a README naming them. Any failed
// download fails the build: an image that says it ships EasyList must ship it.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

const FILES = {
  'easylist.txt': 'https://easylist.to/easylist/easylist.txt',
  'easyprivacy.txt': 'https://easylist.to/easylist/easyprivacy.txt',
  'easylist-cookie.txt': 'https://secure.fanboy.co.nz/fanboy-cookiemonster.txt',
  'LICENSE-GPL-3.0.txt': 'https://www.gnu.org/licenses/gpl-3.0.txt',
  'LICENSE-CC-BY-SA-3.0.txt': 'https://creativecommons.org/licenses/by-sa/3.0/legalcode.txt',
};

const README = `easylist.txt, easyprivacy.txt and easylist-cookie.txt are the EasyList authors' lists
(https://easylist.to), dual licensed under the GNU General Public License v3 (LICENSE-GPL-3.0.txt) and the
Creative Commons Attribution-ShareAlike 3.0 licence (LICENSE-CC-BY-SA-3.0.txt), as fetched on ${new Date().toISOString().slice(0, 10)}.
The render worker reads them as BLOCKLIST_FILES (easylist: ads, easyprivacy: trackers) and COOKIE_LIST_FILES.
`;

const dir = process.argv[2];
if (!dir) {
  console.error('usage: node scripts/fetch-blocklists.mjs <folder>');
  process.exit(2);
}
await mkdir(dir, { recursive: true });
for (const [name, url] of Object.entries(FILES)) {
  const res = await fetch(url, { signal: AbortSignal.timeout(60_000) });
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  const text = await res.text();
  if (name.endsWith('.txt') && !name.startsWith('LICENSE') && !/^\[Adblock Plus/m.test(text))
    throw new Error(`${url}: not an adblock list`);
  await writeFile(path.join(dir, name), text);
  console.log(`${name}: ${text.length} bytes from ${url}`);
}
await writeFile(path.join(dir, 'README'), README);
