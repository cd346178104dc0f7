import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/**
 * What the chart page inlines right after chart.js, in load order (each UMD build finds the globals of the
 * ones before it): date-fns with every locale (`window.dateFns`, `window.dateFns.locale`), the date-fns
 * adapter for time/timeseries scales (non-bundled build, so it uses that same date-fns and its locales),
 * the annotation plugin (registers itself; draws nothing unless a config has annotations) and the
 * datalabels plugin (`window.ChartDataLabels`, NOT registered: the host attaches it only to charts that ask
 * for labels, see page/chartjs.ts). The fidelity tests load the same files into their reference page.
 */
export function chartJsExtensionFiles(): string[] {
  // Only the packages' entry points are exported; the browser builds sit next to them.
  const dateFnsDir = dirname(require.resolve('date-fns/package.json'));
  const adapterDir = dirname(require.resolve('chartjs-adapter-date-fns'));
  const annotationDir = dirname(require.resolve('chartjs-plugin-annotation'));
  const datalabelsDir = dirname(require.resolve('chartjs-plugin-datalabels'));
  return [
    join(dateFnsDir, 'cdn.min.js'),
    join(dateFnsDir, 'locale', 'cdn.min.js'),
    join(adapterDir, 'chartjs-adapter-date-fns.min.js'),
    join(annotationDir, 'chartjs-plugin-annotation.min.js'),
    join(datalabelsDir, 'chartjs-plugin-datalabels.min.js'),
  ];
}

/** The Chart.js UMD bundle (chart.js exports only its ESM entry; the bundle sits next to it). */
export const chartJsFile = (): string => join(dirname(require.resolve('chart.js')), 'chart.umd.min.js');
