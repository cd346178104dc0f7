import { Playground } from './playground.tsx';
import { PLAYGROUNDS } from './playground-definitions.ts';

// One route component per converter page (router.tsx), all the same playground with their definition.
export const HtmlPlaygroundPage = () => <Playground definition={PLAYGROUNDS.html} />;
export const SvgPlaygroundPage = () => <Playground definition={PLAYGROUNDS.svg} />;
export const ChartPlaygroundPage = () => <Playground definition={PLAYGROUNDS.chart} />;
export const ChartJsPlaygroundPage = () => <Playground definition={PLAYGROUNDS.chartjs} />;
export const D3PlaygroundPage = () => <Playground definition={PLAYGROUNDS.d3} />;
export const HighchartsPlaygroundPage = () => <Playground definition={PLAYGROUNDS.highcharts} />;
export const CodePlaygroundPage = () => <Playground definition={PLAYGROUNDS.code} />;
export const ScreenshotPlaygroundPage = () => <Playground definition={PLAYGROUNDS.screenshot} />;
