import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { BarChart3, Gauge, History } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { WebMessages } from '../../i18n/message-ids.ts';
import { useMessageText } from '../../i18n/use-message.ts';
import { BarChart } from './bar-chart.tsx';
import { dashboardApi, dashboardKeys, FRESH, type RecentRender } from './dashboard-api.ts';
import { Badge, Card, ErrorNote, LoadingBlock, Stat } from './dashboard-ui.tsx';
import { formatBytes, formatDate, formatDateTime, formatDay, formatNumber } from './format.ts';

/** The text docs/spec/errors.md gives any failed statistics call. */
export const STATS_ERROR = WebMessages.statsLoadFailed;

/** docs/spec/entities.md usage statistics over the rolling window: total credits, used, limit, remaining ("Unlimited" on Pro). */
export function UsageCard({ compact = false, title, keyId }: { compact?: boolean; title?: string; keyId?: string }) {
  const { t, i18n } = useTranslation('dashboard');
  const message = useMessageText();
  const usage = useQuery({
    queryKey: dashboardKeys.filtered(dashboardKeys.usage, keyId),
    queryFn: () => dashboardApi.usage(keyId),
    ...FRESH,
  });
  const n = (value: number | null) => (value === null ? t('usage.unlimited') : formatNumber(value, i18n.language));
  const data = usage.data;
  return (
    <Card
      title={title ?? t('usage.title')}
      icon={<Gauge className="size-4 text-zinc-500" aria-hidden />}
      testId="usage-card"
      action={
        compact ? (
          <Link to={'/dashboard/usage' as '/'} className="text-sm font-medium text-accent-700 hover:underline">
            {t('usage.details')}
          </Link>
        ) : undefined
      }
    >
      {usage.isPending ? (
        <LoadingBlock label={t('loading')} />
      ) : usage.isError ? (
        <ErrorNote testId="usage-error">{message(STATS_ERROR)}</ErrorNote>
      ) : (
        data && (
          <>
            <dl className={`grid grid-cols-2 gap-x-4 gap-y-5 ${compact ? 'sm:grid-cols-4 xl:grid-cols-2' : 'sm:grid-cols-4'}`}>
              <Stat
                label={t('usage.totalCredits')}
                value={n(data.totalCredits)}
                size={data.totalCredits === null ? 'md' : 'lg'}
                testId="usage-total"
              />
              <Stat label={t('usage.used')} value={n(data.used)} testId="usage-used" />
              <Stat label={t('usage.limit')} value={n(data.limit)} size={data.limit === null ? 'md' : 'lg'} testId="usage-limit" />
              <Stat
                label={t('usage.remaining')}
                value={n(data.remaining)}
                size={data.remaining === null ? 'md' : 'lg'}
                testId="usage-remaining"
              />
            </dl>
            {data.limit !== null && data.limit > 0 && (
              <div className="mt-5">
                <div
                  className="h-2 overflow-hidden rounded-full bg-zinc-100"
                  role="progressbar"
                  aria-label={t('usage.used')}
                  aria-valuemin={0}
                  aria-valuemax={data.limit}
                  aria-valuenow={Math.min(data.used, data.limit)}
                >
                  <div
                    className={`h-full rounded-full ${data.used >= data.limit ? 'bg-red-600' : 'bg-accent-600'}`}
                    style={{ width: `${Math.min(100, (data.used / data.limit) * 100)}%` }}
                  />
                </div>
              </div>
            )}
            <p className="mt-4 text-xs text-zinc-600">
              {t('usage.window', { days: data.window.days, since: formatDate(data.window.since, i18n.language) })}
            </p>
          </>
        )
      )}
    </Card>
  );
}

/** Renders per day over the window, as an accessible bar chart. */
export function UsageChartCard({ keyId }: { keyId?: string } = {}) {
  const { t, i18n } = useTranslation('dashboard');
  const message = useMessageText();
  const daily = useQuery({
    queryKey: dashboardKeys.filtered(dashboardKeys.usageDaily, keyId),
    queryFn: () => dashboardApi.usageDaily(keyId),
    ...FRESH,
  });
  const lng = i18n.language;
  const days = daily.data?.days ?? [];
  const total = days.reduce((sum, d) => sum + d.renders, 0);
  const busiest = days.reduce<(typeof days)[number] | undefined>((best, d) => (!best || d.renders > best.renders ? d : best), undefined);
  return (
    <Card title={t('usage.chartTitle')} icon={<BarChart3 className="size-4 text-zinc-500" aria-hidden />} testId="usage-chart-card">
      {daily.isPending ? (
        <LoadingBlock label={t('loading')} lines={4} />
      ) : daily.isError ? (
        <ErrorNote testId="usage-chart-error">{message(STATS_ERROR)}</ErrorNote>
      ) : (
        <>
          <p className="mb-3 text-sm text-zinc-600" data-testid="usage-chart-total">
            {t('usage.chartTotal', { count: total, formatted: formatNumber(total, lng) })}
          </p>
          <BarChart
            testId="usage-chart"
            title={t('usage.chartTitle')}
            description={t('usage.chartDesc', {
              count: days.length,
              total: formatNumber(total, lng),
              busiest: busiest && busiest.renders > 0 ? formatDay(busiest.date, lng, 'long') : '—',
            })}
            data={days.map((d) => ({
              label: formatDay(d.date, lng),
              title: t('usage.barTitle', {
                date: formatDay(d.date, lng, 'long'),
                renders: t('usage.renders', { count: d.renders, formatted: formatNumber(d.renders, lng) }),
              }),
              value: d.renders,
            }))}
            seriesLabel={t('usage.chartLegend')}
            xAxisLabel={t('usage.chartX')}
            yAxisLabel={t('usage.chartY')}
            formatValue={(v) => formatNumber(v, lng)}
          />
        </>
      )}
    </Card>
  );
}

const STATUS_TONES: Record<RecentRender['status'], 'success' | 'warning' | 'neutral'> = {
  charged: 'success',
  released: 'neutral',
  reserved: 'neutral',
};

/** Phones: one block per render instead of a six-column table. */
function RenderItem({ render }: { render: RecentRender }) {
  const { t, i18n } = useTranslation('dashboard');
  const lng = i18n.language;
  const details = [
    t(`kinds.${render.kind}`, { defaultValue: render.kind }),
    render.format.toUpperCase(),
    render.sizeBytes === null ? null : formatBytes(render.sizeBytes, lng),
    render.renderMs === null ? null : t('recent.ms', { value: formatNumber(render.renderMs, lng) }),
  ].filter(Boolean);
  return (
    <li className="py-2.5 first:pt-0 last:pb-0" data-testid="recent-render-compact">
      <div className="flex items-center justify-between gap-2">
        <span className="text-sm text-zinc-700">{formatDateTime(render.createdAt, lng)}</span>
        <Badge tone={STATUS_TONES[render.status] ?? 'neutral'}>
          {t(`recent.statuses.${render.status}`, { defaultValue: render.status })}
        </Badge>
      </div>
      <p className="mt-0.5 text-sm font-medium text-zinc-900">{details.join(' · ')}</p>
    </li>
  );
}

function RenderRow({ render }: { render: RecentRender }) {
  const { t, i18n } = useTranslation('dashboard');
  const lng = i18n.language;
  const cell = 'whitespace-nowrap px-3 py-2.5';
  return (
    <tr className="border-t border-zinc-100" data-testid="recent-render">
      <td className={`${cell} pl-0 text-zinc-700`}>{formatDateTime(render.createdAt, lng)}</td>
      <td className={`${cell} font-medium text-zinc-900`}>{t(`kinds.${render.kind}`, { defaultValue: render.kind })}</td>
      <td className={`${cell} uppercase text-zinc-700`}>{render.format}</td>
      <td className={`${cell} text-right tabular-nums text-zinc-700`}>
        {render.sizeBytes === null ? '—' : formatBytes(render.sizeBytes, lng)}
      </td>
      <td className={`${cell} text-right tabular-nums text-zinc-700`}>
        {render.renderMs === null ? '—' : t('recent.ms', { value: formatNumber(render.renderMs, lng) })}
      </td>
      <td className={`${cell} pr-0`}>
        <Badge tone={STATUS_TONES[render.status] ?? 'neutral'}>
          {t(`recent.statuses.${render.status}`, { defaultValue: render.status })}
        </Badge>
      </td>
    </tr>
  );
}

/** The most recent renders made with the account: time, kind, format, size, render time, status. */
export function RecentRendersCard({ keyId }: { keyId?: string } = {}) {
  const { t } = useTranslation('dashboard');
  const message = useMessageText();
  const recent = useQuery({
    queryKey: dashboardKeys.filtered(dashboardKeys.recent, keyId),
    queryFn: () => dashboardApi.recentRenders(undefined, keyId),
    ...FRESH,
  });
  const head = 'whitespace-nowrap px-3 pb-2 text-xs font-medium uppercase tracking-wide text-zinc-600';
  return (
    <Card title={t('recent.title')} icon={<History className="size-4 text-zinc-500" aria-hidden />} testId="recent-renders">
      {recent.isPending ? (
        <LoadingBlock label={t('loading')} lines={4} />
      ) : recent.isError ? (
        <ErrorNote>{message(STATS_ERROR)}</ErrorNote>
      ) : recent.data.length === 0 ? (
        <p className="text-sm text-zinc-600">
          {t('recent.empty')}{' '}
          <Link to="/html-to-image" className="font-medium text-accent-700 hover:underline">
            {t('recent.emptyAction')}
          </Link>
        </p>
      ) : (
        <>
          <ul className="divide-y divide-zinc-100 sm:hidden">
            {recent.data.map((render) => (
              <RenderItem key={render.id} render={render} />
            ))}
          </ul>
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (axe) */}
          <section className="-mx-1 hidden overflow-x-auto px-1 sm:block" tabIndex={0} aria-label={t('recent.title')}>
            <table className="w-full text-left text-sm">
              <thead>
                <tr>
                  <th scope="col" className={`${head} pl-0`}>
                    {t('recent.time')}
                  </th>
                  <th scope="col" className={head}>
                    {t('recent.kind')}
                  </th>
                  <th scope="col" className={head}>
                    {t('recent.format')}
                  </th>
                  <th scope="col" className={`${head} text-right`}>
                    {t('recent.size')}
                  </th>
                  <th scope="col" className={`${head} text-right`}>
                    {t('recent.renderTime')}
                  </th>
                  <th scope="col" className={`${head} pr-0`}>
                    {t('recent.status')}
                  </th>
                </tr>
              </thead>
              <tbody>
                {recent.data.map((render) => (
                  <RenderRow key={render.id} render={render} />
                ))}
              </tbody>
            </table>
          </section>
        </>
      )}
    </Card>
  );
}
