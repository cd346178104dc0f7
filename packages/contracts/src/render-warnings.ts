import { type Static, Type } from 'typebox';
import { StringEnum } from './schema-helpers.ts';

/**
 * Render diagnostics: what went wrong in a render that still produced an image. JSON answers list them
 * (`warnings`), binary answers count them (`X-Render-Warnings`). A hostile page controls most of this text
 * (URLs, console messages), so every list and string is bounded here, once, for the worker that collects
 * them and for the answer's schema.
 */
export const RenderWarningCodes = [
  'RESOURCE_FAILED',
  'RESOURCE_REFUSED',
  'CONSOLE_ERROR',
  'SELECTOR_NOT_FOUND',
  'MISSING_GLYPH',
  'FONT_FALLBACK',
  'PAGE_CUT',
  'CONTENT_CUT',
] as const;
export type RenderWarningCode = (typeof RenderWarningCodes)[number];

export const RenderWarningLimits = {
  /** Warnings per render; past it the rest are dropped (the first ones are usually the cause). */
  maxWarnings: 20,
  maxMessageLength: 300,
  maxUrlLength: 200,
  /** reason, font, selector. */
  maxDetailLength: 200,
  /** Distinct characters listed in one MISSING_GLYPH warning. */
  maxCharacters: 32,
} as const;

const bounded = (maxLength: number, description: string) => Type.Optional(Type.String({ maxLength, description }));

export const RenderWarning = Type.Object(
  {
    code: StringEnum(RenderWarningCodes, {
      description:
        'RESOURCE_FAILED: a sub-resource failed to load (HTTP error, unreachable); RESOURCE_REFUSED: refused by the egress policy (private address…); CONSOLE_ERROR: console.error or an uncaught error in the page; SELECTOR_NOT_FOUND: a selector that never matched (errorOnSelectorNotFound: false); MISSING_GLYPH: characters no installed font has, drawn as boxes; FONT_FALLBACK: a font-family the markup asked for is not available, another font was used; PAGE_CUT: a full page taller than the server allows (or the format can hold) was cut; CONTENT_CUT: a page’s text content (format markdown, html or text) was longer than an answer holds and was cut',
    }),
    message: Type.String({ maxLength: RenderWarningLimits.maxMessageLength }),
    detail: Type.Optional(
      Type.Object(
        {
          url: bounded(RenderWarningLimits.maxUrlLength, 'The resource (without its query string; cut when long)'),
          reason: bounded(RenderWarningLimits.maxDetailLength, 'Why it failed or was refused'),
          font: bounded(RenderWarningLimits.maxDetailLength, 'The font-family asked for'),
          fallback: bounded(RenderWarningLimits.maxDetailLength, 'The font used instead'),
          selector: bounded(RenderWarningLimits.maxDetailLength, 'The CSS selector'),
          characters: bounded(RenderWarningLimits.maxCharacters * 2, 'The characters without a glyph'),
          codePoints: Type.Optional(
            Type.Array(Type.String({ pattern: '^U\\+[0-9A-F]{4,6}$' }), {
              maxItems: RenderWarningLimits.maxCharacters,
              description: 'The same characters as U+XXXX',
            }),
          ),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export type RenderWarning = Static<typeof RenderWarning>;

export const RenderWarnings = Type.Array(RenderWarning, {
  maxItems: RenderWarningLimits.maxWarnings,
  description: 'What went wrong in a render that still produced the image (empty when nothing did)',
});
