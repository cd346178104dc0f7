import { AppError, assertSvgDocument, ReservedVariableNames, TemplateLimits, type TemplateVariable } from '@render/contracts';
import type { StoredTemplateVariable, TemplateVariableKind } from '@render/db';
import { DOMParser, type Document, type Element, type Node, XMLSerializer } from '@xmldom/xmldom';

const SVG_NS = 'http://www.w3.org/2000/svg';
const ELEMENT_NODE = 1;
const PROCESSING_INSTRUCTION_NODE = 7;
const DOCUMENT_TYPE_NODE = 10;

// Elements that run script, embed other documents or pull in other content. foreignObject is dropped
// whole because it carries HTML, where every HTML vector applies again.
const DROPPED_ELEMENTS = new Set([
  'script',
  'foreignobject',
  'iframe',
  'frame',
  'frameset',
  'embed',
  'object',
  'applet',
  'handler',
  'listener',
  'base',
  'meta',
  'link',
]);
// Animations can set an attribute to a value later: `<set attributeName="href" to="javascript:…">`.
const ANIMATIONS = new Set(['set', 'animate', 'animatecolor', 'animatemotion', 'animatetransform']);
const LINK_ATTRIBUTES = new Set(['href', 'src', 'action', 'formaction']);

/** Where a link may point after sanitising: inside the document, the web, or an embedded image. */
function isSafeLink(value: string): boolean {
  // Browsers ignore whitespace and control characters inside a scheme ("java\tscript:").
  const compact = [...value]
    .filter((c) => c.charCodeAt(0) > 0x20)
    .join('')
    .toLowerCase();
  return compact.startsWith('#') || compact.startsWith('http://') || compact.startsWith('https://') || compact.startsWith('data:image/');
}

const isUnsafeStyle = (value: string) => /javascript:|expression\s*\(|-moz-binding|behavior\s*:/i.test(value);

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

export interface SanitizedSvg {
  svg: string;
  /** data-variable name → the element names bound to it, in document order. */
  bindings: Map<string, string[]>;
  /** What was taken out, so the editor can tell the user why their SVG changed. */
  removed: string[];
}

/**
 * Parses a template's SVG and returns it without anything that could run or navigate: script and
 * embedding elements, elements outside the SVG namespace, on* handlers, script-bearing animations,
 * links other than #fragments, http(s) and data:image, and processing instructions (xml-stylesheet).
 * The render path draws SVG as an image with scripts off anyway; this keeps stored templates clean for
 * every other consumer (the editor preview, SVG output, downloads).
 */
export function sanitizeTemplateSvg(input: string): SanitizedSvg {
  if (Buffer.byteLength(input, 'utf8') > TemplateLimits.svgMaxBytes) {
    throw new AppError('VALIDATION_ERROR', `SVG content is too large: at most ${TemplateLimits.svgMaxBytes / 1024} KB`);
  }
  assertSvgDocument(input, 'VALIDATION_ERROR');
  const root = parse(input);
  const doc = root.ownerDocument;
  const removed: string[] = [];

  for (let node = doc.firstChild; node; ) {
    const next = node.nextSibling;
    if (node.nodeType === PROCESSING_INSTRUCTION_NODE && node.nodeName !== 'xml') removed.push(`<?${node.nodeName}?>`);
    if (node.nodeType === PROCESSING_INSTRUCTION_NODE || node.nodeType === DOCUMENT_TYPE_NODE) doc.removeChild(node);
    node = next;
  }

  const rootNamespace = root.namespaceURI;
  const clean = (element: Element) => {
    for (let node = element.firstChild; node; ) {
      const next = node.nextSibling;
      if (node.nodeType === PROCESSING_INSTRUCTION_NODE) {
        removed.push(`<?${node.nodeName}?>`);
        element.removeChild(node);
      } else if (node.nodeType === ELEMENT_NODE) {
        const child = node as Element;
        const name = (child.localName ?? child.nodeName).toLowerCase();
        const foreign = child.namespaceURI !== rootNamespace && child.namespaceURI !== SVG_NS;
        const animatesUnsafe = ANIMATIONS.has(name) && /^(on|href$|xlink:href$)/i.test(child.getAttribute('attributeName') ?? '');
        if (DROPPED_ELEMENTS.has(name) || foreign || animatesUnsafe) {
          removed.push(`<${child.nodeName}>`);
          element.removeChild(child);
        } else {
          cleanAttributes(child);
          if (name === 'style' && isUnsafeStyle(child.textContent ?? '')) {
            removed.push('<style> with script URLs');
            element.removeChild(child);
          } else clean(child);
        }
      }
      node = next;
    }
  };
  const cleanAttributes = (element: Element) => {
    for (const attr of Array.from(element.attributes)) {
      const local = (attr.localName ?? attr.name).toLowerCase();
      const unsafe =
        local.startsWith('on') ||
        (LINK_ATTRIBUTES.has(local) && !isSafeLink(attr.value)) ||
        (local === 'style' && isUnsafeStyle(attr.value));
      if (unsafe) {
        removed.push(`${attr.name} on <${element.nodeName}>`);
        element.removeAttributeNode(attr);
      }
    }
  };
  cleanAttributes(root);
  clean(root);

  const bindings = new Map<string, string[]>();
  for (const element of walk(root)) {
    const name = element.getAttribute('data-variable');
    if (name === null) continue;
    const list = bindings.get(name) ?? [];
    list.push((element.localName ?? element.nodeName).toLowerCase());
    bindings.set(name, list);
  }
  return { svg: new XMLSerializer().serializeToString(root), bindings, removed };
}

const isHttpUrl = (value: string) => {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
};

const isNumeric = (value: string) => value.trim() !== '' && Number.isFinite(Number(value));

/** Checks one variable's value for its type; the message names the variable. */
function checkValue(variable: { name: string; type: TemplateVariableKind }, value: string, what: string): void {
  if (variable.type === 'number' && !isNumeric(value)) {
    throw new AppError('VALIDATION_ERROR', `${what} of variable "${variable.name}" must be a number, got "${value.slice(0, 40)}"`);
  }
  if (variable.type === 'image' && value !== '' && !isHttpUrl(value)) {
    throw new AppError('VALIDATION_ERROR', `${what} of variable "${variable.name}" must be an http:// or https:// image URL`);
  }
}

/**
 * Validates declared variables against the SVG's data-variable bindings: each declared variable is bound,
 * each binding is declared, image variables sit on <image> elements and text/number ones do not. Answers
 * the variables as stored (defaults as strings).
 */
export function checkVariables(variables: TemplateVariable[], bindings: Map<string, string[]>): StoredTemplateVariable[] {
  const seen = new Set<string>();
  const stored: StoredTemplateVariable[] = [];
  for (const variable of variables) {
    if (seen.has(variable.name)) throw new AppError('VALIDATION_ERROR', `Variable "${variable.name}" is declared more than once`);
    seen.add(variable.name);
    if ((ReservedVariableNames as readonly string[]).includes(variable.name)) {
      throw new AppError(
        'VALIDATION_ERROR',
        `Variable name "${variable.name}" is reserved (${ReservedVariableNames.join(', ')}); pick another`,
      );
    }
    const bound = bindings.get(variable.name);
    if (!bound) {
      throw new AppError(
        'VALIDATION_ERROR',
        `Variable "${variable.name}" is declared but no element in the SVG has data-variable="${variable.name}"`,
      );
    }
    for (const element of bound) {
      if (variable.type === 'image' && element !== 'image') {
        throw new AppError(
          'VALIDATION_ERROR',
          `Variable "${variable.name}" is an image URL and must be bound to an <image> element, not <${element}>`,
        );
      }
      if (variable.type !== 'image' && element === 'image') {
        throw new AppError(
          'VALIDATION_ERROR',
          `Variable "${variable.name}" is ${variable.type} but is bound to an <image> element; <image> takes an image variable`,
        );
      }
    }
    const defaultValue = variable.defaultValue === undefined ? '' : String(variable.defaultValue);
    if (defaultValue !== '') checkValue(variable, defaultValue, 'The default value');
    stored.push({ name: variable.name, type: variable.type, defaultValue });
  }
  for (const name of bindings.keys()) {
    if (!seen.has(name)) {
      throw new AppError('VALIDATION_ERROR', `The SVG binds data-variable="${name}" but no variable named "${name}" is declared`);
    }
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
    const given = values[variable.name];
    const value = given === undefined ? variable.defaultValue : String(given);
    if (given !== undefined) checkValue(variable, value, 'The value');
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
    while (element.firstChild) element.removeChild(element.firstChild);
    element.appendChild(doc.createTextNode(value));
  }
  return { svg: new XMLSerializer().serializeToString(root), images };
}
