import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin, ResolvedConfig } from 'vite';

/** Text formats worth compressing; images, fonts (WOFF2 is compressed already) and maps are left alone. */
const TEXT = new Set(['.js', '.mjs', '.css', '.html', '.svg', '.json', '.txt', '.xml', '.webmanifest', '.md']);
/** Below this, the saving does not pay for a second request path (the gateway's own threshold too). */
const MIN_BYTES = 1024;

/**
 * Writes `<file>.br` (brotli, quality 11) and `<file>.gz` (gzip, level 9) beside every text file of `dir` at
 * least MIN_BYTES long whose copy comes out smaller, and answers the files it compressed (relative paths).
 * The gateway serves these in place of the originals to clients that accept them: the maximum settings cost
 * time once, at build, never per request. `index.html` is skipped: the gateway adds the runtime config to it at
 * boot and compresses that.
 */
export function precompressDirectory(dir: string): string[] {
  const done: string[] = [];
  const visit = (path: string) => {
    for (const name of readdirSync(path)) {
      const file = join(path, name);
      if (statSync(file).isDirectory()) {
        visit(file);
        continue;
      }
      const rel = relative(dir, file);
      if (rel === 'index.html' || !TEXT.has(extname(name))) continue;
      const bytes = readFileSync(file);
      if (bytes.length < MIN_BYTES) continue;
      const br = brotliCompressSync(bytes, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
      });
      const gz = gzipSync(bytes, { level: 9 });
      if (br.length < bytes.length) writeFileSync(`${file}.br`, br);
      if (gz.length < bytes.length) writeFileSync(`${file}.gz`, gz);
      done.push(rel);
    }
  };
  visit(dir);
  return done;
}

/** The build's last step: `precompressDirectory` over the output directory. */
export function precompress(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'render:precompress',
    // The client build only: the prerender's server bundle (--ssr) is neither published nor compressed.
    apply: (_config, env) => env.command === 'build' && !env.isSsrBuild,
    configResolved(resolved) {
      config = resolved;
    },
    closeBundle() {
      const outDir = join(config.root, config.build.outDir);
      const files = precompressDirectory(outDir);
      config.logger.info(`precompressed ${files.length} files (.br, .gz)`);
    },
  };
}
