import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { PlanCards } from './plan-cards.tsx';

export function PricingPage() {
  const { t } = useTranslation('pricing');
  usePageTitle(t('title'));
  const faq = t('faq', { returnObjects: true }) as Array<{ q: string; a: string }>;
  return (
    <div className="mx-auto max-w-6xl px-4 py-16 sm:px-6">
      <header className="mx-auto max-w-2xl text-center">
        <h1 className="text-4xl font-semibold tracking-tight text-zinc-900">{t('title')}</h1>
        <p className="mt-4 text-lg text-zinc-600">{t('subtitle')}</p>
      </header>
      <div className="mt-12">
        <PlanCards heading="h2" />
      </div>
      <section className="mx-auto mt-16 max-w-3xl" aria-labelledby="pricing-faq">
        <h2 id="pricing-faq" className="text-2xl font-semibold text-zinc-900">
          {t('faqTitle')}
        </h2>
        <dl className="mt-6 divide-y divide-zinc-200">
          {faq.map((item) => (
            <div key={item.q} className="py-4">
              <dt className="font-medium text-zinc-900">{item.q}</dt>
              <dd className="mt-1.5 text-sm text-zinc-600">{item.a}</dd>
            </div>
          ))}
        </dl>
      </section>
    </div>
  );
}
