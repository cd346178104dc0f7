import { type Static, Type } from 'typebox';

/**
 * QuickChart-compatible calls (`GET/POST /chart`, `POST /chart/create`, `GET /chart/render/{id}`): the
 * parameters QuickChart documents, under its long and short names, taken as it takes them (every value a
 * string in a query; numbers or strings in a body). Unknown parameters are ignored, as QuickChart does.
 */
export const QuickChartDefaults = { width: 500, height: 300, devicePixelRatio: 2, version: '2', format: 'png' } as const;

export const QuickChartLimits = {
  /** Characters of the chart config (a JSON or JavaScript object literal), after base64 decoding. */
  maxSourceLength: 200_000,
  /** QuickChart's own ceiling on a side. */
  maxSide: 3000,
  maxDevicePixelRatio: 3,
  /** How long a short URL lives, in days. */
  shortUrlDays: 30,
} as const;

/** What `format`/`f` may be; `jpg` is QuickChart's name for JPEG; `base64` answers a PNG data URL as text. */
export const QuickChartFormats = ['png', 'webp', 'jpg', 'jpeg', 'svg', 'pdf', 'base64'] as const;
export type QuickChartFormat = (typeof QuickChartFormats)[number];

/** The Chart.js majors a config may ask for; 3 is drawn with Chart.js 4 (docs/decisions/0036). */
export const QuickChartVersions = ['2', '3', '4'] as const;

const text = (description: string) => Type.Optional(Type.String({ maxLength: 64, description }));
const num = (description: string) => Type.Optional(Type.Union([Type.Number(), Type.String({ maxLength: 32 })], { description }));

const sharedParameters = {
  width: num('Image width in CSS pixels (default 500)'),
  w: num('Short for width'),
  height: num('Image height in CSS pixels (default 300)'),
  h: num('Short for height'),
  devicePixelRatio: num('Pixel density (default 2, as QuickChart: the image is twice width × height)'),
  backgroundColor: text('Canvas background (CSS colour; default transparent)'),
  bkg: text('Short for backgroundColor'),
  format: text('png (default), webp, jpg, svg (the PNG in an SVG document), pdf, or base64 (a PNG data URL as text)'),
  f: text('Short for format'),
  version: text('Chart.js version: 2 (default, Chart.js 2.9.4), 3 or 4 (Chart.js 4)'),
  v: text('Short for version'),
  encoding: text('url (default) or base64: how `chart` is encoded'),
  key: Type.Optional(Type.String({ maxLength: 200, description: 'API key (instead of the X-API-Key header)' })),
};

export const QuickChartQuery = Type.Object(
  {
    chart: Type.Optional(Type.String({ description: 'The Chart.js config: JSON or a JavaScript object literal (functions allowed)' })),
    c: Type.Optional(Type.String({ description: 'Short for chart' })),
    ...sharedParameters,
  },
  { additionalProperties: true },
);
export type QuickChartQuery = Static<typeof QuickChartQuery>;

const chartValue = Type.Union([Type.String(), Type.Object({}, { additionalProperties: true })], {
  description: 'The Chart.js config: an object, or JSON / JavaScript object-literal text (functions allowed)',
});

export const QuickChartBody = Type.Object(
  { chart: Type.Optional(chartValue), c: Type.Optional(chartValue), ...sharedParameters },
  { additionalProperties: true },
);
export type QuickChartBody = Static<typeof QuickChartBody>;

export const QuickChartCreateResponse = Type.Object(
  {
    success: Type.Literal(true),
    url: Type.String({ description: 'GET it to render the chart; query parameters override the stored ones' }),
  },
  { additionalProperties: false },
);
export type QuickChartCreateResponse = Static<typeof QuickChartCreateResponse>;

/** A short URL's id: random, URL-safe (base64url of 16 random bytes is 22 characters). */
export const QuickChartShortIdPattern = '^[A-Za-z0-9_-]{16,40}$';
export const QuickChartShortIdParams = Type.Object({ id: Type.String({ pattern: QuickChartShortIdPattern }) });
/**
 * The public path's id: any short text, so that an id which cannot exist is the same 404 as an unknown one
 * (the gateway checks the pattern before asking for it).
 */
export const QuickChartShortUrlParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 100, description: 'The id in the url that POST /chart/create answered' }),
});

/** What `GET /chart/render/{id}` may change of the stored chart: its size, density, background, format, version. */
export const QuickChartRenderQuery = Type.Object(
  {
    width: sharedParameters.width,
    w: sharedParameters.w,
    height: sharedParameters.height,
    h: sharedParameters.h,
    devicePixelRatio: sharedParameters.devicePixelRatio,
    backgroundColor: sharedParameters.backgroundColor,
    bkg: sharedParameters.bkg,
    format: sharedParameters.format,
    f: sharedParameters.f,
    version: sharedParameters.version,
    v: sharedParameters.v,
    key: sharedParameters.key,
  },
  { additionalProperties: true },
);
export type QuickChartRenderQuery = Static<typeof QuickChartRenderQuery>;

/**
 * A short URL's stored request: QuickChart's parameters as the gateway validated them, under their long names,
 * the config as its (decoded) text. Rendering reads it back through the same checks as `/chart`.
 */
export const QuickChartStoredRequest = Type.Object(
  {
    chart: Type.String({ minLength: 1, maxLength: QuickChartLimits.maxSourceLength }),
    width: Type.Integer({ minimum: 1, maximum: QuickChartLimits.maxSide }),
    height: Type.Integer({ minimum: 1, maximum: QuickChartLimits.maxSide }),
    devicePixelRatio: Type.Number({ exclusiveMinimum: 0, maximum: QuickChartLimits.maxDevicePixelRatio }),
    backgroundColor: Type.Optional(Type.String({ maxLength: 64 })),
    format: Type.String({ maxLength: 16 }),
    version: Type.String({ maxLength: 16 }),
  },
  { additionalProperties: false },
);
export type QuickChartStoredRequest = Static<typeof QuickChartStoredRequest>;

/** What a QuickChart call becomes in a chart job: the config's source, evaluated only in the render page. */
export const QuickChartJob = Type.Object(
  {
    /** The Chart.js major the page draws with: '2' (Chart.js 2.9.4) or '4'. */
    chartJs: Type.Union([Type.Literal('2'), Type.Literal('4')]),
    source: Type.String(),
  },
  { additionalProperties: false },
);
export type QuickChartJob = Static<typeof QuickChartJob>;
