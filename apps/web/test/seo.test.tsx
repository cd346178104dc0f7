import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { waitFor } from '@testing-library/react';
import i18next from 'i18next';
import { afterEach, describe, expect, it } from 'vitest';
import { usePageTitle } from '../src/lib/use-page-title.ts';
import { PUBLIC_PATHS, robotsTxt, sitemapXml } from '../vite/seo-files.plugin.ts';
import { renderPage } from './helpers/render-page.tsx';

const SITE = 'https://render.example.com';
const head = (selector: string, attribute = 'content') => document.head.querySelector(selector)?.getAttribute(attribute);

afterEach(() => i18next.changeLanguage('en'));

/** A JPEG's size from its start-of-frame segment (SOF0–SOF15 but DHT, JPG and DAC); undefined when it is no JPEG. */
function jpegSize(bytes: Buffer): { width: number; height: number } | undefined {
  if (bytes.readUInt16BE(0) !== 0xffd8) return undefined;
  for (let at = 2; at + 9 < bytes.length; at += 2 + bytes.readUInt16BE(at + 2)) {
    const marker = bytes.readUInt16BE(at);
    if (marker >= 0xffc0 && marker <= 0xffcf && ![0xffc4, 0xffc8, 0xffcc].includes(marker)) {
      return { height: bytes.readUInt16BE(at + 5), width: bytes.readUInt16BE(at + 7) };
    }
  }
  return undefined;
}

describe('robots.txt and sitemap.xml', () => {
  it('lists every public page and every blog article under the site’s origin', () => {
    const locs = [...sitemapXml(SITE).matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1] ?? '');
    for (const path of PUBLIC_PATHS) expect(locs).toContain(`${SITE}${path}`);
    for (const lang of ['en', 'fr']) {
      for (const file of readdirSync(join(import.meta.dirname, '..', 'content', 'blog', lang))) {
        expect(locs).toContain(`${SITE}/blog/${file.replace(/\.md$/, '')}`);
      }
    }
    expect(locs.some((loc) => loc.includes('/dashboard'))).toBe(false);
    expect(new Set(locs).size).toBe(locs.length);
  });

  it('lets crawlers in, keeps them out of accounts and the API, and names the sitemap', () => {
    const robots = robotsTxt(SITE);
    expect(robots).toMatch(/^User-agent: \*$/m);
    expect(robots).toMatch(/^Disallow: \/dashboard$/m);
    expect(robots).toMatch(/^Disallow: \/api\/$/m);
    expect(robots).toContain(`Sitemap: ${SITE}/sitemap.xml`);
  });
});

describe('the page head', () => {
  it('gives each page its title, catalog description, canonical URL, Open Graph and Twitter tags, per language', async () => {
    await i18next.changeLanguage('fr');
    renderPage(
      () => {
        usePageTitle('Tarifs');
        return <h1>Tarifs</h1>;
      },
      { path: '/pricing' },
    );
    await waitFor(() => expect(document.title).toBe('Tarifs · Render API'));
    const description = head('meta[name="description"]');
    expect(description).toMatch(/^Les offres de Render API/);
    expect(head('link[rel="canonical"]', 'href')).toBe(`${window.location.origin}/pricing`);
    expect(head('meta[property="og:title"]')).toBe('Tarifs · Render API');
    expect(head('meta[property="og:description"]')).toBe(description);
    expect(head('meta[property="og:url"]')).toBe(`${window.location.origin}/pricing`);
    expect(head('meta[property="og:locale"]')).toBe('fr_FR');
    expect(head('meta[name="twitter:card"]')).toBe('summary');
    expect(head('meta[name="twitter:description"]')).toBe(description);
  });

  it('takes a page’s own description and social image (a blog article’s front matter)', async () => {
    renderPage(
      () => {
        usePageTitle('How fast is a render?', { description: 'Milliseconds, measured.', image: '/blog/how-fast-is-a-render-1.png' });
        return <h1>How fast</h1>;
      },
      { path: '/blog/how-fast-is-a-render' },
    );
    await waitFor(() => expect(head('meta[name="description"]')).toBe('Milliseconds, measured.'));
    expect(head('link[rel="canonical"]', 'href')).toBe(`${window.location.origin}/blog/how-fast-is-a-render`);
    expect(head('meta[property="og:image"]')).toBe(`${window.location.origin}/blog/how-fast-is-a-render-1.png`);
    expect(head('meta[name="twitter:card"]')).toBe('summary_large_image');
    expect(head('meta[name="twitter:image"]')).toBe(`${window.location.origin}/blog/how-fast-is-a-render-1.png`);
  });
});

describe('blog social cards', () => {
  it('has a 1200×630 card for every article in every language (scripts/render-social-cards.mjs renders them)', () => {
    for (const lang of ['en', 'fr']) {
      for (const file of readdirSync(join(import.meta.dirname, '..', 'content', 'blog', lang))) {
        const card = join(import.meta.dirname, '..', 'public', 'blog', 'social', lang, file.replace(/\.md$/, '.jpg'));
        expect(jpegSize(readFileSync(card)), card).toEqual({ width: 1200, height: 630 });
      }
    }
  });
});
