// The account service's public calls (accounts, sessions, API keys, usage, billing, the admin overview), each
// declared once: the account service serves them with these (fastify-kit's `serveRoute`), the gateway forwards
// them untouched and documents them with the same ones, and the web app calls them through its typed client.
import { type TSchema, Type } from 'typebox';
import { AdminStatsResponse } from './admin.ts';
import {
  ApiKeyIdParams,
  ApiKeyLimits,
  ApiKeyMessages,
  ApiKeysResponse,
  CreateApiKeyBody,
  CreatedApiKeyResponse,
  RevokedApiKeyResponse,
} from './api-keys.ts';
import {
  ApiKeyResponse,
  EmailBody,
  LoginBody,
  MeResponse,
  MessageResponse,
  ResetPasswordBody,
  SessionResponse,
  SignupBody,
  SignupResponse,
  TokenResponse,
  UnverifiedLoginResponse,
  UpdateProfileBody,
  VerifyBody,
} from './auth.ts';
import { CancelResponse, PaymentInfoResponse, PortalResponse, UpgradeBody, UpgradeResponse, WebhookResponse } from './billing.ts';
import { ErrorResponse } from './render.ts';
import { RenderLinkSettingsBody } from './render-link.ts';
import { publicRouteOf } from './route.ts';
import { AccountHeads } from './route-heads.ts';
import { RecentRendersQuery, RecentRendersResponse, UsageDailyResponse, UsageKeyQuery, UsageResponse } from './usage.ts';
import { WebhookSecretResponse } from './webhook.ts';

/** The shared error body, with what the status means for this call. */
const failure = (description: string): TSchema => Type.Object(ErrorResponse.properties, { description });

// Every forwarded call can meet these: the account service unreachable, or too slow.
const unavailable = {
  503: failure('The account service is unavailable'),
  504: failure('The account service did not answer in time'),
};
const billingUnavailable = {
  ...unavailable,
  503: failure(
    'Billing is not configured (code BILLING_NOT_CONFIGURED: the deployment has no Stripe key), Stripe is unreachable, or the account service is unavailable',
  ),
};
/** What the account service answers to a body it cannot take; `invalid` words this call's 400. */
const bodyErrors = (invalid = 'The body is not valid JSON or does not match the schema (the message names the field)') => ({
  400: failure(invalid),
  413: failure('The body is too large'),
  415: failure('The body is not JSON'),
});
const signedOut = { 401: failure('Missing, invalid or expired credentials') };
const sessionRequired = { 403: failure('An API key was sent: this call needs a session token from login') };

const auth = ['auth'];
const billing = ['billing'];

export const AccountRoutes = {
  signup: publicRouteOf(AccountHeads.signup, {
    tags: auth,
    summary: 'Create an account and e-mail a verification code',
    body: SignupBody,
    response: { 201: SignupResponse, ...bodyErrors(), 409: failure('An account with this e-mail already exists'), ...unavailable },
  }),
  verify: publicRouteOf(AccountHeads.verify, {
    tags: auth,
    summary: 'Verify the e-mailed code and sign in',
    body: VerifyBody,
    response: { 200: SessionResponse, ...bodyErrors('Invalid, expired or locked code, or an invalid body'), ...unavailable },
  }),
  resendVerification: publicRouteOf(AccountHeads.resendVerification, {
    tags: auth,
    summary: 'E-mail a new verification code',
    body: EmailBody,
    response: { 200: MessageResponse, ...bodyErrors(), 429: failure('Too many mails to this address'), ...unavailable },
  }),
  login: publicRouteOf(AccountHeads.login, {
    tags: auth,
    summary: 'Sign in with e-mail and password',
    body: LoginBody,
    response: {
      200: SessionResponse,
      ...bodyErrors(),
      401: failure('Invalid e-mail or password'),
      403: Type.Object(UnverifiedLoginResponse.properties, { description: 'Right password, but the e-mail is not verified yet' }),
      429: failure('Too many login attempts for this account or from this address'),
      ...unavailable,
    },
  }),
  me: publicRouteOf(AccountHeads.me, {
    tags: auth,
    summary: 'The signed-in user (session token or API key)',
    response: { 200: MeResponse, ...signedOut, ...unavailable },
  }),
  updateProfile: publicRouteOf(AccountHeads.updateProfile, {
    tags: auth,
    summary: "Change the profile: the language of the account's e-mails",
    body: UpdateProfileBody,
    response: { 200: MeResponse, ...bodyErrors(), ...signedOut, ...sessionRequired, ...unavailable },
  }),
  refresh: publicRouteOf(AccountHeads.refresh, {
    tags: auth,
    summary: 'A fresh session token for a valid one',
    response: { 200: TokenResponse, ...signedOut, ...sessionRequired, ...unavailable },
  }),
  forgotPassword: publicRouteOf(AccountHeads.forgotPassword, {
    tags: auth,
    summary: 'E-mail a password reset link (the same answer whether or not the account exists)',
    body: EmailBody,
    response: { 200: MessageResponse, ...bodyErrors(), ...unavailable },
  }),
  resetPassword: publicRouteOf(AccountHeads.resetPassword, {
    tags: auth,
    summary: 'Set a new password with a reset link token (ends every earlier session)',
    body: ResetPasswordBody,
    response: {
      200: MessageResponse,
      ...bodyErrors('Weak or mismatched password, an invalid or expired link, or an invalid body'),
      ...unavailable,
    },
  }),
  renderLinkSettings: publicRouteOf(AccountHeads.renderLinkSettings, {
    tags: auth,
    summary: 'Whether every render link (GET /api/render/{kind}) must be signed',
    description: 'With signedOnly true, a render link carrying only key (no sig) is refused with 403.',
    body: RenderLinkSettingsBody,
    response: { 200: MeResponse, ...bodyErrors(), ...signedOut, ...sessionRequired, ...unavailable },
  }),
  regenerateApiKey: publicRouteOf(AccountHeads.regenerateApiKey, {
    tags: auth,
    summary: 'Replace the API key; the old one stops working at once',
    response: { 200: ApiKeyResponse, ...signedOut, ...sessionRequired, ...unavailable },
  }),
  listApiKeys: publicRouteOf(AccountHeads.listApiKeys, {
    tags: auth,
    summary: 'The named API keys (not revoked), oldest first; the default key is not listed',
    description:
      'Each with its scope (`render`: render calls only; `templates`: renders and template calls; `full`: everything an API key can call), its expiry and when it was last used (to the minute).',
    response: { 200: ApiKeysResponse, ...signedOut, ...sessionRequired, ...unavailable },
  }),
  createApiKey: publicRouteOf(AccountHeads.createApiKey, {
    tags: auth,
    summary: 'Create a named API key; its secret is in this answer only',
    description: `Up to ${ApiKeyLimits.perAccount} named keys beside the default key. Credits stay the account's; usage records which key made each render.`,
    body: CreateApiKeyBody,
    response: {
      201: CreatedApiKeyResponse,
      ...bodyErrors('A field is missing or invalid (the message names it), or expiresAt is not in the future'),
      ...signedOut,
      ...sessionRequired,
      409: failure(ApiKeyMessages.tooMany),
      ...unavailable,
    },
  }),
  revokeApiKey: publicRouteOf(AccountHeads.revokeApiKey, {
    tags: auth,
    summary: 'Revoke a named API key: refused at once on every gateway',
    params: ApiKeyIdParams,
    response: {
      200: RevokedApiKeyResponse,
      400: failure('The id is too long, or not a single path segment'),
      ...signedOut,
      ...sessionRequired,
      404: failure(ApiKeyMessages.notFound),
      ...unavailable,
    },
  }),
  webhookSecret: publicRouteOf(AccountHeads.webhookSecret, {
    tags: auth,
    summary: 'The secret webhook deliveries are signed with (session token or API key; created on first read)',
    description:
      'Each delivery carries `X-Render-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">` made with this secret; compare in constant time and refuse timestamps older than 5 minutes.',
    response: { 200: WebhookSecretResponse, ...signedOut, ...unavailable },
  }),
  rotateWebhookSecret: publicRouteOf(AccountHeads.rotateWebhookSecret, {
    tags: auth,
    summary: 'Replace the webhook secret; every delivery from now on (retries too) is signed with the new one',
    response: { 200: WebhookSecretResponse, ...signedOut, ...sessionRequired, ...unavailable },
  }),
  usage: publicRouteOf(AccountHeads.usage, {
    tags: auth,
    summary: 'Credits used in the current rolling window (session token or API key)',
    querystring: UsageKeyQuery,
    response: { 200: UsageResponse, 400: failure(ApiKeyMessages.keyIdInvalid), ...signedOut, ...unavailable },
  }),
  usageDaily: publicRouteOf(AccountHeads.usageDaily, {
    tags: auth,
    summary: 'Renders per UTC day in the current rolling window (session token or API key)',
    description:
      'The 31 calendar days the rolling 30-day window touches, oldest first, zero-filled: the first counted from `since` (the window start of GET /api/auth/usage), the last is today so far. A render counts while its credit is reserved or charged, as in `used`.',
    querystring: UsageKeyQuery,
    response: { 200: UsageDailyResponse, 400: failure(ApiKeyMessages.keyIdInvalid), ...signedOut, ...unavailable },
  }),
  usageRecent: publicRouteOf(AccountHeads.usageRecent, {
    tags: auth,
    summary: 'The latest renders, newest first (session token or API key)',
    description:
      'Each render billed to the account with what it was: kind, format, image size and render time (null until charged, and for released renders).',
    querystring: RecentRendersQuery,
    response: {
      200: RecentRendersResponse,
      400: failure('limit is not a whole number between 1 and 100, or keyId is not a key id'),
      ...signedOut,
      ...unavailable,
    },
  }),
  upgrade: publicRouteOf(AccountHeads.upgrade, {
    tags: billing,
    summary: 'Start a Stripe Checkout for the Pro plan',
    body: UpgradeBody,
    response: {
      200: UpgradeResponse,
      ...bodyErrors(),
      ...signedOut,
      ...sessionRequired,
      409: failure('Already subscribed'),
      ...billingUnavailable,
    },
  }),
  manageBilling: publicRouteOf(AccountHeads.manageBilling, {
    tags: billing,
    summary: 'Open the Stripe billing portal',
    response: { 200: PortalResponse, ...signedOut, ...sessionRequired, 404: failure('No billing account yet'), ...billingUnavailable },
  }),
  cancelSubscription: publicRouteOf(AccountHeads.cancelSubscription, {
    tags: billing,
    summary: 'Cancel at the end of the billing period',
    response: {
      200: CancelResponse,
      ...signedOut,
      ...sessionRequired,
      404: failure('No active subscription'),
      409: failure('Already cancelling'),
      ...billingUnavailable,
    },
  }),
  reactivateSubscription: publicRouteOf(AccountHeads.reactivateSubscription, {
    tags: billing,
    summary: 'Undo a cancellation before the period ends',
    response: {
      200: MessageResponse,
      400: failure('The subscription is not cancelling, or its period has ended'),
      ...signedOut,
      ...sessionRequired,
      404: failure('No active subscription'),
      ...billingUnavailable,
    },
  }),
  paymentInfo: publicRouteOf(AccountHeads.paymentInfo, {
    tags: billing,
    summary: 'Plan, subscription and payment methods',
    response: { 200: PaymentInfoResponse, ...signedOut, ...sessionRequired, ...billingUnavailable },
  }),
  // Stripe's own call, signed by Stripe over the raw bytes: served, forwarded, not documented.
  stripeWebhook: publicRouteOf(AccountHeads.stripeWebhook, {
    tags: billing,
    summary: 'Stripe webhook (signed by Stripe)',
    hide: true,
    response: { 200: WebhookResponse },
  }),
  adminStats: publicRouteOf(AccountHeads.adminStats, {
    tags: ['admin'],
    summary: 'Platform overview (administrators)',
    response: {
      200: AdminStatsResponse,
      ...signedOut,
      403: failure('Not an administrator, or an API key was sent instead of a session token'),
      ...unavailable,
    },
  }),
};
