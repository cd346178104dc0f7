import { type Static, Type } from 'typebox';
import { withMessages } from './schema-helpers.ts';

/**
 * Pages for agents: a screenshot call can answer the page's main content as text instead of an image
 * (`format: "markdown" | "html" | "text"`), and add the page's metadata to JSON answers (`metadata: true`).
 * The worker finds the main content with Mozilla's Readability and turns it into markdown with turndown,
 * both run inside the page after the same load as a capture (cookie banners hidden, egress policy applied).
 */
export const PageContentFormats = ['markdown', 'html', 'text'] as const;
export type PageContentFormat = (typeof PageContentFormats)[number];

export const isPageContentFormat = (format: string): format is PageContentFormat =>
  (PageContentFormats as readonly string[]).includes(format);

/** The answer's Content-Type of each text format. */
export const PageContentMimeTypes = {
  markdown: 'text/markdown; charset=utf-8',
  html: 'text/html; charset=utf-8',
  text: 'text/plain; charset=utf-8',
} as const satisfies Record<PageContentFormat, string>;

export const PageContentLimits = {
  /** Longest content answered, in characters; a longer one is cut (with a CONTENT_CUT warning). */
  maxContentChars: 2_000_000,
  /** Elements Readability looks at; a larger page is refused rather than holding the page for long. */
  maxElements: 100_000,
  /** Open Graph and Twitter tags kept of each kind, and the longest value kept (longer ones are cut). */
  maxTags: 64,
  maxTagValueChars: 2_000,
} as const;

/** The user-facing sentences of these options (message catalog group `pageContent`). */
export const PageContentMessages = {
  metadataNeedsJson: 'metadata is added to JSON answers: send output "json" with it (or leave metadata out)',
  contentNoSelector: 'selector and clip capture part of the page as an image: they cannot be used with format markdown, html or text',
} as const;

const nullableText = (description: string) => Type.Union([Type.String(), Type.Null()], { description });
const tags = (description: string) => Type.Record(Type.String(), Type.String(), { description });

/** What `metadata: true` adds to a JSON answer (`data.metadata`). Absent values are null (or empty objects). */
export const PageMetadata = Type.Object(
  {
    title: nullableText('The document title (<title>)'),
    description: nullableText('<meta name="description">'),
    canonicalUrl: nullableText('<link rel="canonical">, as an absolute URL'),
    language: nullableText('The lang attribute of <html>'),
    openGraph: tags('Open Graph tags (<meta property="og:…">) by name without the og: prefix (title, image, type, …)'),
    twitter: tags('Twitter card tags (<meta name="twitter:…">) by name without the twitter: prefix (card, title, image, …)'),
    favicon: nullableText('The icon the page declares (<link rel="icon">, else apple-touch-icon), as an absolute URL'),
    finalUrl: Type.String({ description: 'The address of the page after redirects' }),
    httpStatus: Type.Union([Type.Integer(), Type.Null()], { description: 'The HTTP status of the page’s document' }),
  },
  { description: 'The page’s metadata (with metadata: true)' },
);
export type PageMetadata = Static<typeof PageMetadata>;

/** The screenshot body's `metadata` flag. */
export const metadataField = () =>
  withMessages(
    Type.Boolean({
      default: false,
      description:
        'Add the page’s metadata to the JSON answer (data.metadata): title, description, canonical URL, language, Open Graph and ' +
        'Twitter tags, favicon, final URL and HTTP status. Only with output "json".',
    }),
    { type: 'metadata must be true or false' },
  );
