import {
  type BindingProblem,
  checkFields,
  isHttpUrl,
  isNumeric,
  RenderLimits,
  bindingProblems as sharedBindingProblems,
  TemplateInput,
  TemplateLimits,
  type TemplateVariableType,
} from '@render/contracts';

/**
 * The templates service's save rules, applied as the user types so the server's 400 never comes as a
 * surprise: the SVG must be an <svg> document, and the binding rules are the contracts' own
 * (`bindingProblems`, which the service refuses a save with): each declared variable bound by a
 * data-variable attribute, each binding declared, image variables on <image> and only there, names valid
 * and not reserved, defaults of the right type.
 */

export interface EditorVariable {
  name: string;
  type: TemplateVariableType;
  defaultValue: string;
}

/** data-variable name → the element names bound to it, in document order. */
export type Bindings = Map<string, string[]>;

export interface DetectedSvg {
  /** Whether the text parsed as an SVG document at all. */
  valid: boolean;
  bindings: Bindings;
  /** The first bound element's text (text/number) or href (image), to suggest as a default. */
  suggestions: Map<string, string>;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/** Adds the namespace a pasted inline SVG often lacks (the service does the same before parsing). */
export function withSvgNamespace(svg: string): string {
  const open = /<svg(?=[\s/>])[^>]*>/.exec(svg);
  if (!open || /\sxmlns\s*=/.test(open[0])) return svg;
  return `${svg.slice(0, open.index)}${open[0].replace(/^<svg/, `<svg xmlns="${SVG_NS}"`)}${svg.slice(open.index + open[0].length)}`;
}

function parseSvg(svg: string): Document | undefined {
  if (!svg.trim()) return undefined;
  const doc = new DOMParser().parseFromString(withSvgNamespace(svg), 'image/svg+xml');
  const root = doc.documentElement;
  if (!root || root.getElementsByTagName('parsererror').length > 0 || root.localName !== 'svg' || root.namespaceURI !== SVG_NS)
    return undefined;
  return doc;
}

/** Reads the data-variable bindings of an SVG, as the service does when it saves one. */
export function detectBindings(svg: string): DetectedSvg {
  const doc = parseSvg(svg);
  const bindings: Bindings = new Map();
  const suggestions = new Map<string, string>();
  if (!doc) return { valid: false, bindings, suggestions };
  for (const element of Array.from(doc.querySelectorAll('[data-variable]'))) {
    const name = element.getAttribute('data-variable') ?? '';
    const tag = element.localName.toLowerCase();
    bindings.set(name, [...(bindings.get(name) ?? []), tag]);
    if (!suggestions.has(name)) {
      const value =
        tag === 'image'
          ? (element.getAttribute('href') ?? element.getAttributeNS('http://www.w3.org/1999/xlink', 'href') ?? '')
          : (element.textContent ?? '').trim();
      suggestions.set(name, tag === 'image' && !/^https?:\/\//i.test(value) ? '' : value);
    }
  }
  return { valid: true, bindings, suggestions };
}

/** The variable a new binding suggests: an image URL on <image>, text elsewhere. */
export function suggestVariable(name: string, detected: DetectedSvg): EditorVariable {
  const onImage = detected.bindings.get(name)?.includes('image') ?? false;
  const suggestion = detected.suggestions.get(name) ?? '';
  const numeric = !onImage && suggestion !== '' && Number.isFinite(Number(suggestion));
  return { name, type: onImage ? 'image' : numeric ? 'number' : 'text', defaultValue: suggestion };
}

/** A rule the declared variables break (contracts' `BindingProblem`), or an SVG that does not parse yet. */
export type RuleProblem = { code: 'svgInvalid' } | BindingProblem;

export { isHttpUrl, isNumeric };

/** Every rule the service would refuse the declared variables for, in the order it checks them (the same rules: contracts). */
export function bindingProblems(variables: EditorVariable[], detected: DetectedSvg): RuleProblem[] {
  if (!detected.valid) return [{ code: 'svgInvalid' }];
  return sharedBindingProblems(variables, detected.bindings);
}

// ---------------------------------------------------------------------------------------------------------
// Size

export interface SizePreset {
  id: string;
  width: number;
  height: number;
}

/** Social card, square post, story; anything else is custom (50-4000 px each way). */
export const SIZE_PRESETS: SizePreset[] = [
  { id: 'social', width: 1200, height: 630 },
  { id: 'square', width: 1080, height: 1080 },
  { id: 'story', width: 1080, height: 1920 },
];

export const SIZE_BOUNDS = { min: RenderLimits.minDimension, max: RenderLimits.maxDimension } as const;

export const presetOf = (width: string, height: string) =>
  SIZE_PRESETS.find((preset) => String(preset.width) === width.trim() && String(preset.height) === height.trim())?.id ?? 'custom';

/** A typed dimension as the API would read it: a number when it is one, else the text (so the type rule words it). */
export const dimensionValue = (text: string): number | string =>
  text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text;

/** The contract's message for a width or height typed in the editor, or undefined when the server would take it. */
export function sizeProblem(field: 'width' | 'height', text: string): string | undefined {
  if (text.trim() === '') return `${field} must be between ${SIZE_BOUNDS.min} and ${SIZE_BOUNDS.max}`;
  return checkFields(TemplateInput as never, { [field]: dimensionValue(text) })[field];
}

/** The name's contract message (required, 2-100 characters), trimmed as the service does. */
export function nameProblem(name: string): string | undefined {
  const trimmed = name.trim();
  if (!trimmed) return 'Name is required';
  return checkFields(TemplateInput as never, { name: trimmed }).name;
}

/** The SVG's contract message (empty) or the size limit the service applies. */
export function svgProblem(svg: string): string | undefined {
  if (!svg.trim()) return 'Please enter some SVG content';
  return undefined;
}

export const svgByteLength = (svg: string) => new TextEncoder().encode(svg).length;
export const SVG_MAX_BYTES = TemplateLimits.svgMaxBytes;

/**
 * The SVG as it renders with the variables' default values (text replaced like the service's fill), for
 * the live preview. Image defaults are left alone: an <img> preview loads nothing external anyway.
 */
export function applyDefaults(svg: string, variables: EditorVariable[]): string {
  const doc = parseSvg(svg);
  if (!doc) return svg;
  const byName = new Map(variables.map((v) => [v.name, v]));
  for (const element of Array.from(doc.querySelectorAll('[data-variable]'))) {
    const variable = byName.get(element.getAttribute('data-variable') ?? '');
    if (!variable || variable.type === 'image' || variable.defaultValue === '') continue;
    element.textContent = variable.defaultValue;
  }
  return new XMLSerializer().serializeToString(doc);
}
