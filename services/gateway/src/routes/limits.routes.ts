import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AnonymousCost, type PlanRulesResponse, SystemRoutes } from '@render/contracts';

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

  const { limits } = SystemRoutes;
  app.get(limits.url, { schema: limits.schema }, async (_request, reply) => {
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
  });
};

export default limitsRoutes;
