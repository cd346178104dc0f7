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
/** A public call; credentials are not read. */
export const NoCredentials: SecurityRequirements = [];
