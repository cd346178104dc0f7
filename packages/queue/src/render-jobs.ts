import {
  ChartRenderPayload,
  CodeRenderPayloadWithHeight,
  HtmlConvertBody,
  ScreenshotRenderPayload,
  SvgConvertBody,
} from '@render/contracts';
import { type Static, type TObject, Type } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import type { JobsOptions } from 'bullmq';

/**
 * A render job is defined once here and used by both sides: the gateway enqueues `payload`, the worker
 * re-validates it with the same compiled schema before it touches a browser.
 */
export interface RenderJobDefinition<T extends TObject> {
  kind: string;
  /** BullMQ queue name; one queue per format so each format can be scaled on its own. */
  queueName: string;
  payload: T;
  isValid(data: unknown): data is Static<T>;
  describeInvalid(data: unknown): string;
}

function defineRenderJob<T extends TObject>(kind: string, payload: T): RenderJobDefinition<T> {
  const compiled = TypeCompiler.Compile(payload);
  return {
    kind,
    queueName: kind,
    payload,
    isValid: (data): data is Static<T> => compiled.Check(data),
    describeInvalid: (data) => {
      const first = compiled.Errors(data).First();
      return first ? `${first.path || '(root)'}: ${first.message}` : 'invalid payload';
    },
  };
}

export const HtmlRenderPayload = Type.Required(Type.Omit(HtmlConvertBody, ['output']), { additionalProperties: false });
export type HtmlRenderPayload = Static<typeof HtmlRenderPayload>;

/**
 * An SVG template's image variable: every attribute value in the SVG exactly equal to `ref` becomes the image
 * at `url`, which the worker fetches itself (through its egress policy) and inlines as a data: URI.
 */
export const SvgImageVariable = Type.Object(
  {
    ref: Type.String({ pattern: '^render-image:[0-9]{1,2}$' }),
    url: Type.String({ maxLength: 2048, pattern: '^[Hh][Tt][Tt][Pp][Ss]?://' }),
  },
  { additionalProperties: false },
);
export type SvgImageVariable = Static<typeof SvgImageVariable>;

export const SvgRenderPayload = Type.Composite(
  [
    Type.Required(Type.Omit(SvgConvertBody, ['output'])),
    Type.Object({ images: Type.Optional(Type.Array(SvgImageVariable, { maxItems: 20 })) }),
  ],
  { additionalProperties: false },
);
export type SvgRenderPayload = Static<typeof SvgRenderPayload>;

export const renderJobs = {
  html: defineRenderJob('html', HtmlRenderPayload),
  svg: defineRenderJob('svg', SvgRenderPayload),
  chart: defineRenderJob('chart', ChartRenderPayload),
  code: defineRenderJob('code', CodeRenderPayloadWithHeight),
  screenshot: defineRenderJob('screenshot', ScreenshotRenderPayload),
} as const;

export type RenderKind = keyof typeof renderJobs;
export type RenderPayload<K extends RenderKind> = Static<(typeof renderJobs)[K]['payload']>;
export const renderKinds = Object.keys(renderJobs) as RenderKind[];

export const isRenderKind = (value: string): value is RenderKind => Object.hasOwn(renderJobs, value);

/**
 * Retry once (a crashed page or browser gets a second chance on a fresh page), then fail clearly.
 * Completed jobs vanish at once (the result lives elsewhere); a few failed ones stay briefly for operators.
 */
export const defaultRenderJobOptions: JobsOptions = {
  attempts: 2,
  backoff: { type: 'fixed', delay: 0 },
  removeOnComplete: true,
  removeOnFail: { age: 15 * 60, count: 100 },
};

/** What sits in BullMQ: the validated payload plus where the answer goes. */
export interface RenderJobData<K extends RenderKind = RenderKind> {
  payload: RenderPayload<K>;
  /** Pub/sub channel of the waiting gateway; absent for fire-and-forget producers. */
  replyTo?: string;
}
