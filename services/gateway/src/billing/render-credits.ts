import { isVideoFormat, VideoLimits, videoCredits } from '@render/contracts';
import type { RenderKind } from '@render/queue';
import type { AuthClient, ReserveFacts } from '../plugins/auth-client.plugin.ts';

/**
 * Credits one render costs: one, but a screenshot video one per started `VideoLimits.secondsPerCredit` of
 * its duration (a 12 s video: 3). Read from the built payload, where the gateway has applied the defaults.
 */
export function creditsOf(kind: RenderKind, payload: unknown): number {
  if (kind !== 'screenshot') return 1;
  const { format, duration } = payload as { format: string; duration?: number };
  return isVideoFormat(format) ? videoCredits(duration ?? VideoLimits.defaultDuration) : 1;
}

/**
 * The ledger holds one row per credit, under the render's job id (`BilledRenders`): a render worth more has
 * its further credits under ids derived from it, reserved, charged and released with it, so a retried job is
 * still charged once and a failed one costs nothing.
 */
export const extraCreditIds = (jobId: string, credits: number): string[] =>
  Array.from({ length: Math.max(0, credits - 1) }, (_, i) => `${jobId}:credit-${i + 2}`);

/**
 * Reserves a render's further credits for `userId`, before it is queued (up front, like its first). Should
 * the account not have them all (402), the ones reserved are released and the refusal is thrown; the
 * caller releases the first. Answers the reserved ids and the standing after the last one.
 */
export async function reserveExtraCredits(
  authClient: Pick<AuthClient, 'reserveCredit' | 'settleCredit'>,
  userId: string,
  ids: readonly string[],
  facts: ReserveFacts,
  forRequest: string,
): Promise<{ ids: string[]; standing?: { remaining: number | null; limit: number | null | undefined } }> {
  const reserved: string[] = [];
  let standing: { remaining: number | null; limit: number | null | undefined } | undefined;
  try {
    // One after another: a limited account's reservation locks its row, so parallel ones would only queue there.
    for (const id of ids) {
      standing = await authClient.reserveCredit(userId, id, facts, forRequest);
      reserved.push(id);
    }
  } catch (err) {
    await Promise.allSettled(reserved.map((id) => authClient.settleCredit(id, 'released')));
    throw err;
  }
  return standing ? { ids: reserved, standing } : { ids: reserved };
}
