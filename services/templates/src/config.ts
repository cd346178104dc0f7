import { loadConfig, PostgresUrl, postgresServiceSettings } from '@render/config';
import { QuickChartLimits } from '@render/contracts';
import { type Static, Type } from 'typebox';

export const TemplatesConfigSchema = Type.Object({
  ...postgresServiceSettings(3002),
  /**
   * Shared secret the gateway sends as X-Internal-Token. Only the gateway talks to this service: it
   * authenticates the caller and passes who they are, which is trusted only with this token.
   */
  INTERNAL_TOKEN: Type.String({ minLength: 16 }),
  /** A saved SVG may be up to 512 KB; JSON escaping can nearly double that. */
  BODY_LIMIT_BYTES: Type.Integer({ minimum: 1024, default: 2 * 1024 * 1024 }),
  /** How long a QuickChart short URL (POST /chart/create) answers, in days, whoever created it. */
  CHART_SHORT_URL_TTL_DAYS: Type.Integer({ minimum: 1, maximum: 3650, default: QuickChartLimits.shortUrlDays }),
});

export type TemplatesConfig = Static<typeof TemplatesConfigSchema>;

/** What the starter-template seed CLI needs: only the database. */
export const loadSeedConfig = (env: Record<string, string | undefined> = process.env) =>
  loadConfig(Type.Object({ DATABASE_URL: PostgresUrl }), env);

export const loadTemplatesConfig = (env: Record<string, string | undefined> = process.env): TemplatesConfig =>
  loadConfig(TemplatesConfigSchema, env);
