// The build's prerender step (after `vite build` and the SSR build of src/app/prerender.server.tsx into
// dist-ssr/): every public page, in every language, rendered by the app's own components into
// dist/prerendered/<lang><path>/index.html — the built index.html with the page's markup in #root, its
// <html lang>, title, description, canonical URL, Open Graph and Twitter tags. The gateway sends one of these,
// in the reader's language, for the page's path (services/gateway web-app plugin); the browser hydrates it.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { blogSlugs, PRERENDERED_PATHS } from '../vite/seo-files.plugin.ts';

const root = join(import.meta.dirname, '..');
// --dist: the client build to write into (its index.html is the template), dist/ unless given.
const { values } = parseArgs({ options: { dist: { type: 'string', default: join(root, 'dist') } } });
const dist = values.dist;
const site = process.env.SITE_URL || 'https://render-api.dev';
const LANGUAGES = ['en', 'fr'];

const escapeHtml = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The head tags use-page-title.ts writes in the browser, as static HTML. */
function headTags(head) {
  const meta = (key, value, content) => (content === undefined ? '' : `<meta ${key}="${value}" content="${escapeHtml(content)}" />`);
  return [
    `<title>${escapeHtml(head.title)}</title>`,
    meta('name', 'description', head.description),
    `<link rel="canonical" href="${escapeHtml(head.url)}" />`,
    meta('property', 'og:type', 'website'),
    meta('property', 'og:site_name', 'Render API'),
    meta('property', 'og:title', head.title),
    meta('property', 'og:description', head.description),
    meta('property', 'og:url', head.url),
    meta('property', 'og:locale', head.locale === 'fr' ? 'fr_FR' : 'en_US'),
    meta('property', 'og:image', head.image),
    meta('name', 'twitter:card', head.image ? 'summary_large_image' : 'summary'),
    meta('name', 'twitter:title', head.title),
    meta('name', 'twitter:description', head.description),
    meta('name', 'twitter:image', head.image),
  ]
    .filter(Boolean)
    .join('\n    ');
}

// React writes a preload for the shell's images where the render starts; a fragment has no <head> for it, so it
// moves there (where the browser wants it, and where hydration does not meet it).
const PRELOAD = /<link rel="preload"[^>]*\/?>/g;

export function pageHtml(template, { html, head }, lang) {
  const preloads = html.match(PRELOAD) ?? [];
  let page = template
    .replace('<html lang="en">', `<html lang="${lang}" data-prerendered="${lang}">`)
    .replace('<div id="root"></div>', `<div id="root">${html.replace(PRELOAD, '')}</div>`)
    .replace('<!--app-config-->', ['<!--app-config-->', ...preloads].join('\n    '));
  if (head) {
    page = page.replace(/<meta name="description"[^>]*>\s*/, '').replace(/<title>[^<]*<\/title>/, headTags(head));
  }
  return page;
}

const { initPrerender, prerenderPage } = await import(pathToFileURL(join(root, 'dist-ssr', 'prerender.server.js')).href);
await initPrerender();
const template = readFileSync(join(dist, 'index.html'), 'utf8');
rmSync(join(dist, 'prerendered'), { recursive: true, force: true });
const paths = [...PRERENDERED_PATHS, ...blogSlugs().map((slug) => `/blog/${slug}`)];
let count = 0;
for (const lang of LANGUAGES) {
  for (const path of paths) {
    const page = await prerenderPage(path, lang, site);
    if (page.status !== 'ok') throw new Error(`prerender: ${path} (${lang}) is not a page`);
    const dir = join(dist, 'prerendered', lang, path);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'index.html'), pageHtml(template, page, lang));
    count += 1;
  }
}
console.log(`prerendered ${count} pages (${paths.length} paths × ${LANGUAGES.join(', ')})`);
