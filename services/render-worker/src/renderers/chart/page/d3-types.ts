/**
 * The part of d3 (v7, inlined as a UMD bundle and read from `window.d3`) the chart page uses, typed where
 * the page calls it. d3 ships no types of its own; these are written against what the page does with it.
 */

/** What d3 accepts as an attribute or text value; null removes the attribute. */
export type D3Value = string | number | boolean | null;
type ValueOf<Datum> = D3Value | ((datum: Datum, index: number) => D3Value);

export interface Selection<Datum = unknown> {
  attr(name: string, value: ValueOf<Datum>): this;
  text(value: ValueOf<Datum>): this;
  append(name: string): Selection<Datum>;
  insert(name: string, before: string): Selection<Datum>;
  remove(): this;
  /** The first element (the page never asks an empty selection). */
  node(): SVGGraphicsElement;
  call(draw: (selection: Selection<Datum>) => void): this;
  selectAll<Other = unknown>(selector: string): Selection<Other>;
  data<Other>(data: readonly Other[]): Selection<Other>;
  join(name: string): Selection<Datum>;
  each(visit: (this: Element, datum: Datum) => void): this;
}

export interface LinearScale {
  (value: number): number;
  domain(domain: readonly number[]): LinearScale;
  range(range: readonly number[]): LinearScale;
  nice(count: number): LinearScale;
  ticks(count: number): number[];
  tickFormat(count: number): (value: number) => string;
}

export interface BandScale {
  (value: number): number;
  domain(domain: readonly number[]): BandScale;
  range(range: readonly number[]): BandScale;
  padding(padding: number): BandScale;
  bandwidth(): number;
}

/** A scale the axes and marks place values with (category index or value → pixels). */
export type PositionScale = LinearScale | BandScale;

export interface Axis {
  (selection: Selection): void;
  tickValues(values: readonly number[]): Axis;
  tickFormat(format: (value: number) => string): Axis;
}

/** One stacked layer: per category, the band's [lower, upper] values. */
export type StackLayer = Array<[number, number]>;
export interface Stack {
  keys(keys: readonly number[]): Stack;
  offset(offset: unknown): Stack;
  (rows: ReadonlyArray<Record<number, number>>): StackLayer[];
}

export interface PieArc {
  value: number;
}
export interface Arc {
  (arc: PieArc): string | null;
  innerRadius(radius: number): Arc;
  outerRadius(radius: number): Arc;
  centroid(arc: PieArc): [number, number];
}

/** A d3 curve factory (opaque here: only handed back to d3). */
export type Curve = { readonly __curve: unique symbol };

export interface PathGenerator<Point> {
  (points: readonly Point[]): string | null;
  defined(test: (point: Point) => boolean): this;
  curve(curve: Curve): this;
  x(x: (point: Point) => number): this;
}
export interface LineGenerator<Point> extends PathGenerator<Point> {
  y(y: (point: Point) => number): this;
}
export interface AreaGenerator<Point> extends PathGenerator<Point> {
  y0(y: (point: Point) => number): this;
  y1(y: (point: Point) => number): this;
}

export interface D3 {
  create(name: 'svg'): Selection;
  select(element: Element): Selection;
  range(stop: number): number[];
  sum(values: readonly number[]): number;
  precisionFixed(step: number): number;
  schemeTableau10: readonly string[];
  scaleLinear(): LinearScale;
  scaleBand(): BandScale;
  scalePoint(): BandScale;
  stack(): Stack;
  stackOffsetDiverging: unknown;
  pie(): { sort(order: null): (values: readonly number[]) => PieArc[] };
  arc(): Arc;
  line<Point>(): LineGenerator<Point>;
  area<Point>(): AreaGenerator<Point>;
  axisBottom(scale: PositionScale): Axis;
  axisLeft(scale: PositionScale): Axis;
  curveLinear: Curve;
  curveMonotoneX: Curve;
  curveStep: Curve;
  curveNatural: Curve;
}
