import { type Static, Type } from 'typebox';
import { AppError } from './errors.ts';
import { StringEnum, withMessages } from './schema-helpers.ts';

/**
 * PDF output of the HTML and screenshot calls (`format: "pdf"`): the page options, their bounds and the
 * resolved options a job carries. The fields sit at the top level of those bodies, next to the image
 * fields, and are ignored for image formats (as `quality` is for PNG).
 */

/** Named paper sizes, portrait, in CSS pixels (1/96 in): the ISO sizes from their millimetres, the US ones from inches. */
export const PdfPageSizes = {
  A3: { width: (297 * 96) / 25.4, height: (420 * 96) / 25.4 },
  A4: { width: (210 * 96) / 25.4, height: (297 * 96) / 25.4 },
  A5: { width: (148 * 96) / 25.4, height: (210 * 96) / 25.4 },
  Letter: { width: 8.5 * 96, height: 11 * 96 },
  Legal: { width: 8.5 * 96, height: 14 * 96 },
  Tabloid: { width: 11 * 96, height: 17 * 96 },
} as const;
export type PdfPageSize = keyof typeof PdfPageSizes;
export const PdfPageSizeNames = ['A4', 'Letter', 'Legal', 'A3', 'A5', 'Tabloid'] as const satisfies readonly PdfPageSize[];

export const PdfLimits = {
  /** Smallest page side: 1 in. */
  minPageSidePx: 96,
  /** Largest page side: 200 in, the 14,400-point limit of PDF viewers (Acrobat). A taller fitToContent page is cut there. */
  maxPageSidePx: 200 * 96,
  /** The printable area left inside the margins, each way: at least 0.5 in. */
  minContentSidePx: 48,
  maxTemplateLength: 10_000,
  maxPageRangesLength: 100,
  maxPageNumber: 10_000,
  maxLengthChars: 20,
} as const;

export const PdfDefaults = { pageSize: 'A4', landscape: false, printBackground: true, fitToContent: false } as const;

const UNIT_PX = { px: 1, in: 96, cm: 96 / 2.54, mm: 96 / 25.4 } as const;
/** A CSS length as puppeteer and Chromium's print settings take it: a non-negative number and px, in, cm or mm. */
export const CSS_LENGTH_PATTERN = '^(?:[0-9]+(?:\\.[0-9]+)?|\\.[0-9]+)(?:px|in|cm|mm)$';
const cssLength = /^((?:[0-9]+(?:\.[0-9]+)?|\.[0-9]+))(px|in|cm|mm)$/;

/** A CSS length in CSS pixels, or undefined when it is not one (`CSS_LENGTH_PATTERN`). */
export function cssLengthToPx(value: string): number | undefined {
  const match = cssLength.exec(value.trim());
  if (!match) return undefined;
  return Number(match[1]) * UNIT_PX[match[2] as keyof typeof UNIT_PX];
}

const lengthField = (field: string, description: string) =>
  withMessages(Type.String({ minLength: 1, maxLength: PdfLimits.maxLengthChars, pattern: CSS_LENGTH_PATTERN, description }), {
    type: `${field} must be a length such as "210mm", "8.5in", "2cm" or "96px"`,
    minLength: `${field} must be a length such as "210mm", "8.5in", "2cm" or "96px"`,
    maxLength: `${field} must be a length such as "210mm", "8.5in", "2cm" or "96px"`,
    format: `${field} must be a length such as "210mm", "8.5in", "2cm" or "96px"`,
  });

const templateField = (field: string, where: string) =>
  withMessages(
    Type.String({
      maxLength: PdfLimits.maxTemplateLength,
      description:
        `PDF only. HTML printed in the ${where} margin of every page (setting it turns headers and footers on; the other one is ` +
        'then empty). Elements with the classes pageNumber, totalPages, date, title and url get those values. Runs without ' +
        'scripts and loads nothing from the network: use inline styles and data: images. Give the page a ' +
        `${where} margin to make room for it.`,
    }),
    {
      type: `${field} must be a string of HTML`,
      maxLength: `${field} must be at most ${PdfLimits.maxTemplateLength} characters`,
    },
  );

/** Page ranges as Chromium prints them: "1-3, 5", "4-" (to the end). */
export const PAGE_RANGES_PATTERN = '^\\s*[0-9]+\\s*(?:-\\s*[0-9]*\\s*)?(?:,\\s*[0-9]+\\s*(?:-\\s*[0-9]*\\s*)?)*$';
const pageRangesMessage = 'pageRanges must be page numbers and ranges separated by commas, such as "1-3, 5" or "2-"';

/** The PDF fields of a request body (HTML and screenshot). */
export const pdfBodyFields = () => ({
  pageSize: withMessages(
    StringEnum(PdfPageSizeNames, {
      default: PdfDefaults.pageSize,
      description:
        'PDF only. Paper size (A4 210×297 mm, Letter 8.5×11 in, Legal 8.5×14 in, A3, A5, Tabloid 11×17 in); pageWidth and pageHeight override it',
    }),
    {
      enum: `pageSize must be one of: ${PdfPageSizeNames.join(', ')}`,
      type: `pageSize must be one of: ${PdfPageSizeNames.join(', ')}`,
    },
  ),
  pageWidth: Type.Optional(
    lengthField('pageWidth', 'PDF only. Custom page width with its unit (px, in, cm, mm), between 1in and 200in; needs pageHeight'),
  ),
  pageHeight: Type.Optional(
    lengthField('pageHeight', 'PDF only. Custom page height with its unit (px, in, cm, mm), between 1in and 200in; needs pageWidth'),
  ),
  landscape: withMessages(
    Type.Boolean({ default: PdfDefaults.landscape, description: 'PDF only. Landscape orientation: the page’s width and height swap' }),
    { type: 'landscape must be true or false' },
  ),
  margin: Type.Optional(
    withMessages(
      Type.Object(
        {
          top: Type.Optional(lengthField('margin.top', 'Top margin')),
          right: Type.Optional(lengthField('margin.right', 'Right margin')),
          bottom: Type.Optional(lengthField('margin.bottom', 'Bottom margin')),
          left: Type.Optional(lengthField('margin.left', 'Left margin')),
        },
        {
          additionalProperties: false,
          description: 'PDF only. Page margins with their units ("1cm", "0.5in"); 0 when left out',
        },
      ),
      { type: 'margin must be an object with top, right, bottom and left lengths' },
    ),
  ),
  printBackground: withMessages(
    Type.Boolean({ default: PdfDefaults.printBackground, description: 'PDF only. Print background colours and images' }),
    { type: 'printBackground must be true or false' },
  ),
  pageRanges: Type.Optional(
    withMessages(
      Type.String({
        maxLength: PdfLimits.maxPageRangesLength,
        pattern: PAGE_RANGES_PATTERN,
        description: 'PDF only. Pages to keep, e.g. "1-3, 5" or "2-" (all pages when left out); pages past the end are ignored',
      }),
      {
        type: pageRangesMessage,
        format: pageRangesMessage,
        maxLength: `pageRanges must be at most ${PdfLimits.maxPageRangesLength} characters`,
      },
    ),
  ),
  headerTemplate: Type.Optional(templateField('headerTemplate', 'top')),
  footerTemplate: Type.Optional(templateField('footerTemplate', 'bottom')),
  fitToContent: withMessages(
    Type.Boolean({
      default: PdfDefaults.fitToContent,
      description:
        'PDF only. One page exactly the size of the content (laid out at the viewport width), instead of paper pages; ' +
        'a page taller than 200 in is cut there. pageSize, pageWidth, pageHeight, landscape and pageRanges are then ignored.',
    }),
    { type: 'fitToContent must be true or false' },
  ),
});

export const PdfFieldNames = [
  'pageSize',
  'pageWidth',
  'pageHeight',
  'landscape',
  'margin',
  'printBackground',
  'pageRanges',
  'headerTemplate',
  'footerTemplate',
  'fitToContent',
] as const;

/** What a PDF job carries: the options resolved by the gateway (sizes in CSS pixels, orientation applied). */
export const PdfJobOptions = Type.Object(
  {
    width: Type.Number({ minimum: PdfLimits.minPageSidePx, maximum: PdfLimits.maxPageSidePx }),
    height: Type.Number({ minimum: PdfLimits.minPageSidePx, maximum: PdfLimits.maxPageSidePx }),
    margin: Type.Object(
      {
        top: Type.Number({ minimum: 0, maximum: PdfLimits.maxPageSidePx }),
        right: Type.Number({ minimum: 0, maximum: PdfLimits.maxPageSidePx }),
        bottom: Type.Number({ minimum: 0, maximum: PdfLimits.maxPageSidePx }),
        left: Type.Number({ minimum: 0, maximum: PdfLimits.maxPageSidePx }),
      },
      { additionalProperties: false },
    ),
    printBackground: Type.Boolean(),
    pageRanges: Type.Optional(Type.String({ maxLength: PdfLimits.maxPageRangesLength })),
    headerTemplate: Type.Optional(Type.String({ maxLength: PdfLimits.maxTemplateLength })),
    footerTemplate: Type.Optional(Type.String({ maxLength: PdfLimits.maxTemplateLength })),
    fitToContent: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type PdfJobOptions = Static<typeof PdfJobOptions>;

export interface PdfBodyFields {
  pageSize: PdfPageSize;
  pageWidth?: string;
  pageHeight?: string;
  landscape: boolean;
  margin?: { top?: string; right?: string; bottom?: string; left?: string };
  printBackground: boolean;
  pageRanges?: string;
  headerTemplate?: string;
  footerTemplate?: string;
  fitToContent: boolean;
}

const invalid = (message: string) => new AppError('VALIDATION_ERROR', message);
const inches = (px: number) => `${Math.round((px / 96) * 100) / 100}in`;

function pageSide(field: string, value: string): number {
  const px = cssLengthToPx(value);
  if (px === undefined) throw invalid(`${field} must be a length such as "210mm", "8.5in", "2cm" or "96px"`);
  if (px < PdfLimits.minPageSidePx || px > PdfLimits.maxPageSidePx) {
    throw invalid(`${field} must be between ${inches(PdfLimits.minPageSidePx)} and ${inches(PdfLimits.maxPageSidePx)} (25.4mm and 5080mm)`);
  }
  return px;
}

/** Checks a page-range list beyond its pattern: pages from 1, each range in order. */
function checkPageRanges(ranges: string): string {
  const parts = ranges.split(',').map((part) => part.trim());
  for (const part of parts) {
    const [from, to] = part.split('-').map((n) => n.trim());
    const first = Number(from);
    if (first < 1 || first > PdfLimits.maxPageNumber)
      throw invalid(`pageRanges: page numbers start at 1 and go up to ${PdfLimits.maxPageNumber}`);
    if (to !== undefined && to !== '') {
      const last = Number(to);
      if (last > PdfLimits.maxPageNumber) throw invalid(`pageRanges: page numbers start at 1 and go up to ${PdfLimits.maxPageNumber}`);
      if (last < first) throw invalid(`pageRanges: the range "${part}" ends before it starts`);
    }
  }
  return parts.join(', ');
}

/**
 * A body's PDF fields as a job's options: page size in CSS pixels (named or custom, turned for landscape),
 * margins in pixels leaving room to print, page ranges checked. Throws the 400 a person can act on.
 */
export function resolvePdfOptions(body: PdfBodyFields): PdfJobOptions {
  if ((body.pageWidth === undefined) !== (body.pageHeight === undefined)) {
    throw invalid('pageWidth and pageHeight must be given together');
  }
  let width: number;
  let height: number;
  if (body.pageWidth !== undefined && body.pageHeight !== undefined) {
    width = pageSide('pageWidth', body.pageWidth);
    height = pageSide('pageHeight', body.pageHeight);
  } else {
    ({ width, height } = PdfPageSizes[body.pageSize]);
  }
  if (body.landscape) [width, height] = [height, width];
  const margin = { top: 0, right: 0, bottom: 0, left: 0 };
  for (const side of ['top', 'right', 'bottom', 'left'] as const) {
    const value = body.margin?.[side];
    if (value === undefined) continue;
    const px = cssLengthToPx(value);
    if (px === undefined) throw invalid(`margin.${side} must be a length such as "210mm", "8.5in", "2cm" or "96px"`);
    if (px > PdfLimits.maxPageSidePx) throw invalid(`margin.${side} must be at most ${inches(PdfLimits.maxPageSidePx)}`);
    margin[side] = px;
  }
  if (!body.fitToContent) {
    if (width - margin.left - margin.right < PdfLimits.minContentSidePx) {
      throw invalid(`margin.left and margin.right must leave at least ${inches(PdfLimits.minContentSidePx)} of the page's width`);
    }
    if (height - margin.top - margin.bottom < PdfLimits.minContentSidePx) {
      throw invalid(`margin.top and margin.bottom must leave at least ${inches(PdfLimits.minContentSidePx)} of the page's height`);
    }
  }
  const options: PdfJobOptions = { width, height, margin, printBackground: body.printBackground, fitToContent: body.fitToContent };
  if (!body.fitToContent && body.pageRanges !== undefined && body.pageRanges.trim() !== '')
    options.pageRanges = checkPageRanges(body.pageRanges);
  if (body.headerTemplate !== undefined) options.headerTemplate = body.headerTemplate;
  if (body.footerTemplate !== undefined) options.footerTemplate = body.footerTemplate;
  return options;
}
