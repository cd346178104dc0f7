import {
  ChartConvertBody,
  ChartDefaults,
  ChartFormats,
  ChartTypesByLibrary,
  CodeConvertBody,
  CodeDefaults,
  CodeLimits,
  CodeWindowStyles,
  HtmlConvertBody,
  isPageContentFormat,
  PageOutputFormats,
  PdfDefaults,
  PdfPageSizeNames,
  RasterFormats,
  RenderDefaults,
  ScreenshotConvertBody,
  ScreenshotDevices,
  ScreenshotFormats,
  ScreenshotLanguages,
  ScreenshotWaitUntil,
  SvgConvertBody,
  SvgOutputFormats,
} from '@render/contracts';
import { RenderHeads } from '@render/contracts/route-heads';
import type { TSchema } from 'typebox';
import type { RenderRouteHead } from '../../lib/render-api.ts';
import type { FieldDef, Values } from './playground-fields.ts';
import { CHART_SAMPLES, CODE_SAMPLE, HTML_SAMPLE, SVG_SAMPLE } from './playground-samples.ts';
import { fitVideoSize, isVideo, videoDefaults, videoFields } from './screenshot-video-fields.ts';

export type { FieldDef, FieldGroup, FieldKind, Values } from './playground-fields.ts';

export type PlaygroundId = 'html' | 'svg' | 'chart' | 'chartjs' | 'd3' | 'highcharts' | 'code' | 'screenshot';

export interface PlaygroundDefinition {
  id: PlaygroundId;
  /** The render call it makes. */
  route: RenderRouteHead;
  outputField: 'output' | 'outputType';
  /** The contract the gateway validates this call with: the form reports the same messages. */
  schema: TSchema;
  fields: FieldDef[];
  defaults: Values;
  /** Values the page always sends (e.g. the chart library of a library's page). */
  fixed?: Record<string, unknown>;
  /** docs/spec/errors.md: the toast when a render fails without a server message. */
  failureMessage: string;
  /** Follow-up changes when one value changes (a new device brings its viewport). */
  onChange?: (name: string, values: Values) => Values;
  /** Reshapes the flat form body into the API's (nested options), before the contract checks it. */
  toBody?: (body: Record<string, unknown>) => Record<string, unknown>;
  /** The form field that shows a body field's problem, where their names differ (or, by the message, which of several does). */
  problemFields?: Record<string, string | ((problem: string) => string)>;
  /** Rewrites the values of a shared link (`?o=`) made before a field changed into today's fields. */
  migrateShared?: (shared: Record<string, unknown>) => Record<string, unknown>;
  /**
   * Fields a shared link writes together: when the key differs from its default, the listed fields are
   * written too, even at their defaults, so that `migrateShared` can tell today's links from older ones.
   */
  sharedTogether?: Record<string, readonly string[]>;
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
/** `optimize`: lossless PNG optimisation, offered only while the format is png (other formats ignore it). */
const optimize: FieldDef = { name: 'optimize', kind: 'checkbox', group: 'advanced', visible: (values) => values.format === 'png' };

/** The PDF page options (HTML and screenshot), shown when the format is pdf; `margin` is one length for all four sides. */
const isPdf = (values: Values) => values.format === 'pdf';
/** Screenshot fields that only images have (a PDF prints the whole page; the API refuses selector with pdf). */
const isImage = (values: Values) => !isPdf(values) && !isVideo(values) && !isPageContentFormat(String(values.format));
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
  route: RenderHeads.html,
  outputField: 'output',
  schema: HtmlConvertBody,
  failureMessage: 'Failed to generate image',
  fields: [
    { name: 'html', kind: 'code', group: 'content', editorLanguage: 'html' },
    format(PageOutputFormats),
    ...pdfFields,
    size('width'),
    size('height'),
    quality,
    optimize,
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
    optimize: false,
    scale: String(RenderDefaults.scale),
    output: 'binary',
    cache: '',
  },
};

const svg: PlaygroundDefinition = {
  id: 'svg',
  route: RenderHeads.svg,
  outputField: 'output',
  schema: SvgConvertBody,
  failureMessage: 'Failed to generate image',
  fields: [
    { name: 'svg', kind: 'code', group: 'content', editorLanguage: 'xml' },
    format(SvgOutputFormats),
    size('width'),
    size('height'),
    quality,
    optimize,
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
    optimize: false,
    transparent: false,
    output: 'binary',
    cache: '',
  },
};

type Library = 'chartjs' | 'd3' | 'highcharts';
const CHART_FORMATS: Record<Library, readonly string[]> = {
  chartjs: RasterFormats,
  d3: [...RasterFormats, 'svg'],
  highcharts: ChartFormats,
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
    optimize,
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

/** docs/spec/limits.md: charts 800×400, 500 high on the D3 and Highcharts pages, quality 90. */
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
    optimize: false,
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
  route: RenderHeads.chart,
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

/** Gradients the code page offers in one click (ray.so-like); each sets the from, to and angle fields. */
export const GRADIENT_PRESETS = [
  { id: 'indigo', from: '#4f46e5', to: '#db2777', angle: 135 },
  { id: 'ocean', from: '#0ea5e9', to: '#1e3a8a', angle: 135 },
  { id: 'sunset', from: '#f59e0b', to: '#e11d48', angle: 135 },
  { id: 'mint', from: '#34d399', to: '#0f766e', angle: 160 },
  { id: 'candy', from: '#f472b6', to: '#8b5cf6', angle: 90 },
  { id: 'night', from: '#334155', to: '#020617', angle: 180 },
] as const;

/** The CSS a gradient is drawn with, as the API's `background.gradient` draws it (CSS linear-gradient angles). */
export const gradientCss = (from: string, to: string, angle: number | string) => `linear-gradient(${angle}deg, ${from}, ${to})`;

/** The preset whose colours and angle the fields hold, or '' when they were set by hand. */
export function matchingPreset(values: Values): string {
  const preset = GRADIENT_PRESETS.find(
    (p) =>
      p.from === String(values.gradientFrom ?? '').toLowerCase() &&
      p.to === String(values.gradientTo ?? '').toLowerCase() &&
      String(p.angle) === String(values.gradientAngle ?? '').trim(),
  );
  return preset?.id ?? '';
}

/**
 * The API's `background` for the frame fields: `{ color }` or `{ gradient: { from, to, angle } }`, nothing
 * for `none` (a transparent surround). A colour left empty is sent as '' so the contract names it.
 */
export function frameBackgroundValue(fields: {
  backgroundKind?: unknown;
  frameBackground?: unknown;
  gradientFrom?: unknown;
  gradientTo?: unknown;
  gradientAngle?: unknown;
}): Record<string, unknown> | undefined {
  const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');
  if (fields.backgroundKind === 'color') return { color: text(fields.frameBackground) };
  if (fields.backgroundKind !== 'gradient') return undefined;
  const gradient: Record<string, unknown> = { from: text(fields.gradientFrom), to: text(fields.gradientTo) };
  // Left empty, the API's default angle (135) applies.
  if (fields.gradientAngle !== undefined && fields.gradientAngle !== '') gradient.angle = fields.gradientAngle;
  return { gradient };
}

/** Which frame control shows a `background` problem: the contract's message names the nested field. */
const backgroundProblemField = (problem: string) =>
  problem.startsWith('background.gradient.from')
    ? 'gradientFrom'
    : problem.startsWith('background.gradient.to')
      ? 'gradientTo'
      : problem.startsWith('background.gradient.angle')
        ? 'gradientAngle'
        : problem.startsWith('background.color')
          ? 'frameBackground'
          : 'backgroundKind';

/**
 * The code page's frame controls are flat form fields; the API nests them: `window: { style, title }`,
 * `background: { color }` or `{ gradient }`, and `highlightLines` as a list ("3, 5-7" → [3, "5-7"]).
 */
export function codeFrameBody(body: Record<string, unknown>): Record<string, unknown> {
  const {
    windowStyle,
    windowTitle,
    backgroundKind,
    frameBackground,
    gradientPreset: _preset,
    gradientFrom,
    gradientTo,
    gradientAngle,
    highlightLines,
    ...rest
  } = body;
  const out: Record<string, unknown> = { ...rest };
  if (typeof windowStyle === 'string' && windowStyle !== 'none') {
    out.window = { style: windowStyle, ...(typeof windowTitle === 'string' && windowTitle ? { title: windowTitle } : {}) };
  }
  const background = frameBackgroundValue({ backgroundKind, frameBackground, gradientFrom, gradientTo, gradientAngle });
  if (background) out.background = background;
  if (typeof highlightLines === 'string' && highlightLines) {
    out.highlightLines = highlightLines
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean)
      .map((entry) => (/^[0-9]+$/.test(entry) ? Number(entry) : entry));
  }
  return out;
}

const isGradient = (values: Values) => values.backgroundKind === 'gradient';

/**
 * Links shared before the background became a choice (none / colour / gradient) hold only `frameBackground`
 * (empty by default, so present only when a colour was drawn): they open on "colour" with that colour.
 * Today's links write `backgroundKind` beside `frameBackground` (`sharedTogether`), so they are left alone.
 */
export function migrateCodeBackground(shared: Record<string, unknown>): Record<string, unknown> {
  const colour = shared.frameBackground;
  if (shared.backgroundKind !== undefined || typeof colour !== 'string' || !colour.trim()) return shared;
  return { ...shared, backgroundKind: 'color' };
}

const code: PlaygroundDefinition = {
  id: 'code',
  route: RenderHeads.code,
  outputField: 'outputType',
  schema: CodeConvertBody,
  failureMessage: 'Failed to generate image',
  fields: [
    { name: 'code', kind: 'code', group: 'content', editorLanguage: 'javascript' },
    { name: 'language', kind: 'select', group: 'content' },
    { name: 'theme', kind: 'select', group: 'content' },
    format(RasterFormats),
    optimize,
    size('width'),
    { name: 'height', kind: 'text', group: 'size' },
    quality,
    { name: 'windowStyle', kind: 'select', group: 'frame', options: oneOf(CodeWindowStyles), translateOptions: true },
    { name: 'windowTitle', kind: 'text', group: 'frame', visible: (values) => values.windowStyle !== 'none' },
    { name: 'backgroundKind', kind: 'select', group: 'frame', options: oneOf(['none', 'color', 'gradient']), translateOptions: true },
    { name: 'frameBackground', kind: 'color', group: 'frame', visible: (values) => values.backgroundKind === 'color' },
    {
      name: 'gradientPreset',
      kind: 'presets',
      group: 'frame',
      presets: GRADIENT_PRESETS.map((p) => ({ id: p.id, background: gradientCss(p.from, p.to, p.angle) })),
      visible: isGradient,
    },
    { name: 'gradientFrom', kind: 'color', group: 'frame', visible: isGradient },
    { name: 'gradientTo', kind: 'color', group: 'frame', visible: isGradient },
    { name: 'gradientAngle', kind: 'number', group: 'frame', min: 0, max: 360, step: 1, visible: isGradient },
    { name: 'outerPadding', kind: 'number', group: 'frame', min: 0, max: CodeLimits.maxOuterPadding, step: 1 },
    { name: 'shadow', kind: 'checkbox', group: 'frame' },
    { name: 'borderRadius', kind: 'number', group: 'frame', min: 0, max: 100, step: 1 },
    { name: 'fontSize', kind: 'number', group: 'advanced', min: 8, max: 72, step: 1 },
    { name: 'padding', kind: 'number', group: 'advanced', min: 0, max: 200, step: 1 },
    { name: 'showLineNumbers', kind: 'checkbox', group: 'advanced' },
    { name: 'firstLineNumber', kind: 'number', group: 'advanced', min: 1, max: CodeLimits.maxLineNumber, step: 1 },
    { name: 'highlightLines', kind: 'text', group: 'advanced' },
    scale,
    output('outputType'),
    cache,
  ],
  toBody: codeFrameBody,
  problemFields: { window: 'windowTitle', background: backgroundProblemField },
  migrateShared: migrateCodeBackground,
  sharedTogether: { frameBackground: ['backgroundKind'] },
  // A preset fills the gradient fields; editing them by hand leaves the presets unselected.
  onChange: (name, values) => {
    if (name === 'gradientPreset') {
      const preset = GRADIENT_PRESETS.find((p) => p.id === values.gradientPreset);
      return preset ? { ...values, gradientFrom: preset.from, gradientTo: preset.to, gradientAngle: String(preset.angle) } : values;
    }
    if (name === 'gradientFrom' || name === 'gradientTo' || name === 'gradientAngle')
      return { ...values, gradientPreset: matchingPreset(values) };
    return values;
  },
  // docs/spec/limits.md: the page starts on vs2015 (the API's own default theme is monokai).
  defaults: {
    code: CODE_SAMPLE,
    language: 'typescript',
    theme: 'vs2015',
    format: 'png',
    width: String(CodeDefaults.width),
    height: 'auto',
    quality: String(CodeDefaults.quality),
    optimize: false,
    fontSize: String(CodeDefaults.fontSize),
    padding: String(CodeDefaults.padding),
    borderRadius: String(CodeDefaults.borderRadius),
    showLineNumbers: true,
    firstLineNumber: '1',
    highlightLines: '',
    windowStyle: 'none',
    windowTitle: '',
    backgroundKind: 'none',
    frameBackground: '#1e293b',
    gradientPreset: GRADIENT_PRESETS[0].id,
    gradientFrom: GRADIENT_PRESETS[0].from,
    gradientTo: GRADIENT_PRESETS[0].to,
    gradientAngle: String(GRADIENT_PRESETS[0].angle),
    outerPadding: '',
    shadow: false,
    scale: '1',
    outputType: 'binary',
    cache: '',
  },
};

/**
 * Empty css/js editors send nothing; failOnConsoleError off is left out (the API's own default); scrollTo
 * made only of digits is a y offset, anything else a selector.
 */
function screenshotBody(body: Record<string, unknown>): Record<string, unknown> {
  const out = Object.fromEntries(
    Object.entries(body).filter(
      ([name, value]) => !((name === 'css' || name === 'js') && value === '') && !(name === 'failOnConsoleError' && value === false),
    ),
  );
  if (typeof out.scrollTo === 'string' && /^\d+$/.test(out.scrollTo)) out.scrollTo = Number(out.scrollTo);
  return out;
}

const screenshot: PlaygroundDefinition = {
  id: 'screenshot',
  route: RenderHeads.screenshot,
  outputField: 'outputType',
  schema: ScreenshotConvertBody,
  failureMessage: 'Failed to capture screenshot',
  fields: [
    { name: 'url', kind: 'text', group: 'content' },
    { name: 'deviceType', kind: 'select', group: 'content', options: oneOf(['desktop', 'mobile', 'tablet']), translateOptions: true },
    { name: 'fullPage', kind: 'checkbox', group: 'content', visible: isImage },
    { name: 'fullPageScroll', kind: 'checkbox', group: 'content', visible: (values) => isImage(values) && values.fullPage === true },
    // markdown, html and text: the page's main content instead of an image (the result panel shows the text).
    format(ScreenshotFormats),
    { name: 'metadata', kind: 'checkbox', group: 'content' },
    ...pdfFields,
    ...videoFields,
    size('width'),
    size('height'),
    { ...quality },
    optimize,
    { name: 'language', kind: 'select', group: 'advanced', options: oneOf(ScreenshotLanguages) },
    { name: 'delay', kind: 'number', group: 'advanced', min: 0, max: 10000, step: 100 },
    { name: 'selector', kind: 'text', group: 'advanced', visible: isImage },
    { name: 'waitForSelector', kind: 'text', group: 'advanced' },
    // Off: a selector that matches nothing is a SELECTOR_NOT_FOUND warning instead of a 422.
    { name: 'errorOnSelectorNotFound', kind: 'checkbox', group: 'advanced' },
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
    // Interactions and loud failures (contracts' screenshot-interactions.ts); lists as JSON arrays.
    { name: 'hideSelectors', kind: 'json', group: 'advanced', editorLanguage: 'json' },
    { name: 'click', kind: 'json', group: 'advanced', editorLanguage: 'json' },
    { name: 'scrollTo', kind: 'text', group: 'advanced' },
    { name: 'timezone', kind: 'text', group: 'advanced' },
    { name: 'geolocation', kind: 'json', group: 'advanced', editorLanguage: 'json' },
    { name: 'blockRequests', kind: 'json', group: 'advanced', editorLanguage: 'json' },
    { name: 'failOnHttpStatus', kind: 'json', group: 'advanced', editorLanguage: 'json' },
    { name: 'failOnConsoleError', kind: 'checkbox', group: 'advanced' },
    { name: 'css', kind: 'code', group: 'advanced', editorLanguage: 'text' },
    { name: 'js', kind: 'code', group: 'advanced', editorLanguage: 'javascript' },
    output('outputType'),
    cache,
  ],
  toBody: screenshotBody,
  defaults: {
    url: 'https://example.com',
    deviceType: 'desktop',
    fullPage: false,
    fullPageScroll: true,
    format: 'png',
    metadata: false,
    ...pdfDefaults,
    ...videoDefaults,
    width: String(ScreenshotDevices.desktop.width),
    height: String(ScreenshotDevices.desktop.height),
    quality: '80',
    optimize: false,
    language: 'en-US',
    delay: '0',
    selector: '',
    waitForSelector: '',
    errorOnSelectorNotFound: true,
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
    hideSelectors: '',
    click: '',
    scrollTo: '',
    timezone: '',
    geolocation: '',
    blockRequests: '',
    failOnHttpStatus: '',
    failOnConsoleError: false,
    css: '',
    js: '',
    outputType: 'binary',
    cache: '',
  },
  // docs/spec/limits.md: mobile is an iPhone 12 Pro, tablet an iPad Pro: choosing one shows its viewport.
  onChange: (name, values) => {
    if (name === 'format') return fitVideoSize(values);
    if (name !== 'deviceType') return values;
    const device = ScreenshotDevices[values.deviceType as keyof typeof ScreenshotDevices] ?? ScreenshotDevices.desktop;
    return fitVideoSize({ ...values, width: String(device.width), height: String(device.height) });
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
