import type { LimitsResponse } from '@render/contracts';
import { SystemHeads } from '@render/contracts/route-heads';
import { useEffect, useSyncExternalStore } from 'react';
import { useAppCache } from '../app/app-cache.ts';
import { callRoute } from './call-route.ts';

export type PlanLimits = LimitsResponse['data'];

/** GET /api/limits: the limits in force, from the settings that enforce them (the launch period among them). */
export const fetchPlanLimits = async (): Promise<PlanLimits> => (await callRoute(SystemHeads.limits, {}, { anonymous: true })).data;

const FRESH_MS = 5 * 60_000;
const RETRY_DELAY_MS = 1_000;

/**
 * The limits as one app instance holds them: read once, again when older than five minutes, one retry on a
 * failure. Not a TanStack Query: the landing page shows them and does not load Query (issue 28's 120 KB).
 */
class PlanLimitsEntry {
  private data: PlanLimits | undefined;
  private readAt = 0;
  private reading: Promise<void> | undefined;
  private readonly listeners = new Set<() => void>();

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  get = () => this.data;

  /** Reads the limits unless a read is under way or the last answer is still fresh. */
  refresh() {
    if (this.reading || (this.data && Date.now() - this.readAt < FRESH_MS)) return;
    this.reading = this.read().finally(() => {
      this.reading = undefined;
    });
  }

  private async read() {
    for (let attempt = 0; attempt < 2; attempt += 1) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, RETRY_DELAY_MS));
      try {
        this.data = await fetchPlanLimits();
        this.readAt = Date.now();
        for (const listener of this.listeners) listener();
        return;
      } catch {
        // Unknown: the copy claims nothing (below); the last answer, if any, stays.
      }
    }
  }
}

/**
 * The limits every page's copy must agree with. While they are unknown (loading, or the gateway cannot say),
 * `data` is undefined: copy then claims neither the launch period nor a number it has not read. A prerendered
 * page was drawn without them, so hydration starts without them too.
 */
export function usePlanLimits(): { data: PlanLimits | undefined } {
  const cache = useAppCache();
  cache.planLimits ??= new PlanLimitsEntry();
  const entry = cache.planLimits as PlanLimitsEntry;
  const data = useSyncExternalStore(entry.subscribe, entry.get, () => undefined);
  useEffect(() => entry.refresh(), [entry]);
  return { data };
}

/** Whether the launch period is known to be on (never assumed). */
export const launchPeriodOn = (limits: PlanLimits | undefined) => limits?.launchPeriod === true;
