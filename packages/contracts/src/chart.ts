import { type Static, Type } from '@sinclair/typebox';
import { dimension, outputMode, quality, scaleField } from './render.ts';
import { StringEnum, withMessages } from './schema-helpers.ts';

export const ChartLibraries = ['chartjs', 'd3', 'highcharts'] as const;
export type ChartLibrary = (typeof ChartLibraries)[number];
export const ChartFormats = ['png', 'jpeg', 'svg', 'pdf'] as const;
export type ChartFormat = (typeof ChartFormats)[number];
export const ChartJsTypes = ['bar', 'line', 'pie', 'doughnut', 'radar', 'polarArea', 'scatter', 'bubble'] as const;
export const D3ChartTypes = ['bar', 'line', 'area', 'pie', 'donut', 'scatter'] as const;
export const ChartDefaults = { width: 800, height: 400, quality: 90 } as const;

/**
 * `chartData` and `chartOptions` arrive either as objects or as JSON text (the demo pages send what the
 * user typed); the gateway parses and checks them, then queues plain JSON values only — never functions or
 * script strings.
 */
export const ChartConvertBody = Type.Object(
  {
    library: withMessages(StringEnum(ChartLibraries, { description: 'Chart library' }), {
      required: 'library is required (chartjs, d3 or highcharts)',
      enum: 'library must be one of: chartjs, d3, highcharts',
      type: 'library must be one of: chartjs, d3, highcharts',
    }),
    chartType: Type.Optional(Type.String({ minLength: 1, maxLength: 40, description: 'Chart type, e.g. bar, line, pie' })),
    chartData: Type.Optional(Type.Unknown({ description: 'Chart data (object or JSON text); shape depends on the library' })),
    chartOptions: Type.Optional(Type.Unknown({ description: 'Library options (object or JSON text)' })),
    format: withMessages(StringEnum(ChartFormats, { default: 'png', description: 'svg for D3 and Highcharts; pdf for Highcharts only' }), {
      enum: 'format must be one of: png, jpeg, svg, pdf',
      type: 'format must be one of: png, jpeg, svg, pdf',
    }),
    width: dimension('width', ChartDefaults.width),
    height: dimension('height', ChartDefaults.height),
    quality: quality(ChartDefaults.quality),
    outputType: outputMode('outputType'),
    colors: Type.Optional(
      withMessages(Type.Array(Type.String({ maxLength: 64 }), { maxItems: 64, description: 'Palette used for series/slices' }), {
        type: 'colors must be an array of CSS colours',
      }),
    ),
    backgroundColor: Type.Optional(
      withMessages(Type.String({ maxLength: 64, description: 'CSS colour; default white' }), {
        type: 'backgroundColor must be a CSS colour',
      }),
    ),
    scale: scaleField(),
    animations: Type.Optional(Type.Boolean({ description: 'Accepted for compatibility; animations are always off while rendering' })),
    responsiveWidth: Type.Optional(Type.Boolean({ description: 'Let the chart fill the requested width' })),
    theme: withMessages(StringEnum(['light', 'dark'] as const, { default: 'light', description: 'Highcharts theme' }), {
      enum: 'theme must be one of: light, dark',
    }),
  },
  { $id: 'ChartConvertBody', additionalProperties: true },
);
export type ChartConvertBody = Static<typeof ChartConvertBody>;

/** What the worker gets: data and options already parsed to plain JSON values. */
export const ChartRenderPayload = Type.Object(
  {
    library: StringEnum(ChartLibraries),
    chartType: Type.Optional(Type.String()),
    chartData: Type.Unknown(),
    chartOptions: Type.Unknown(),
    format: StringEnum(ChartFormats),
    width: Type.Integer(),
    height: Type.Integer(),
    quality: Type.Integer(),
    colors: Type.Optional(Type.Array(Type.String())),
    backgroundColor: Type.Optional(Type.String()),
    scale: Type.Number(),
    responsiveWidth: Type.Optional(Type.Boolean()),
    theme: StringEnum(['light', 'dark'] as const),
  },
  { additionalProperties: false },
);
export type ChartRenderPayload = Static<typeof ChartRenderPayload>;
