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

/**
 * Reserves every item's credits for `userId` before anything is queued, one after another (a limited
 * account's reservation locks its row, so parallel ones would only queue there). Should the account not have
 * them all (the ledger's 402, the spec's insufficient-credit answer), every credit reserved here is released
 * first and the refusal thrown: nothing is queued, nothing charged. Item `i`'s credits are answered at `i`.
 */
export async function reserveBatchCredits(
  authClient: Pick<AuthClient, 'reserveCredit' | 'settleCredit'>,
  userId: string,
  items: readonly ItemToReserve[],
  forRequest: string,
): Promise<ItemCredit[]> {
  const reserved: string[] = [];
  const credits: ItemCredit[] = [];
  try {
    for (const item of items) {
      const jobId = randomUUID();
      const extras = extraCreditIds(jobId, item.credits);
      for (const id of [jobId, ...extras]) {
        await authClient.reserveCredit(userId, id, { kind: item.kind, format: item.format }, forRequest);
        reserved.push(id);
      }
      credits.push({ jobId, extras });
    }
  } catch (err) {
    await Promise.allSettled(reserved.map((id) => authClient.settleCredit(id, 'released')));
    throw err;
  }
  return credits;
}
