import { existsSync, readFileSync } from 'node:fs';
import type { TemplateVariable } from '@render/contracts';
import type { TemplateContent } from '@render/db';
import { checkVariables, sanitizeTemplateSvg } from '../lib/svg-template.ts';

/**
 * The public starter templates a fresh database is seeded with, so the Public tab is never empty. Each is
 * an SVG file under `services/templates/starters/` and passes the same sanitiser and binding rules as a
 * template saved through the API (a starter the sanitiser would strip anything from is refused, so what is stored is
 * what the file says).
 */
export interface StarterTemplate {
  /** Fixed, so seeding again updates the same row instead of adding another. */
  id: string;
  file: string;
  name: string;
  width: number;
  height: number;
  variables: TemplateVariable[];
}

/** The account that owns the starters: it cannot sign in (no password hash matches). */
export const STARTER_OWNER = { email: 'starters@templates.render.invalid', name: 'Render API' } as const;

const text = (name: string, defaultValue: string): TemplateVariable => ({ name, type: 'text', defaultValue });
const number = (name: string, defaultValue: string): TemplateVariable => ({ name, type: 'number', defaultValue });

export const STARTER_TEMPLATES: StarterTemplate[] = [
  {
    id: '5fa7e1a0-0000-4000-8000-000000000001',
    file: 'social-card.svg',
    name: 'Blog social card',
    width: 1200,
    height: 630,
    variables: [
      text('category', 'ENGINEERING BLOG'),
      text('title', 'Rendering a million'),
      text('title2', 'images without a sweat'),
      text('subtitle', 'Queues, warm browser pages and a cache that pays for itself.'),
      text('initials', 'AL'),
      text('author', 'Ada Lovelace'),
      text('date', 'November 24, 2026 · 6 min read'),
      text('site', 'example.com'),
    ],
  },
  {
    id: '5fa7e1a0-0000-4000-8000-000000000002',
    file: 'quote-card.svg',
    name: 'Quote card',
    width: 1080,
    height: 1080,
    variables: [
      text('line1', 'Simplicity is the'),
      text('line2', 'ultimate sophistication.'),
      text('line3', ''),
      text('author', 'Leonardo da Vinci'),
      text('role', 'Painter, engineer and inventor'),
      text('handle', '@dailyquotes'),
    ],
  },
  {
    id: '5fa7e1a0-0000-4000-8000-000000000003',
    file: 'certificate.svg',
    name: 'Certificate of completion',
    width: 1600,
    height: 1130,
    variables: [
      text('kind', 'CERTIFICATE OF COMPLETION'),
      text('recipient', 'Grace Hopper'),
      text('course', 'Advanced Compiler Design'),
      text('details', '40 hours · awarded with distinction'),
      text('signer', 'Alan Turing'),
      text('signerTitle', 'Program Director'),
      text('date', 'November 24, 2026'),
      text('issuer', 'RENDER ACADEMY'),
    ],
  },
  {
    id: '5fa7e1a0-0000-4000-8000-000000000004',
    file: 'product-badge.svg',
    name: 'Product sale badge',
    width: 1080,
    height: 1080,
    variables: [
      { name: 'photo', type: 'image', defaultValue: '' },
      number('discount', '30'),
      text('label', 'NEW ARRIVAL'),
      text('product', 'Aurora Wireless Headphones'),
      text('currency', '$'),
      number('price', '139'),
      number('oldPrice', '199'),
      text('cta', 'Shop now'),
    ],
  },
];

/** The starter SVGs: next to the compiled bundle (dist/starters/, see scripts/build-services.mjs), else in the checkout. */
const STARTERS_DIR =
  [new URL('./starters/', import.meta.url), new URL('../../starters/', import.meta.url)].find((dir) => existsSync(dir)) ??
  new URL('../../starters/', import.meta.url);

export const starterSvg = (starter: Pick<StarterTemplate, 'file'>): string => readFileSync(new URL(starter.file, STARTERS_DIR), 'utf8');

/** What is stored for a starter, through the service's own save rules (sanitiser, then binding checks). */
export function starterContent(starter: StarterTemplate): TemplateContent {
  const { svg, bindings, removed } = sanitizeTemplateSvg(starterSvg(starter));
  if (removed.length > 0) throw new Error(`starter ${starter.file}: the sanitiser removed ${removed.join(', ')}`);
  const variables = checkVariables(starter.variables, bindings);
  return { name: starter.name, width: starter.width, height: starter.height, svg, variables };
}
