import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { precompressDirectory } from '../vite/precompress.plugin.ts';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the build’s precompressed copies', () => {
  it('writes .br and .gz beside text files that decode to the same bytes; leaves binaries, small files and index.html', () => {
    dir = mkdtempSync(join(tmpdir(), 'precompress-'));
    mkdirSync(join(dir, 'assets'));
    const js = `export const rows = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => ({ id: i, label: `row ${i}` })))};\n`;
    const css = `.card { color: #123456; padding: 4px; }\n`.repeat(100);
    writeFileSync(join(dir, 'assets', 'app-1a2b.js'), js);
    writeFileSync(join(dir, 'assets', 'app-1a2b.css'), css);
    writeFileSync(join(dir, 'assets', 'tiny-9f.js'), 'export {}');
    // A PNG is compressed already: left alone whatever its size.
    writeFileSync(join(dir, 'assets', 'logo.png'), Buffer.alloc(4096, 7));
    writeFileSync(join(dir, 'index.html'), `<!doctype html>${'<p>page</p>'.repeat(200)}`);

    const done = precompressDirectory(dir).sort();
    expect(done).toEqual(['assets/app-1a2b.css', 'assets/app-1a2b.js']);
    for (const [file, text] of [
      ['app-1a2b.js', js],
      ['app-1a2b.css', css],
    ] as const) {
      const brotli = readFileSync(join(dir, 'assets', `${file}.br`));
      const gzip = readFileSync(join(dir, 'assets', `${file}.gz`));
      expect(brotliDecompressSync(brotli).toString()).toBe(text);
      expect(gunzipSync(gzip).toString()).toBe(text);
      expect(brotli.length).toBeLessThan(Buffer.byteLength(text));
    }
    for (const left of ['assets/tiny-9f.js', 'assets/logo.png', 'index.html']) {
      expect(existsSync(join(dir, `${left}.br`)), left).toBe(false);
      expect(existsSync(join(dir, `${left}.gz`)), left).toBe(false);
    }
  });
});
