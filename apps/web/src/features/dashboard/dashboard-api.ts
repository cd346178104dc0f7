import type {
  AdminStatsResponse,
  PaymentInfoResponse,
  RecentRendersResponse,
  UpdateProfileBody,
  UpgradeResponse,
  UsageDailyResponse,
  UsageResponse,
  UserView,
  WebhookDeliveriesResponse,
  WebhookSecretResponse,
} from '@render/contracts';
import type { Static } from 'typebox';
import { apiJson } from '../../lib/api-client.ts';

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
  usage: async () => (await apiJson<{ data: Usage }>('/api/auth/usage')).data,
  usageDaily: async () => (await apiJson<UsageDailyResponse>('/api/auth/usage/daily')).data,
  recentRenders: async (limit = RECENT_RENDERS_LIMIT) =>
    (await apiJson<RecentRendersResponse>(`/api/auth/usage/recent?limit=${limit}`)).data,
  updateProfile: async (body: UpdateProfileBody) => (await apiJson<{ user: UserView }>('/api/auth/me', { method: 'PATCH', body })).user,
  regenerateKey: async () => (await apiJson<{ apiKey: string }>('/api/auth/api-key/regenerate', { method: 'POST' })).apiKey,
  paymentInfo: async () => (await apiJson<{ data: PaymentInfo }>('/api/auth/payment-info')).data,
  upgrade: (body: { interval: 'month' | 'year'; currency: 'usd' | 'eur' }) =>
    apiJson<Static<typeof UpgradeResponse>>('/api/auth/upgrade', { method: 'POST', body }),
  manageBilling: async () => (await apiJson<{ url: string }>('/api/auth/manage-billing', { method: 'POST', body: {} })).url,
  cancelSubscription: () =>
    apiJson<{ message: string; accessUntil: string | null }>('/api/auth/cancel-subscription', { method: 'POST', body: {} }),
  reactivateSubscription: () => apiJson<{ message: string }>('/api/auth/reactivate-subscription', { method: 'POST', body: {} }),
  webhookSecret: async () => (await apiJson<WebhookSecretResponse>('/api/auth/webhook-secret')).secret,
  rotateWebhookSecret: async () => (await apiJson<WebhookSecretResponse>('/api/auth/webhook-secret/rotate', { method: 'POST' })).secret,
  webhookDeliveries: async () => (await apiJson<WebhookDeliveriesResponse>('/api/webhooks/deliveries')).deliveries,
  adminStats: async () => (await apiJson<{ stats: AdminStats }>('/api/admin/stats')).stats,
};

/** Leaves the app for a Stripe page (Checkout or the billing portal); a seam tests can replace. */
export const externalNavigation = {
  go(url: string) {
    window.location.assign(url);
  },
};

/** Dashboard numbers change outside the page (API calls from elsewhere): read them again whenever a card mounts or the tab regains focus. */
export const FRESH = { staleTime: 0, refetchOnWindowFocus: true } as const;
