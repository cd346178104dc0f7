import { readFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * What the worker image installs from Debian (render-worker.Dockerfile's `apt-get install`): not in the
 * lockfile, so not in the package table, yet shipped in the image. Each with the licence Debian's copyright
 * file gives it and how the worker uses it, which is what decides the obligations (a program run beside the
 * worker is not combined with it). A package added to the Dockerfile without a line here fails the test.
 */
export interface SystemPackage {
  licence: string;
  use: string;
}

export const SYSTEM_PACKAGES: Record<string, SystemPackage> = {
  'chromium-headless-shell': {
    licence: 'BSD-3-Clause, with bundled parts under their own licences (LGPL-2.1-or-later, MPL-2.0, MIT…)',
    use: 'the browser every render runs in, started as its own process',
  },
  ffmpeg: {
    licence: 'GPL-2.0-or-later (Debian builds it with --enable-gpl, x264 included)',
    use: 'encodes screenshot videos, run as a separate program (FFMPEG_PATH); never linked into the worker',
  },
  fontconfig: { licence: 'HPND-sell-variant (MIT-style)', use: 'font lookup for Chromium' },
  'fonts-dejavu-core': { licence: 'Bitstream-Vera and public domain', use: 'fonts drawn into images' },
  'fonts-liberation2': { licence: 'OFL-1.1', use: 'fonts drawn into images' },
  'fonts-noto-core': { licence: 'OFL-1.1', use: 'fonts drawn into images' },
  'fonts-noto-cjk': { licence: 'OFL-1.1', use: 'fonts drawn into images' },
  'fonts-noto-color-emoji': { licence: 'OFL-1.1', use: 'fonts drawn into images' },
};

export const WORKER_DOCKERFILE = 'infra/docker/render-worker.Dockerfile';

/** The packages the Dockerfile's `apt-get install` lines name (options and line continuations left out). */
export async function dockerfileAptPackages(root: string): Promise<string[]> {
  const text = (await readFile(path.join(root, WORKER_DOCKERFILE), 'utf8')).replace(/\\\n/g, ' ');
  const names: string[] = [];
  for (const [, args] of text.matchAll(/apt-get install ([^&\n]+)/g)) {
    for (const word of args!.trim().split(/\s+/)) if (!word.startsWith('-')) names.push(word);
  }
  return names;
}

const cell = (text: string) => text.replace(/\|/g, '\\|');

/** The section of THIRD_PARTY_LICENSES.md for them. */
export function renderSystemPackages(): string[] {
  return [
    '## System packages of the worker image',
    '',
    `Installed from Debian by \`${WORKER_DOCKERFILE}\`, with the libraries apt adds for them; each one's full terms are in`,
    "`/usr/share/doc/<package>/copyright` in the image. Whoever distributes the image passes on Debian's source offer for",
    'the GPL and LGPL parts (the source packages are on sources.debian.org).',
    '',
    '| Debian package | Licence | How the worker uses it |',
    '|---|---|---|',
    ...Object.entries(SYSTEM_PACKAGES).map(([name, entry]) => `| ${name} | ${cell(entry.licence)} | ${cell(entry.use)} |`),
    '',
  ];
}
