// Named API keys (issue 30 §6): beside the account's default key (the specification's one key, POST
// /api/auth/api-key/regenerate), an account creates keys with a name, a scope and an optional expiry.
import { type Static, Type } from 'typebox';
import {
  AccountHeads,
  AsyncRenderHeads,
  CompatHeads,
  McpHeads,
  RenderHeads,
  type RouteHead,
  SystemHeads,
  TemplateHeads,
} from './route-heads.ts';
import { StringEnum, withMessages } from './schema-helpers.ts';

/** What a key may call, narrowest first: render routes only; renders and template calls; everything a key can call. */
export const ApiKeyScopes = ['render', 'templates', 'full'] as const;
export type ApiKeyScope = (typeof ApiKeyScopes)[number];

export const ApiKeyLimits = { nameMax: 60, perAccount: 20 } as const;

export const ApiKeyMessages = {
  nameRequired: 'Key name is required',
  nameTooLong: `Key name must be at most ${ApiKeyLimits.nameMax} characters`,
  scopeInvalid: 'scope must be render, templates or full',
  expiresAtInvalid: 'expiresAt must be a date and time (ISO 8601) in the future',
  tooMany: `An account can have at most ${ApiKeyLimits.perAccount} named API keys: revoke one first`,
  notFound: 'No such API key (it may already be revoked)',
  keyIdInvalid: 'keyId must be the id of one of your API keys',
  scopeTooNarrow: 'This API key’s scope does not allow this call: use a key with a wider scope',
} as const;

/** Whether a key of scope `scope` may make a call that needs `needed`. */
export const scopeAllows = (scope: ApiKeyScope, needed: ApiKeyScope): boolean =>
  ApiKeyScopes.indexOf(scope) >= ApiKeyScopes.indexOf(needed);

/**
 * The narrowest scope a call needs: renders (and reading their async results) need `render`; template
 * calls, the template render included, `templates`; anything else (the account, its usage) `full`.
 */
export function keyScopeFor(head: Pick<RouteHead, 'group' | 'url'>): ApiKeyScope {
  if (head.url.startsWith('/api/template')) return 'templates';
  if (head.group === 'render' || head.group === 'asyncRender' || head.group === 'compat' || head.group === 'mcp') return 'render';
  return 'full';
}

const KeyId = Type.String({ format: 'uuid' });

export const NamedApiKey = Type.Object({
  id: KeyId,
  name: Type.String(),
  scope: StringEnum(ApiKeyScopes),
  /** The key's first characters (`rk_` and 8 more), to tell keys apart; the rest is never shown again. */
  prefix: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
  expiresAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  /** To the minute: recorded at most once a minute per key. */
  lastUsedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});
export type NamedApiKey = Static<typeof NamedApiKey>;

export const ApiKeysResponse = Type.Object({ success: Type.Literal(true), data: Type.Array(NamedApiKey) });
export type ApiKeysResponse = Static<typeof ApiKeysResponse>;

export const CreateApiKeyBody = Type.Object(
  {
    name: withMessages(Type.String({ minLength: 1, maxLength: ApiKeyLimits.nameMax }), {
      required: ApiKeyMessages.nameRequired,
      type: ApiKeyMessages.nameRequired,
      minLength: ApiKeyMessages.nameRequired,
      maxLength: ApiKeyMessages.nameTooLong,
    }),
    scope: withMessages(StringEnum(ApiKeyScopes), {
      required: ApiKeyMessages.scopeInvalid,
      type: ApiKeyMessages.scopeInvalid,
      enum: ApiKeyMessages.scopeInvalid,
    }),
    expiresAt: Type.Optional(
      withMessages(Type.String({ format: 'date-time', description: 'When the key stops working (none: never)' }), {
        type: ApiKeyMessages.expiresAtInvalid,
        format: ApiKeyMessages.expiresAtInvalid,
      }),
    ),
  },
  { additionalProperties: false },
);
export type CreateApiKeyBody = Static<typeof CreateApiKeyBody>;

/** The new key, with its secret: shown this once (only its SHA-256 is kept). */
export const CreatedApiKeyResponse = Type.Object({
  success: Type.Literal(true),
  data: NamedApiKey,
  secret: Type.String({ description: 'The key itself: shown only in this answer' }),
});
export type CreatedApiKeyResponse = Static<typeof CreatedApiKeyResponse>;

// Any id that is not one of the caller's keys is a 404, a malformed one included (no 400 to tell them apart).
export const ApiKeyIdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
export type ApiKeyIdParams = Static<typeof ApiKeyIdParams>;

export const RevokedApiKeyResponse = Type.Object({ success: Type.Literal(true), id: KeyId });

const headsByRoute = new Map<string, Pick<RouteHead, 'group' | 'url'>>(
  [AccountHeads, TemplateHeads, RenderHeads, AsyncRenderHeads, SystemHeads, CompatHeads, McpHeads].flatMap((group) =>
    Object.values(group).map((head): [string, RouteHead] => [`${head.method} ${head.url}`, head]),
  ),
);

/** The scope a call to the public route `method url` (as declared: `/api/template/:id`) needs; `full` for one not declared. */
export function keyScopeAt(method: string, url: string | undefined): ApiKeyScope {
  // A HEAD is the GET route's (Fastify answers it from the GET handler).
  const head = url === undefined ? undefined : headsByRoute.get(`${method === 'HEAD' ? 'GET' : method} ${url}`);
  return head ? keyScopeFor(head) : 'full';
}
