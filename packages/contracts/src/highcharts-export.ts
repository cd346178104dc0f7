import { type Static, Type } from 'typebox';
import { HighchartsConstructors } from './chart.ts';
import { MimeTypes } from './render.ts';

/**
 * POST /highcharts and /highcharts/{filename}: the Highcharts export server's request body (node-export-server,
 * `POST /`), so its clients only change their base URL. The body may come as JSON, form-urlencoded or
 * multipart, so every field may also be a string ("600", "true", JSON text); the gateway parses them
 * (highcharts-export-request.ts) with the messages below.
 */

/** What `type` accepts: the export server's names and their media types (`jpg` and `image/jpg` too). */
export const HighchartsExportTypes = ['png', 'jpeg', 'pdf', 'svg'] as const;
export type HighchartsExportType = (typeof HighchartsExportTypes)[number];
export const HighchartsExportTypeNames: Record<string, HighchartsExportType> = {
  png: 'png',
  jpeg: 'jpeg',
  jpg: 'jpeg',
  pdf: 'pdf',
  svg: 'svg',
  [MimeTypes.png]: 'png',
  [MimeTypes.jpeg]: 'jpeg',
  'image/jpg': 'jpeg',
  [MimeTypes.pdf]: 'pdf',
  [MimeTypes.svg]: 'svg',
};

/** The export server's sizes when neither the request nor the chart's options give one. */
export const HighchartsExportDefaults = { width: 600, height: 400, scale: 1 } as const;

/** Fields that run the caller's JavaScript (or load files) in the export server: off unless the operator allows them. */
export const HighchartsCodeFields = ['callback', 'customCode', 'resources'] as const;

export const HighchartsExportMessages = {
  noChart:
    "No correct chart data found: send the chart's options as JSON in 'infile', 'options' or 'data', or an SVG in 'svg' " +
    '(as application/json, application/x-www-form-urlencoded or multipart/form-data)',
  badJson: (field: string) => `${field} must be a JSON object (or JSON text of one)`,
  type: `type must be one of: ${HighchartsExportTypes.join(', ')} or their media types (${Object.keys(HighchartsExportTypeNames)
    .filter((k) => k.includes('/'))
    .join(', ')})`,
  constr: `constr must be one of: ${HighchartsConstructors.join(', ')}`,
  number: (field: string) => `${field} must be a number`,
  boolean: (field: string) => `${field} must be true or false`,
  codeDisabled: (field: string) =>
    `${field} is not allowed: this server does not run custom code (callback, customCode, resources), as the Highcharts export ` +
    'server does by default; send the chart as JSON options (functions are not supported) or ask the operator to enable it',
  filename: 'filename may only contain letters, digits, dots, dashes and underscores (at most 100)',
} as const;

const CODE_FIELD =
  'Refused (400) by default, as by the export server; with HIGHCHARTS_CUSTOM_CODE=enable accepted but not run (the chart renders without it)';
const jsonField = (description: string) =>
  Type.Optional(Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.String()], { description }));
const numberField = (description: string) => Type.Optional(Type.Union([Type.Number(), Type.String()], { description }));
const flagField = (description: string) => Type.Optional(Type.Union([Type.Boolean(), Type.String()], { description }));

export const HighchartsExportBody = Type.Object(
  {
    infile: jsonField('The chart options (Highcharts JSON), as an object or JSON text. `options` and `data` are other names for it'),
    options: jsonField('Same as `infile`'),
    data: jsonField('Same as `infile`'),
    svg: Type.Optional(Type.String({ description: 'An SVG to convert instead of chart options' })),
    type: Type.Optional(
      Type.String({
        description: 'png (default), jpeg, pdf or svg, or their media types (image/png, image/jpeg, application/pdf, image/svg+xml)',
      }),
    ),
    constr: Type.Optional(Type.String({ description: 'chart (default), stockChart, mapChart or ganttChart' })),
    width: numberField('Chart width in pixels (default: the options’ chart.width, else 600)'),
    height: numberField('Chart height in pixels (default: the options’ chart.height, else 400)'),
    scale: numberField('Pixel ratio of PNG and JPEG output, 0.1–3 (default 1)'),
    globalOptions: jsonField('Options applied as Highcharts.setOptions would (lang, time…), under the chart’s own'),
    themeOptions: jsonField('A theme merged under the chart’s options'),
    b64: flagField('true: answer the file as base64 text'),
    noDownload: flagField('true: no Content-Disposition attachment header'),
    filename: Type.Optional(
      Type.String({ description: 'The download’s name without extension (default `chart`); the path’s {filename} wins' }),
    ),
    callback: Type.Optional(Type.Unknown({ description: CODE_FIELD })),
    customCode: Type.Optional(Type.Unknown({ description: CODE_FIELD })),
    resources: Type.Optional(Type.Unknown({ description: CODE_FIELD })),
    dataOptions: Type.Optional(Type.Unknown({ description: 'Accepted and ignored, as by the export server' })),
    asyncRendering: Type.Optional(Type.Unknown({ description: 'Accepted and ignored (legacy export server field)' })),
  },
  { additionalProperties: false },
);
export type HighchartsExportBody = Static<typeof HighchartsExportBody>;

export const HighchartsExportParams = Type.Object({
  filename: Type.String({ description: 'The download’s name without extension (`Content-Disposition`)' }),
});

/**
 * Series types the Stock, Maps and Gantt modules add (the worker loads them beside the core's): accepted,
 * with the core's `HighchartsTypes`, by POST /highcharts under any constructor.
 */
export const HighchartsProductTypes = ['candlestick', 'ohlc', 'hlc', 'flags', 'map', 'mapline', 'mappoint', 'mapbubble', 'gantt'] as const;

/** The series type a constructor draws when neither `chart.type` nor a series says otherwise. */
export const HighchartsConstructorTypes = { chart: 'line', stockChart: 'line', mapChart: 'map', ganttChart: 'gantt' } as const;
