import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const DIR = path.resolve(import.meta.dirname, '..');
const DIST = path.join(DIR, 'dist');
const pkg = JSON.parse(readFileSync(path.join(DIR, 'package.json'), 'utf8'));

/** Type errors of `source` compiled as a consumer of the published layout would be (NodeNext, strict). */
function typeErrors(dir: string, source: string): string[] {
  const file = path.join(dir, 'consumer.ts');
  writeFileSync(file, source);
  const program = ts.createProgram([file], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
    strict: true,
    noEmit: true,
    skipLibCheck: false,
    types: [],
  });
  return ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file === undefined || !d.file.fileName.includes('node_modules'))
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

// What `pnpm publish` ships: dist/ (built here as `pnpm build` does) under publishConfig's exports.
describe('the published package layout', () => {
  let scratch: string;
  beforeAll(() => {
    execFileSync(process.execPath, [path.join(DIR, 'scripts/build.mjs')], { cwd: DIR, stdio: 'pipe' });
    scratch = mkdtempSync(path.join(tmpdir(), 'sdk-consumer-'));
  }, 120_000);
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('points publishConfig at files the build wrote, and ships no private workspace dependency', () => {
    const entry = pkg.publishConfig.exports['.'];
    expect(readFileSync(path.join(DIR, entry.default), 'utf8')).toContain('RenderClient');
    expect(readFileSync(path.join(DIR, entry.types), 'utf8')).toContain('RenderClient');
    for (const range of Object.values<string>(pkg.dependencies)) expect(range).not.toMatch(/^workspace:/);
    expect(pkg.files).toEqual(expect.arrayContaining(['bin', 'dist']));
  });

  it('gives a TypeScript consumer the typed API from the declarations', () => {
    const types = pathToFileURL(path.join(DIST, 'types/index.js')).pathname;
    const good = `import { RenderClient, RenderApiError, verifyWebhookSignature } from '${types}';
const render = new RenderClient({ apiKey: 'k', baseUrl: 'http://127.0.0.1:1' });
export const png: Promise<Uint8Array> = render.html({ html: '<p>x</p>', width: 400, height: 300, format: 'png' });
export const ok: Promise<boolean> = verifyWebhookSignature({ payload: '{}', header: 't=1,v1=00', secret: 's' });
export const isApiError = (e: unknown) => e instanceof RenderApiError && e.code.length > 0;
`;
    expect(typeErrors(scratch, good)).toEqual([]);
    // The declarations carry the contracts' body types: an unknown format is a compile error.
    const bad = `import { RenderClient } from '${types}';
new RenderClient({ baseUrl: 'http://127.0.0.1:1' }).html({ html: '<p>x</p>', format: 'gif' });
`;
    expect(typeErrors(scratch, bad).join('\n')).toMatch(/"gif"/);
  });

  it('runs the library bundle, and the CLI bundle with the workspace code compiled in', async () => {
    const library = await import(pathToFileURL(path.join(DIST, 'index.js')).href);
    expect(typeof library.RenderClient).toBe('function');
    const cli = readFileSync(path.join(DIST, 'cli.js'), 'utf8');
    expect(cli).not.toMatch(/from\s*["']@render\//);
    const version = execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const { main } = await import(${JSON.stringify(pathToFileURL(path.join(DIST, 'cli.js')).href)}); process.exitCode = await main(['--version']);`,
      ],
      { encoding: 'utf8' },
    );
    expect(version.trim()).toBe(pkg.version);
  });
});
