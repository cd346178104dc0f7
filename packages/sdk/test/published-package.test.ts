import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifiedUser } from './helpers/auth-stack.ts';
import { documentedMcpConfig } from './helpers/docs.ts';
import { type FullStack, startFullStack } from './helpers/stack.ts';

// The SDK as a user gets it: `npm pack` in packages/sdk (its prepack builds dist/), the tarball installed
// with plain npm into empty directories outside the workspace (a project for the library, a global prefix
// for the command), then the library, the CLI and the documented MCP configuration used from there against
// the real stack. npm fetches the tarball's own dependencies from the registry; nothing resolves to this
// checkout.

const run = promisify(execFile);
const DIR = path.resolve(import.meta.dirname, '..');
const ROOT = path.resolve(DIR, '../..');
const NAME = 'render-api-sdk';

/** The environment of a user's shell: none of the npm_* / pnpm_* variables pnpm gives the test process. */
function userEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(npm|pnpm)_/i.test(name)));
  return { ...env, ...extra };
}

const npm = (args: string[], cwd: string) =>
  run('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd, env: userEnv(), timeout: 300_000, maxBuffer: 64 << 20 });

let scratch: string;
let tarball: string;
let tarEntries: string[];
let project: string;
let globalBin: string;
let elsewhere: string;
let home: string;
let stack: FullStack;
let apiKey: string;

async function packAndInstall() {
  await npm(['pack', '--pack-destination', path.join(scratch, 'pack')], DIR);
  const [file, ...others] = await readdir(path.join(scratch, 'pack'));
  expect(others).toEqual([]);
  tarball = path.join(scratch, 'pack', file!);
  tarEntries = (await run('tar', ['-tzf', tarball])).stdout.trim().split('\n');
  // The library in a project, and the command the way the docs say: npm install -g <tarball>.
  await npm(['install', tarball], project);
  await npm(['install', '--global', '--prefix', path.join(scratch, 'global'), tarball], elsewhere);
}

beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'render-api-sdk-install-'));
  expect(path.relative(ROOT, scratch).startsWith('..')).toBe(true);
  project = path.join(scratch, 'project');
  elsewhere = path.join(scratch, 'elsewhere');
  home = path.join(scratch, 'home');
  globalBin = path.join(scratch, 'global', 'bin');
  for (const dir of ['pack', 'project', 'elsewhere', 'home']) await mkdir(path.join(scratch, dir));
  const [, full] = await Promise.all([packAndInstall(), startFullStack('sdk-install', { worker: { RENDER_QUEUES: 'html' } })]);
  stack = full;
  apiKey = (await verifiedUser(stack.auth, { name: 'Install Tester' })).apiKey;
}, 600_000);

afterAll(async () => {
  await stack?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

/** The installed command, with a PATH that holds the global prefix's bin, node and the system only. */
function renderapi(args: string[], env: Record<string, string> = {}) {
  return run(path.join(globalBin, 'renderapi'), args, {
    cwd: elsewhere,
    env: { PATH: `${globalBin}:${path.dirname(process.execPath)}:/usr/bin:/bin`, HOME: home, ...env },
    timeout: 120_000,
  });
}

/** Type errors of `source` compiled in the project as a strict NodeNext consumer of the installed package. */
async function typeErrors(source: string): Promise<string[]> {
  const file = path.join(project, 'consumer.ts');
  await writeFile(file, source);
  const program = ts.createProgram([file], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
    strict: true,
    noEmit: true,
    // Declarations are not checked on their own (the MCP SDK's and zod's take most of a minute); that ours
    // only import what the package installs is checked on the tarball above.
    skipLibCheck: true,
    types: [],
  });
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

const pngSize = (bytes: Buffer) => [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];

describe('the packed package', () => {
  it('holds the built files its exports and bin point at (./mcp included), the licence, and no sources', async () => {
    const packed = JSON.parse(await readFile(path.join(project, 'node_modules', NAME, 'package.json'), 'utf8'));
    expect(path.basename(tarball)).toBe(`${NAME}-${packed.version}.tgz`);
    const files = new Set(tarEntries.map((entry) => entry.replace(/^package\//, '')));
    const targets = [
      ...Object.values<{ types: string; default: string } | string>(packed.exports).flatMap((target) =>
        typeof target === 'string' ? [target] : [target.types, target.default],
      ),
      packed.types,
      ...Object.values<string>(packed.bin),
    ];
    expect(Object.keys(packed.exports)).toEqual(expect.arrayContaining(['.', './mcp']));
    for (const target of targets) expect(files, target).toContain(target.replace(/^\.\//, ''));
    for (const [entry, target] of Object.entries<{ default: string }>(packed.exports).filter(([name]) => name !== './package.json'))
      expect(target.default, entry).toMatch(/^\.\/dist\/.+\.js$/);
    expect([...files].filter((file) => /^(src|test|scripts)\//.test(file) || (file.endsWith('.ts') && !file.endsWith('.d.ts')))).toEqual(
      [],
    );
    expect(packed.bin).toEqual({ renderapi: './bin/renderapi.mjs' });
    expect(packed.license).toBe('Apache-2.0');
    expect(packed.repository).toMatchObject({
      type: 'git',
      url: expect.stringMatching(/^git\+https:\/\/.+\.git$/),
      directory: 'packages/sdk',
    });
    for (const range of Object.values<string>(packed.dependencies)) expect(range).not.toMatch(/^workspace:/);
    expect(await readFile(path.join(project, 'node_modules', NAME, 'LICENSE'), 'utf8')).toBe(
      await readFile(path.join(ROOT, 'LICENSE'), 'utf8'),
    );
  });

  it('has declarations that import only their own files and the packages it depends on (no private workspace package)', async () => {
    const packed = JSON.parse(await readFile(path.join(project, 'node_modules', NAME, 'package.json'), 'utf8'));
    const installed = path.join(project, 'node_modules', NAME);
    const declarations = tarEntries.map((entry) => entry.replace(/^package\//, '')).filter((file) => file.endsWith('.d.ts'));
    expect(declarations.length).toBeGreaterThan(0);
    const external = new Set<string>();
    for (const file of declarations) {
      const text = await readFile(path.join(installed, file), 'utf8');
      for (const [, specifier] of text.matchAll(/(?:from\s+|import\()['"]([^'"]+)['"]/g)) {
        if (specifier!.startsWith('.')) continue;
        external.add(
          specifier!
            .split('/')
            .slice(0, specifier!.startsWith('@') ? 2 : 1)
            .join('/'),
        );
      }
    }
    expect(external.size).toBeGreaterThan(0);
    for (const name of external) expect(Object.keys(packed.dependencies), name).toContain(name);
  });

  it('loads both entries in Node from the installed project', async () => {
    const script = `import { RenderClient, verifyWebhookSignature } from '${NAME}';
import { createRenderMcpServer, runStdioMcpServer } from '${NAME}/mcp';
const server = createRenderMcpServer(async () => ({ status: 200, headers: {}, body: new Uint8Array() }));
console.log(JSON.stringify([typeof RenderClient, typeof verifyWebhookSignature, typeof runStdioMcpServer, typeof server.connect]));`;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: project, env: userEnv() });
    expect(JSON.parse(stdout)).toEqual(['function', 'function', 'function', 'function']);
  });

  it('gives a strict TypeScript consumer the typed API of both entries from the declarations', async () => {
    const good = `import { RenderClient, RenderApiError, verifyWebhookSignature } from '${NAME}';
import { createRenderMcpServer, type ApiCall } from '${NAME}/mcp';
const render = new RenderClient({ apiKey: 'k', baseUrl: 'http://127.0.0.1:1' });
export const png: Promise<Uint8Array> = render.html({ html: '<p>x</p>', width: 400, height: 300, format: 'png' });
export const ok: Promise<boolean> = verifyWebhookSignature({ payload: '{}', header: 't=1,v1=00', secret: 's' });
export const isApiError = (e: unknown) => e instanceof RenderApiError && e.code.length > 0;
const call: ApiCall = async () => ({ status: 200, headers: {}, body: new Uint8Array() });
export const server = createRenderMcpServer(call, { version: '1' });
`;
    expect(await typeErrors(good)).toEqual([]);
    // The declarations carry the contracts' body types: an unknown format is a compile error.
    const bad = `import { RenderClient } from '${NAME}';
new RenderClient({ baseUrl: 'http://127.0.0.1:1' }).html({ html: '<p>x</p>', format: 'gif' });
`;
    expect((await typeErrors(bad)).join('\n')).toMatch(/"gif"/);
  });
});

describe('the installed renderapi command, run from another directory', () => {
  it('prints its help, and each command its own', async () => {
    const overview = await renderapi(['--help']);
    expect(overview.stdout).toMatch(/^renderapi: the render API/);
    expect(overview.stdout).toContain('renderapi <command> --help');
    const html = await renderapi(['html', '--help']);
    expect(html.stdout).toMatch(/^Usage: renderapi html /);
    expect((await renderapi(['--version'])).stdout.trim()).toBe(JSON.parse(await readFile(path.join(DIR, 'package.json'), 'utf8')).version);
  });

  it('renders HTML against the running stack with the key from the environment', async () => {
    await writeFile(path.join(elsewhere, 'page.html'), '<body style="margin:0;background:#2563eb"></body>');
    const { stdout } = await renderapi(['html', 'page.html', '-o', 'page.png', '--width', '320', '--height', '160', '--json'], {
      RENDER_API_KEY: apiKey,
      RENDER_API_URL: stack.gateway.url,
    });
    expect(JSON.parse(stdout)).toMatchObject({ ok: true, file: path.join(elsewhere, 'page.png'), format: 'png', width: 320, height: 160 });
    expect(pngSize(await readFile(path.join(elsewhere, 'page.png')))).toEqual([320, 160]);
  });

  it('serves MCP over stdio when started with the documented configuration: lists the tools and renders', async () => {
    const config = await documentedMcpConfig(path.join(DIR, 'README.md'));
    expect(Object.keys(config.env).sort()).toEqual(['RENDER_API_KEY', 'RENDER_API_URL']);
    // As a client starts it: the command looked up on its PATH (the global bin), in a directory of its own.
    const transport = new StdioClientTransport({
      command: config.command,
      args: config.args,
      env: {
        PATH: `${globalBin}:${path.dirname(process.execPath)}:/usr/bin:/bin`,
        HOME: home,
        RENDER_API_KEY: apiKey,
        RENDER_API_URL: stack.gateway.url,
      },
      cwd: home,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const client = new Client({ name: 'install-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['render_html', 'list_templates', 'generate_template_image']));
      const result = (await client.callTool({
        name: 'render_html',
        arguments: { html: '<body style="margin:0;background:#16a34a"></body>', width: 120, height: 90 },
      })) as CallToolResult;
      expect(result.isError ?? false, stderr).toBe(false);
      const image = result.content.find((part) => part.type === 'image');
      expect(image?.type === 'image' && image.mimeType).toBe('image/png');
      expect(pngSize(Buffer.from(image?.type === 'image' ? image.data : '', 'base64'))).toEqual([120, 90]);
    } finally {
      await client.close();
    }
  });
});
