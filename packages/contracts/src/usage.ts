// Credit usage of an account (docs/spec/states.md): what GET /api/auth/usage answers.
import { type Static, type TSchema, Type } from 'typebox';
import { ApiKeyMessages } from './api-keys.ts';
import { StringEnum, withMessages } from './schema-helpers.ts';

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const UsageResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Object({
    /** Credits of the plan in the window; null when unlimited. */
    totalCredits: Nullable(Type.Integer()),
    used: Type.Integer(),
    limit: Nullable(Type.Integer()),
    remaining: Nullable(Type.Integer()),
    plan: StringEnum(['free', 'pro'] as const),
    window: Type.Object({ days: Type.Integer(), since: Type.String({ format: 'date-time' }) }),
  }),
});

/** What a render was, as the ledger records it (the convert route, or a template's generation or signed URL). */
export const RecentRenderKinds = ['html', 'svg', 'chart', 'code', 'screenshot', 'template'] as const;
export type RecentRenderKind = (typeof RecentRenderKinds)[number];

export const UsageLimits = { recentDefault: 20, recentMax: 100, dailyDays: 31 } as const;

/**
 * GET /api/auth/usage/daily: renders per UTC day over the rolling 30-day window of GET /api/auth/usage.
 * `since` is that window's start (now − 30 days), so the window touches 31 calendar days: `days` has
 * exactly 31 entries, oldest first, the first being since's date (counted from `since` only) and the last
 * today (so far), zero-filled. The days add up to the window's renders. A render counts once its credit is
 * reserved or charged (like `used`); a released one (failed, refused, nobody received it) does not.
 */
export const UsageDailyResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Object({
    since: Type.String({ format: 'date-time' }),
    days: Type.Array(
      Type.Object({
        date: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'UTC day, YYYY-MM-DD' }),
        renders: Type.Integer({ minimum: 0 }),
      }),
      { minItems: UsageLimits.dailyDays, maxItems: UsageLimits.dailyDays },
    ),
  }),
});
export type UsageDailyResponse = Static<typeof UsageDailyResponse>;

/** Usage of one API key only: its id (GET /api/auth/keys; the default key's is in no list: use none). */
const KeyIdFilter = Type.Optional(
  withMessages(Type.String({ format: 'uuid', description: 'Only the renders made with this API key (its id)' }), {
    format: ApiKeyMessages.keyIdInvalid,
    type: ApiKeyMessages.keyIdInvalid,
  }),
);

/** GET /api/auth/usage and /usage/daily: the whole account's, or one key's (`keyId`). */
export const UsageKeyQuery = Type.Object({ keyId: KeyIdFilter }, { additionalProperties: true });
export type UsageKeyQuery = Static<typeof UsageKeyQuery>;

// Query strings are text and the API never coerces types, so the number arrives as digit strings.
export const RecentRendersQuery = Type.Object(
  {
    keyId: KeyIdFilter,
    limit: Type.Optional(
      withMessages(
        Type.String({
          pattern: '^(100|[1-9][0-9]?)$',
          description: `Renders to list, 1-${UsageLimits.recentMax} (default ${UsageLimits.recentDefault})`,
        }),
        { format: `limit must be a whole number between 1 and ${UsageLimits.recentMax}` },
      ),
    ),
  },
  { additionalProperties: true },
);
export type RecentRendersQuery = Static<typeof RecentRendersQuery>;

/**
 * GET /api/auth/usage/recent: the account's latest renders, newest first. `kind`/`format` are known when
 * the credit is reserved; `sizeBytes`/`renderMs` once the image is made and charged (null while reserved
 * and for a released render). Ledger rows recorded before kinds were kept are not listed.
 */
export const RecentRender = Type.Object({
  id: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
  kind: StringEnum(RecentRenderKinds),
  format: Type.String(),
  sizeBytes: Nullable(Type.Integer({ minimum: 0 })),
  renderMs: Nullable(Type.Integer({ minimum: 0 })),
  status: StringEnum(['charged', 'released', 'reserved'] as const),
  /** The API key that made it: null for a session's render (the playgrounds) or a key since deleted. */
  keyId: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});
export type RecentRender = Static<typeof RecentRender>;

export const RecentRendersResponse = Type.Object({ success: Type.Literal(true), data: Type.Array(RecentRender) });
export type RecentRendersResponse = Static<typeof RecentRendersResponse>;
