import {
  AdminStatsResponse,
  ApiKeyResponse,
  CancelResponse,
  EmailBody,
  ErrorResponse,
  IdempotencyHeaders,
  LoginBody,
  MeResponse,
  MessageResponse,
  NoCredentials,
  PaymentInfoResponse,
  PortalResponse,
  RecentRendersQuery,
  RecentRendersResponse,
  ResetPasswordBody,
  SessionResponse,
  SignedIn,
  SignupBody,
  SignupResponse,
  TokenResponse,
  UnverifiedLoginResponse,
  UpdateProfileBody,
  UpgradeBody,
  UpgradeResponse,
  UsageDailyResponse,
  UsageResponse,
  VerifyBody,
  WebhookSecretResponse,
} from '@render/contracts';
import type { FastifySchema } from 'fastify';
import { type TSchema, Type } from 'typebox';

/**
 * The account service's public calls as the gateway's OpenAPI document shows them. The gateway forwards
 * these untouched (the account service validates them with the same contracts); the schemas here only
 * describe them.
 */
export interface DocumentedCall {
  method: 'GET' | 'POST' | 'PATCH';
  url: string;
  schema: FastifySchema;
  /** It creates something: an Idempotency-Key makes its retry safe (the gateway keeps its answer). */
  idempotent?: true;
}

/** Calls that change the account, open a session, or touch billing: a session token from login only. */
const SessionOnly = [{ bearerAuth: [] }];

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

const auth = { tags: ['auth'] };
const billing = { tags: ['billing'] };

export const accountCalls: DocumentedCall[] = [
  {
    method: 'POST',
    url: '/api/auth/signup',
    schema: {
      ...auth,
      summary: 'Create an account and e-mail a verification code',
      security: NoCredentials,
      body: SignupBody,
      response: { 201: SignupResponse, ...bodyErrors(), 409: failure('An account with this e-mail already exists'), ...unavailable },
    },
  },
  {
    method: 'POST',
    url: '/api/auth/verify',
    schema: {
      ...auth,
      summary: 'Verify the e-mailed code and sign in',
      security: NoCredentials,
      body: VerifyBody,
      response: { 200: SessionResponse, ...bodyErrors('Invalid, expired or locked code, or an invalid body'), ...unavailable },
    },
  },
  {
    method: 'POST',
    url: '/api/auth/resend-verification',
    schema: {
      ...auth,
      summary: 'E-mail a new verification code',
      security: NoCredentials,
      body: EmailBody,
      response: { 200: MessageResponse, ...bodyErrors(), 429: failure('Too many mails to this address'), ...unavailable },
    },
  },
  {
    method: 'POST',
    url: '/api/auth/login',
    schema: {
      ...auth,
      summary: 'Sign in with e-mail and password',
      security: NoCredentials,
      body: LoginBody,
      response: {
        200: SessionResponse,
        ...bodyErrors(),
        401: failure('Invalid e-mail or password'),
        403: Type.Object(UnverifiedLoginResponse.properties, { description: 'Right password, but the e-mail is not verified yet' }),
        429: failure('Too many login attempts for this account or from this address'),
        ...unavailable,
      },
    },
  },
  {
    method: 'GET',
    url: '/api/auth/me',
    schema: {
      ...auth,
      summary: 'The signed-in user (session token or API key)',
      security: SignedIn,
      response: { 200: MeResponse, ...signedOut, ...unavailable },
    },
  },
  {
    method: 'PATCH',
    url: '/api/auth/me',
    schema: {
      ...auth,
      summary: "Change the profile: the language of the account's e-mails",
      security: SessionOnly,
      body: UpdateProfileBody,
      response: { 200: MeResponse, ...bodyErrors(), ...signedOut, ...sessionRequired, ...unavailable },
    },
  },
  {
    method: 'POST',
    url: '/api/auth/refresh',
    schema: {
      ...auth,
      summary: 'A fresh session token for a valid one',
      security: SessionOnly,
      response: { 200: TokenResponse, ...signedOut, ...sessionRequired, ...unavailable },
    },
  },
  {
    method: 'POST',
    url: '/api/auth/forgot-password',
    schema: {
      ...auth,
      summary: 'E-mail a password reset link (the same answer whether or not the account exists)',
      security: NoCredentials,
      body: EmailBody,
      response: { 200: MessageResponse, ...bodyErrors(), ...unavailable },
    },
  },
  {
    method: 'POST',
    url: '/api/auth/reset-password',
    schema: {
      ...auth,
      summary: 'Set a new password with a reset link token (ends every earlier session)',
      security: NoCredentials,
      body: ResetPasswordBody,
      response: {
        200: MessageResponse,
        ...bodyErrors('Weak or mismatched password, an invalid or expired link, or an invalid body'),
        ...unavailable,
      },
    },
  },
  {
    method: 'POST',
    url: '/api/auth/api-key/regenerate',
    idempotent: true,
    schema: {
      ...auth,
      summary: 'Replace the API key; the old one stops working at once',
      security: SessionOnly,
      headers: IdempotencyHeaders,
      response: { 200: ApiKeyResponse, ...signedOut, ...sessionRequired, ...unavailable },
    },
  },
  {
    method: 'GET',
    url: '/api/auth/webhook-secret',
    schema: {
      ...auth,
      summary: 'The secret webhook deliveries are signed with (session token or API key; created on first read)',
      description:
        'Each delivery carries `X-Render-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">` made with this secret; compare in constant time and refuse timestamps older than 5 minutes.',
      security: SignedIn,
      response: { 200: WebhookSecretResponse, ...signedOut, ...unavailable },
    },
  },
  {
    method: 'POST',
    url: '/api/auth/webhook-secret/rotate',
    schema: {
      ...auth,
      summary: 'Replace the webhook secret; every delivery from now on (retries too) is signed with the new one',
      security: SessionOnly,
      response: { 200: WebhookSecretResponse, ...signedOut, ...sessionRequired, ...unavailable },
    },
  },
  {
    method: 'GET',
    url: '/api/auth/usage',
    schema: {
      ...auth,
      summary: 'Credits used in the current rolling window (session token or API key)',
      security: SignedIn,
      response: { 200: UsageResponse, ...signedOut, ...unavailable },
    },
  },
  {
    method: 'GET',
    url: '/api/auth/usage/daily',
    schema: {
      ...auth,
      summary: 'Renders per UTC day in the current rolling window (session token or API key)',
      description:
        'The 31 calendar days the rolling 30-day window touches, oldest first, zero-filled: the first counted from `since` (the window start of GET /api/auth/usage), the last is today so far. A render counts while its credit is reserved or charged, as in `used`.',
      security: SignedIn,
      response: { 200: UsageDailyResponse, ...signedOut, ...unavailable },
    },
  },
  {
    method: 'GET',
    url: '/api/auth/usage/recent',
    schema: {
      ...auth,
      summary: 'The latest renders, newest first (session token or API key)',
      description:
        'Each render billed to the account with what it was: kind, format, image size and render time (null until charged, and for released renders).',
      security: SignedIn,
      querystring: RecentRendersQuery,
      response: { 200: RecentRendersResponse, 400: failure('limit is not a whole number between 1 and 100'), ...signedOut, ...unavailable },
    },
  },
  {
    method: 'POST',
    url: '/api/auth/upgrade',
    schema: {
      ...billing,
      summary: 'Start a Stripe Checkout for the Pro plan',
      security: SessionOnly,
      body: UpgradeBody,
      response: {
        200: UpgradeResponse,
        ...bodyErrors(),
        ...signedOut,
        ...sessionRequired,
        409: failure('Already subscribed'),
        ...billingUnavailable,
      },
    },
  },
  {
    method: 'POST',
    url: '/api/auth/manage-billing',
    schema: {
      ...billing,
      summary: 'Open the Stripe billing portal',
      security: SessionOnly,
      response: { 200: PortalResponse, ...signedOut, ...sessionRequired, 404: failure('No billing account yet'), ...billingUnavailable },
    },
  },
  {
    method: 'POST',
    url: '/api/auth/cancel-subscription',
    schema: {
      ...billing,
      summary: 'Cancel at the end of the billing period',
      security: SessionOnly,
      response: {
        200: CancelResponse,
        ...signedOut,
        ...sessionRequired,
        404: failure('No active subscription'),
        409: failure('Already cancelling'),
        ...billingUnavailable,
      },
    },
  },
  {
    method: 'POST',
    url: '/api/auth/reactivate-subscription',
    schema: {
      ...billing,
      summary: 'Undo a cancellation before the period ends',
      security: SessionOnly,
      response: {
        200: MessageResponse,
        400: failure('The subscription is not cancelling, or its period has ended'),
        ...signedOut,
        ...sessionRequired,
        404: failure('No active subscription'),
        ...billingUnavailable,
      },
    },
  },
  {
    method: 'GET',
    url: '/api/auth/payment-info',
    schema: {
      ...billing,
      summary: 'Plan, subscription and payment methods',
      security: SessionOnly,
      response: { 200: PaymentInfoResponse, ...signedOut, ...sessionRequired, ...billingUnavailable },
    },
  },
  {
    method: 'GET',
    url: '/api/admin/stats',
    schema: {
      tags: ['admin'],
      summary: 'Platform overview (administrators)',
      security: SessionOnly,
      response: {
        200: AdminStatsResponse,
        ...signedOut,
        403: failure('Not an administrator, or an API key was sent instead of a session token'),
        ...unavailable,
      },
    },
  },
];
