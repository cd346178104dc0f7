import {
  ChartConvertBody,
  ChartDefaults,
  ChartTypesByLibrary,
  CodeConvertBody,
  CodeDefaults,
  CodeLimits,
  CodeWindowStyles,
  HtmlConvertBody,
  PdfDefaults,
  PdfPageSizeNames,
  RenderDefaults,
  ScreenshotConvertBody,
  ScreenshotDevices,
  ScreenshotLanguages,
  ScreenshotWaitUntil,
  SvgConvertBody,
} from '@render/contracts';
import type { TSchema } from '@sinclair/typebox';
import type { EditorLanguage } from '../../components/ui/code-editor.tsx';
import { CHART_SAMPLES, CODE_SAMPLE, HTML_SAMPLE, SVG_SAMPLE } from './playground-samples.ts';

/** A form value: text inputs, numbers and JSON hold strings; checkboxes hold booleans. */
export type Values = Record<string, string | boolean>;
export type FieldKind = 'code' | 'json' | 'number' | 'select' | 'checkbox' | 'text' | 'colors';
export type FieldGroup = 'content' | 'size' | 'advanced';

export interface FieldDef {
  /** The API field name (also the control's `name`). */
  name: string;
  kind: FieldKind;
  group: FieldGroup;
  options?: (values: Values) => readonly string[];
  /** Translate option labels from `playground:options.<name>.<value>` (else the API value is shown). */
  translateOptions?: boolean;
  editorLanguage?: EditorLanguage;
  min?: number;
  max?: number;
  step?: number;
  visible?: (values: Values) => boolean;
}

export type PlaygroundId = 'html' | 'svg' | 'chart' | 'chartjs' | 'd3' | 'highcharts' | 'code' | 'screenshot';

export interface PlaygroundDefinition {
  id: PlaygroundId;
  endpoint: string;
  outputField: 'output' | 'outputType';
  /** The contract the gateway validates this call with: the form reports the same messages. */
  schema: TSchema;
  fields: FieldDef[];
  defaults: Values;
  /** Values the page always sends (e.g. the chart library of a library's page). */
  fixed?: Record<string, unknown>;
  /** Spec §8: the toast when a render fails without a server message. */
  failureMessage: string;
  /** Follow-up changes when one value changes (a new device brings its viewport). */
  onChange?: (name: string, values: Values) => Values;
  /** Reshapes the flat form body into the API's (nested options), before the contract checks it. */
  toBody?: (body: Record<string, unknown>) => Record<string, unknown>;
  /** The form field that shows a body field's problem, where their names differ. */
  problemFields?: Record<string, string>;
}

const oneOf = (values: readonly string[]) => () => values;
const size = (name: 'width' | 'height', min = 50, max = 4000): FieldDef => ({ name, kind: 'number', group: 'size', min, max, step: 1 });
const quality: FieldDef = { name: 'quality', kind: 'number', group: 'size', min: 1, max: 100, step: 1 };
const scale: FieldDef = { name: 'scale', kind: 'number', group: 'advanced', min: 0.1, max: 3, step: 0.1 };
const output = (name: 'output' | 'outputType'): FieldDef => ({
  name,
  kind: 'select',
  group: 'advanced',
  options: oneOf(['binary', 'json']),
  translateOptions: true,
});
/** `cache`: seconds an identical request is answered from the cache at no charge (empty: not cached). */
const cache: FieldDef = { name: 'cache', kind: 'number', group: 'advanced', min: 0, max: 86_400, step: 1 };
const format = (formats: readonly string[]): FieldDef => ({ name: 'format', kind: 'select', group: 'size', options: oneOf(formats) });

/** The PDF page options (HTML and screenshot), shown when the format is pdf; `margin` is one length for all four sides. */
const isPdf = (values: Values) => values.format === 'pdf';
/** Screenshot fields that only images have (a PDF prints the whole page; the API refuses selector with pdf). */
const isImage = (values: Values) => !isPdf(values);
const pdfFields: FieldDef[] = [
  { name: 'pageSize', kind: 'select', group: 'size', options: oneOf(PdfPageSizeNames), visible: isPdf },
  { name: 'landscape', kind: 'checkbox', group: 'size', visible: isPdf },
  { name: 'margin', kind: 'text', group: 'size', visible: isPdf },
  { name: 'printBackground', kind: 'checkbox', group: 'size', visible: isPdf },
  { name: 'fitToContent', kind: 'checkbox', group: 'size', visible: isPdf },
];
const pdfDefaults: Values = {
  pageSize: PdfDefaults.pageSize,
  landscape: PdfDefaults.landscape,
  margin: '',
  printBackground: PdfDefaults.printBackground,
  fitToContent: PdfDefaults.fitToContent,
};

const html: PlaygroundDefinition = {
  id: 'html',
  endpoint: '/api/html-to-img/convert',
  outputField: 'output',
  schema: HtmlConvertBody,
  failureMessage: 'Failed to generate image',
  fields: [
    { name: 'html', kind: 'code', group: 'content', editorLanguage: 'html' },
    format(['png', 'jpeg', 'webp', 'pdf']),
    ...pdfFields,
    size('width'),
    size('height'),
    quality,
    scale,
    output('output'),
    cache,
  ],
  defaults: {
    html: HTML_SAMPLE,
    format: 'png',
    ...pdfDefaults,
    width: String(RenderDefaults.width),
    height: String(RenderDefaults.height),
    quality: String(RenderDefaults.quality),
    scale: String(RenderDefaults.scale),
    output: 'binary',
    cache: '',
  },
};

const svg: PlaygroundDefinition = {
  id: 'svg',
  endpoint: '/api/svg-to-img/convert',
  outputField: 'output',
  schema: SvgConvertBody,
  failureMessage: 'Failed to generate image',
  fields: [
    { name: 'svg', kind: 'code', group: 'content', editorLanguage: 'xml' },
    format(['png', 'jpeg', 'webp', 'svg']),
    size('width'),
    size('height'),
    quality,
    { name: 'transparent', kind: 'checkbox', group: 'advanced' },
    output('output'),
    cache,
  ],
  defaults: {
    svg: SVG_SAMPLE,
    format: 'png',
    width: String(RenderDefaults.width),
    height: String(RenderDefaults.height),
    quality: String(RenderDefaults.quality),
    transparent: false,
    output: 'binary',
    cache: '',
  },
};

type Library = 'chartjs' | 'd3' | 'highcharts';
const CHART_FORMATS: Record<Library, readonly string[]> = {
  chartjs: ['png', 'jpeg'],
  d3: ['png', 'jpeg', 'svg'],
  highcharts: ['png', 'jpeg', 'svg', 'pdf'],
};
const libraryOf = (values: Values): Library => (values.library === 'd3' || values.library === 'highcharts' ? values.library : 'chartjs');

function chartFields(withLibrary: boolean): FieldDef[] {
  return [
    ...(withLibrary
      ? [
          {
            name: 'library',
            kind: 'select',
            group: 'content',
            options: oneOf(['chartjs', 'd3', 'highcharts']),
            translateOptions: true,
          } as FieldDef,
        ]
      : []),
    { name: 'chartType', kind: 'select', group: 'content', options: (values) => ChartTypesByLibrary[libraryOf(values)] },
    { name: 'chartData', kind: 'json', group: 'content', editorLanguage: 'json' },
    { name: 'chartOptions', kind: 'json', group: 'content', editorLanguage: 'json' },
    { name: 'format', kind: 'select', group: 'size', options: (values) => CHART_FORMATS[libraryOf(values)] },
    size('width'),
    size('height'),
    quality,
    {
      name: 'theme',
      kind: 'select',
      group: 'advanced',
      options: oneOf(['light', 'dark']),
      translateOptions: true,
      visible: (v) => libraryOf(v) === 'highcharts',
    },
    { name: 'colors', kind: 'colors', group: 'advanced' },
    { name: 'backgroundColor', kind: 'text', group: 'advanced' },
    scale,
    { name: 'animations', kind: 'checkbox', group: 'advanced' },
    { name: 'responsiveWidth', kind: 'checkbox', group: 'advanced' },
    output('outputType'),
    cache,
  ];
}

/** Spec §9: charts 800×400, 500 high on the D3 and Highcharts pages, quality 90. */
function chartDefaults(library: Library, height: number): Values {
  const sample = CHART_SAMPLES[library];
  return {
    library,
    chartType: sample.chartType,
    chartData: sample.chartData,
    chartOptions: sample.chartOptions,
    format: 'png',
    width: String(ChartDefaults.width),
    height: String(height),
    quality: String(ChartDefaults.quality),
    theme: 'light',
    colors: '',
    backgroundColor: '',
    scale: '1',
    animations: false,
    responsiveWidth: false,
    outputType: 'binary',
    cache: '',
  };
}

const chartPage = (id: PlaygroundId, library: Library, height: number): PlaygroundDefinition => ({
  id,
  endpoint: '/api/chart-to-img/convert',
  outputField: 'outputType',
  schema: ChartConvertBody,
  failureMessage: 'Failed to generate image',
  fields: chartFields(false),
  defaults: chartDefaults(library, height),
  fixed: { library },
});

const chart: PlaygroundDefinition = {
  ...chartPage('chart', 'chartjs', ChartDefaults.height),
  fields: chartFields(true),
  fixed: undefined,
  // A new library brings its own sample, types and formats.
  onChange: (name, values) =>
    name === 'library'
      ? {
          ...chartDefaults(libraryOf(values), Number(values.height) || ChartDefaults.height),
          width: values.width ?? String(ChartDefaults.width),
        }
      : values,
};

/**
 * The code page's frame controls are flat form fields; the API nests them: `window: { style, title }`,
 * `background: { color }`, and `highlightLines` as a list ("3, 5-7" → [3, "5-7"]).
 */
export function codeFrameBody(body: Record<string, unknown>): Record<string, unknown> {
  const { windowStyle, windowTitle, frameBackground, highlightLines, ...rest } = body;
  const out: Record<string, unknown> = { ...rest };
  if (typeof windowStyle === 'string' && windowStyle !== 'none') {
    out.window = { style: windowStyle, ...(typeof windowTitle === 'string' && windowTitle ? { title: windowTitle } : {}) };
  }
  if (typeof frameBackground === 'string' && frameBackground) out.background = { color: frameBackground };
  if (typeof highlightLines === 'string' && highlightLines) {
    out.highlightLines = highlightLines
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean)
      .map((entry) => (/^[0-9]+$/.test(entry) ? Number(entry) : entry));
  }
  return out;
}

const code: PlaygroundDefinition = {
  id: 'code',
  endpoint: '/api/code-to-img/convert',
  outputField: 'outputType',
  schema: CodeConvertBody,
  failureMessage: 'Failed to generate image',
  fields: [
    { name: 'code', kind: 'code', group: 'content', editorLanguage: 'javascript' },
    { name: 'language', kind: 'select', group: 'content' },
    { name: 'theme', kind: 'select', group: 'content' },
    format(['png', 'jpeg', 'webp']),
    size('width'),
    { name: 'height', kind: 'text', group: 'size' },
    quality,
    { name: 'fontSize', kind: 'number', group: 'advanced', min: 8, max: 72, step: 1 },
    { name: 'padding', kind: 'number', group: 'advanced', min: 0, max: 200, step: 1 },
    { name: 'borderRadius', kind: 'number', group: 'advanced', min: 0, max: 100, step: 1 },
    { name: 'showLineNumbers', kind: 'checkbox', group: 'advanced' },
    { name: 'firstLineNumber', kind: 'number', group: 'advanced', min: 1, max: CodeLimits.maxLineNumber, step: 1 },
    { name: 'highlightLines', kind: 'text', group: 'advanced' },
    { name: 'windowStyle', kind: 'select', group: 'advanced', options: oneOf(CodeWindowStyles), translateOptions: true },
    { name: 'windowTitle', kind: 'text', group: 'advanced', visible: (values) => values.windowStyle !== 'none' },
    { name: 'frameBackground', kind: 'text', group: 'advanced' },
    { name: 'outerPadding', kind: 'number', group: 'advanced', min: 0, max: CodeLimits.maxOuterPadding, step: 1 },
    { name: 'shadow', kind: 'checkbox', group: 'advanced' },
    scale,
    output('outputType'),
    cache,
  ],
  toBody: codeFrameBody,
  problemFields: { window: 'windowTitle', background: 'frameBackground' },
  // Spec §9: the page starts on vs2015 (the API's own default theme is monokai).
  defaults: {
    code: CODE_SAMPLE,
    language: 'typescript',
    theme: 'vs2015',
    format: 'png',
    width: String(CodeDefaults.width),
    height: 'auto',
    quality: String(CodeDefaults.quality),
    fontSize: String(CodeDefaults.fontSize),
    padding: String(CodeDefaults.padding),
    borderRadius: String(CodeDefaults.borderRadius),
    showLineNumbers: true,
    firstLineNumber: '1',
    highlightLines: '',
    windowStyle: 'none',
    windowTitle: '',
    frameBackground: '',
    outerPadding: '',
    shadow: false,
    scale: '1',
    outputType: 'binary',
    cache: '',
  },
};

const screenshot: PlaygroundDefinition = {
  id: 'screenshot',
  endpoint: '/api/screenshot/convert',
  outputField: 'outputType',
  schema: ScreenshotConvertBody,
  failureMessage: 'Failed to capture screenshot',
  fields: [
    { name: 'url', kind: 'text', group: 'content' },
    { name: 'deviceType', kind: 'select', group: 'content', options: oneOf(['desktop', 'mobile', 'tablet']), translateOptions: true },
    { name: 'fullPage', kind: 'checkbox', group: 'content', visible: isImage },
    format(['png', 'jpeg', 'webp', 'pdf']),
    ...pdfFields,
    size('width'),
    size('height'),
    { ...quality },
    { name: 'language', kind: 'select', group: 'advanced', options: oneOf(ScreenshotLanguages) },
    { name: 'delay', kind: 'number', group: 'advanced', min: 0, max: 10000, step: 100 },
    { name: 'selector', kind: 'text', group: 'advanced', visible: isImage },
    { name: 'waitForSelector', kind: 'text', group: 'advanced' },
    { name: 'hideCookieBanners', kind: 'checkbox', group: 'advanced' },
    { name: 'hideScrollbars', kind: 'checkbox', group: 'advanced' },
    { name: 'darkMode', kind: 'checkbox', group: 'advanced' },
    { name: 'transparent', kind: 'checkbox', group: 'advanced', visible: isImage },
    { name: 'waitUntil', kind: 'select', group: 'advanced', options: oneOf(ScreenshotWaitUntil) },
    { name: 'userAgent', kind: 'text', group: 'advanced' },
    { name: 'headers', kind: 'json', group: 'advanced', editorLanguage: 'json' },
    { name: 'cookies', kind: 'json', group: 'advanced', editorLanguage: 'json' },
    { name: 'blockAds', kind: 'checkbox', group: 'advanced' },
    { name: 'blockTrackers', kind: 'checkbox', group: 'advanced' },
    { name: 'css', kind: 'code', group: 'advanced', editorLanguage: 'text' },
    { name: 'js', kind: 'code', group: 'advanced', editorLanguage: 'javascript' },
    output('outputType'),
    cache,
  ],
  // Empty css/js editors send nothing.
  toBody: (body) =>
    Object.fromEntries(Object.entries(body).filter(([name, value]) => !((name === 'css' || name === 'js') && value === ''))),
  defaults: {
    url: 'https://example.com',
    deviceType: 'desktop',
    fullPage: false,
    format: 'png',
    ...pdfDefaults,
    width: String(ScreenshotDevices.desktop.width),
    height: String(ScreenshotDevices.desktop.height),
    quality: '80',
    language: 'en-US',
    delay: '0',
    selector: '',
    waitForSelector: '',
    hideCookieBanners: true,
    hideScrollbars: true,
    darkMode: false,
    transparent: false,
    waitUntil: 'load',
    userAgent: '',
    headers: '',
    cookies: '',
    blockAds: false,
    blockTrackers: false,
    css: '',
    js: '',
    outputType: 'binary',
    cache: '',
  },
  // Spec §9: mobile is an iPhone 12 Pro, tablet an iPad Pro: choosing one shows its viewport.
  onChange: (name, values) => {
    if (name !== 'deviceType') return values;
    const device = ScreenshotDevices[values.deviceType as keyof typeof ScreenshotDevices] ?? ScreenshotDevices.desktop;
    return { ...values, width: String(device.width), height: String(device.height) };
  },
};

export const PLAYGROUNDS: Record<PlaygroundId, PlaygroundDefinition> = {
  html,
  svg,
  chart,
  chartjs: chartPage('chartjs', 'chartjs', ChartDefaults.height),
  d3: chartPage('d3', 'd3', 500),
  highcharts: chartPage('highcharts', 'highcharts', 500),
  code,
  screenshot,
};
