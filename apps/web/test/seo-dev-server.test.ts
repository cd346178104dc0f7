// @vitest-environment node
import { join } from 'node:path';
import { createServer, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { robotsTxt, sitemapXml } from '../vite/seo-files.plugin.ts';

const SITE = 'https://render-api.dev';
let server: ViteDevServer;
let origin: string;

beforeAll(async () => {
  server = await createServer({
    configFile: join(import.meta.dirname, '..', 'vite.config.ts'),
    server: { port: 0, strictPort: false, host: '127.0.0.1' },
    logLevel: 'silent',
  });
  await server.listen();
  const address = server.httpServer?.address();
  origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}, 60_000);
afterAll(() => server?.close());

describe('the dev server', () => {
  it('answers /robots.txt and /sitemap.xml as the build writes them, not with the app’s HTML', async () => {
    const robots = await fetch(`${origin}/robots.txt`);
    expect(robots.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await robots.text()).toBe(robotsTxt(SITE));
    const sitemap = await fetch(`${origin}/sitemap.xml?x=1`);
    expect(sitemap.headers.get('content-type')).toMatch(/^application\/xml/);
    expect(await sitemap.text()).toBe(sitemapXml(SITE));
    const page = await fetch(`${origin}/pricing`);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
  });
});
