import { afterAll, describe, expect, it } from 'vitest';
import { baseUrl, closeBrowser, openPage } from './helpers/browser.ts';

afterAll(closeBrowser);

describe('findable', () => {
  it('serves robots.txt and sitemap.xml from the build, not the app’s page', async () => {
    const robots = await fetch(`${baseUrl()}/robots.txt`);
    expect(robots.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await robots.text()).toMatch(/^Sitemap: .+\/sitemap\.xml$/m);
    const sitemap = await fetch(`${baseUrl()}/sitemap.xml`);
    expect(sitemap.headers.get('content-type')).toMatch(/xml/);
    const body = await sitemap.text();
    expect(body).toContain('<urlset');
    expect(body).toMatch(/<loc>[^<]+\/blog\/how-fast-is-a-render<\/loc>/);
  });

  for (const language of ['en', 'fr'] as const) {
    it(`gives each page its own title, description and canonical URL (${language})`, async () => {
      const tracked = await openPage({ language });
      const seen = new Map<string, string>();
      for (const path of ['/', '/docs', '/pricing', '/blog', '/blog/how-fast-is-a-render']) {
        await tracked.page.goto(`${baseUrl()}${path}`);
        await tracked.page.locator('main h1').first().waitFor();
        await expect.poll(() => tracked.page.locator('link[rel="canonical"]').getAttribute('href')).toBe(`${baseUrl()}${path}`);
        const description = (await tracked.page.locator('meta[name="description"]').getAttribute('content')) ?? '';
        expect(await tracked.page.locator('meta[property="og:description"]').getAttribute('content')).toBe(description);
        expect(await tracked.page.locator('meta[name="twitter:title"]').getAttribute('content')).toBe(await tracked.page.title());
        seen.set(description, path);
      }
      expect(seen.size, 'a description per page').toBe(5);
      // The article's social card, rendered by the product's template renderer and served by the build.
      const card = (await tracked.page.locator('meta[property="og:image"]').getAttribute('content')) ?? '';
      expect(card).toBe(`${baseUrl()}/blog/social/${language}/how-fast-is-a-render.jpg`);
      const image = await fetch(card);
      expect(image.ok).toBe(true);
      expect(image.headers.get('content-type')).toBe('image/jpeg');
      expect((await image.arrayBuffer()).byteLength).toBeGreaterThan(10_000);
      await tracked.context.close();
    });
  }
});
