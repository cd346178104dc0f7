import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';

/**
 * Which code points some installed font has: the union of every font's charset as fontconfig lists it
 * (`fc-list`, run once per process with the fontconfig file Chromium gets). Chromium draws a character
 * with the first font of the element's list that has it and otherwise asks fontconfig for any font that
 * does; a character no installed font has is drawn as a box. One bit per code point: 136 KiB, and a
 * lookup per distinct character of a render.
 */
let settings: { file?: string; env: Readonly<Record<string, string | undefined>> } = { env: {} };
let coverage: Promise<Uint8Array | undefined> | undefined;

/** Set once at start (render.worker.ts), with what Chromium starts with. */
export function configureFontCoverage(file: string | undefined, env: Readonly<Record<string, string | undefined>>): void {
  settings = { file, env };
  coverage = undefined;
}

export function parseCharsets(listing: string): Uint8Array {
  const bits = new Uint8Array(0x110000 >> 3);
  for (const range of listing.split(/\s+/)) {
    if (!range) continue;
    const [from, to] = range.split('-');
    const start = Number.parseInt(from ?? '', 16);
    const end = to === undefined ? start : Number.parseInt(to, 16);
    if (!Number.isFinite(start) || !Number.isFinite(end)) continue;
    for (let cp = start; cp <= Math.min(end, 0x10ffff); cp++) bits[cp >> 3]! |= 1 << (cp & 7);
  }
  return bits;
}

function load(): Promise<Uint8Array | undefined> {
  const env = { ...settings.env, ...(settings.file && existsSync(settings.file) ? { FONTCONFIG_FILE: settings.file } : {}) };
  return new Promise((resolve) => {
    execFile('fc-list', ['--format', '%{charset}\n'], { env, maxBuffer: 64 * 1024 * 1024, timeout: 30_000 }, (err, stdout) => {
      // No fontconfig tools: the glyph check is off rather than wrong.
      if (err || !stdout.trim()) resolve(undefined);
      else resolve(parseCharsets(stdout));
    });
  });
}

/** A test of whether some installed font has a code point; undefined when the fonts could not be listed. */
export async function glyphLookup(): Promise<((cp: number) => boolean) | undefined> {
  coverage ??= load();
  const bits = await coverage;
  return bits && ((cp: number) => (bits[cp >> 3]! & (1 << (cp & 7))) !== 0);
}

/** Starts reading the fonts now, so the first render does not wait for fc-list. */
export function preloadFontCoverage(): Promise<unknown> {
  coverage ??= load();
  return coverage;
}
