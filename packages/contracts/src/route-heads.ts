// Every public route's method, path and access rule, and nothing else: no schema, no TypeBox at run time.
// The full contracts (`AccountRoutes`, `RenderRoutes`, …) are built from these heads plus their schemas, so
// each path is written once; the web app's landing page calls the API through the heads alone
// (`@render/contracts/route-heads`), which keeps the schemas out of its initial JavaScript.
import { AppError } from './errors.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who may call a public route: anyone without credentials read (`public`), anyone, credentials used when sent
 * (`anyone`), an API key or a session token (`signedIn`), a session token only (`session`), an administrator's
 * session token (`admin`). Each service says once what each rule means to it (fastify-kit's `serveRoute`).
 */
export type RouteAccess = 'public' | 'anyone' | 'signedIn' | 'session' | 'admin';

interface HeadFields<M extends HttpMethod = HttpMethod> {
  method: M;
  url: string;
  access: RouteAccess;
  /** It creates something: an Idempotency-Key makes its retry safe (the gateway keeps its answer). */
  idempotent?: true;
}

/** The groups of routes, each a full contract in route-contracts.ts (`RouteGroups`). */
export type RouteGroupName = 'account' | 'template' | 'render' | 'asyncRender' | 'system' | 'mcp' | 'compat';

/** A route's head: where it is and who may call it, named by its group and name in `RouteGroups`. */
export interface RouteHead<M extends HttpMethod = HttpMethod, G extends string = string, N extends string = string> extends HeadFields<M> {
  group: G;
  name: N;
}

function heads<G extends RouteGroupName, const T extends Record<string, HeadFields>>(
  group: G,
  table: T,
): { [K in keyof T & string]: T[K] & { group: G; name: K } } {
  return Object.fromEntries(Object.entries(table).map(([name, head]) => [name, { ...head, group, name }])) as never;
}

export const AccountHeads = heads('account', {
  signup: { method: 'POST', url: '/api/auth/signup', access: 'public' },
  verify: { method: 'POST', url: '/api/auth/verify', access: 'public' },
  resendVerification: { method: 'POST', url: '/api/auth/resend-verification', access: 'public' },
  login: { method: 'POST', url: '/api/auth/login', access: 'public' },
  me: { method: 'GET', url: '/api/auth/me', access: 'signedIn' },
  updateProfile: { method: 'PATCH', url: '/api/auth/me', access: 'session' },
  refresh: { method: 'POST', url: '/api/auth/refresh', access: 'session' },
  forgotPassword: { method: 'POST', url: '/api/auth/forgot-password', access: 'public' },
  resetPassword: { method: 'POST', url: '/api/auth/reset-password', access: 'public' },
  renderLinkSettings: { method: 'PUT', url: '/api/auth/render-links', access: 'session' },
  regenerateApiKey: { method: 'POST', url: '/api/auth/api-key/regenerate', access: 'session', idempotent: true },
  listApiKeys: { method: 'GET', url: '/api/auth/keys', access: 'session' },
  createApiKey: { method: 'POST', url: '/api/auth/keys', access: 'session', idempotent: true },
  revokeApiKey: { method: 'DELETE', url: '/api/auth/keys/:id', access: 'session' },
  webhookSecret: { method: 'GET', url: '/api/auth/webhook-secret', access: 'signedIn' },
  rotateWebhookSecret: { method: 'POST', url: '/api/auth/webhook-secret/rotate', access: 'session' },
  usage: { method: 'GET', url: '/api/auth/usage', access: 'signedIn' },
  usageDaily: { method: 'GET', url: '/api/auth/usage/daily', access: 'signedIn' },
  usageRecent: { method: 'GET', url: '/api/auth/usage/recent', access: 'signedIn' },
  upgrade: { method: 'POST', url: '/api/auth/upgrade', access: 'session' },
  manageBilling: { method: 'POST', url: '/api/auth/manage-billing', access: 'session' },
  cancelSubscription: { method: 'POST', url: '/api/auth/cancel-subscription', access: 'session' },
  reactivateSubscription: { method: 'POST', url: '/api/auth/reactivate-subscription', access: 'session' },
  paymentInfo: { method: 'GET', url: '/api/auth/payment-info', access: 'session' },
  stripeWebhook: { method: 'POST', url: '/api/auth/stripe/webhook', access: 'public' },
  adminStats: { method: 'GET', url: '/api/admin/stats', access: 'admin' },
});

// Visitors may browse the public list; every other call needs a signed-in user.
export const TemplateHeads = heads('template', {
  list: { method: 'GET', url: '/api/template', access: 'signedIn' },
  listOwn: { method: 'GET', url: '/api/template/user', access: 'signedIn' },
  listStarred: { method: 'GET', url: '/api/template/starred', access: 'signedIn' },
  listPublic: { method: 'GET', url: '/api/template/public', access: 'anyone' },
  create: { method: 'POST', url: '/api/template', access: 'signedIn', idempotent: true },
  get: { method: 'GET', url: '/api/template/:id', access: 'signedIn' },
  update: { method: 'PUT', url: '/api/template/:id', access: 'signedIn' },
  delete: { method: 'DELETE', url: '/api/template/:id', access: 'signedIn' },
  publish: { method: 'POST', url: '/api/template/:id/publish', access: 'signedIn' },
  duplicate: { method: 'POST', url: '/api/template/:id/duplicate', access: 'signedIn', idempotent: true },
  star: { method: 'POST', url: '/api/template/:id/star', access: 'signedIn' },
  unstar: { method: 'DELETE', url: '/api/template/:id/star', access: 'signedIn' },
});

/**
 * The render calls, served by the gateway itself. A call with `webhook` creates an async render and so takes
 * an Idempotency-Key: that depends on the body, so it is the gateway's rule, not a head's flag.
 */
export const RenderHeads = heads('render', {
  html: { method: 'POST', url: '/api/html-to-img/convert', access: 'anyone' },
  svg: { method: 'POST', url: '/api/svg-to-img/convert', access: 'anyone' },
  chart: { method: 'POST', url: '/api/chart-to-img/convert', access: 'anyone' },
  code: { method: 'POST', url: '/api/code-to-img/convert', access: 'anyone' },
  screenshot: { method: 'POST', url: '/api/screenshot/convert', access: 'anyone' },
  codeLanguages: { method: 'GET', url: '/api/code-to-img/languages', access: 'public' },
  template: { method: 'POST', url: '/api/template/generate', access: 'signedIn' },
  templateImage: { method: 'GET', url: '/api/template/:id/image', access: 'public' },
  renderLink: { method: 'GET', url: '/api/render/:kind', access: 'public' },
});

export const AsyncRenderHeads = heads('asyncRender', {
  status: { method: 'GET', url: '/api/renders/:id', access: 'signedIn' },
  image: { method: 'GET', url: '/api/renders/:id/image', access: 'signedIn' },
  webhookDeliveries: { method: 'GET', url: '/api/webhooks/deliveries', access: 'signedIn' },
  createBatch: { method: 'POST', url: '/api/batch', access: 'signedIn', idempotent: true },
  batch: { method: 'GET', url: '/api/batches/:id', access: 'signedIn' },
  batchArchive: { method: 'GET', url: '/api/batches/:id/archive', access: 'signedIn' },
  cancelBatch: { method: 'DELETE', url: '/api/batches/:id', access: 'signedIn' },
});

export const SystemHeads = heads('system', {
  ping: { method: 'GET', url: '/api/ping', access: 'public' },
  limits: { method: 'GET', url: '/api/limits', access: 'public' },
});

/** Drop-in endpoints for clients written for other chart servers (QuickChart, the Highcharts export server). */
export const CompatHeads = heads('compat', {
  quickChartGet: { method: 'GET', url: '/chart', access: 'anyone' },
  quickChartPost: { method: 'POST', url: '/chart', access: 'anyone' },
  quickChartCreate: { method: 'POST', url: '/chart/create', access: 'anyone' },
  quickChartRender: { method: 'GET', url: '/chart/render/:id', access: 'anyone' },
  highchartsExport: { method: 'POST', url: '/highcharts', access: 'anyone' },
  highchartsExportFile: { method: 'POST', url: '/highcharts/:filename', access: 'anyone' },
});

export const McpHeads = heads('mcp', {
  mcp: { method: 'POST', url: '/api/mcp', access: 'signedIn' },
});

/** `url` with its `:name` parameters filled in, each percent-encoded as one path segment. */
export function routePath(url: string, params: Record<string, string>): string {
  return url.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new AppError('INTERNAL_ERROR', `routePath: no value for :${name} of ${url}`);
    return encodeURIComponent(value);
  });
}
