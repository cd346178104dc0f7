import { randomUUID } from 'node:crypto';
import type { RecentRenderKind } from '@render/contracts';
import type { AuthClient } from '../plugins/auth-client.plugin.ts';
import { extraCreditIds } from './render-credits.ts';

/** A batch item's credits in the ledger: its job id (the first credit's) and, for a render worth more, the rest. */
export interface ItemCredit {
  jobId: string;
  extras: string[];
}

interface ItemToReserve {
  kind: RecentRenderKind;
  format: string;
  credits: number;
}

/** Every ledger id of the items' credits, in order (what a refused or withdrawn batch releases). */
export const creditIdsOf = (credits: readonly ItemCredit[]): string[] => credits.flatMap((c) => [c.jobId, ...c.extras]);

/**
 * Reserves every item's credits for `userId` before anything is queued, in one call to the account service,
 * which takes them all in one transaction or none (its 402, saying how many the window has left: then
 * nothing is queued, nothing charged). Each item's credits are under a job id of its own (and ids derived
 * from it for a render worth more), answered at the item's index.
 */
export async function reserveBatchCredits(
  authClient: Pick<AuthClient, 'reserveCredits'>,
  userId: string,
  items: readonly ItemToReserve[],
  forRequest: string,
): Promise<ItemCredit[]> {
  const credits = items.map((item) => {
    const jobId = randomUUID();
    return { jobId, extras: extraCreditIds(jobId, item.credits) };
  });
  const requests = items.flatMap((item, index) => {
    const { jobId, extras } = credits[index] as ItemCredit;
    return [jobId, ...extras].map((requestId) => ({ requestId, kind: item.kind, format: item.format }));
  });
  await authClient.reserveCredits(userId, requests, forRequest);
  return credits;
}
