import { useTranslation } from 'react-i18next';
import { launchPeriodOn, usePlanLimits } from '../../lib/plan-limits.ts';

/**
 * The Authentication tab's limits: the numbers from GET /api/limits (so they are the ones in force, launch
 * period included), and the headers every answer carries. Without an answer only the headers are described.
 */
export function LimitsDoc() {
  const { t, i18n } = useTranslation('docs');
  const { data: limits } = usePlanLimits();
  const n = (value: number) => new Intl.NumberFormat(i18n.language).format(value);
  return (
    <section aria-labelledby="docs-limits" className="space-y-3" data-testid="docs-limits">
      <h3 id="docs-limits" className="font-semibold text-zinc-900">
        {t('limits.title')}
      </h3>
      {limits && (
        <>
          <p>
            {t('limits.anonymous', {
              perMinute: n(limits.anonymous.perMinute),
              perDay: n(limits.anonymous.perDay),
              inFlight: n(limits.anonymous.maxInFlight),
              maxPixels: n(limits.anonymous.maxPixels),
            })}
          </p>
          <p>
            {launchPeriodOn(limits) || limits.plans.free.credits === null
              ? t('limits.launch', { freeInFlight: n(limits.plans.free.maxInFlight), proInFlight: n(limits.plans.pro.maxInFlight) })
              : t('limits.plans', {
                  credits: n(limits.plans.free.credits),
                  days: n(limits.plans.free.windowDays),
                  freeInFlight: n(limits.plans.free.maxInFlight),
                  proInFlight: n(limits.plans.pro.maxInFlight),
                })}
          </p>
        </>
      )}
      <p>{t('limits.headers')}</p>
    </section>
  );
}
