import { AppError, type ErrorCode, ErrorCodes, type TemplateOwnerInfo, type TemplateRenderInput } from '@render/contracts';
import { INTERNAL_TOKEN_HEADER } from '@render/fastify-kit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { isPlainPath } from '../lib/forward-path.ts';
import { fetchService } from '../lib/service-fetch.ts';

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
  renderInput(templateId: string, userId: string, variables: Record<string, string | number>): Promise<TemplateRenderInput>;
  owner(templateId: string): Promise<TemplateOwnerInfo>;
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

const unavailable = () => new AppError('SERVICE_UNAVAILABLE', 'The template service is unavailable right now; please retry shortly');

// A path goes out only if it names its route plainly: an id such as `..` or `%2e%2e`, or a forwarded path
// holding one, would otherwise be resolved by the URL parser into another route of the service (ids are
// opaque strings to the contracts). No real template id looks like that, so it is simply not found.
const templatePath = (path: string) => {
  if (!isPlainPath(path)) throw new AppError('NOT_FOUND', 'Template Not Found');
  return path;
};

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
      { timeoutMs: opts.timeoutMs, serviceName: 'template service' },
    );
    const body = await res.json().catch(() => undefined);
    if (res.status >= 500 || body === undefined) {
      app.log.warn({ status: res.status, path }, 'template service failed');
      throw unavailable();
    }
    return { status: res.status, body };
  }

  /** An internal call's answer, or its 4xx as the same AppError (code and message), so callers see one error. */
  async function expectOk<T>(method: string, path: string, call: TemplatesCall): Promise<T> {
    const { status, body } = await send(method, path, call);
    if (status < 400) return body as T;
    const { code, message } = body as { code?: string; message?: string };
    const known = code && Object.hasOwn(ErrorCodes, code) && ErrorCodes[code as ErrorCode] === status;
    throw new AppError(known ? (code as ErrorCode) : 'VALIDATION_ERROR', message ?? 'Invalid template request');
  }

  const path = (templateId: string, rest: string) => `/internal/templates/${encodeURIComponent(templateId)}/${rest}`;

  app.decorate('templatesClient', {
    forward: send,
    renderInput: (templateId, userId, variables) =>
      expectOk<TemplateRenderInput>('POST', path(templateId, 'render-input'), { body: { userId, variables } }),
    owner: (templateId) => expectOk<TemplateOwnerInfo>('GET', path(templateId, 'owner'), {}),
  } satisfies TemplatesClient);
}

export default fp(templatesClientPlugin, { name: 'templates-client', fastify: '5.x' });
