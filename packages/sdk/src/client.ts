import createClient, { type Client } from 'openapi-fetch';
import { RenderApiError } from './errors.ts';
import type { paths } from './generated/openapi.ts';
import { type RenderLinkKind, type RenderLinkOptions, type SignedTemplateUrlInput, signRenderUrl, signTemplateUrl } from './signed-url.ts';
import { type FetchLike, send, type TransportOptions } from './transport.ts';
import type {
  BatchAccepted,
  BatchOptions,
  BatchStatus,
  CallOptions,
  ChartRenderOptions,
  CodeRenderOptions,
  HtmlRenderOptions,
  ImageMeta,
  ImageWithMeta,
  PageContent,
  ReadPageOptions,
  ScreenshotRenderOptions,
  SvgRenderOptions,
  TemplateRenderOptions,
} from './types.ts';

export interface RenderClientOptions {
  /** Your API key (`rk_…`), sent as `Authorization: Bearer`. Without one, calls are anonymous (per-IP limit). */
  apiKey?: string;
  /** The API's origin, e.g. https://render.example.com. In a browser it defaults to the page's origin. */
  baseUrl?: string;
  /** Per attempt, answer body included; default 60 000 ms. */
  timeoutMs?: number;
  /** Attempts after the first on 429, 503 and network errors; default 2. */
  retries?: number;
  /** The longest wait between attempts (default 30 000 ms); a longer `Retry-After` ends the call with that error. */
  maxRetryDelayMs?: number;
  /** A fetch implementation (default `globalThis.fetch`). */
  fetch?: FetchLike;
  /** Extra headers on every call. */
  headers?: Record<string, string>;
}

type ImagePath =
  | '/api/html-to-img/convert'
  | '/api/svg-to-img/convert'
  | '/api/chart-to-img/convert'
  | '/api/code-to-img/convert'
  | '/api/screenshot/convert'
  | '/api/template/generate';

/** Which body field chooses JSON or bytes: the HTML and SVG calls say `output`, the others `outputType`. */
const OUTPUT_FIELD: Record<ImagePath, 'output' | 'outputType'> = {
  '/api/html-to-img/convert': 'output',
  '/api/svg-to-img/convert': 'output',
  '/api/chart-to-img/convert': 'outputType',
  '/api/code-to-img/convert': 'outputType',
  '/api/screenshot/convert': 'outputType',
  '/api/template/generate': 'outputType',
};

const DEFAULTS = { timeoutMs: 60_000, retries: 2, maxRetryDelayMs: 30_000, baseRetryDelayMs: 500 };

function decodeBase64(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

const intHeader = (response: Response, name: string) => {
  const value = response.headers.get(name);
  return value !== null && /^\d+$/.test(value) ? Number(value) : undefined;
};

/**
 * The render API from TypeScript or JavaScript: one method per render kind returning the image bytes, a
 * `…WithMeta` twin returning `{ image, meta }`, the signed template URL builder, and `api`, a typed client
 * (openapi-fetch over the generated OpenAPI types) for every public route. fetch only: Node 22+, Deno, Bun,
 * browsers.
 */
export class RenderClient {
  /** Every public route, typed from the OpenAPI document: `await render.api.GET('/api/template/public', { params: { query: {} } })`. */
  readonly api: Client<paths>;
  readonly baseUrl: string;
  readonly #apiKey: string | undefined;
  readonly #transport: TransportOptions;
  readonly #headers: Record<string, string>;

  constructor(options: RenderClientOptions = {}) {
    const origin = options.baseUrl ?? (globalThis as { location?: { origin?: string } }).location?.origin;
    if (!origin)
      throw new TypeError('RenderClient needs a baseUrl, e.g. new RenderClient({ baseUrl: "https://render.example.com", apiKey })');
    this.baseUrl = origin.replace(/\/+$/, '');
    this.#apiKey = options.apiKey || undefined;
    const fetchImpl = options.fetch ?? ((input: string, init?: RequestInit) => globalThis.fetch(input, init));
    this.#transport = {
      fetch: fetchImpl,
      timeoutMs: options.timeoutMs ?? DEFAULTS.timeoutMs,
      retries: options.retries ?? DEFAULTS.retries,
      maxRetryDelayMs: options.maxRetryDelayMs ?? DEFAULTS.maxRetryDelayMs,
      baseRetryDelayMs: DEFAULTS.baseRetryDelayMs,
    };
    this.#headers = { ...options.headers, ...(this.#apiKey ? { authorization: `Bearer ${this.#apiKey}` } : {}) };
    this.api = createClient<paths>({
      baseUrl: this.baseUrl,
      headers: this.#headers,
      // openapi-fetch builds the Request; retries and timeouts are ours, so every route gets them.
      fetch: async (request: Request) => {
        const body = request.body ? new Uint8Array(await request.arrayBuffer()) : undefined;
        return send({ url: request.url, method: request.method, headers: request.headers, body, signal: request.signal }, this.#transport);
      },
    });
  }

  /** HTML → PNG, JPEG, WebP or PDF bytes. */
  html(body: HtmlRenderOptions, options?: CallOptions): Promise<Uint8Array> {
    return this.#image('/api/html-to-img/convert', body, options);
  }
  htmlWithMeta(body: HtmlRenderOptions, options?: CallOptions): Promise<ImageWithMeta> {
    return this.#imageWithMeta('/api/html-to-img/convert', body, options);
  }

  /** SVG → PNG, JPEG, WebP or a resized SVG. */
  svg(body: SvgRenderOptions, options?: CallOptions): Promise<Uint8Array> {
    return this.#image('/api/svg-to-img/convert', body, options);
  }
  svgWithMeta(body: SvgRenderOptions, options?: CallOptions): Promise<ImageWithMeta> {
    return this.#imageWithMeta('/api/svg-to-img/convert', body, options);
  }

  /** A Chart.js, D3 or Highcharts chart (`library`). */
  chart(body: ChartRenderOptions, options?: CallOptions): Promise<Uint8Array> {
    return this.#image('/api/chart-to-img/convert', body, options);
  }
  chartWithMeta(body: ChartRenderOptions, options?: CallOptions): Promise<ImageWithMeta> {
    return this.#imageWithMeta('/api/chart-to-img/convert', body, options);
  }

  /** Highlighted source code. */
  code(body: CodeRenderOptions, options?: CallOptions): Promise<Uint8Array> {
    return this.#image('/api/code-to-img/convert', body, options);
  }
  codeWithMeta(body: CodeRenderOptions, options?: CallOptions): Promise<ImageWithMeta> {
    return this.#imageWithMeta('/api/code-to-img/convert', body, options);
  }

  /** A screenshot (or PDF) of a public web page. */
  screenshot(body: ScreenshotRenderOptions, options?: CallOptions): Promise<Uint8Array> {
    return this.#image('/api/screenshot/convert', body, options);
  }
  screenshotWithMeta(body: ScreenshotRenderOptions, options?: CallOptions): Promise<ImageWithMeta> {
    return this.#imageWithMeta('/api/screenshot/convert', body, options);
  }

  /**
   * A public web page's main content as markdown (or `format: "html"` / `"text"`) with its metadata: a screenshot
   * call that answers text instead of an image (one credit, the same page options).
   */
  async readPage(body: ReadPageOptions, options?: CallOptions): Promise<PageContent> {
    const request = { ...body, format: body.format ?? 'markdown', metadata: body.metadata ?? true };
    const { image, meta } = await this.#imageWithMeta('/api/screenshot/convert', request, options);
    const content = typeof meta.content === 'string' ? meta.content : new TextDecoder().decode(image);
    return { content, ...(meta.metadata ? { metadata: meta.metadata } : {}), meta };
  }

  /** A template filled with `variables` (needs an API key; one credit). */
  template(templateId: string, body: TemplateRenderOptions = {}, options?: CallOptions): Promise<Uint8Array> {
    return this.#image('/api/template/generate', { ...body, templateId }, options);
  }
  templateWithMeta(templateId: string, body: TemplateRenderOptions = {}, options?: CallOptions): Promise<ImageWithMeta> {
    return this.#imageWithMeta('/api/template/generate', { ...body, templateId }, options);
  }

  /**
   * A signed image URL for one of your templates (`GET /api/template/{id}/image?…&sig=…`), signed with this
   * client's API key (the template owner's): anyone with the URL gets the image, billed to you once per
   * distinct URL (the gateway caches it). Sign on a server, or in your own browser session only.
   */
  signedTemplateUrl(input: SignedTemplateUrlInput): Promise<string> {
    if (!this.#apiKey) throw new TypeError('signedTemplateUrl needs the client’s apiKey (the template owner’s API key)');
    return signTemplateUrl({ ...input, baseUrl: this.baseUrl, apiKey: this.#apiKey });
  }

  /**
   * A render link (`GET /api/render/{kind}?…&key=…&sig=…`) for `body`, signed with this client's API key: an
   * image URL for `<img src>` that needs no header, billed to you once per cache miss, cached for `ttl`.
   * Sign on a server, or in your own browser session only.
   */
  renderLink(kind: RenderLinkKind, body: Record<string, unknown>, options: RenderLinkOptions = {}): Promise<string> {
    if (!this.#apiKey) throw new TypeError('renderLink needs the client’s apiKey (it signs the link)');
    return signRenderUrl({ ...options, kind, body, baseUrl: this.baseUrl, apiKey: this.#apiKey });
  }

  /**
   * Up to 50 renders of any kind in one call (`POST /api/batch`): every item is checked and its credits
   * reserved before anything is queued, then the batch renders in the background. Answers its id at once;
   * poll `getBatch`, or pass `webhook` to be called once when every item has ended.
   */
  async batch(body: BatchOptions, options?: CallOptions): Promise<BatchAccepted> {
    const response = await this.#call('POST', '/api/batch', body, options, { accepted: true });
    return ((await response.json()) as { data: BatchAccepted }).data;
  }

  /** A batch's status and each item's (`GET /api/batches/{id}`); `done` (or `cancelled`) once every item has ended. */
  async getBatch(id: string, options?: CallOptions): Promise<BatchStatus> {
    const response = await this.#call('GET', `/api/batches/${encodeURIComponent(id)}`, undefined, options);
    return ((await response.json()) as { data: BatchStatus }).data;
  }

  /** The zip of a finished batch's images (`GET /api/batches/{id}/archive`: 00.png, 01.svg, …); a 409 while it runs. */
  async batchArchive(id: string, options?: CallOptions): Promise<Uint8Array> {
    const response = await this.#call('GET', `/api/batches/${encodeURIComponent(id)}/archive`, undefined, options);
    return new Uint8Array(await response.arrayBuffer());
  }

  /**
   * Cancels a batch (`DELETE /api/batches/{id}`): items not yet started are dropped and their credits given
   * back at once; items already rendering finish and are charged. Answers its status (`cancelling` until
   * those have ended, then `cancelled`; the archive serves what finished). A 409 once the batch has ended.
   */
  async cancelBatch(id: string, options?: CallOptions): Promise<BatchStatus> {
    const response = await this.#call('DELETE', `/api/batches/${encodeURIComponent(id)}`, undefined, options);
    return ((await response.json()) as { data: BatchStatus }).data;
  }

  /**
   * Credits used and left in the account's current window (`GET /api/auth/usage`); with `keyId` (a named key's
   * id, from the dashboard or `GET /api/auth/keys`), only the renders made with that key count as used.
   */
  async usage(options: CallOptions & { keyId?: string } = {}) {
    const { keyId, ...call } = options;
    const query = keyId === undefined ? '' : `?${new URLSearchParams({ keyId })}`;
    const response = await this.#call('GET', `/api/auth/usage${query}`, undefined, call);
    const answer = (await response.json()) as paths['/api/auth/usage']['get']['responses'][200]['content']['application/json'];
    return answer.data;
  }

  /** The code renderer's languages and themes (`GET /api/code-to-img/languages`). */
  async codeLanguages(options?: CallOptions) {
    const response = await this.#call('GET', '/api/code-to-img/languages', undefined, options);
    const answer = (await response.json()) as paths['/api/code-to-img/languages']['get']['responses'][200]['content']['application/json'];
    return answer.data;
  }

  async #image(path: ImagePath, body: object, options?: CallOptions): Promise<Uint8Array> {
    const response = await this.#call('POST', path, { ...body, [OUTPUT_FIELD[path]]: 'binary' }, options);
    return new Uint8Array(await response.arrayBuffer());
  }

  async #imageWithMeta(path: ImagePath, body: object, options?: CallOptions): Promise<ImageWithMeta> {
    const response = await this.#call('POST', path, { ...body, [OUTPUT_FIELD[path]]: 'json' }, options);
    const answer = (await response.json()) as { data: { image: string } & Omit<ImageMeta, 'renderTimeMs' | 'queueTimeMs' | 'cache'> };
    const { image, ...fields } = answer.data;
    const meta: ImageMeta = { ...fields };
    const renderTimeMs = intHeader(response, 'x-render-time');
    const queueTimeMs = intHeader(response, 'x-queue-time');
    const cache = response.headers.get('x-cache');
    if (renderTimeMs !== undefined) meta.renderTimeMs = renderTimeMs;
    if (queueTimeMs !== undefined) meta.queueTimeMs = queueTimeMs;
    if (cache === 'HIT' || cache === 'MISS') meta.cache = cache;
    return { image: decodeBase64(image), meta };
  }

  /**
   * One call through the transport; a non-2xx answer (or a 202 meant for a webhook, unless the call is one that
   * answers 202: `accepted`) becomes a RenderApiError.
   */
  async #call(
    method: string,
    path: string,
    body: object | undefined,
    options: CallOptions = {},
    expect: { accepted?: boolean } = {},
  ): Promise<Response> {
    const headers = new Headers(this.#headers);
    if (body !== undefined) headers.set('content-type', 'application/json');
    const response = await send(
      {
        url: `${this.baseUrl}${path}`,
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: options.signal,
      },
      {
        ...this.#transport,
        ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
        ...(options.retries === undefined ? {} : { retries: options.retries }),
      },
    );
    if (!response.ok) throw await RenderApiError.fromResponse(response);
    if (response.status === 202 && !expect.accepted) {
      throw new RenderApiError({
        status: 202,
        code: 'ACCEPTED_ASYNC',
        message: 'The render was accepted for a webhook and answers no image: call render.api.POST for webhook renders',
      });
    }
    return response;
  }
}
