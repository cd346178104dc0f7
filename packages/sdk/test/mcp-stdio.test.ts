import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { creditsUsed, toolText } from '@render/test-stack/account-calls';
import { repoRoot } from '@render/test-stack/repo-root';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runStdioMcpServer } from '../src/mcp/stdio.ts';
import { verifiedUser } from './helpers/auth-stack.ts';
import { type FullStack, startFullStack } from './helpers/stack.ts';

// `renderapi mcp`: the CLI's stdio MCP server in its own process, driven by the official MCP SDK's client as
// a desktop assistant drives it, calling the real stack over HTTP with an account's API key.

const ROOT = `${repoRoot}/`;
const BIN = fileURLToPath(new URL('../bin/renderapi.mjs', import.meta.url));
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

let stack: FullStack;
let user: Awaited<ReturnType<typeof verifiedUser>>;

beforeAll(async () => {
  stack = await startFullStack('mcp-stdio', { worker: { RENDER_QUEUES: 'html' } });
  user = await verifiedUser(stack.auth, { name: 'Stdio Tester' });
});

afterAll(async () => {
  await stack?.close();
});

async function spawnClient(apiKey: string): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', '--base-url', stack.gateway.url, '--api-key', apiKey],
    cwd: ROOT,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = new Client({ name: 'stdio-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

const used = (): Promise<number> => creditsUsed(stack.gateway.url, user.token);
const textOf = (result: CallToolResult) => toolText(result);

/** Width and height from a PNG's IHDR chunk. */
const pngSize = (bytes: Buffer) => [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];

describe('the stdio MCP server (renderapi mcp)', () => {
  it('lists the tools, renders HTML to a PNG of the requested size charged to the key, and reports refusals', async () => {
    const { client, stderr } = await spawnClient(user.apiKey);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(
        [
          'generate_template_image',
          'list_templates',
          'render_chart',
          'render_code',
          'render_html',
          'render_screenshot',
          'read_page',
          'render_batch',
          'render_svg',
        ].sort(),
      );
      for (const tool of tools) expect(tool.inputSchema.type, tool.name).toBe('object');

      const before = await used();
      const result = (await client.callTool({
        name: 'render_html',
        arguments: { html: '<body style="margin:0;background:#16a34a"></body>', width: 240, height: 120 },
      })) as CallToolResult;
      expect(result.isError ?? false, textOf(result)).toBe(false);
      const image = result.content.find((c) => c.type === 'image');
      expect(image?.type === 'image' && image.mimeType).toBe('image/png');
      const bytes = Buffer.from(image?.type === 'image' ? image.data : '', 'base64');
      expect([...bytes.subarray(0, 8)]).toEqual(PNG_SIGNATURE);
      expect(pngSize(bytes)).toEqual([240, 120]);
      expect(await used()).toBe(before + 1);

      const invalid = (await client.callTool({ name: 'render_html', arguments: { html: '<p>x</p>', format: 'gif' } })) as CallToolResult;
      expect(invalid.isError).toBe(true);
      expect(textOf(invalid)).toContain('format must be one of');
      expect(await used()).toBe(before + 1);

      // A batch over HTTP: its status polled and its archive (a zip) read back through the API's own answers.
      const batch = (await client.callTool({
        name: 'render_batch',
        arguments: {
          items: [
            { kind: 'html', body: { html: '<p>one</p>' } },
            { kind: 'html', body: { html: '<p>two</p>', width: 90 } },
          ],
          defaults: { width: 140, height: 70 },
        },
      })) as CallToolResult;
      expect(batch.isError ?? false, textOf(batch)).toBe(false);
      expect(textOf(batch)).toContain('is done: 2 of 2 items done');
      const sizes = batch.content.flatMap((c) => (c.type === 'image' ? [pngSize(Buffer.from(c.data, 'base64'))] : []));
      expect(sizes).toEqual([
        [140, 70],
        [90, 70],
      ]);
      expect(await used()).toBe(before + 3);
    } catch (err) {
      throw new Error(`${(err as Error).message}\nserver stderr: ${stderr()}`);
    } finally {
      await client.close();
    }
  });

  it('answers a wrong API key with the API’s 401 as a tool error', async () => {
    const { client } = await spawnClient('rk_not-a-real-key');
    try {
      const result = (await client.callTool({ name: 'render_html', arguments: { html: '<p>x</p>' } })) as CallToolResult;
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain('Invalid API key');
      expect(textOf(result)).toContain('HTTP 401');
    } finally {
      await client.close();
    }
  });

  it('refuses to start without an API key or with a base URL that is not http(s)', async () => {
    await expect(runStdioMcpServer({ apiKey: ' ', baseUrl: stack.gateway.url })).rejects.toThrow(/API key is required/);
    await expect(runStdioMcpServer({ apiKey: user.apiKey, baseUrl: 'ftp://example.com' })).rejects.toThrow(/http:\/\/ or https:\/\//);
  });
});
