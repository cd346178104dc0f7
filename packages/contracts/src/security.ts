/**
 * OpenAPI security requirements of the public routes, by the names the gateway's document declares in
 * `components.securitySchemes`: an API key (X-API-Key header, or `Authorization: Bearer rk_…`) or a session
 * token (`Authorization: Bearer <JWT>` from login).
 */
export const SecuritySchemes = {
  apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'Your API key (also accepted as Authorization: Bearer rk_…)' },
  bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT or API key', description: 'A session token from login, or an API key' },
} as const;

export type SecurityRequirements = Array<Record<string, string[]>>;

/** Credentials required. */
export const SignedIn: SecurityRequirements = [{ apiKey: [] }, { bearerAuth: [] }];
/** Credentials optional: without them the call is anonymous (rate limited per IP for renders). */
export const SignedInOrAnonymous: SecurityRequirements = [{}, { apiKey: [] }, { bearerAuth: [] }];
/** Calls that change the account, open a session, or touch billing: a session token from login only. */
export const SessionOnly: SecurityRequirements = [{ bearerAuth: [] }];
/** A public call; credentials are not read. */
export const NoCredentials: SecurityRequirements = [];

/**
 * Who may call an operation, read from its security requirements as the document declares them: `public`
 * (none: credentials are not read), `anonymous` (an empty requirement among them: credentials optional),
 * `session` (a session token only) or `signedIn` (an API key or a session token). The docs page words
 * each one, and a gateway test checks that every operation answers without credentials as declared.
 */
export type OperationAccess = 'public' | 'anonymous' | 'signedIn' | 'session';

export function operationAccess(security: ReadonlyArray<Record<string, unknown>> | undefined): OperationAccess {
  if (!security || security.length === 0) return 'public';
  if (security.some((requirement) => Object.keys(requirement).length === 0)) return 'anonymous';
  return security.every((requirement) => Object.keys(requirement).join() === 'bearerAuth') ? 'session' : 'signedIn';
}
