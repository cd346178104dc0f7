import {
  AppError,
  type ChartShortUrl,
  ChartShortUrlsInternalRoutes,
  type ErrorCode,
  ErrorCodes,
  type FieldError,
  type QuickChartStoredRequest,
  type RouteContract,
  routePath,
  ServiceError,
  TemplateMessages,
  type TemplateOwnerInfo,
  type TemplateRenderInput,
  TemplatesInternalRoutes,
} from '@render/contracts';
import { INTERNAL_TOKEN_HEADER } from '@render/fastify-kit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Static, TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { isPlainPath } from '../lib/forward-path.ts';
import { type CompiledCheck, checkAnswer, fetchService, serviceUnavailable } from '../lib/service-fetch.ts';

export interface TemplatesCall {
  /** The signed-in user the call is made for; absent for a visitor. */
  userId?: string;
  body?: unknown;
  requestId?: string;
}

export interface TemplatesClient {
  /** A call answered as the templates service answered it (status and JSON), for the routes that only pass it on. */
  forward(method: string, path: string, call: TemplatesCall): Promise<{ status: number; body: unknown }>;
  /** The filled SVG of a template `userId` may use; 400/404 from the service become the same errors here. */
  renderInput(
    templateId: string,
    userId: string,
    variables: Record<string, string | number>,
    forRequest?: string,
  ): Promise<TemplateRenderInput>;
  owner(templateId: string, forRequest?: string): Promise<TemplateOwnerInfo>;
  /** Keeps a validated QuickChart request under a new short URL, owned by `userId` (none: anonymous). */
  createChartShortUrl(request: QuickChartStoredRequest, userId: string | undefined, forRequest?: string): Promise<ChartShortUrl>;
  /** A short URL's stored request; 404 (NOT_FOUND) when it is unknown or expired. */
  chartShortUrl(id: string, forRequest?: string): Promise<ChartShortUrl>;
}

declare module 'fastify' {
  interface FastifyInstance {
    templatesClient: TemplatesClient;
  }
}

export interface TemplatesClientOptions {
  baseUrl: string;
  internalToken?: string;
  timeoutMs: number;
}

const SERVICE = 'template service';
const { renderInput, owner } = TemplatesInternalRoutes;
// Compiled once, at load: the answers are checked on every generation and signed image.
const renderInputAnswer = Compile(renderInput.schema.response[200]);
const ownerAnswer = Compile(owner.schema.response[200]);
const chartUrls = ChartShortUrlsInternalRoutes;
const chartUrlAnswer = Compile(chartUrls.get.schema.response[200]);
const errorAnswer = Compile(ServiceError);

const unavailable = () => serviceUnavailable(SERVICE);

// A path goes out only if it names its route plainly: an id such as `..` or `%2e%2e`, or a forwarded path
// holding one, would otherwise be resolved by the URL parser into another route of the service (ids are
// opaque strings to the contracts). No real template id looks like that, so it is simply not found.
const templatePath = (path: string) => {
  if (!isPlainPath(path)) throw new AppError('NOT_FOUND', TemplateMessages.notFound);
  return path;
};

const isFieldError = (item: unknown): item is FieldError =>
  typeof (item as FieldError)?.field === 'string' && typeof (item as FieldError)?.message === 'string';

/** The service's 4xx as the gateway's own error: its code when it is one of ours for that status, its refused fields. */
function refusal(status: number, body: unknown): AppError {
  if (!errorAnswer.Check(body)) return new AppError('VALIDATION_ERROR', 'Invalid template request');
  const { code, message } = body;
  const known = Object.hasOwn(ErrorCodes, code) && ErrorCodes[code as ErrorCode] === status;
  const listed = (body as { errors?: unknown }).errors;
  const fieldErrors = Array.isArray(listed) ? listed.filter(isFieldError).slice(0, 100) : undefined;
  return new AppError(known ? (code as ErrorCode) : 'VALIDATION_ERROR', message, undefined, { fieldErrors });
}

/**
 * The gateway's side of the templates service. The gateway authenticates the caller and passes the user id
 * along with the internal token; the service trusts that pair and nothing else.
 */
async function templatesClientPlugin(app: FastifyInstance, opts: TemplatesClientOptions) {
  async function send(method: string, path: string, call: TemplatesCall): Promise<{ status: number; body: unknown }> {
    if (!opts.internalToken) throw unavailable();
    const url = new URL(templatePath(path), opts.baseUrl);
    const headers: Record<string, string> = { [INTERNAL_TOKEN_HEADER]: opts.internalToken };
    if (call.userId) headers['x-user-id'] = call.userId;
    if (call.requestId) headers['x-request-id'] = call.requestId;
    if (call.body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetchService(
      url,
      { method, headers, body: call.body === undefined ? undefined : JSON.stringify(call.body) },
      { timeoutMs: opts.timeoutMs, serviceName: SERVICE },
    );
    const body = await res.json().catch(() => undefined);
    if (res.status >= 500 || body === undefined) {
      app.log.warn({ status: res.status, path }, 'template service failed');
      throw unavailable();
    }
    return { status: res.status, body };
  }

  /**
   * An internal call's answer in its contract's shape, or its 4xx as the same AppError (code and message),
   * so callers see one error.
   */
  async function expectOk<T extends TSchema>(
    route: RouteContract,
    id: string,
    call: TemplatesCall,
    answer: CompiledCheck<T>,
  ): Promise<Static<T>> {
    const { status, body } = await send(route.method, routePath(route.url, { id }), call);
    if (status < 400) return checkAnswer(body, answer, SERVICE);
    throw refusal(status, body);
  }

  app.decorate('templatesClient', {
    forward: send,
    renderInput: (templateId, userId, variables, requestId) =>
      expectOk(renderInput, templateId, { body: { userId, variables }, requestId }, renderInputAnswer),
    owner: (templateId, requestId) => expectOk(owner, templateId, { requestId }, ownerAnswer),
    createChartShortUrl: (request, userId, requestId) =>
      expectOk(chartUrls.create, '', { body: { request, ...(userId ? { userId } : {}) }, requestId }, chartUrlAnswer),
    chartShortUrl: (id, requestId) => expectOk(chartUrls.get, id, { requestId }, chartUrlAnswer),
  } satisfies TemplatesClient);
}

export default fp(templatesClientPlugin, { name: 'templates-client', fastify: '5.x' });
