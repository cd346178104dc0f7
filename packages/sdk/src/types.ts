// Request and answer types of the hand-written layer, taken from the types generated from the gateway's
// OpenAPI document (`pnpm run generate`), so they follow the contracts without a copy.
import type { paths } from './generated/openapi.ts';

type JsonBodyOf<P extends keyof paths> = paths[P] extends { post: { requestBody: { content: { 'application/json': infer B } } } }
  ? B
  : never;

/**
 * `T`'s declared fields without `D`. Not `Omit`: the bodies accept unknown fields, so their generated types
 * carry an index signature, and `Omit` over one keeps only the signature (every field typed `unknown`, any
 * value accepted). Mapping over `keyof T` with `as` keeps the declared keys, their optionality, and unions.
 */
type Declared<T, D extends PropertyKey> = {
  [K in keyof T as string extends K ? never : number extends K ? never : K extends D ? never : K]: T[K];
};

/**
 * What the image methods send: the route's body without the answer's encoding (`output`/`outputType`, set by
 * the method) and `webhook` (asynchronous renders answer 202, not an image: use `client.api` for those).
 */
type RenderBody<P extends keyof paths> = Declared<JsonBodyOf<P>, 'output' | 'outputType' | 'webhook'>;

export type HtmlRenderOptions = RenderBody<'/api/html-to-img/convert'>;
export type SvgRenderOptions = RenderBody<'/api/svg-to-img/convert'>;
export type ChartRenderOptions = RenderBody<'/api/chart-to-img/convert'>;
export type CodeRenderOptions = RenderBody<'/api/code-to-img/convert'>;
export type ScreenshotRenderOptions = RenderBody<'/api/screenshot/convert'>;
/** `readPage`'s body: a screenshot's, with one of the text formats (markdown by default) and `metadata` (true by default). */
export type ReadPageOptions = Declared<ScreenshotRenderOptions, 'format'> & { format?: 'markdown' | 'html' | 'text' };

export type TemplateRenderOptions = Declared<JsonBodyOf<'/api/template/generate'>, 'output' | 'outputType' | 'webhook' | 'templateId'>;

/** `batch`'s body: up to 50 `{ kind, body }` items, `defaults` merged into each body, and an optional `webhook`. */
export type BatchOptions = JsonBodyOf<'/api/batch'>;
/** What `batch` answers: the batch id, its item count, the credits reserved, and where to poll and fetch it. */
export type BatchAccepted = paths['/api/batch']['post']['responses'][202]['content']['application/json']['data'];
/** What `getBatch` answers: the batch's status and each item's (status, format, size, error). */
export type BatchStatus = paths['/api/batches/{id}']['get']['responses'][200]['content']['application/json']['data'];

type JsonImageAnswer = paths['/api/html-to-img/convert']['post']['responses'][200]['content']['application/json'];

/** What a `…WithMeta` call returns besides the bytes: the JSON answer's fields and the timing headers. */
export type ImageMeta = Declared<JsonImageAnswer['data'], 'image'> & {
  /** Milliseconds the worker spent rendering (`X-Render-Time`; 0 for a cached image). */
  renderTimeMs?: number;
  /** Milliseconds the job waited in the queue (`X-Queue-Time`). */
  queueTimeMs?: number;
  /** With `cache` in the body: HIT when served from the cache (no credit charged), MISS when rendered. */
  cache?: 'HIT' | 'MISS';
};

/** What `readPage` returns: the page's main content, its metadata (unless `metadata: false`) and the answer's other fields. */
export interface PageContent {
  content: string;
  metadata?: ImageMeta['metadata'];
  meta: ImageMeta;
}

export interface ImageWithMeta {
  image: Uint8Array;
  meta: ImageMeta;
}

/** Per-call settings, over the client's own. */
export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  retries?: number;
}

export type { paths };
