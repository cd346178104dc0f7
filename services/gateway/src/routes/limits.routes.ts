import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AnonymousCost, ErrorResponse, LimitsResponse, NoCredentials, type PlanRulesResponse } from '@render/contracts';

export interface LimitsRoutesOptions {
  freeMaxInFlight: number;
  proMaxInFlight: number;
  /** How long the account service's answer is reused. */
  rulesTtlMs?: number;
}

const RULES_TTL_MS = 60_000;

/**
 * GET /api/limits: the limits every caller meets, from the settings that enforce them: the anonymous ones and
 * the in-flight limits are this gateway's, the launch period and the Free plan's credits the account
 * service's (LAUNCH_UNLIMITED: one setting, read there). The web app's copy says "unlimited" only from this.
 */
const limitsRoutes: FastifyPluginAsyncTypebox<LimitsRoutesOptions> = async (app, opts) => {
  const ttlMs = opts.rulesTtlMs ?? RULES_TTL_MS;
  let known: { rules: PlanRulesResponse; at: number } | undefined;

  /** The account service's rules, reused for a minute; a stale copy stands in while it cannot answer. */
  async function rules(): Promise<PlanRulesResponse> {
    if (known && Date.now() - known.at < ttlMs) return known.rules;
    try {
      known = { rules: await app.authClient.planRules(), at: Date.now() };
    } catch (err) {
      if (!known) throw err;
    }
    return known.rules;
  }

  app.get(
    '/api/limits',
    {
      schema: {
        tags: ['system'],
        security: NoCredentials,
        summary: 'The limits of anonymous calls and of each plan, and whether the launch period is on',
        description:
          'Without credentials a render costs quota units by its size and format (one per started 1024 × 1024 pixels, at ' +
          'least one, times the format weight) against a per-minute and a per-day quota per address; answers subject to ' +
          'them carry RateLimit-Policy and RateLimit headers. With an API key each delivered image is one credit.',
        response: { 200: LimitsResponse, 503: ErrorResponse },
      },
    },
    async (_request, reply) => {
      const { launchPeriod, freeCredits, windowDays } = await rules();
      const { perMinute, perDay, maxInFlight, maxPixels } = app.anonymousLimits.settings;
      reply.header('Cache-Control', 'public, max-age=60');
      return {
        success: true as const,
        data: {
          launchPeriod,
          anonymous: {
            perMinute,
            perDay,
            maxInFlight,
            maxPixels,
            unitPixels: AnonymousCost.unitPixels,
            formatWeights: { ...AnonymousCost.formatWeights },
          },
          plans: {
            free: { credits: freeCredits, windowDays, maxInFlight: opts.freeMaxInFlight },
            pro: { credits: null, maxInFlight: opts.proMaxInFlight },
          },
        },
      };
    },
  );
};

export default limitsRoutes;
