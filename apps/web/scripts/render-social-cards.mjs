// Renders each blog article's social card (og:image, twitter:image) with the product's own template renderer:
// the "Blog social card" starter template (services/templates/starters/social-card.svg), generated through a
// running stack's POST /api/template/generate, into public/blog/social/<lang>/<slug>.jpg (JPEG:
// a tenth of the PNG's weight for the card's gradients, and read by every social network). The cards are
// committed, so a build that cannot reach a stack still has them; run this after adding or retitling an article:
//   RENDER_API_URL=http://127.0.0.1:3000 RENDER_API_KEY=<key> node scripts/render-social-cards.mjs
// (./scripts/dev starts such a stack and seeds the starter templates.) `--check` renders nothing and fails
// when an article has no card.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parseArgs } from 'node:util';
import { parseFrontMatter } from '../vite/front-matter.ts';

const root = join(import.meta.dirname, '..');
const blogDir = join(root, 'content', 'blog');
/** The starter's fixed id (services/templates/src/starters/starters.ts): seeding keeps it the same everywhere. */
const SOCIAL_CARD_TEMPLATE = '5fa7e1a0-0000-4000-8000-000000000001';
/** What fits the card's lines at their font sizes (1040 px of 68 px bold title, of 28 px subtitle). */
const TITLE_LINE = 30;
const SUBTITLE = 72;

const LABELS = {
  en: { category: 'RENDER API · BLOG', minutes: (n) => `${n} min read` },
  fr: { category: 'RENDER API · BLOG', minutes: (n) => `${n} min de lecture` },
};

/** Words into lines of at most `width` characters; what does not fit the last line ends with an ellipsis. */
function wrap(text, width, lines) {
  const out = [''];
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const line = out[out.length - 1];
    if (!line || line.length + 1 + word.length <= width) out[out.length - 1] = line ? `${line} ${word}` : word;
    else out.push(word);
  }
  if (out.length <= lines) return [...out, ...Array(lines - out.length).fill('')];
  const last = out.slice(lines - 1).join(' ');
  return [...out.slice(0, lines - 1), `${last.slice(0, width - 1).replace(/\s+\S*$/, '')}…`];
}

function articles() {
  return readdirSync(blogDir).flatMap((lang) =>
    readdirSync(join(blogDir, lang))
      .filter((file) => file.endsWith('.md'))
      .map((file) => {
        const { meta, body } = parseFrontMatter(readFileSync(join(blogDir, lang, file), 'utf8'));
        const minutes = Math.max(1, Math.round(body.split(/\s+/).filter(Boolean).length / 220));
        return { lang, slug: basename(file, '.md'), meta, minutes };
      }),
  );
}

function cardVariables({ lang, meta, minutes }) {
  const labels = LABELS[lang] ?? LABELS.en;
  // A title of one line sits on the second, just above the subtitle, rather than leaving a gap under it.
  const lines = wrap(meta.title ?? '', TITLE_LINE, 2);
  const [title, title2] = lines[1] ? lines : ['', lines[0]];
  const date = meta.date ? new Date(`${meta.date}T00:00:00Z`).toLocaleDateString(lang, { dateStyle: 'long', timeZone: 'UTC' }) : '';
  const author = meta.author ?? 'Render API';
  return {
    category: labels.category,
    title,
    title2,
    subtitle: wrap(meta.description ?? '', SUBTITLE, 1)[0],
    initials: 'RA',
    author,
    date: [date, labels.minutes(minutes)].filter(Boolean).join(' · '),
    site: 'Render API',
  };
}

const cardPath = (lang, slug) => join(root, 'public', 'blog', 'social', lang, `${slug}.jpg`);

async function render(api, key, variables) {
  const response = await fetch(new URL('/api/template/generate', api), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: JSON.stringify({ templateId: SOCIAL_CARD_TEMPLATE, variables, format: 'jpeg', quality: 88, outputType: 'binary' }),
  });
  if (!response.ok) throw new Error(`POST /api/template/generate answered ${response.status}: ${await response.text()}`);
  return Buffer.from(await response.arrayBuffer());
}

const { values } = parseArgs({ options: { check: { type: 'boolean', default: false } } });
if (values.check) {
  const missing = articles().filter(({ lang, slug }) => !existsSync(cardPath(lang, slug)));
  for (const { lang, slug } of missing) console.error(`no social card for ${lang}/${slug}: run scripts/render-social-cards.mjs`);
  process.exit(missing.length ? 1 : 0);
}
const api = process.env.RENDER_API_URL;
const key = process.env.RENDER_API_KEY;
if (!api || !key) throw new Error('set RENDER_API_URL and RENDER_API_KEY (a running stack, e.g. ./scripts/dev, and one of its keys)');
for (const article of articles()) {
  const file = cardPath(article.lang, article.slug);
  mkdirSync(join(file, '..'), { recursive: true });
  const jpeg = await render(api, key, cardVariables(article));
  writeFileSync(file, jpeg);
  console.log(`${file}: ${(jpeg.length / 1024).toFixed(1)} KB`);
}
