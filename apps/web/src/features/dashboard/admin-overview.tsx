import { useQuery } from '@tanstack/react-query';
import { Activity, Globe, Users } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useMessageText } from '../../i18n/use-message.ts';
import { ApiError } from '../../lib/api-client.ts';
import { ForbiddenPage } from '../errors/error-page.tsx';
import { BarChart } from './bar-chart.tsx';
import { type AdminStats, dashboardApi, dashboardKeys, FRESH } from './dashboard-api.ts';
import { Card, ErrorNote, LoadingBlock, Stat } from './dashboard-ui.tsx';
import { formatNumber } from './format.ts';
import { STATS_ERROR } from './usage-cards.tsx';

const WINDOWS = ['last24h', 'last7d', 'last30d'] as const;

function WindowChart({ title, counts, series }: { title: string; counts: AdminStats['generations']; series: string }) {
  const { t, i18n } = useTranslation('dashboard');
  const lng = i18n.language;
  const data = WINDOWS.map((w) => ({
    label: t(`admin.windows.${w}`),
    title: t('admin.barTitle', { window: t(`admin.windows.${w}`), value: formatNumber(counts[w], lng) }),
    value: counts[w],
  }));
  return (
    <BarChart
      title={title}
      description={t('admin.chartDesc', {
        series,
        day: formatNumber(counts.last24h, lng),
        week: formatNumber(counts.last7d, lng),
        month: formatNumber(counts.last30d, lng),
      })}
      data={data}
      seriesLabel={series}
      xAxisLabel={t('admin.chartX')}
      yAxisLabel={t('admin.chartY')}
      formatValue={(v) => formatNumber(v, lng)}
      height={220}
    />
  );
}

/** docs/spec/screens.md, entities.md admin dashboard: the platform overview (users, generations, activity, new users). */
export function AdminOverview() {
  const { t, i18n } = useTranslation('dashboard');
  const message = useMessageText();
  const stats = useQuery({ queryKey: dashboardKeys.adminStats, queryFn: dashboardApi.adminStats, ...FRESH });
  const lng = i18n.language;
  if (stats.error instanceof ApiError && stats.error.status === 403) return <ForbiddenPage />;
  if (stats.isPending)
    return (
      <Card title={t('admin.title')}>
        <LoadingBlock label={t('loading')} lines={4} />
      </Card>
    );
  if (stats.isError)
    return (
      <Card title={t('admin.title')}>
        <ErrorNote testId="admin-error">{message(STATS_ERROR)}</ErrorNote>
      </Card>
    );
  const s = stats.data;
  const n = (value: number) => formatNumber(value, lng);
  return (
    <div className="space-y-6" data-testid="admin-overview">
      <Card title={t('admin.title')} icon={<Globe className="size-4 text-zinc-500" aria-hidden />}>
        <dl className="grid grid-cols-2 gap-x-4 gap-y-6 md:grid-cols-4">
          <Stat label={t('admin.totalUsers')} value={n(s.totalUsers)} testId="admin-total-users" />
          <Stat label={t('admin.totalGenerations')} value={n(s.totalGenerations)} testId="admin-total-generations" />
          <Stat label={t('admin.generations24h')} value={n(s.generations.last24h)} testId="admin-generations-24h" />
          <Stat label={t('admin.newUsers30d')} value={n(s.newUsers.last30d)} testId="admin-new-users-30d" />
        </dl>
      </Card>
      <div className="grid gap-6 xl:grid-cols-2">
        <Card title={t('admin.activityTitle')} icon={<Activity className="size-4 text-zinc-500" aria-hidden />} testId="admin-activity">
          <dl className="mb-4 grid grid-cols-3 gap-3">
            {WINDOWS.map((w) => (
              <Stat key={w} label={t(`admin.windows.${w}`)} value={n(s.generations[w])} testId={`admin-generations-${w}`} />
            ))}
          </dl>
          <WindowChart title={t('admin.activityTitle')} counts={s.generations} series={t('admin.generationsSeries')} />
        </Card>
        <Card title={t('admin.newUsersTitle')} icon={<Users className="size-4 text-zinc-500" aria-hidden />} testId="admin-new-users">
          <dl className="mb-4 grid grid-cols-3 gap-3">
            {WINDOWS.map((w) => (
              <Stat key={w} label={t(`admin.windows.${w}`)} value={n(s.newUsers[w])} testId={`admin-new-users-${w}`} />
            ))}
          </dl>
          <WindowChart title={t('admin.newUsersTitle')} counts={s.newUsers} series={t('admin.newUsersSeries')} />
        </Card>
      </div>
    </div>
  );
}
