import {
  ChartRenderPayload,
  CodeRenderPayloadWithHeight,
  HtmlRenderPayload,
  ScreenshotRenderPayload,
  SvgRenderPayload,
} from '@render/contracts';
import type { JobsOptions } from 'bullmq';
import type { Static, TObject } from 'typebox';
import { Compile } from 'typebox/compile';

// The payload shapes live in @render/contracts with every other request shape; re-exported for the worker.
export { HtmlRenderPayload, SvgImageVariable, SvgRenderPayload } from '@render/contracts';

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
  const compiled = Compile(payload);
  return {
    kind,
    queueName: kind,
    payload,
    isValid: (data): data is Static<T> => compiled.Check(data),
    describeInvalid: (data) => {
      const first = compiled.Errors(data)[0];
      return first ? `${first.instancePath || '(root)'}: ${first.message}` : 'invalid payload';
    },
  };
}

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
  /** The X-Request-Id of the API call the job renders for: the worker's log lines about the job carry it. */
  requestId?: string;
  /**
   * Screenshots: an opaque hash of who the job is for (the account, or the anonymous caller's address). The
   * worker reuses a caller's wiped browser context for that caller's next screenshot, never for another's.
   */
  caller?: string;
}
