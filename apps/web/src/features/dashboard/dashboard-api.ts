import {
  AccountRoutes,
  type AdminStatsResponse,
  type PaymentInfoResponse,
  type RecentRendersResponse,
  type UpdateProfileBody,
  type UpgradeBody,
  type UsageDailyResponse,
  type UsageResponse,
  type WebhookDeliveriesResponse,
} from '@render/contracts';
import type { Static } from 'typebox';
import { apiJson } from '../../lib/api-client.ts';
import { callRoute } from '../../lib/call-route.ts';

/**
 * The account calls the dashboard makes (docs/spec/calls.md), each answered through the gateway with the session
 * token (or, for usage, the API key). Shapes come from the contracts.
 */
export type Usage = Static<typeof UsageResponse>['data'];
export type PaymentInfo = Static<typeof PaymentInfoResponse>['data'];
export type AdminStats = Static<typeof AdminStatsResponse>['stats'];

export type UsageDaily = UsageDailyResponse['data'];
export type RecentRender = RecentRendersResponse['data'][number];
export type WebhookDelivery = WebhookDeliveriesResponse['deliveries'][number];

export const RECENT_RENDERS_LIMIT = 10;

export const dashboardKeys = {
  usage: ['dashboard', 'usage'] as const,
  usageDaily: ['dashboard', 'usage', 'daily'] as const,
  recent: ['dashboard', 'usage', 'recent'] as const,
  paymentInfo: ['dashboard', 'payment-info'] as const,
  adminStats: ['dashboard', 'admin-stats'] as const,
  webhookSecret: ['dashboard', 'webhook-secret'] as const,
  webhookDeliveries: ['dashboard', 'webhook-deliveries'] as const,
};

export const dashboardApi = {
  usage: async () => (await callRoute(AccountRoutes.usage)).data,
  usageDaily: async () => (await callRoute(AccountRoutes.usageDaily)).data,
  recentRenders: async (limit = RECENT_RENDERS_LIMIT) => (await callRoute(AccountRoutes.usageRecent, { query: { limit } })).data,
  updateProfile: async (body: UpdateProfileBody) => (await callRoute(AccountRoutes.updateProfile, { body })).user,
  regenerateKey: async () => (await callRoute(AccountRoutes.regenerateApiKey)).apiKey,
  paymentInfo: async () => (await callRoute(AccountRoutes.paymentInfo)).data,
  upgrade: (body: Static<typeof UpgradeBody>) => callRoute(AccountRoutes.upgrade, { body }),
  manageBilling: async () => (await callRoute(AccountRoutes.manageBilling)).url,
  cancelSubscription: () => callRoute(AccountRoutes.cancelSubscription),
  reactivateSubscription: () => callRoute(AccountRoutes.reactivateSubscription),
  webhookSecret: async () => (await callRoute(AccountRoutes.webhookSecret)).secret,
  rotateWebhookSecret: async () => (await callRoute(AccountRoutes.rotateWebhookSecret)).secret,
  // Served by the gateway itself, which has no contract for it yet (issue 27 §1: renders and webhooks).
  webhookDeliveries: async () => (await apiJson<WebhookDeliveriesResponse>('/api/webhooks/deliveries')).deliveries,
  adminStats: async () => (await callRoute(AccountRoutes.adminStats)).stats,
};

/** Leaves the app for a Stripe page (Checkout or the billing portal); a seam tests can replace. */
export const externalNavigation = {
  go(url: string) {
    window.location.assign(url);
  },
};

/** Dashboard numbers change outside the page (API calls from elsewhere): read them again whenever a card mounts or the tab regains focus. */
export const FRESH = { staleTime: 0, refetchOnWindowFocus: true } as const;
