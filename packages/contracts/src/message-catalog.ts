// The one catalog of the API's user-facing sentences, each with a stable id (`auth.emailTaken`): error answers
// carry the id (`messageId`) next to the English `message`, so a client translates by id and not by the text,
// which may be reworded (docs/spec/errors.md). Built from the objects the services and forms already take
// their texts from, so no sentence is written twice.
import { ApiKeyMessages } from './api-keys.ts';
import { AuthMessages } from './auth.ts';
import { BatchMessages } from './batch.ts';
import { BillingMessages } from './billing.ts';
import { ChartConvertBody, ChartFormatMessages, ChartInputMessages } from './chart.ts';
import { CodeConvertBody } from './code.ts';
import { ProblemMessages } from './errors.ts';
import { HighchartsExportMessages } from './highcharts-export.ts';
import { IdempotencyMessages } from './idempotency.ts';
import { PageContentMessages } from './page-content.ts';
import { HtmlConvertBody, SvgConvertBody } from './render.ts';
import { RenderLinkMessages } from './render-link.ts';
import type { FieldMessages } from './schema-helpers.ts';
import { VideoMessages } from './screen-recording.ts';
import { ScreenshotConvertBody, ScreenshotUrlMessages } from './screenshot.ts';
import { ScreenshotInteractionMessages } from './screenshot-interactions.ts';
import { TemplateMessages } from './template.ts';
import { WebhookMessages } from './webhook.ts';

/** A field's message for one keyword, read from its schema (`x-messages`): the text the error handler answers. */
function fieldText(schema: unknown, keyword: keyof FieldMessages): string {
  const text = (schema as { 'x-messages'?: FieldMessages } | undefined)?.['x-messages']?.[keyword];
  // A schema reworked without the message must not leave an id without a text: fail when the module loads.
  if (!text) throw new Error(`message catalog: no ${keyword} message on the schema`);
  return text;
}

const html = HtmlConvertBody.properties;
const code = CodeConvertBody.properties;
const screenshot = ScreenshotConvertBody.properties;
const chart = ChartConvertBody.properties;

/** The fields' own wording (docs/spec/validation.md) that the web forms show and translate. */
export const FieldTexts = {
  htmlRequired: fieldText(html.html, 'required'),
  svgRequired: fieldText(SvgConvertBody.properties.svg, 'required'),
  codeRequired: fieldText(code.code, 'required'),
  codeTooLong: fieldText(code.code, 'maxLength'),
  widthRange: fieldText(html.width, 'range'),
  widthType: fieldText(html.width, 'type'),
  heightRange: fieldText(html.height, 'range'),
  heightType: fieldText(html.height, 'type'),
  heightOrAuto: fieldText(code.height, 'type'),
  qualityRange: fieldText(html.quality, 'range'),
  qualityType: fieldText(html.quality, 'type'),
  scaleRange: fieldText(html.scale, 'range'),
  scaleType: fieldText(html.scale, 'type'),
  fontSizeRange: fieldText(code.fontSize, 'range'),
  fontSizeType: fieldText(code.fontSize, 'type'),
  paddingRange: fieldText(code.padding, 'range'),
  paddingType: fieldText(code.padding, 'type'),
  borderRadiusRange: fieldText(code.borderRadius, 'range'),
  borderRadiusType: fieldText(code.borderRadius, 'type'),
  delayRange: fieldText(screenshot.delay, 'range'),
  delayType: fieldText(screenshot.delay, 'type'),
  selectorType: fieldText(screenshot.selector, 'type'),
  selectorTooLong: fieldText(screenshot.selector, 'maxLength'),
  colorsType: fieldText(chart.colors, 'type'),
  backgroundColorType: fieldText(chart.backgroundColor, 'type'),
} as const;

/** Only the fixed sentences of a group: those built from a value (`HighchartsExportMessages.number(field)`) have no id. */
const sentences = <T extends Record<string, unknown>>(group: T) =>
  Object.fromEntries(Object.entries(group).filter(([, text]) => typeof text === 'string')) as {
    [K in keyof T as T[K] extends string ? K : never]: T[K];
  };

/**
 * The groups, by the prefix of their ids. An id is `<group>.<key>` and stays as it is when the English text
 * changes; renaming a key or a group changes the id (and so the web app's catalog keys), so don't.
 */
export const MessageGroups = {
  auth: AuthMessages,
  billing: BillingMessages,
  template: TemplateMessages,
  problem: ProblemMessages,
  field: FieldTexts,
  chart: ChartInputMessages,
  chartFormat: ChartFormatMessages,
  screenshotUrl: ScreenshotUrlMessages,
  screenshotOption: ScreenshotInteractionMessages,
  webhook: WebhookMessages,
  idempotency: IdempotencyMessages,
  highchartsExport: sentences(HighchartsExportMessages),
  apiKeys: ApiKeyMessages,
  video: VideoMessages,
  pageContent: PageContentMessages,
  renderLink: RenderLinkMessages,
  batch: BatchMessages,
} as const;

type Groups = typeof MessageGroups;
export type MessageId = { [G in keyof Groups]: `${G & string}.${keyof Groups[G] & string}` }[keyof Groups];

/** Every id with its English text, in the groups' order. */
export const MessageIds: Readonly<Record<MessageId, string>> = Object.fromEntries(
  Object.entries(MessageGroups).flatMap(([group, texts]) =>
    Object.entries(texts as Record<string, string>).map(([key, text]) => [`${group}.${key}`, text]),
  ),
) as Record<MessageId, string>;

// The first id of a text wins: a sentence two groups share (a field's wording that is also an account
// message) is one message to translate.
const idByText = new Map<string, MessageId>();
for (const [id, text] of Object.entries(MessageIds) as [MessageId, string][]) if (!idByText.has(text)) idByText.set(text, id);

/** The id of a catalogued sentence, or undefined for any other text (one naming a value, a reason appended). */
export const messageIdOf = (text: string): MessageId | undefined => idByText.get(text);
