import { Link } from '@tanstack/react-router';
import { Check } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { buttonClass } from '../../components/ui/button.tsx';
import { launchPeriodOn, usePlanLimits } from '../../lib/plan-limits.ts';
import { useSession } from '../../lib/session/session.context.tsx';
import { FREE_CREDITS_PER_30_DAYS, formatPrice, PRO_MONTHLY_PRICE } from './plans.ts';

type HeadingLevel = 'h2' | 'h3';

interface PlanCardProps {
  plan: 'free' | 'pro';
  price: string;
  highlighted?: boolean;
  /** The plan name's heading: h2 where the cards are a page's first section (pricing), h3 under a section's h2. */
  heading: HeadingLevel;
}

function PlanCard({ plan, price, highlighted, heading: Heading }: PlanCardProps) {
  const { t } = useTranslation('pricing');
  const { data: limits } = usePlanLimits();
  const listed = t(`plans.${plan}.features`, { returnObjects: true }) as string[];
  // The Free plan's credits: unlimited only while the gateway says the launch period is on.
  const credits = launchPeriodOn(limits)
    ? t('plans.free.launchCredits')
    : t('plans.free.credits', { credits: limits?.plans.free.credits ?? FREE_CREDITS_PER_30_DAYS });
  const features = plan === 'free' ? [credits, ...listed] : listed;
  const action = usePlanAction(plan);
  return (
    <div
      className={`flex flex-col rounded-xl border bg-white p-6 ${highlighted ? 'border-accent-600 ring-1 ring-accent-600' : 'border-zinc-200'}`}
      data-testid={`plan-${plan}`}
    >
      <Heading className="text-lg font-semibold text-zinc-900">{t(`plans.${plan}.name`)}</Heading>
      <p className="mt-1 text-sm text-zinc-600">{t(`plans.${plan}.tagline`)}</p>
      <p className="mt-5 flex items-baseline gap-1">
        <span className="text-4xl font-semibold tracking-tight text-zinc-900" data-testid={`price-${plan}`}>
          {price}
        </span>
        <span className="text-sm text-zinc-600">{t('perMonth')}</span>
      </p>
      <ul className="mt-6 flex-1 space-y-2.5">
        {features.map((feature) => (
          <li key={feature} className="flex gap-2 text-sm text-zinc-700">
            <Check className="mt-0.5 size-4 shrink-0 text-accent-600" aria-hidden />
            {feature}
          </li>
        ))}
      </ul>
      <Link to={action.to} className={buttonClass(highlighted ? 'primary' : 'secondary', 'mt-8 w-full')} data-testid={`plan-${plan}-cta`}>
        {action.label}
      </Link>
    </div>
  );
}

/**
 * Where a plan's button leads. Signed out: sign up. Signed in: Pro goes to the upgrade (the billing page,
 * where a Pro account manages its subscription instead), Free to the dashboard the account already has.
 */
function usePlanAction(plan: 'free' | 'pro'): { to: '/signup' | '/dashboard' | '/dashboard/billing'; label: string } {
  const { t } = useTranslation('pricing');
  const session = useSession();
  if (session.status !== 'signedIn') return { to: '/signup', label: t(`plans.${plan}.cta`) };
  if (plan === 'free') return { to: '/dashboard', label: t('plans.free.ctaSignedIn') };
  return { to: '/dashboard/billing', label: session.user.plan === 'pro' ? t('plans.pro.ctaManage') : t('plans.pro.cta') };
}

/** Free and Pro side by side, with the launch-period note while the period is on (docs/spec/product.md, limits.md). */
export function PlanCards({ heading = 'h3' }: { heading?: HeadingLevel }) {
  const { t, i18n } = useTranslation('pricing');
  const { data: limits } = usePlanLimits();
  const language = i18n.resolvedLanguage ?? 'en';
  return (
    <div>
      {launchPeriodOn(limits) && (
        <p
          className="mx-auto mb-8 max-w-2xl rounded-lg border border-accent-100 bg-accent-50 px-4 py-3 text-center text-sm text-accent-800"
          data-testid="launch-note"
        >
          {t('launchNote')}
        </p>
      )}
      <div className="mx-auto grid max-w-3xl gap-6 md:grid-cols-2">
        <PlanCard plan="free" price={formatPrice(0, language)} heading={heading} />
        <PlanCard plan="pro" price={formatPrice(PRO_MONTHLY_PRICE, language)} heading={heading} highlighted />
      </div>
    </div>
  );
}
