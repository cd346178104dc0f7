import type {
  AdminStatsResponse,
  CreateApiKeyBody,
  NamedApiKey,
  PaymentInfoResponse,
  RecentRendersResponse,
  RenderLinkSettingsBody,
  UpdateProfileBody,
  UpgradeBody,
  UsageDailyResponse,
  UsageResponse,
  WebhookDeliveriesResponse,
} from '@render/contracts';
import { AccountHeads, AsyncRenderHeads } from '@render/contracts/route-heads';
import type { Static } from 'typebox';
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

export type { NamedApiKey };

export const RECENT_RENDERS_LIMIT = 10;

/** The usage filter: one key's renders (its id), or the whole account's (undefined). */
const byKey = (keyId: string | undefined) => (keyId ? { keyId } : {});

export const dashboardKeys = {
  usage: ['dashboard', 'usage'] as const,
  usageDaily: ['dashboard', 'usage', 'daily'] as const,
  recent: ['dashboard', 'usage', 'recent'] as const,
  apiKeys: ['dashboard', 'api-keys'] as const,
  /** A usage query of one key (or all, `undefined`): under `base`, so invalidating the base reaches every filter. */
  filtered: <K extends readonly string[]>(base: K, keyId: string | undefined) => [...base, keyId ?? 'all'] as const,
  paymentInfo: ['dashboard', 'payment-info'] as const,
  adminStats: ['dashboard', 'admin-stats'] as const,
  webhookSecret: ['dashboard', 'webhook-secret'] as const,
  webhookDeliveries: ['dashboard', 'webhook-deliveries'] as const,
};

export const dashboardApi = {
  usage: async (keyId?: string) => (await callRoute(AccountHeads.usage, { query: byKey(keyId) })).data,
  usageDaily: async (keyId?: string) => (await callRoute(AccountHeads.usageDaily, { query: byKey(keyId) })).data,
  recentRenders: async (limit = RECENT_RENDERS_LIMIT, keyId?: string) =>
    (await callRoute(AccountHeads.usageRecent, { query: { limit, ...byKey(keyId) } })).data,
  apiKeys: async () => (await callRoute(AccountHeads.listApiKeys)).data,
  createApiKey: async (body: CreateApiKeyBody) => callRoute(AccountHeads.createApiKey, { body }),
  revokeApiKey: async (id: string) => callRoute(AccountHeads.revokeApiKey, { params: { id } }),
  updateProfile: async (body: UpdateProfileBody) => (await callRoute(AccountHeads.updateProfile, { body })).user,
  renderLinkSettings: async (body: RenderLinkSettingsBody) => (await callRoute(AccountHeads.renderLinkSettings, { body })).user,
  regenerateKey: async () => (await callRoute(AccountHeads.regenerateApiKey)).apiKey,
  paymentInfo: async () => (await callRoute(AccountHeads.paymentInfo)).data,
  upgrade: (body: Static<typeof UpgradeBody>) => callRoute(AccountHeads.upgrade, { body }),
  manageBilling: async () => (await callRoute(AccountHeads.manageBilling)).url,
  cancelSubscription: () => callRoute(AccountHeads.cancelSubscription),
  reactivateSubscription: () => callRoute(AccountHeads.reactivateSubscription),
  webhookSecret: async () => (await callRoute(AccountHeads.webhookSecret)).secret,
  rotateWebhookSecret: async () => (await callRoute(AccountHeads.rotateWebhookSecret)).secret,
  webhookDeliveries: async () => (await callRoute(AsyncRenderHeads.webhookDeliveries)).deliveries,
  adminStats: async () => (await callRoute(AccountHeads.adminStats)).stats,
};

/** Leaves the app for a Stripe page (Checkout or the billing portal); a seam tests can replace. */
export const externalNavigation = {
  go(url: string) {
    window.location.assign(url);
  },
};

/** Dashboard numbers change outside the page (API calls from elsewhere): read them again whenever a card mounts or the tab regains focus. */
export const FRESH = { staleTime: 0, refetchOnWindowFocus: true } as const;
