import { Link } from '@tanstack/react-router';
import { BarChart3, Braces, Camera, Code2, FileCode2, Gauge, LayoutTemplate, ShieldCheck } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { buttonClass } from '../../components/ui/button.tsx';
import { launchPeriodOn, usePlanLimits } from '../../lib/plan-limits.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { PlanCards } from '../pricing/plan-cards.tsx';
import { LiveDemo } from './live-demo.tsx';

const FEATURES = [
  { key: 'html', Icon: FileCode2 },
  { key: 'svg', Icon: Braces },
  { key: 'charts', Icon: BarChart3 },
  { key: 'code', Icon: Code2 },
  { key: 'screenshots', Icon: Camera },
  { key: 'templates', Icon: LayoutTemplate },
  { key: 'speed', Icon: Gauge },
  { key: 'safety', Icon: ShieldCheck },
] as const;

type Item = { title: string; body: string };
type Testimonial = { quote: string; name: string; role: string };

function Section({ id, title, subtitle, children }: { id: string; title: string; subtitle?: string; children: React.ReactNode }) {
  return (
    <section aria-labelledby={id} className="mx-auto max-w-6xl px-4 py-16 sm:px-6">
      <h2 id={id} className="text-center text-3xl font-semibold tracking-tight text-zinc-900">
        {title}
      </h2>
      {subtitle && <p className="mx-auto mt-3 max-w-2xl text-center text-zinc-600">{subtitle}</p>}
      <div className="mt-10">{children}</div>
    </section>
  );
}

function Hero() {
  const { t } = useTranslation('landing');
  const { data: limits } = usePlanLimits();
  return (
    <section className="border-b border-zinc-200 bg-gradient-to-b from-accent-50/60 to-white">
      <div className="mx-auto grid max-w-6xl items-center gap-10 px-4 py-16 sm:px-6 lg:grid-cols-2 lg:py-20">
        <div>
          <p className="text-sm font-semibold text-accent-700">{t('hero.eyebrow')}</p>
          <h1 className="mt-3 text-4xl font-semibold tracking-tight text-zinc-900 sm:text-5xl">{t('hero.title')}</h1>
          <p className="mt-5 text-lg text-zinc-600">{t('hero.subtitle')}</p>
          <div className="mt-8 flex flex-wrap gap-3">
            <Link to="/signup" className={buttonClass('primary', 'px-5 py-2.5')}>
              {t('hero.primaryCta')}
            </Link>
            <Link to="/docs" className={buttonClass('secondary', 'px-5 py-2.5')}>
              {t('hero.secondaryCta')}
            </Link>
          </div>
          {launchPeriodOn(limits) && (
            <p className="mt-4 text-sm text-zinc-600" data-testid="hero-launch-note">
              {t('hero.launchNote')}
            </p>
          )}
        </div>
        <LiveDemo />
      </div>
    </section>
  );
}

function Features() {
  const { t } = useTranslation('landing');
  return (
    <Section id="features" title={t('features.title')} subtitle={t('features.subtitle')}>
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {FEATURES.map(({ key, Icon }) => (
          <li key={key} className="rounded-xl border border-zinc-200 bg-white p-5">
            <Icon className="size-6 text-accent-600" aria-hidden />
            <h3 className="mt-3 font-semibold text-zinc-900">{t(`features.items.${key}.title`)}</h3>
            <p className="mt-1.5 text-sm text-zinc-600">{t(`features.items.${key}.body`)}</p>
          </li>
        ))}
      </ul>
    </Section>
  );
}

function HowItWorks() {
  const { t } = useTranslation('landing');
  const steps = t('how.steps', { returnObjects: true }) as Item[];
  return (
    <Section id="how" title={t('how.title')}>
      <ol className="grid gap-6 md:grid-cols-3">
        {steps.map((step, index) => (
          <li key={step.title} className="rounded-xl border border-zinc-200 bg-white p-6">
            <span className="flex size-8 items-center justify-center rounded-full bg-accent-600 text-sm font-semibold text-white">
              {index + 1}
            </span>
            <h3 className="mt-4 font-semibold text-zinc-900">{step.title}</h3>
            <p className="mt-1.5 text-sm text-zinc-600">{step.body}</p>
          </li>
        ))}
      </ol>
      <pre className="mx-auto mt-8 max-w-3xl overflow-x-auto rounded-xl bg-zinc-950 p-5 font-mono text-sm text-zinc-100">
        <code>{t('how.example')}</code>
      </pre>
    </Section>
  );
}

function UseCases() {
  const { t } = useTranslation('landing');
  const cases = t('useCases.items', { returnObjects: true }) as Item[];
  return (
    <Section id="use-cases" title={t('useCases.title')}>
      <ul className="grid gap-4 md:grid-cols-2 lg:grid-cols-3">
        {cases.map((item) => (
          <li key={item.title} className="rounded-xl border border-zinc-200 bg-zinc-50 p-5">
            <h3 className="font-semibold text-zinc-900">{item.title}</h3>
            <p className="mt-1.5 text-sm text-zinc-600">{item.body}</p>
          </li>
        ))}
      </ul>
    </Section>
  );
}

function Testimonials() {
  const { t } = useTranslation('landing');
  const quotes = t('testimonials.items', { returnObjects: true }) as Testimonial[];
  return (
    <Section id="testimonials" title={t('testimonials.title')}>
      <ul className="grid gap-4 md:grid-cols-3">
        {quotes.map((quote) => (
          <li key={quote.name}>
            <figure className="h-full rounded-xl border border-zinc-200 bg-white p-6">
              <blockquote className="text-zinc-800">“{quote.quote}”</blockquote>
              <figcaption className="mt-4 text-sm">
                <span className="font-semibold text-zinc-900">{quote.name}</span>
                <span className="block text-zinc-600">{quote.role}</span>
              </figcaption>
            </figure>
          </li>
        ))}
      </ul>
    </Section>
  );
}

function Faq() {
  const { t } = useTranslation('landing');
  const items = t('faq.items', { returnObjects: true }) as Array<{ q: string; a: string }>;
  return (
    <Section id="faq" title={t('faq.title')}>
      <div className="mx-auto max-w-3xl divide-y divide-zinc-200 rounded-xl border border-zinc-200 bg-white">
        {items.map((item) => (
          <details key={item.q} className="group px-5 py-4">
            <summary className="cursor-pointer list-none font-medium text-zinc-900 marker:hidden">
              <span className="flex items-center justify-between gap-4">
                {item.q}
                <span className="text-zinc-500 transition-transform group-open:rotate-45" aria-hidden>
                  +
                </span>
              </span>
            </summary>
            <p className="mt-2 text-sm text-zinc-600">{item.a}</p>
          </details>
        ))}
      </div>
    </Section>
  );
}

function CallToAction() {
  const { t } = useTranslation('landing');
  return (
    <section className="px-4 pb-20 sm:px-6">
      <div className="mx-auto max-w-4xl rounded-2xl bg-zinc-900 px-6 py-12 text-center text-white sm:px-12">
        <h2 className="text-3xl font-semibold tracking-tight">{t('cta.title')}</h2>
        <p className="mx-auto mt-3 max-w-xl text-zinc-300">{t('cta.body')}</p>
        <div className="mt-8 flex flex-wrap justify-center gap-3">
          <Link to="/signup" className={buttonClass('primary', 'px-5 py-2.5')}>
            {t('cta.primary')}
          </Link>
          <Link
            to="/html-to-image"
            className="inline-flex items-center rounded-md border border-zinc-600 px-5 py-2.5 text-sm font-medium hover:bg-zinc-800"
          >
            {t('cta.secondary')}
          </Link>
        </div>
      </div>
    </section>
  );
}

export function LandingPage() {
  const { t } = useTranslation('landing');
  usePageTitle(t('title'));
  return (
    <>
      <Hero />
      <Features />
      <HowItWorks />
      <UseCases />
      <Section id="pricing" title={t('pricingTitle')}>
        <PlanCards />
      </Section>
      <Testimonials />
      <Faq />
      <CallToAction />
    </>
  );
}
