/**
 * The data shapes a D3 chart is drawn from (the simple shape documented in packages/contracts/src/chart.ts)
 * and what its parts share once the title and legend are placed: read by d3.ts and d3-cartesian.ts alike.
 */
export interface D3Point {
  x?: unknown;
  y?: unknown;
  r?: unknown;
}
export interface D3Dataset {
  label?: unknown;
  /** Values per category, or points for a scatter chart. */
  data: unknown[];
  color?: string;
}
export interface D3Data {
  labels?: unknown[];
  datasets: D3Dataset[];
}
export interface D3Options {
  title?: string;
  xAxisLabel?: string;
  yAxisLabel?: string;
  legend?: boolean;
  stacked?: boolean;
  horizontal?: boolean;
  curve?: string;
  innerRadius?: number;
  showValues?: boolean;
  grid?: boolean;
  fontSize?: number;
  fontFamily?: string;
  textColor?: string;
}

/** What the chart's parts share once the title and legend are placed. */
export interface D3Frame {
  /** Where the plot may start, below the title and legend. */
  top: number;
  labels: string[];
  palette: readonly string[];
  colorOf: (index: number) => string;
  fontSize: number;
  textColor: string;
}
