// The calls between the gateway and the services behind it (`/internal/*`, X-Internal-Token only). The
// services validate with these schemas and the gateway checks their answers against them, so neither side
// trusts a shape it has not declared.
import { type Static, Type } from 'typebox';
import { ApiKeyScopes } from './api-keys.ts';
import { UserView } from './auth.ts';
import { BatchLimits } from './batch.ts';
import { PlanRulesResponse } from './limits.ts';
import { QuickChartShortIdParams, QuickChartShortIdPattern, QuickChartStoredRequest } from './quickchart.ts';
import { ErrorResponse } from './render.ts';
import { defineRoute } from './route.ts';
import { StringEnum, withMessages } from './schema-helpers.ts';
import { VideoLimits, videoCredits } from './screen-recording.ts';
import { TemplateIdParams, TemplateVariableValues, templateErrorResponses } from './template.ts';
import { RecentRenderKinds } from './usage.ts';

// A pattern rather than `format`: a malformed id must be a 400, not a Postgres cast error.
const UserId = Type.String({ pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$' });
const RequestId = Type.String({ minLength: 1, maxLength: 200 });
const tags = ['internal'];

// Accounts (services/auth).

export const ApiKeyVerifyBody = Type.Object({
  apiKey: withMessages(Type.String({ minLength: 1, maxLength: 200 }), {
    required: 'apiKey is required',
    type: 'apiKey is required',
    minLength: 'apiKey is required',
  }),
});

export const ApiKeySignatureBody = Type.Object({
  userId: Type.String({ format: 'uuid' }),
  message: Type.String({ minLength: 1, maxLength: 16_384 }),
  signature: Type.String({ pattern: '^[0-9a-fA-F]{64}$' }),
});

/** A render link's key (the SHA-256 of an API key), its signing string and its sig when it has one. */
export const RenderLinkOwnerBody = Type.Object({
  keyHash: Type.String({ pattern: '^[0-9a-f]{64}$' }),
  message: Type.String({ minLength: 1, maxLength: 65_536 }),
  signature: Type.Optional(Type.String({ pattern: '^[0-9a-fA-F]{64}$' })),
});

/** The account behind an API key or a signature: who the gateway renders and charges for. */
export const ApiKeyOwnerResponse = Type.Object({
  userId: Type.String(),
  role: StringEnum(['user', 'admin'] as const),
  plan: StringEnum(['free', 'pro'] as const),
  /** The key's id (usage is recorded by it), what it may call, and when it stops working (ISO 8601, none: never). */
  keyId: Type.Optional(Type.String()),
  scope: Type.Optional(StringEnum(ApiKeyScopes)),
  expiresAt: Type.Optional(Type.String({ maxLength: 40 })),
});
export type ApiKeyOwnerResponse = Static<typeof ApiKeyOwnerResponse>;

/** Whose webhook secret a render worker asks for, to sign a delivery at delivery time. */
export const WebhookSecretBody = Type.Object({ userId: UserId });
export const WebhookSecretInternalResponse = Type.Object({ secret: Type.String({ minLength: 1 }) });
export type WebhookSecretInternalResponse = Static<typeof WebhookSecretInternalResponse>;

/** The SHA-256 of an API key (hex), which is what the account service looks keys up by. */
export const ApiKeyHash = Type.String({ pattern: '^[0-9a-f]{64}$' });

/** Most reservations one call settles (a gateway's charges of a few milliseconds). */
export const CREDIT_SETTLE_BATCH_MAX = 500;

/** What a render was, recorded with its credit for the account's usage lists (GET /api/auth/usage/recent). */
export const LedgerRenderKind = StringEnum(RecentRenderKinds);
const LedgerFormat = Type.String({ minLength: 1, maxLength: 16 });
/**
 * What is known of a render once it is over: the format made, the image's size and the worker's render time;
 * and its kind, which a spare leased ahead learns only when a render takes it.
 */
export const RenderFacts = {
  kind: Type.Optional(LedgerRenderKind),
  format: Type.Optional(LedgerFormat),
  sizeBytes: Type.Optional(Type.Integer({ minimum: 0, maximum: 2_147_483_647 })),
  renderMs: Type.Optional(Type.Integer({ minimum: 0, maximum: 2_147_483_647 })),
};
/** A reservation to settle, with what its render made (a bare request id: nothing known, as before these were kept). */
export const SettledRender = Type.Union([
  RequestId,
  Type.Object({ requestId: RequestId, ...RenderFacts }, { additionalProperties: false }),
]);
export type SettledRender = Static<typeof SettledRender>;
/** Earlier renders' reservations to charge, carried along by another call (settled like settle-batch). */
const Charged = Type.Optional(Type.Array(SettledRender, { maxItems: CREDIT_SETTLE_BATCH_MAX }));
/** Most spares one reservation leases ahead. */
export const CREDIT_SPARES_MAX = 64;
/**
 * Known when the credit is reserved: the route's kind, and the format when the body has been read. `spares`:
 * request ids to lease ahead for the account's next renders (recorded 'leased', as many as fit its limit).
 */
const ReserveFacts = {
  kind: Type.Optional(LedgerRenderKind),
  format: Type.Optional(LedgerFormat),
  spares: Type.Optional(Type.Array(RequestId, { maxItems: CREDIT_SPARES_MAX, uniqueItems: true })),
};

/**
 * One credit for `requestId`, for an account named by its id (a session's caller, a template owner) or by
 * the SHA-256 of its API key: then the key is verified and the credit reserved in one call, so a
 * regenerated key is refused at once without a call of its own. `charged` carries the gateway's pending
 * charges of earlier renders (any accounts'), settled in the same statement whatever the answer.
 */
export const CreditReserveBody = Type.Union([
  Type.Object({ userId: UserId, requestId: RequestId, charged: Charged, ...ReserveFacts }, { additionalProperties: false }),
  Type.Object({ apiKeyHash: ApiKeyHash, requestId: RequestId, charged: Charged, ...ReserveFacts }, { additionalProperties: false }),
]);
export type CreditReserveBody = Static<typeof CreditReserveBody>;
/**
 * The reservation and the account it was made for (as read under it: the plan is current), with the
 * credits left in the window after this one (null: the account has no limit).
 */
export const CreditReserveResponse = Type.Object({
  reservationId: Type.String(),
  userId: Type.String(),
  role: ApiKeyOwnerResponse.properties.role,
  plan: ApiKeyOwnerResponse.properties.plan,
  keyId: ApiKeyOwnerResponse.properties.keyId,
  scope: ApiKeyOwnerResponse.properties.scope,
  expiresAt: ApiKeyOwnerResponse.properties.expiresAt,
  remaining: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
  /** The account's credits per window (null: no limit); what the gateway answers as X-Credits-Limit. */
  limit: Type.Optional(Type.Union([Type.Integer({ minimum: 0 }), Type.Null()])),
  /** The spares leased (a subset of those asked for: none past the limit, none whose id was taken). */
  spares: Type.Optional(Type.Array(Type.String())),
});
export type CreditReserveResponse = Static<typeof CreditReserveResponse>;
/**
 * 402: the account's window is used up. A reservation asked for by API key still names the owner: the key
 * is valid, and the gateway answers whatever is wrong with the request itself before the refusal.
 */
export const CreditRefusedResponse = Type.Object({
  success: Type.Literal(false),
  message: Type.String(),
  code: Type.String(),
  owner: Type.Optional(ApiKeyOwnerResponse),
  /** The account's credits per window, all used. */
  limit: Type.Optional(Type.Integer({ minimum: 0 })),
  /**
   * When the next credit comes back (ISO 8601): the oldest one counted leaves the rolling window. No `format`:
   * the gateway checks answers with TypeBox's compiler, which knows no formats.
   */
  resetsAt: Type.Optional(Type.String({ maxLength: 40 })),
});
export type CreditRefusedResponse = Static<typeof CreditRefusedResponse>;

/** Most credits one batch reservation takes: a full batch of the longest videos (50 × 6). */
export const CREDIT_RESERVE_MANY_MAX = BatchLimits.maxItems * videoCredits(VideoLimits.maxDuration);
/**
 * Several credits for one account at once (a batch's, reserved up front): all of them, or none when the
 * account has not that many left (402, as for one). Each under its own request id, idempotent per id (a
 * replayed call finds its own reservations and does not count them twice). `charged` as for one.
 */
export const CreditReserveManyBody = Type.Object(
  {
    userId: UserId,
    requests: Type.Array(
      Type.Object(
        { requestId: RequestId, kind: Type.Optional(LedgerRenderKind), format: Type.Optional(LedgerFormat) },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: CREDIT_RESERVE_MANY_MAX },
    ),
    charged: Charged,
  },
  { additionalProperties: false },
);
export type CreditReserveManyBody = Static<typeof CreditReserveManyBody>;
/** The credits reserved, and the account's standing after them (null: no limit), as for one. */
export const CreditReserveManyResponse = Type.Object({
  reserved: Type.Integer({ minimum: 0 }),
  remaining: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
  limit: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
});
export type CreditReserveManyResponse = Static<typeof CreditReserveManyResponse>;

export const CreditOutcome = StringEnum(['charged', 'released'] as const);
export type CreditOutcome = Static<typeof CreditOutcome>;
export const CreditSettleBody = Type.Object(
  { requestId: RequestId, outcome: CreditOutcome, ...RenderFacts },
  { additionalProperties: false },
);
export type CreditSettleBody = Static<typeof CreditSettleBody>;
export const CreditSettleResponse = Type.Object({
  status: Type.Union([Type.Literal('charged'), Type.Literal('released'), Type.Null()]),
});

/** Several reservations settled the same way at once (one UPDATE); idempotent like the single settle. */
export const CreditSettleBatchBody = Type.Object(
  {
    requestIds: Type.Array(SettledRender, { minItems: 1, maxItems: CREDIT_SETTLE_BATCH_MAX }),
    outcome: CreditOutcome,
  },
  { additionalProperties: false },
);
export type CreditSettleBatchBody = Static<typeof CreditSettleBatchBody>;
/** How many of them were still reserved and are now settled (unknown and already settled ones are not). */
export const CreditSettleBatchResponse = Type.Object({ settled: Type.Integer({ minimum: 0 }) });

/**
 * What the gateway reads of `GET /api/auth/me` (a public call) to turn a session token into a caller; the
 * rest of the answer is the web app's.
 */
export const SessionIdentity = Type.Object({ user: Type.Pick(UserView, ['id', 'accountType', 'plan']) });
export type SessionIdentity = Static<typeof SessionIdentity>;

export const AuthInternalRoutes = {
  verifyApiKey: defineRoute('POST', '/internal/api-keys/verify', {
    tags,
    summary: 'Resolve an API key to its owner',
    body: ApiKeyVerifyBody,
    response: { 200: ApiKeyOwnerResponse },
  }),
  verifySignature: defineRoute('POST', '/internal/api-keys/verify-signature', {
    tags,
    summary: "Check an HMAC-SHA256 made with a user's API key (signed template image URLs)",
    body: ApiKeySignatureBody,
    response: { 200: ApiKeyOwnerResponse },
  }),
  renderLinkOwner: defineRoute('POST', '/internal/api-keys/render-link', {
    tags,
    summary: "The owner of a render link's key: its sig checked, or its absence allowed by the account's setting",
    body: RenderLinkOwnerBody,
    response: { 200: ApiKeyOwnerResponse },
  }),
  reserveCredit: defineRoute('POST', '/internal/credits/reserve', {
    tags,
    summary: 'Reserve one credit for a render (idempotent per requestId), for an account id or an API key hash',
    body: CreditReserveBody,
    response: { 200: CreditReserveResponse, 402: CreditRefusedResponse },
  }),
  reserveCredits: defineRoute('POST', '/internal/credits/reserve-batch', {
    tags,
    summary: 'Reserve several credits for one account at once, all or none (a batch’s, up front)',
    body: CreditReserveManyBody,
    response: { 200: CreditReserveManyResponse, 402: CreditRefusedResponse },
  }),
  settleCredit: defineRoute('POST', '/internal/credits/settle', {
    tags,
    summary: 'Charge or release a reservation (idempotent)',
    body: CreditSettleBody,
    response: { 200: CreditSettleResponse },
  }),
  settleCredits: defineRoute('POST', '/internal/credits/settle-batch', {
    tags,
    summary: 'Charge or release several reservations at once (idempotent)',
    body: CreditSettleBatchBody,
    response: { 200: CreditSettleBatchResponse },
  }),
  planRules: defineRoute('GET', '/internal/plan-rules', {
    tags,
    summary: 'The credit rules in force: the launch period, the Free plan’s credits per window',
    response: { 200: PlanRulesResponse },
  }),
  webhookSecret: defineRoute('POST', '/internal/webhook-secret', {
    tags,
    summary: "The account's webhook signing secret (created on first use), for the worker that signs a delivery",
    body: WebhookSecretBody,
    response: { 200: WebhookSecretInternalResponse },
  }),
};

// Templates (services/templates).

export const TemplateRenderInputBody = Type.Object({
  userId: Type.String({ format: 'uuid' }),
  variables: Type.Optional(TemplateVariableValues),
});
export type TemplateRenderInputBody = Static<typeof TemplateRenderInputBody>;

/**
 * What the templates service hands the gateway to render: the filled SVG, and the image URLs to fetch (the
 * worker's job schema, SvgImageVariable, checks them strictly); `updatedAt`, the version filled, keys the
 * generation cache.
 */
export const TemplateRenderInput = Type.Object({
  svg: Type.String(),
  width: Type.Integer(),
  height: Type.Integer(),
  images: Type.Array(Type.Object({ ref: Type.String(), url: Type.String() })),
  updatedAt: Type.String(),
});
export type TemplateRenderInput = Static<typeof TemplateRenderInput>;

/** Who may be charged for a signed image URL, and which version of the template it shows. */
export const TemplateOwnerInfo = Type.Object({ ownerId: Type.String(), updatedAt: Type.String() });
export type TemplateOwnerInfo = Static<typeof TemplateOwnerInfo>;

export const TemplatesInternalRoutes = {
  renderInput: defineRoute('POST', '/internal/templates/:id/render-input', {
    tags,
    summary: 'The filled SVG of a template the user may use',
    params: TemplateIdParams,
    body: TemplateRenderInputBody,
    response: { 200: TemplateRenderInput, ...templateErrorResponses },
  }),
  // Signed image URLs carry no session: the signature is checked against the owner's key, so the gateway
  // first needs to know who the owner is (and which version it would be caching).
  owner: defineRoute('GET', '/internal/templates/:id/owner', {
    tags,
    summary: "A template's owner and last change",
    params: TemplateIdParams,
    response: { 200: TemplateOwnerInfo, ...templateErrorResponses },
  }),
};

// QuickChart short URLs (services/templates: it keeps stored render definitions).

/** A chart request to keep under a new short URL; `userId`: the creator's account, absent for an anonymous one. */
export const ChartShortUrlCreateBody = Type.Object(
  { request: QuickChartStoredRequest, userId: Type.Optional(UserId) },
  { additionalProperties: false },
);
export type ChartShortUrlCreateBody = Static<typeof ChartShortUrlCreateBody>;

/** A stored short URL: its id, its request, and until when it answers (ISO 8601). */
export const ChartShortUrl = Type.Object({
  id: Type.String({ pattern: QuickChartShortIdPattern }),
  request: QuickChartStoredRequest,
  expiresAt: Type.String({ maxLength: 40 }),
});
export type ChartShortUrl = Static<typeof ChartShortUrl>;

export const ChartShortUrlsInternalRoutes = {
  create: defineRoute('POST', '/internal/chart-short-urls', {
    tags,
    summary: 'Keep a QuickChart request under a new random id, until it expires',
    body: ChartShortUrlCreateBody,
    response: { 200: ChartShortUrl },
  }),
  get: defineRoute('GET', '/internal/chart-short-urls/:id', {
    tags,
    summary: 'A short URL’s stored request, while it has not expired (404 otherwise)',
    params: QuickChartShortIdParams,
    response: { 200: ChartShortUrl, 404: ErrorResponse },
  }),
};
