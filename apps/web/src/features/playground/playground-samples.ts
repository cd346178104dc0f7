import { RenderHeads } from '@render/contracts/route-heads';

/** Starting content for each playground: small, realistic, and good-looking when rendered. */
export const HTML_SAMPLE = `<div style="font-family: system-ui, sans-serif; height: 100%; box-sizing: border-box;
  padding: 56px; background: linear-gradient(135deg, #eef2ff, #e0f2fe); color: #18181b;">
  <p style="margin: 0; font-size: 20px; color: #4f46e5; font-weight: 600;">Weekly report</p>
  <h1 style="margin: 12px 0 24px; font-size: 52px; line-height: 1.1;">Renders up 38% this week</h1>
  <div style="display: flex; gap: 16px;">
    <div style="flex: 1; background: white; border-radius: 12px; padding: 20px;">
      <div style="font-size: 14px; color: #71717a;">Images</div>
      <div style="font-size: 36px; font-weight: 700;">128,402</div>
    </div>
    <div style="flex: 1; background: white; border-radius: 12px; padding: 20px;">
      <div style="font-size: 14px; color: #71717a;">Median render</div>
      <div style="font-size: 36px; font-weight: 700;">21 ms</div>
    </div>
  </div>
</div>`;

export const SVG_SAMPLE = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 800 600">
  <defs>
    <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#312e81"/>
      <stop offset="1" stop-color="#0ea5e9"/>
    </linearGradient>
  </defs>
  <rect width="800" height="600" fill="url(#sky)"/>
  <circle cx="600" cy="160" r="70" fill="#fde68a"/>
  <path d="M0 460 L180 300 L320 420 L470 260 L800 480 L800 600 L0 600 Z" fill="#1e1b4b"/>
  <path d="M0 520 L220 400 L420 500 L620 380 L800 520 L800 600 L0 600 Z" fill="#312e81" opacity="0.9"/>
  <text x="48" y="96" font-family="sans-serif" font-size="44" font-weight="700" fill="#fff">SVG to image</text>
</svg>`;

export const CODE_SAMPLE = `interface RenderRequest {
  html: string;
  width?: number;
  height?: number;
}

export async function render(request: RenderRequest): Promise<Blob> {
  const response = await fetch('${RenderHeads.html.url}', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(request),
  });
  if (!response.ok) throw new Error((await response.json()).message);
  return response.blob();
}`;

const json = (value: unknown) => JSON.stringify(value, null, 2);

export const CHART_SAMPLES = {
  chartjs: {
    chartType: 'bar',
    chartData: json({
      labels: ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun'],
      datasets: [
        { label: 'Signups', data: [120, 190, 170, 240, 280, 310], backgroundColor: '#6366f1' },
        { label: 'Upgrades', data: [12, 21, 18, 30, 34, 41], backgroundColor: '#0ea5e9' },
      ],
    }),
    chartOptions: json({ plugins: { title: { display: true, text: 'Growth, first half' } } }),
  },
  d3: {
    chartType: 'line',
    chartData: json({
      labels: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'],
      datasets: [
        { label: 'p50 (ms)', data: [21, 20, 22, 19, 21, 18, 18] },
        { label: 'p95 (ms)', data: [48, 52, 47, 45, 50, 41, 40] },
      ],
    }),
    chartOptions: json({ title: 'Render time this week', xAxisLabel: 'Day', yAxisLabel: 'Milliseconds', curve: 'monotone' }),
  },
  highcharts: {
    chartType: 'column',
    chartData: json([
      { name: 'HTML', data: [43, 52, 57, 69] },
      { name: 'Charts', data: [24, 29, 33, 41] },
      { name: 'Screenshots', data: [11, 17, 16, 19] },
    ]),
    chartOptions: json({ title: { text: 'Renders per quarter (thousands)' }, xAxis: { categories: ['Q1', 'Q2', 'Q3', 'Q4'] } }),
  },
} as const;
