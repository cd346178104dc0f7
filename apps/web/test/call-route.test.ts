import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  AccountRoutes,
  AsyncRenderRoutes,
  McpRoutes,
  type PublicRoute,
  RenderRoutes,
  SystemRoutes,
  TemplateRoutes,
} from '@render/contracts';
import { AccountHeads, AsyncRenderHeads, McpHeads, RenderHeads, SystemHeads, TemplateHeads } from '@render/contracts/route-heads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setApiBaseUrl, setTokenSource } from '../src/lib/api-client.ts';
import { callRoute } from '../src/lib/call-route.ts';

// A real HTTP server that records each call and answers { success: true, echo }.
let server: Server;
const seen: Array<{ method?: string; url?: string; body: string; type?: string }> = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      seen.push({ method: req.method, url: req.url, body, type: req.headers['content-type'] });
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ success: true, data: { id: 'x' } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  setApiBaseUrl(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  setTokenSource(() => null);
});
afterAll(async () => {
  setApiBaseUrl('');
  await new Promise((resolve) => server.close(resolve));
});

describe('route heads', () => {
  it('name every full contract, with its method, path and access rule', () => {
    const groups: Array<[Record<string, { method: string; url: string; access: string }>, Record<string, PublicRoute>]> = [
      [AccountHeads, AccountRoutes],
      [TemplateHeads, TemplateRoutes],
      [RenderHeads, RenderRoutes],
      [AsyncRenderHeads, AsyncRenderRoutes],
      [SystemHeads, SystemRoutes],
      [McpHeads, McpRoutes],
    ];
    for (const [heads, contracts] of groups) {
      expect(Object.keys(heads)).toEqual(Object.keys(contracts));
      for (const [name, head] of Object.entries(heads)) {
        const { method, url, access } = contracts[name] as PublicRoute;
        expect({ method, url, access }).toEqual({ method: head.method, url: head.url, access: head.access });
      }
    }
  });
});

describe('callRoute', () => {
  it("calls a contract's method and path, its parameters percent-encoded", async () => {
    await callRoute(TemplateHeads.get, { params: { id: 'a/b c' } });
    await callRoute(TemplateHeads.unstar, { params: { id: 'abc' } });
    expect(seen.slice(-2).map(({ method, url }) => `${method} ${url}`)).toEqual([
      'GET /api/template/a%2Fb%20c',
      'DELETE /api/template/abc/star',
    ]);
  });

  it('sends the query and the JSON body the contract takes', async () => {
    await callRoute(AccountHeads.usageRecent, { query: { limit: 10 } });
    await callRoute(AccountHeads.updateProfile, { body: { language: 'fr' } });
    const [recent, profile] = seen.slice(-2);
    expect(recent).toMatchObject({ method: 'GET', url: '/api/auth/usage/recent?limit=10', body: '' });
    expect(profile).toMatchObject({ method: 'PATCH', url: '/api/auth/me', body: '{"language":"fr"}', type: 'application/json' });
  });

  it('answers the parsed success body', async () => {
    expect(await callRoute(TemplateHeads.publish, { params: { id: 'x' } })).toEqual({ success: true, data: { id: 'x' } });
  });
});
