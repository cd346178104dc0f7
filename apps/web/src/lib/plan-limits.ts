import type { LimitsResponse } from '@render/contracts';
import { SystemHeads } from '@render/contracts/route-heads';
import { useQuery } from '@tanstack/react-query';
import { callRoute } from './call-route.ts';

export type PlanLimits = LimitsResponse['data'];

export const planLimitsKey = ['limits'] as const;

/** GET /api/limits: the limits in force, from the settings that enforce them (the launch period among them). */
export const fetchPlanLimits = async (): Promise<PlanLimits> => (await callRoute(SystemHeads.limits, {}, { anonymous: true })).data;

/**
 * The limits every page's copy must agree with. While they are unknown (loading, or the gateway cannot say),
 * `data` is undefined: copy then claims neither the launch period nor a number it has not read.
 */
export function usePlanLimits() {
  return useQuery({ queryKey: planLimitsKey, queryFn: fetchPlanLimits, staleTime: 5 * 60_000, retry: 1 });
}

/** Whether the launch period is known to be on (never assumed). */
export const launchPeriodOn = (limits: PlanLimits | undefined) => limits?.launchPeriod === true;
