import { CompatHeads } from '@render/contracts/route-heads';
import { useTranslation } from 'react-i18next';
import { apiKeyPost, RequestPanel } from '../../components/render-form/request-panel.tsx';
import { useOrigin } from '../../lib/use-origin.ts';
import { parsedTyped } from './typed-json.ts';

type Body = Record<string, unknown>;

/**
 * A Chart.js playground's chart as a QuickChart-compatible call (`POST /chart`, issue 29): the same config
 * Chart.js takes, drawn with Chart.js 4 (`version: "4"`, as chart-to-img draws it), for readers moving
 * QuickChart code here. Nothing when the playground's JSON does not parse yet.
 */
export function QuickChartSnippet({ body, apiKey }: { body: Body; apiKey?: string }) {
  const { t } = useTranslation('playground');
  const origin = useOrigin();
  if (body.library !== 'chartjs') return null;
  const data = parsedTyped(body.chartData);
  const options = parsedTyped(body.chartOptions);
  if (data === undefined || options === undefined) return null;
  const chart = { type: body.chartType ?? 'bar', data, ...(options ? { options } : {}) };
  return (
    <RequestPanel
      title={t('quickchartTitle')}
      request={apiKeyPost(
        origin,
        CompatHeads.quickChartPost.url,
        { chart, version: '4', width: body.width ?? 500, height: body.height ?? 300, devicePixelRatio: 1 },
        apiKey,
        'chart.png',
      )}
    />
  );
}
