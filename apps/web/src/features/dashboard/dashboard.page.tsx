import { useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Sparkles } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { buttonClass } from '../../components/ui/button.tsx';
import { launchPeriodOn, usePlanLimits } from '../../lib/plan-limits.ts';
import { useSession, useSessionStore } from '../../lib/session/session.context.tsx';
import { ForbiddenPage } from '../errors/error-page.tsx';
import { AdminOverview } from './admin-overview.tsx';
import { ApiKeyCard, ApiKeyUsageCard } from './api-key-card.tsx';
import { BillingCard } from './billing-card.tsx';
import { DashboardShell } from './dashboard-shell.tsx';
import { NamedKeysCard, UsageKeyFilter } from './named-keys-card.tsx';
import { ProfileCard } from './profile-card.tsx';
import { RecentRendersCard, UsageCard, UsageChartCard } from './usage-cards.tsx';
import { useGreeting } from './use-greeting.ts';
import { WebhooksCard } from './webhooks-card.tsx';

/**
 * docs/spec/screens.md dashboard, one page per section of the left navigation: overview (profile, usage, key),
 * API key, usage (numbers, renders per day, recent renders), billing, and the admin overview.
 */
export function DashboardPage() {
  const { t } = useTranslation('dashboard');
  const session = useSession();
  const store = useSessionStore();
  const queryClient = useQueryClient();
  const signedIn = session.status === 'signedIn';
  const greeting = useGreeting(session.user);
  // Back from Stripe Checkout (success_url …/dashboard?checkout=success): the plan may have changed.
  const handled = useRef(false);
  useEffect(() => {
    if (!signedIn || handled.current) return;
    handled.current = true;
    const checkout = new URLSearchParams(window.location.search).get('checkout');
    if (checkout === 'cancelled') toast.info(t('billing.checkoutCancelled'), { id: 'checkout-cancelled' });
    if (checkout !== 'success') return;
    toast.success(t('billing.checkoutSuccess'), { id: 'checkout-success' });
    void store.reloadUser().catch(() => undefined);
    void queryClient.invalidateQueries({ queryKey: ['dashboard'] });
  }, [signedIn, store, queryClient, t]);
  return (
    <DashboardShell title={t('title')} subtitle={greeting}>
      {(user) => (
        <div className="grid gap-6 xl:grid-cols-2">
          {user.plan === 'free' && <UpgradeBanner />}
          <div className="space-y-6">
            <UsageCard compact />
            <ApiKeyCard />
          </div>
          <ProfileCard user={user} />
        </div>
      )}
    </DashboardShell>
  );
}

/** The way to Pro from the overview, for Free accounts: the billing page holds the upgrade itself. */
function UpgradeBanner() {
  const { t } = useTranslation('dashboard');
  const { data: limits } = usePlanLimits();
  return (
    <section
      className="flex flex-wrap items-center justify-between gap-4 rounded-lg border border-accent-100 bg-accent-50/50 p-4 sm:p-5 xl:col-span-2"
      data-testid="dashboard-upgrade"
    >
      <div className="min-w-0">
        <h2 className="flex items-center gap-2 font-semibold text-zinc-900">
          <Sparkles className="size-4 text-accent-600" aria-hidden />
          {t('upgradeBanner.title')}
        </h2>
        <p className="mt-1 text-sm text-zinc-700">{launchPeriodOn(limits) ? t('upgradeBanner.bodyLaunch') : t('upgradeBanner.body')}</p>
      </div>
      <Link to="/dashboard/billing" className={buttonClass('primary')}>
        {t('upgradeBanner.action')}
      </Link>
    </section>
  );
}

export function DashboardApiKeyPage() {
  const { t } = useTranslation('dashboard');
  return (
    <DashboardShell title={t('nav.apiKey')} subtitle={t('apiKey.subtitle')}>
      {() => (
        <div className="space-y-6">
          <ApiKeyCard title={t('apiKey.secretTitle')} />
          <NamedKeysCard />
          <ApiKeyUsageCard />
          <WebhooksCard />
        </div>
      )}
    </DashboardShell>
  );
}

export function DashboardUsagePage() {
  const { t } = useTranslation('dashboard');
  // One key's renders, or the account's (undefined): credits stay the account's, so the limit is the same.
  const [keyId, setKeyId] = useState<string | undefined>(undefined);
  return (
    <DashboardShell title={t('nav.usage')} subtitle={t('usage.subtitle')}>
      {() => (
        <div className="space-y-6">
          <UsageKeyFilter value={keyId} onChange={setKeyId} />
          <UsageCard title={t('usage.creditsTitle')} keyId={keyId} />
          <UsageChartCard keyId={keyId} />
          <RecentRendersCard keyId={keyId} />
        </div>
      )}
    </DashboardShell>
  );
}

export function DashboardBillingPage() {
  const { t } = useTranslation('dashboard');
  return (
    <DashboardShell title={t('nav.billing')} subtitle={t('billing.subtitle')}>
      {() => <BillingCard />}
    </DashboardShell>
  );
}

/** Administrators only: anyone else gets the 403 page (the server refuses the call too). */
export function DashboardAdminPage() {
  const { t } = useTranslation('dashboard');
  const session = useSession();
  if (session.status === 'signedIn' && session.user.accountType !== 'administrator') return <ForbiddenPage />;
  return (
    <DashboardShell title={t('nav.admin')} subtitle={t('admin.subtitle')}>
      {() => <AdminOverview />}
    </DashboardShell>
  );
}
