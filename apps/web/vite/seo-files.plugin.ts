import { readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

/** The playgrounds: a page a format (the chart one with its libraries' pages), each rendering a real image. */
export const PLAYGROUND_PATHS = [
  '/html-to-image',
  '/svg-to-image',
  '/chart-to-image',
  '/chart-to-image/chartjs',
  '/chart-to-image/d3',
  '/chart-to-image/highcharts',
  '/code-to-image',
  '/screenshot',
];

/** The pages anyone may read (docs/spec/screens.md), in the sitemap; both languages share each URL (the language is the reader's). */
export const PUBLIC_PATHS = [
  '/',
  '/docs',
  '/blog',
  '/pricing',
  ...PLAYGROUND_PATHS,
  '/template/list',
  '/about',
  '/contact',
  '/terms',
  '/privacy',
  '/cookies',
  '/login',
  '/signup',
];

/**
 * The public pages built as static HTML in each language (scripts/prerender.mjs), with every blog article:
 * the ones a visitor lands on from outside, the playgrounds included (their largest paint then needs no
 * JavaScript). The sign-in and sign-up forms too: a form sent before React has attached its handlers would be
 * sent by the browser itself, so their submit button is disabled until then and their method is POST.
 */
export const PRERENDERED_PATHS = [
  '/',
  '/docs',
  '/blog',
  '/pricing',
  '/about',
  '/contact',
  '/terms',
  '/privacy',
  '/cookies',
  // The account forms: their submit button waits for the page to be live (features/auth/auth-form.tsx).
  '/login',
  '/signup',
  // The templates list's shell (header, tabs, filters, the list as a skeleton of its final size): its cards need
  // the visitor's session, so they are fetched once the page is live (features/templates/list/template-results.tsx).
  '/template/list',
  ...PLAYGROUND_PATHS,
];

/** What crawlers are kept out of: accounts' own pages and the API. */
const PRIVATE_PREFIXES = ['/api/', '/dashboard', '/template/create', '/template/edit/', '/verify', '/reset-password'];

const blogDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'content', 'blog');
/** Every article's slug (an article exists in each language under the same slug). */
export const blogSlugs = () =>
  [...new Set(readdirSync(blogDir).flatMap((lang) => readdirSync(join(blogDir, lang)).filter((f) => f.endsWith('.md'))))]
    .map((file) => basename(file, '.md'))
    .sort();

const xmlEscape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function sitemapXml(site: string): string {
  const urls = [...PUBLIC_PATHS, ...blogSlugs().map((slug) => `/blog/${slug}`)];
  const entries = urls.map((path) => `  <url><loc>${xmlEscape(new URL(path, site).href)}</loc></url>`).join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries}\n</urlset>\n`;
}

export function robotsTxt(site: string): string {
  return [
    'User-agent: *',
    'Allow: /',
    ...PRIVATE_PREFIXES.map((p) => `Disallow: ${p}`),
    '',
    `Sitemap: ${new URL('/sitemap.xml', site).href}`,
    '',
  ].join('\n');
}

/**
 * robots.txt and sitemap.xml in the build, for the site at `SITE_URL` (the public origin the build is deployed
 * at; https://render-api.dev unless set).
 */
export function seoFiles(site = process.env.SITE_URL || 'https://render-api.dev'): Plugin {
  return {
    name: 'render:seo-files',
    // The client build and the dev server: the prerender's server bundle (--ssr) is not published.
    apply: (_config, env) => !env.isSsrBuild,
    // The dev server answers both as the build does (its HTML fallback would answer them otherwise).
    configureServer(server) {
      const files: Record<string, [string, () => string]> = {
        '/robots.txt': ['text/plain; charset=utf-8', () => robotsTxt(site)],
        '/sitemap.xml': ['application/xml; charset=utf-8', () => sitemapXml(site)],
      };
      server.middlewares.use((req, res, next) => {
        const file = files[(req.url ?? '').split('?')[0] ?? ''];
        if (!file) return next();
        res.setHeader('Content-Type', file[0]);
        res.end(file[1]());
      });
    },
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: 'robots.txt', source: robotsTxt(site) });
      this.emitFile({ type: 'asset', fileName: 'sitemap.xml', source: sitemapXml(site) });
    },
  };
}
