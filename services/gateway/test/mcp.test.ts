import { mkdirSync, writeFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { seedStarterTemplates } from '@render/templates/starters/seed';
import { STARTER_TEMPLATES } from '@render/templates/starters/starters';
import { creditsUsed, toolText } from '@render/test-stack/account-calls';
import { decodePng, PNG_SIGNATURE } from '@render/test-stack/images';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifiedUser } from './helpers/auth-stack.ts';
import { type FullStack, startFullStack } from './helpers/stack.ts';

// POST /api/mcp with the official MCP SDK's client over a real socket, against the whole stack (account
// and templates services, a real render worker): the tools go through the public routes, billed as them.

const SHOTS = '/tmp/h6-shots';
const TOOLS = [
  'render_html',
  'render_svg',
  'render_chart',
  'render_code',
  'render_screenshot',
  'read_page',
  'render_batch',
  'list_templates',
  'generate_template_image',
];

let stack: FullStack;
let user: Awaited<ReturnType<typeof verifiedUser>>;

beforeAll(async () => {
  stack = await startFullStack('mcp', { worker: { RENDER_QUEUES: 'html,svg' } });
  // Straight into the database, through the account service's pool (the stacks share one database).
  await seedStarterTemplates(stack.auth.db);
  user = await verifiedUser(stack.auth, { name: 'Mcp Tester' });
});

afterAll(async () => {
  await stack?.close();
});

async function connect(headers: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'mcp-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${stack.gateway.url}/api/mcp`), { requestInit: { headers } });
  await client.connect(transport);
  return client;
}

const used = (): Promise<number> => creditsUsed(stack.gateway.url, user.token);
const textOf = (result: CallToolResult) => toolText(result);

function imageOf(result: CallToolResult): { bytes: Buffer; mimeType: string } {
  const image = result.content.find((c) => c.type === 'image');
  if (!image) throw new Error(`no image content: ${JSON.stringify(result).slice(0, 500)}`);
  return { bytes: Buffer.from(image.data, 'base64'), mimeType: image.mimeType };
}

/** A pixel within a few levels of an RGB colour (the page's background as Chromium paints it). */
const near = (rgba: number[], rgb: number[]) => rgb.every((value, i) => Math.abs((rgba[i] ?? -99) - value) <= 4);

function save(name: string, bytes: Buffer) {
  mkdirSync(SHOTS, { recursive: true });
  writeFileSync(`${SHOTS}/${name}`, bytes);
}

describe('POST /api/mcp (streamable HTTP)', () => {
  it('lists every tool with a JSON Schema input taken from the contracts', async () => {
    const client = await connect({ 'x-api-key': user.apiKey });
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual([...TOOLS].sort());
      for (const tool of tools) {
        expect(tool.inputSchema.type, tool.name).toBe('object');
        expect(Object.keys(tool.inputSchema.properties ?? {}).length, tool.name).toBeGreaterThan(0);
        expect(tool.description?.length, tool.name).toBeGreaterThan(80);
        const schema = JSON.stringify(tool.inputSchema);
        // The gateway's own keywords and the fields the tools fill in themselves are not offered.
        expect(schema).not.toContain('x-messages');
        expect(schema).not.toContain('"$id"');
        expect(tool.inputSchema.properties, tool.name).not.toHaveProperty('webhook');
        expect(tool.inputSchema.properties, tool.name).not.toHaveProperty('output');
        expect(tool.inputSchema.properties, tool.name).not.toHaveProperty('outputType');
        expect(tool.inputSchema, tool.name).not.toHaveProperty('allOf');
      }
      const html = tools.find((t) => t.name === 'render_html')!;
      // Defaulted fields are optional to a caller; the HTML itself is required.
      expect(html.inputSchema.required).toEqual(['html']);
      expect(html.inputSchema.properties?.width).toMatchObject({ type: 'integer', minimum: 50, maximum: 4000, default: 800 });
      expect(tools.find((t) => t.name === 'generate_template_image')!.inputSchema.required).toEqual(['templateId']);
      expect(tools.find((t) => t.name === 'list_templates')!.annotations).toMatchObject({ readOnlyHint: true });
      // A batch takes items or the id of a batch to wait for again, so neither is required by the schema.
      const batch = tools.find((t) => t.name === 'render_batch')!;
      expect(batch.inputSchema.required ?? []).toEqual([]);
      expect(Object.keys(batch.inputSchema.properties ?? {}).sort()).toEqual(['batchId', 'defaults', 'items', 'waitSeconds']);
      expect(html.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    } finally {
      await client.close();
    }
  });

  it('render_html answers image content: a PNG of the requested size, charged one credit', async () => {
    const client = await connect({ authorization: `Bearer ${user.apiKey}` });
    try {
      const before = await used();
      const result = (await client.callTool({
        name: 'render_html',
        arguments: {
          html: '<div style="width:100%;height:100%;background:linear-gradient(90deg,#4f46e5,#06b6d4);color:#fff;font:bold 40px sans-serif;display:flex;align-items:center;justify-content:center">MCP</div><style>html,body{margin:0;height:100%}</style>',
          width: 320,
          height: 200,
        },
      })) as CallToolResult;
      expect(result.isError ?? false, textOf(result)).toBe(false);
      const { bytes, mimeType } = imageOf(result);
      expect(mimeType).toBe('image/png');
      expect(bytes.subarray(0, 8)).toEqual(PNG_SIGNATURE);
      const png = decodePng(bytes);
      expect([png.width, png.height]).toEqual([320, 200]);
      // Left edge indigo, right edge cyan: the page itself, not a blank capture.
      expect(png.pixel(2, 100)[2]).toBeGreaterThan(200);
      expect(png.pixel(317, 100)[1]).toBeGreaterThan(150);
      expect(textOf(result)).toContain('PNG 320×200');
      save('mcp-render-html.png', bytes);
      expect(await used()).toBe(before + 1);
    } finally {
      await client.close();
    }
  });

  it('an invalid input is an isError result with the API’s validation message, and is not charged', async () => {
    const client = await connect({ 'x-api-key': user.apiKey });
    try {
      const before = await used();
      const tooSmall = (await client.callTool({ name: 'render_html', arguments: { html: '<p>x</p>', width: 10 } })) as CallToolResult;
      expect(tooSmall.isError).toBe(true);
      expect(textOf(tooSmall)).toContain('width must be between 50 and 4000');
      expect(textOf(tooSmall)).toContain('HTTP 400');
      const empty = (await client.callTool({ name: 'render_html', arguments: {} })) as CallToolResult;
      expect(empty.isError).toBe(true);
      expect(textOf(empty)).toContain('Please enter some HTML content');
      expect(await used()).toBe(before);
    } finally {
      await client.close();
    }
  });

  it('an SVG answer is an embedded resource with the markup', async () => {
    const client = await connect({ 'x-api-key': user.apiKey });
    try {
      const result = (await client.callTool({
        name: 'render_svg',
        arguments: {
          svg: '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><circle cx="5" cy="5" r="4"/></svg>',
          format: 'svg',
          width: 100,
          height: 100,
        },
      })) as CallToolResult;
      expect(result.isError ?? false, textOf(result)).toBe(false);
      const resource = result.content.find((c) => c.type === 'resource');
      expect(resource?.type === 'resource' && resource.resource).toMatchObject({ mimeType: 'image/svg+xml' });
      expect(resource?.type === 'resource' && 'text' in resource.resource ? resource.resource.text : '').toContain('<circle');
    } finally {
      await client.close();
    }
  });

  it('list_templates and generate_template_image work with a seeded starter template', async () => {
    const client = await connect({ 'x-api-key': user.apiKey });
    const starter = STARTER_TEMPLATES[0]!;
    try {
      const list = (await client.callTool({ name: 'list_templates', arguments: { pageSize: '50' } })) as CallToolResult;
      expect(list.isError ?? false, textOf(list)).toBe(false);
      const { templates } = JSON.parse(textOf(list)) as { templates: Array<{ id: string; name: string; variables: unknown[] }> };
      const listed = templates.find((t) => t.id === starter.id);
      expect(listed).toMatchObject({ name: starter.name, width: starter.width, height: starter.height, isPublic: true });
      expect(listed?.variables.length).toBe(starter.variables.length);
      expect(textOf(list)).not.toContain('<svg');

      const before = await used();
      const title = starter.variables.find((v) => v.name === 'title')!;
      const result = (await client.callTool({
        name: 'generate_template_image',
        arguments: { templateId: starter.id, variables: { [title.name]: 'Rendered over MCP' } },
      })) as CallToolResult;
      expect(result.isError ?? false, textOf(result)).toBe(false);
      const { bytes } = imageOf(result);
      const png = decodePng(bytes);
      expect([png.width, png.height]).toEqual([starter.width, starter.height]);
      save('mcp-template.png', bytes);
      expect(await used()).toBe(before + 1);

      const missing = (await client.callTool({
        name: 'generate_template_image',
        arguments: { templateId: '00000000-0000-4000-8000-00000000dead' },
      })) as CallToolResult;
      expect(missing.isError).toBe(true);
      expect(textOf(missing)).toContain('HTTP 404');
    } finally {
      await client.close();
    }
  });

  it('render_batch renders items of several kinds with shared defaults, answers each item’s status and its image, one credit each', async () => {
    const client = await connect({ 'x-api-key': user.apiKey });
    try {
      const before = await used();
      const fill = (color: string) => `<style>html,body{margin:0;height:100%;background:${color}}</style>`;
      const result = (await client.callTool({
        name: 'render_batch',
        arguments: {
          items: [
            { kind: 'html', body: { html: fill('#dc2626') } },
            {
              kind: 'svg',
              body: {
                svg: '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><circle cx="5" cy="5" r="4"/></svg>',
                format: 'svg',
              },
            },
            { kind: 'html', body: { html: fill('#2563eb'), width: 120 } },
          ],
          defaults: { width: 160, height: 90 },
          waitSeconds: 50,
        },
      })) as CallToolResult;
      expect(result.isError ?? false, textOf(result)).toBe(false);
      const [headline, json] = result.content.filter((c) => c.type === 'text').map((c) => (c.type === 'text' ? c.text : ''));
      expect(headline).toMatch(/^Batch [0-9a-f-]{36} is done: 3 of 3 items done, 0 failed\. 3 credits reserved/);
      const summary = JSON.parse(json!) as {
        id: string;
        statusUrl: string;
        archiveUrl: string;
        items: Array<{ status: string; file: string }>;
      };
      expect(summary.items.map((i) => [i.status, i.file])).toEqual([
        ['done', '00.png'],
        ['done', '01.svg'],
        ['done', '02.png'],
      ]);
      expect(summary.statusUrl).toBe(`/api/batches/${summary.id}`);
      expect(summary.archiveUrl).toBe(`/api/batches/${summary.id}/archive`);
      // The images in item order, each after a line naming its item: the defaults' size, unless the item's own wins.
      const images = result.content
        .filter((c) => c.type === 'image')
        .map((c) => decodePng(Buffer.from(c.type === 'image' ? c.data : '', 'base64')));
      expect(images.map((png) => [png.width, png.height])).toEqual([
        [160, 90],
        [120, 90],
      ]);
      expect(near(images[0]!.pixel(80, 45), [220, 38, 38])).toBe(true);
      expect(near(images[1]!.pixel(60, 45), [37, 99, 235])).toBe(true);
      expect(textOf(result)).toContain('items[2] (html, png 120×90): 02.png');
      const svg = result.content.find((c) => c.type === 'resource');
      expect(svg?.type === 'resource' && 'text' in svg.resource ? svg.resource.text : '').toContain('<circle');
      expect(await used()).toBe(before + 3);
    } finally {
      await client.close();
    }
  });

  it('render_batch with waitSeconds 0 answers the batch id, and a call with only batchId waits for it without rendering again', async () => {
    const client = await connect({ 'x-api-key': user.apiKey });
    try {
      const before = await used();
      const started = (await client.callTool({
        name: 'render_batch',
        arguments: { items: [{ kind: 'html', body: { html: '<p>later</p>', width: 100, height: 100 } }], waitSeconds: 0 },
      })) as CallToolResult;
      expect(started.isError ?? false, textOf(started)).toBe(false);
      const { id, status } = JSON.parse(started.content[1]?.type === 'text' ? started.content[1].text : '') as {
        id: string;
        status: string;
      };
      // Whichever state it was read in, a batch not yet done says how to wait for it.
      if (status !== 'done') expect(textOf(started)).toContain(`Call render_batch again with { "batchId": "${id}" }`);
      const waited = (await client.callTool({ name: 'render_batch', arguments: { batchId: id, waitSeconds: 50 } })) as CallToolResult;
      expect(waited.isError ?? false, textOf(waited)).toBe(false);
      expect(textOf(waited)).toContain(`Batch ${id} is done: 1 of 1 items done`);
      expect([decodePng(imageOf(waited).bytes).width, decodePng(imageOf(waited).bytes).height]).toEqual([100, 100]);
      expect(await used()).toBe(before + 1);
    } finally {
      await client.close();
    }
  });

  it('render_batch refusals are isError results with the API’s message, and charge nothing', async () => {
    const client = await connect({ 'x-api-key': user.apiKey });
    const call = async (args: Record<string, unknown>) => {
      const result = (await client.callTool({ name: 'render_batch', arguments: args })) as CallToolResult;
      expect(result.isError, JSON.stringify(args)).toBe(true);
      return textOf(result);
    };
    try {
      const before = await used();
      expect(await call({})).toContain('items is required');
      expect(await call({ items: [{ kind: 'gif', body: {} }] })).toContain('kind must be one of html, svg, chart, code, screenshot');
      expect(await call({ items: [{ kind: 'html', body: { html: '<p>x</p>', width: 10 } }] })).toContain(
        'width must be between 50 and 4000',
      );
      expect(await call({ items: [{ kind: 'html', body: { html: '<p>x</p>' } }], waitSeconds: 99 })).toContain(
        'waitSeconds must be a whole number from 0 to 50',
      );
      expect(await call({ batchId: 'nope' })).toContain('batchId must be a batch id');
      const unknown = await call({ batchId: '00000000-0000-4000-8000-00000000dead' });
      expect(unknown).toContain('Batch not found');
      expect(unknown).toContain('HTTP 404');
      expect(await used()).toBe(before);
    } finally {
      await client.close();
    }
  });

  it('a client that hangs up during a render is not charged, as with the render route itself', async () => {
    const client = await connect({ 'x-api-key': user.apiKey });
    const before = await used();
    const slow = '<script>const t = Date.now(); while (Date.now() - t < 2500);</script><p>slow</p>';
    const pending = client.callTool({ name: 'render_html', arguments: { html: slow, width: 100, height: 100 } }).catch((err: Error) => err);
    await new Promise((resolve) => setTimeout(resolve, 800));
    // Closing the client aborts its POST: the socket closes mid-render.
    await client.close();
    expect(await pending).toBeInstanceOf(Error);
    // The render finishes on the worker; its credit is released rather than charged.
    const deadline = Date.now() + 10_000;
    let now = await used();
    while (now !== before && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      now = await used();
    }
    expect(now).toBe(before);
  });

  it('refuses a call without credentials or with a wrong API key: 401 in the API’s error shape', async () => {
    const ping = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    const anonymous = await stack.gateway.post('/api/mcp', ping);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ success: false, code: 'UNAUTHORIZED' });
    const wrong = await stack.gateway.post('/api/mcp', ping, { 'x-api-key': 'rk_not-a-real-key' });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ success: false, code: 'UNAUTHORIZED', message: 'Invalid API key' });
    // The SDK's client reports the status as the error's code, with the API's message.
    await expect(connect({})).rejects.toMatchObject({ code: 401, message: expect.stringContaining('Please sign in') });
    await expect(connect({ authorization: 'Bearer rk_not-a-real-key' })).rejects.toMatchObject({
      code: 401,
      message: expect.stringContaining('Invalid API key'),
    });
  });

  it('answers plain HTTP clients too: a tools/list without Accept, and a 400 for what is not JSON-RPC', async () => {
    const list = await stack.gateway.post('/api/mcp', { jsonrpc: '2.0', id: 7, method: 'tools/list' }, { 'x-api-key': user.apiKey });
    expect(list.status).toBe(200);
    const body = (await list.json()) as { id: number; result: { tools: Array<{ name: string }> } };
    expect(body.id).toBe(7);
    expect(body.result.tools).toHaveLength(TOOLS.length);

    const notRpc = await stack.gateway.post('/api/mcp', { hello: 'world' }, { 'x-api-key': user.apiKey });
    expect(notRpc.status).toBe(400);
    expect(await notRpc.json()).toMatchObject({ success: false, message: 'Not a JSON-RPC message: jsonrpc must be "2.0"' });

    const get = await fetch(`${stack.gateway.url}/api/mcp`, { headers: { 'x-api-key': user.apiKey } });
    expect(get.status).toBe(405);
  });
});
