import {
  AppError,
  assertSvgDocument,
  type BindingProblem,
  isHttpUrl,
  isNumeric,
  PrototypeKeyNames,
  ReservedVariableNames,
  TemplateLimits,
  type TemplateVariable,
  variableProblems,
  xmlForbiddenCharacter,
} from '@render/contracts';
import type { StoredTemplateVariable, TemplateVariableKind } from '@render/db';
import { DOMParser, type Document, type Element, type Node, XMLSerializer } from '@xmldom/xmldom';
import { elementsOf, sanitizeSvgDocument, styleTextProblem } from './svg-sanitizer.ts';

const ELEMENT_NODE = 1;

function parse(svg: string): Element & { ownerDocument: Document } {
  const doc = new DOMParser({
    onError: (level, message) => {
      if (level !== 'warning') throw new AppError('VALIDATION_ERROR', `Invalid SVG: ${message}`);
    },
  }).parseFromString(svg, 'image/svg+xml');
  const root = doc.documentElement;
  if (!root) throw new AppError('VALIDATION_ERROR', 'Invalid SVG: the content is not an SVG document');
  return root as Element & { ownerDocument: Document };
}

const elementChildren = (node: Node): Element[] => {
  const out: Element[] = [];
  for (let child = node.firstChild; child; child = child.nextSibling) if (child.nodeType === ELEMENT_NODE) out.push(child as Element);
  return out;
};

function* walk(root: Element): Generator<Element> {
  yield root;
  for (const child of elementChildren(root)) yield* walk(child);
}

/** Start tags in the raw text (an upper bound of the element count), counted before anything is parsed. */
function countStartTags(svg: string): number {
  let count = 0;
  for (const _ of svg.matchAll(/<[A-Za-z_]/g)) count += 1;
  return count;
}

export interface SanitizedSvg {
  svg: string;
  /** data-variable name → the element names bound to it, in document order. */
  bindings: Map<string, string[]>;
  /** What was taken out, so the editor can tell the user why their SVG changed. */
  removed: string[];
}

/**
 * Parses a template's SVG and returns only what DOMPurify's SVG allow-list and our policy keep (see
 * svg-sanitizer.ts): no script, handlers, foreign content or script-bearing animations, links and url()s
 * only to #fragments and raster data: images, CSS without imports or external URLs. The stored SVG is
 * served as is (signed image URLs with format=svg, the editor preview), so it must be inert on its own.
 */
export function sanitizeTemplateSvg(input: string): SanitizedSvg {
  if (Buffer.byteLength(input, 'utf8') > TemplateLimits.svgMaxBytes) {
    throw new AppError('VALIDATION_ERROR', `SVG content is too large: at most ${TemplateLimits.svgMaxBytes / 1024} KB`);
  }
  if (input.includes('\u0000')) throw new AppError('VALIDATION_ERROR', 'Invalid SVG: the content contains a NUL character (U+0000)');
  if (countStartTags(input) > TemplateLimits.svgMaxElements) {
    throw new AppError('VALIDATION_ERROR', `SVG has too many elements: at most ${TemplateLimits.svgMaxElements.toLocaleString('en')}`);
  }
  assertSvgDocument(input, 'VALIDATION_ERROR');
  const { root, removed, serialize } = sanitizeSvgDocument(input);

  const bindings = new Map<string, string[]>();
  for (const element of elementsOf(root)) {
    const name = element.getAttribute('data-variable');
    if (name === null) continue;
    const list = bindings.get(name) ?? [];
    list.push(element.localName.toLowerCase());
    bindings.set(name, list);
  }
  return { svg: serialize(), bindings, removed };
}

/**
 * A text value bound to <style> becomes CSS, and the filled SVG is served as is (format=svg): it must pass
 * the same CSS checks as the template's own styles.
 */
function checkStyleValue(variable: { name: string }, value: string, what: string): void {
  const problem = styleTextProblem(value);
  if (problem) {
    throw new AppError('VALIDATION_ERROR', `${what} of variable "${variable.name}" is not allowed inside <style>: the CSS ${problem}`);
  }
}

/** Checks one variable's value for its type; the message names the variable. */
function checkValue(variable: { name: string; type: TemplateVariableKind }, value: string, what: string): void {
  // The filled document must stay well-formed XML (its SVG answer is served as is), and Postgres text and
  // jsonb refuse NUL: refused, naming the variable, rather than silently changed.
  const forbidden = xmlForbiddenCharacter(value);
  if (forbidden) {
    throw new AppError(
      'VALIDATION_ERROR',
      `${what} of variable "${variable.name}" contains ${forbidden.name} at position ${forbidden.index + 1}, a character XML does not allow`,
    );
  }
  if (variable.type === 'number' && !isNumeric(value)) {
    throw new AppError('VALIDATION_ERROR', `${what} of variable "${variable.name}" must be a number, got "${value.slice(0, 40)}"`);
  }
  if (variable.type === 'image' && value !== '' && !isHttpUrl(value)) {
    throw new AppError('VALIDATION_ERROR', `${what} of variable "${variable.name}" must be an http:// or https:// image URL`);
  }
}

/** A binding problem (contracts' `variableProblems`) as the service words it; `variable` is the one it is about. */
function bindingMessage(problem: BindingProblem, variable?: TemplateVariable): string {
  const value = variable?.defaultValue === undefined ? '' : String(variable.defaultValue);
  switch (problem.code) {
    case 'tooMany':
      return `A template has at most ${problem.max} variables`;
    case 'duplicate':
      return `Variable "${problem.name}" is declared more than once`;
    case 'invalidName':
      return `Variable name "${problem.name}" must start with a letter or _ and contain only letters, digits, _ and - (at most 64)`;
    case 'prototypeName':
      return `Variable name "${problem.name}" is not allowed (${PrototypeKeyNames.join(', ')} name a JavaScript object's prototype); pick another`;
    case 'reserved':
      return `Variable name "${problem.name}" is reserved (${ReservedVariableNames.join(', ')}); pick another`;
    case 'unbound':
      return `Variable "${problem.name}" is declared but no element in the SVG has data-variable="${problem.name}"`;
    case 'imageNotOnImage':
      return `Variable "${problem.name}" is an image URL and must be bound to an <image> element, not <${problem.element}>`;
    case 'nonImageOnImage':
      return `Variable "${problem.name}" is ${problem.type} but is bound to an <image> element; <image> takes an image variable`;
    case 'forbiddenCharacter':
      return `The default value of variable "${problem.name}" contains ${problem.character} at position ${problem.position}, a character XML does not allow`;
    case 'numberDefault':
      return `The default value of variable "${problem.name}" must be a number, got "${value.slice(0, 40)}"`;
    case 'imageDefault':
      return `The default value of variable "${problem.name}" must be an http:// or https:// image URL`;
    case 'undeclared':
      return `The SVG binds data-variable="${problem.name}" but no variable named "${problem.name}" is declared`;
  }
}

/**
 * Validates declared variables against the SVG's data-variable bindings with the contracts' rules (the web
 * editor applies the same ones): each declared variable is bound, each binding is declared, image variables
 * sit on <image> elements and text/number ones do not; a default bound to <style> must also be safe CSS.
 * Refuses the first problem; answers the variables as stored (defaults as strings).
 */
export function checkVariables(variables: TemplateVariable[], bindings: Map<string, string[]>): StoredTemplateVariable[] {
  const seen = new Set<string>();
  const stored: StoredTemplateVariable[] = [];
  for (const variable of variables) {
    const [problem] = variableProblems(variable, bindings, seen);
    if (problem) throw new AppError('VALIDATION_ERROR', bindingMessage(problem, variable));
    const defaultValue = variable.defaultValue === undefined ? '' : String(variable.defaultValue);
    if (defaultValue !== '' && bindings.get(variable.name)?.includes('style')) checkStyleValue(variable, defaultValue, 'The default value');
    stored.push({ name: variable.name, type: variable.type, defaultValue });
  }
  for (const name of bindings.keys()) {
    if (!seen.has(name)) throw new AppError('VALIDATION_ERROR', bindingMessage({ code: 'undeclared', name }));
  }
  return stored;
}

export interface FilledTemplate {
  svg: string;
  /** Image URLs for the worker to fetch under its egress policy; the SVG holds `ref` where each goes. */
  images: Array<{ ref: string; url: string }>;
}

export const imageRef = (index: number) => `render-image:${index}`;

/**
 * Applies values to a stored (already sanitised) template. Text and number values become the bound
 * element's only text (the serializer escapes them); image values become `<image>` hrefs pointing at a
 * ref the worker swaps for the fetched bytes. Unknown names are refused; missing ones take their default.
 */
export function fillTemplate(svg: string, variables: StoredTemplateVariable[], values: Record<string, string | number>): FilledTemplate {
  const byName = new Map(variables.map((v) => [v.name, v]));
  const unknown = Object.keys(values).filter((name) => !byName.has(name));
  if (unknown.length > 0) {
    const known =
      variables.length > 0 ? `this template's variables are: ${variables.map((v) => v.name).join(', ')}` : 'this template has no variables';
    throw new AppError(
      'VALIDATION_ERROR',
      `Unknown variable${unknown.length > 1 ? 's' : ''} ${unknown.map((n) => `"${n}"`).join(', ')}; ${known}`,
    );
  }
  const resolved = new Map<string, string>();
  for (const variable of variables) {
    // Own properties only: a variable named like an Object.prototype member (toString) was not given one.
    const given = Object.hasOwn(values, variable.name) ? values[variable.name] : undefined;
    const value = given === undefined ? variable.defaultValue : String(given);
    if (given !== undefined) checkValue(variable, value, 'The value');
    // A default saved before characters XML forbids were refused at save would still reach the document.
    else if (value !== '') checkValue(variable, value, 'The default value');
    resolved.set(variable.name, variable.type === 'number' && value !== '' ? String(Number(value)) : value);
  }

  const root = parse(svg);
  const doc = root.ownerDocument;
  const images: FilledTemplate['images'] = [];
  const refs = new Map<string, string>();
  for (const element of [...walk(root)]) {
    const name = element.getAttribute('data-variable');
    const variable = name === null ? undefined : byName.get(name);
    if (!variable || name === null) continue;
    const value = resolved.get(name) ?? '';
    if (variable.type === 'image') {
      // No value and no default: the element keeps whatever the author put there.
      if (value === '') continue;
      let ref = refs.get(value);
      if (!ref) {
        ref = imageRef(images.length);
        refs.set(value, ref);
        images.push({ ref, url: value });
      }
      element.setAttribute('href', ref);
      if (element.hasAttribute('xlink:href')) element.setAttribute('xlink:href', ref);
      continue;
    }
    if ((element.localName ?? element.nodeName).toLowerCase() === 'style') checkStyleValue(variable, value, 'The value');
    while (element.firstChild) element.removeChild(element.firstChild);
    element.appendChild(doc.createTextNode(value));
  }
  return { svg: new XMLSerializer().serializeToString(root), images };
}
