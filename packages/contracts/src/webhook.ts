// Async renders with signed webhooks: the `webhook` field of every convert call (and template generation),
// the 202 answer, the status of a kept render, the payload POSTed to the webhook, the recorded deliveries
// and the account's webhook secret. No import from render.ts: render.ts imports `webhookField` from here.
import { type Static, Type } from 'typebox';
import { StringEnum, withMessages } from './schema-helpers.ts';

export const WebhookLimits = {
  maxUrlLength: 2048,
  /** Deliveries kept per account for the dashboard (the newest first). */
  deliveriesKept: 100,
} as const;

export const WebhookMessages = {
  invalid: 'webhook must be an absolute http:// or https:// URL',
  tooLong: `webhook must be at most ${WebhookLimits.maxUrlLength} characters`,
  signedIn:
    'A webhook render needs an account: send your API key or a session token (the webhook is signed with your account’s webhook secret)',
} as const;

/** The header a delivery carries: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">` (Stripe style). */
export const WEBHOOK_SIGNATURE_HEADER = 'X-Render-Signature';
export const WEBHOOK_SECRET_PREFIX = 'whsec_';

/**
 * `webhook`: answer 202 at once and POST the outcome to this URL. The pattern only admits the shape; the
 * gateway parses it, and the worker checks the resolved address against the egress policy at delivery time.
 */
export const webhookField = () =>
  Type.Optional(
    withMessages(
      Type.String({
        minLength: 1,
        maxLength: WebhookLimits.maxUrlLength,
        pattern: '^[Hh][Tt][Tt][Pp][Ss]?://[^\\s/?#]+[^\\s]*$',
        description:
          'Render in the background: the call answers 202 with the render id at once, the outcome is POSTed (signed with your webhook secret, header X-Render-Signature) to this http(s) URL, and GET /api/renders/{id} gives the status. Needs an API key or a session; private, loopback and reserved addresses are refused. `cache` does not apply.',
      }),
      {
        minLength: WebhookMessages.invalid,
        type: WebhookMessages.invalid,
        format: WebhookMessages.invalid,
        maxLength: WebhookMessages.tooLong,
      },
    ),
  );

/** Parses a webhook URL beyond the schema's pattern; null when it is not an absolute http(s) URL with a host. */
export function parseWebhookUrl(raw: string): URL | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname || url.username || url.password) return null;
  return url;
}

export const AsyncRenderStatuses = ['queued', 'rendering', 'done', 'failed'] as const;
export type AsyncRenderStatus = (typeof AsyncRenderStatuses)[number];

// A pattern, not `format: 'uuid'`: the queue's compiled checks (typebox/compile) are kept free of formats.
const RenderId = Type.String({ pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$', description: 'The render id' });
export const RenderIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100, description: 'The render id' }) });

export const AsyncRenderAccepted = Type.Object(
  {
    success: Type.Literal(true),
    data: Type.Object({
      id: RenderId,
      status: StringEnum(AsyncRenderStatuses),
      statusUrl: Type.String({ description: 'Where to poll the status: /api/renders/{id}' }),
    }),
  },
  { $id: 'AsyncRenderAccepted', description: 'Accepted: the render runs in the background and the webhook is called when it ends' },
);
export type AsyncRenderAccepted = Static<typeof AsyncRenderAccepted>;

export const RenderFailure = Type.Object({
  code: Type.String({ description: 'The error code a synchronous call would have answered' }),
  message: Type.String(),
});

export const AsyncRenderView = Type.Object({
  id: RenderId,
  kind: Type.String({ description: 'html, svg, chart, code, screenshot or template' }),
  format: Type.String({ description: 'The output format asked for (the image made, once done)' }),
  status: StringEnum(AsyncRenderStatuses, {
    description: 'queued (accepted), rendering (handed to the render pipeline), done (imageUrl serves it), failed (see error; not charged)',
  }),
  error: Type.Optional(RenderFailure),
  size: Type.Optional(Type.Integer({ description: 'image size in bytes' })),
  width: Type.Optional(Type.Integer()),
  height: Type.Optional(Type.Integer()),
  createdAt: Type.String({ format: 'date-time' }),
  finishedAt: Type.Optional(Type.String({ format: 'date-time' })),
  expiresAt: Type.Optional(Type.String({ format: 'date-time', description: 'When the render and its image are forgotten' })),
  imageUrl: Type.Optional(Type.String({ description: 'GET it (with the same credentials) for the image bytes, once done' })),
});
export type AsyncRenderView = Static<typeof AsyncRenderView>;

export const AsyncRenderResponse = Type.Object({ success: Type.Literal(true), data: AsyncRenderView }, { $id: 'AsyncRenderResponse' });
export type AsyncRenderResponse = Static<typeof AsyncRenderResponse>;

/** The JSON body POSTed to the webhook. */
export const WebhookPayload = Type.Object(
  {
    id: RenderId,
    status: StringEnum(['done', 'failed'] as const),
    format: Type.String(),
    size: Type.Integer({ description: 'image size in bytes (0 when failed)' }),
    error: Type.Optional(RenderFailure),
  },
  { $id: 'WebhookPayload' },
);
export type WebhookPayload = Static<typeof WebhookPayload>;

/** Why a delivery attempt had no answer, for a translated text in the dashboard (`error` keeps the detail). */
export const WebhookDeliveryErrorCode = Type.Union([
  Type.Literal('SIGNING_UNAVAILABLE'),
  Type.Literal('ACCOUNT_GONE'),
  Type.Literal('REFUSED'),
  Type.Literal('TIMEOUT'),
  Type.Literal('CONNECTION_FAILED'),
]);
export type WebhookDeliveryErrorCode = Static<typeof WebhookDeliveryErrorCode>;

export const WebhookDelivery = Type.Object({
  renderId: Type.String(),
  url: Type.String(),
  attempt: Type.Integer({ minimum: 1, description: 'Attempt number (1 for the first)' }),
  at: Type.String({ description: 'When the attempt was made (ISO 8601)' }),
  ok: Type.Boolean({ description: 'A 2xx answer: delivered' }),
  statusCode: Type.Optional(Type.Integer({ description: 'The HTTP status the webhook answered' })),
  error: Type.Optional(Type.String({ description: 'Why no answer was had (refused address, timeout, connection error)' })),
  errorCode: Type.Optional({ ...WebhookDeliveryErrorCode, description: 'The kind of `error`, stable for programs' }),
  final: Type.Boolean({ description: 'No further attempt follows (delivered, refused, or retries used up)' }),
});
export type WebhookDelivery = Static<typeof WebhookDelivery>;

export const WebhookDeliveriesResponse = Type.Object(
  { success: Type.Literal(true), deliveries: Type.Array(WebhookDelivery, { description: 'Newest first' }) },
  { $id: 'WebhookDeliveriesResponse' },
);
export type WebhookDeliveriesResponse = Static<typeof WebhookDeliveriesResponse>;

export const WebhookSecretResponse = Type.Object({
  success: Type.Literal(true),
  secret: Type.String({ pattern: `^${WEBHOOK_SECRET_PREFIX}`, description: 'Signs every delivery (HMAC-SHA256)' }),
  createdAt: Type.String({ format: 'date-time' }),
});
export type WebhookSecretResponse = Static<typeof WebhookSecretResponse>;
