import { AppError } from '@render/contracts';
import createDOMPurify, { type Config, type DOMPurify, type RemovedAttribute, type RemovedElement, type WindowLike } from 'dompurify';
import { JSDOM } from 'jsdom';

const SVG_NS = 'http://www.w3.org/2000/svg';
const XLINK_NS = 'http://www.w3.org/1999/xlink';
const XML_NS = 'http://www.w3.org/XML/1998/namespace';
const XMLNS_NS = 'http://www.w3.org/2000/xmlns/';
const PARSER_ERROR_NS = 'http://www.mozilla.org/newlayout/xml/parsererror.xml';

const TEXT_NODE = 3;
const CDATA_SECTION_NODE = 4;
const PROCESSING_INSTRUCTION_NODE = 7;
const COMMENT_NODE = 8;

/**
 * DOMPurify's SVG profile is the allow-list of elements and attributes. On top of it: `use` and `animate`/
 * `set`, which the profile leaves out because `use` can pull in other documents and animations can rewrite
 * any attribute (`applyPolicy` limits links to fragments and what animations may target), the animation
 * value attributes it lacks, a few filter and gradient attributes, and data: images in <feImage>. `font` is
 * forbidden: in HTML an SVG `<font color>` breaks out of SVG into HTML, the start of many mXSS chains.
 */
const PURIFY_CONFIG: Config = {
  USE_PROFILES: { svg: true, svgFilters: true },
  ADD_TAGS: ['use', 'animate', 'set'],
  ADD_DATA_URI_TAGS: ['feImage'],
  ADD_ATTR: ['to', 'from', 'calcMode', 'fr', 'limitingConeAngle', 'pointsAtX', 'pointsAtY', 'pointsAtZ', 'xml:lang'],
  FORBID_TAGS: ['font'],
  IN_PLACE: true,
};

/**
 * One DOM window and DOMPurify instance per process: a new JSDOM costs 30–50 ms; sanitising is synchronous.
 * Each call's document is freed once the calling job ends (jsdom tracks DOMPurify's NodeIterator through a
 * WeakRef, which holds until then): a batch that sanitises many SVGs should yield between them.
 */
let shared: { window: JSDOM['window']; purify: DOMPurify } | undefined;
function purifier() {
  if (!shared) {
    const { window } = new JSDOM('');
    const purify = createDOMPurify(window as unknown as WindowLike);
    purify.setConfig(PURIFY_CONFIG);
    shared = { window, purify };
  }
  return shared;
}

// ---------------------------------------------------------------------------------------------------------
// URLs and CSS

/** Where a link or url() may point: inside this document, or an embedded raster image. No SVG: it can carry script. */
const SAFE_URL = /^(#|data:image\/(png|jpeg|jpg|gif|webp)[;,])/;

/** Browsers ignore whitespace and control characters inside a URL's scheme ("java\tscript:"). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are exactly the characters to drop
const compact = (value: string) => value.replace(/[\u0000-\u0020\u007f]/g, '').toLowerCase();

/** CSS escapes (`\73`, `\r`, line continuations) as the CSS tokenizer reads them. */
export function decodeCssEscapes(css: string): string {
  return css.replace(/\\(?:([0-9a-fA-F]{1,6})(?:\r\n|[ \t\r\n\f])?|(\r\n|[\n\r\f])|([\s\S]))/g, (_, hex, newline, char) => {
    if (newline !== undefined) return '';
    if (char !== undefined) return char;
    const code = Number.parseInt(hex, 16);
    return code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff) ? '\ufffd' : String.fromCodePoint(code);
  });
}

/** The first url(…) whose target is not a fragment or a raster data: image; `value` is already compact. */
function unsafeUrl(value: string): string | undefined {
  for (let at = value.indexOf('url('); at !== -1; at = value.indexOf('url(', at + 4)) {
    const end = value.indexOf(')', at);
    if (end === -1) return value.slice(at, at + 60);
    const target = value.slice(at + 4, end).replace(/^["']|["']$/g, '');
    if (!SAFE_URL.test(target)) return target.slice(0, 60);
  }
  return undefined;
}

/** Constructs that run script, import style sheets or fetch images without url(). */
const CSS_HAZARDS: Array<[RegExp, string]> = [
  [/@import/, 'imports a style sheet'],
  [/(java|vb)script:/, 'has a script URL'],
  [/expression\(/, 'has a script expression'],
  [/-moz-binding|behavior:/, 'binds a script'],
  [/(image-set|image|cross-fade|attr)\(/, 'loads an image without url()'],
];

/**
 * Why a piece of CSS (a style attribute, a <style> element, a value put into one) is unsafe, or undefined.
 * Checked both as written and with CSS escapes decoded, so `java\73 cript:` and `@\69mport` are caught.
 */
export function cssProblem(css: string): string | undefined {
  const forms = css.includes('\\') ? [compact(css), compact(decodeCssEscapes(css))] : [compact(css)];
  for (const form of forms) {
    for (const [pattern, reason] of CSS_HAZARDS) if (pattern.test(form)) return reason;
    const url = unsafeUrl(form);
    if (url !== undefined) return `refers to another resource (url(${url}))`;
  }
  return undefined;
}

/** CSS for a <style> element's text: as above, and no `<`, which an HTML parser could read as markup. */
export function styleTextProblem(css: string): string | undefined {
  return css.includes('<') ? 'contains "<"' : cssProblem(css);
}

// ---------------------------------------------------------------------------------------------------------
// The policy applied after DOMPurify

/** `root` and its descendant elements in document order. Sibling pointers: far faster than querySelectorAll in jsdom. */
export function elementsOf(root: Element): Element[] {
  const out: Element[] = [];
  const stack: Element[] = [root];
  while (stack.length > 0) {
    const element = stack.pop()!;
    out.push(element);
    for (let child = element.lastElementChild; child; child = child.previousElementSibling) stack.push(child);
  }
  return out;
}

const ANIMATIONS = new Set(['set', 'animate', 'animatecolor', 'animatemotion', 'animatetransform']);
/** What an animation may change: geometry and paint. Never a link, a handler, a style, a class or xml:base. */
const ANIMATABLE = new Set(
  (
    'opacity fill fill-opacity stroke stroke-width stroke-opacity stroke-dasharray stroke-dashoffset ' +
    'x y x1 y1 x2 y2 dx dy width height r rx ry cx cy fx fy fr transform gradienttransform patterntransform d points ' +
    'offset stop-color stop-opacity flood-color flood-opacity lighting-color stddeviation visibility display ' +
    'font-size letter-spacing word-spacing startoffset pathlength rotate viewbox color'
  ).split(' '),
);

function animationProblem(element: Element): string | undefined {
  const name = element.localName.toLowerCase();
  if (!ANIMATIONS.has(name)) return undefined;
  const target = element.getAttribute('attributeName');
  // animateMotion moves its parent along a path and needs no attributeName.
  if (target === null && name === 'animatemotion') return undefined;
  const bare = (target ?? '')
    .trim()
    .replace(/^[^:]*:/, '')
    .toLowerCase();
  return ANIMATABLE.has(bare) ? undefined : `animating "${target ?? ''}"`;
}

function attributeProblem(attr: Attr): string | undefined {
  const local = attr.localName.toLowerCase();
  // DOMPurify keeps only `xmlns` and `xmlns:xlink`; they must declare what they are meant to.
  if (attr.namespaceURI === XMLNS_NS) return attr.value === (local === 'xlink' ? XLINK_NS : SVG_NS) ? undefined : 'not allowed';
  if (attr.namespaceURI !== null) {
    const allowed =
      (attr.namespaceURI === XLINK_NS && (local === 'href' || local === 'title')) ||
      (attr.namespaceURI === XML_NS && (local === 'space' || local === 'lang'));
    if (!allowed) return 'not allowed';
  }
  if (local.startsWith('on')) return 'an event handler';
  const raw = compact(attr.value);
  const decoded = attr.value.includes('\\') ? compact(decodeCssEscapes(attr.value)) : raw;
  if (/(java|vb)script:/.test(raw) || /(java|vb)script:/.test(decoded)) return 'a script URL';
  // A link's value is a URL, not CSS: checked as written (a CSS escape would make it a relative URL).
  if ((local === 'href' || local === 'src') && !SAFE_URL.test(raw)) return 'a link to another resource';
  if (local === 'style') return cssProblem(attr.value);
  const url = unsafeUrl(raw) ?? unsafeUrl(decoded);
  return url === undefined ? undefined : `refers to another resource (url(${url}))`;
}

/**
 * What DOMPurify's allow-list does not cover: links and url() limited to fragments and raster data: images,
 * CSS checked after unescaping, animations limited to presentation attributes, and <title>/<desc> (HTML
 * integration points: their element children would be parsed as HTML) limited to text.
 */
function applyPolicy(root: Element, removed: string[]): void {
  for (const element of elementsOf(root)) {
    // Inside an element removed above.
    if (!element.isConnected) continue;
    const name = element.localName.toLowerCase();
    const animation = animationProblem(element);
    const style =
      name === 'style' ? (element.children.length > 0 ? 'contains elements' : styleTextProblem(element.textContent ?? '')) : undefined;
    const reason = animation ?? (style === undefined ? undefined : `with CSS that ${style}`);
    if (reason !== undefined && element !== root) {
      removed.push(`<${element.nodeName}> ${reason}`);
      element.remove();
      continue;
    }
    if (name === 'title' || name === 'desc') {
      for (const child of [...element.children]) {
        removed.push(`<${child.nodeName}> inside <${element.nodeName}>`);
        child.remove();
      }
    }
    for (const attr of [...element.attributes]) {
      const problem = attributeProblem(attr);
      if (problem === undefined) continue;
      removed.push(`${attr.name} on <${element.nodeName}> (${problem})`);
      element.removeAttributeNode(attr);
    }
  }
}

// ---------------------------------------------------------------------------------------------------------
// Parsing and the whole pass

/**
 * SVG pasted from HTML often lacks the namespace declarations a standalone document needs (the renderer
 * adds them too): without them every element would be in no namespace and `xlink:` would not parse.
 */
function withNamespaces(svg: string): string {
  const open = /<svg(?=[\s/>])[^>]*>/.exec(svg);
  if (!open) return svg;
  let tag = open[0];
  if (!/\sxmlns\s*=/.test(tag)) tag = tag.replace(/^<svg/, `<svg xmlns="${SVG_NS}"`);
  if (/xlink:/.test(svg) && !/\sxmlns:xlink\s*=/.test(tag)) tag = tag.replace(/^<svg/, `<svg xmlns:xlink="${XLINK_NS}"`);
  return svg.slice(0, open.index) + tag + svg.slice(open.index + open[0].length);
}

function parse(svg: string, window: JSDOM['window']): Element {
  const doc = new window.DOMParser().parseFromString(withNamespaces(svg), 'image/svg+xml');
  const root = doc.documentElement;
  if (root.namespaceURI === PARSER_ERROR_NS) {
    throw new AppError('VALIDATION_ERROR', `Invalid SVG: the content is not well-formed XML (${root.textContent?.trim()})`);
  }
  if (root.namespaceURI !== SVG_NS || root.localName !== 'svg' || root.prefix !== null) {
    throw new AppError('VALIDATION_ERROR', 'Invalid SVG: the root element must be an unprefixed <svg> in the SVG namespace');
  }
  return root;
}

/**
 * Before DOMPurify: processing instructions outside the root are reported (only the root is kept); CDATA
 * (common in exported <style>s, which DOMPurify would drop) becomes the equivalent text; comments go without
 * a word, as they render nothing. The tree is only walked when the source has any of them.
 */
function prepare(source: string, root: Element, removed: string[]): void {
  const doc = root.ownerDocument;
  for (let node = doc.firstChild; node; node = node.nextSibling) {
    if (node.nodeType === PROCESSING_INSTRUCTION_NODE) removed.push(`<?${node.nodeName}?>`);
  }
  if (!source.includes('<![CDATA[') && !source.includes('<!--')) return;
  const walker = doc.createTreeWalker(root, 0x8 | 0x80); // CDATA sections, comments
  const found: Node[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) found.push(node);
  for (const node of found) {
    if (node.nodeType === CDATA_SECTION_NODE) node.parentNode?.replaceChild(doc.createTextNode(node.nodeValue ?? ''), node);
    else node.parentNode?.removeChild(node);
  }
}

const describeRemoved = (entry: RemovedElement | RemovedAttribute): string | undefined => {
  if ('attribute' in entry) {
    // Namespace declarations only served parsing; the serializer declares what is used.
    if (!entry.attribute || entry.attribute.namespaceURI === XMLNS_NS) return undefined;
    return `${entry.attribute.name} on <${entry.from.nodeName}>`;
  }
  const node = entry.element;
  if (node.nodeType === PROCESSING_INSTRUCTION_NODE) return `<?${node.nodeName}?>`;
  if (node.nodeType === COMMENT_NODE || node.nodeType === TEXT_NODE) return undefined;
  return `<${node.nodeName}>`;
};

export interface SanitizedDocument {
  /** The sanitised root <svg>, in the shared window's DOM (serialise it, do not keep it). */
  root: Element;
  /** What was taken out, in a form the editor can show. */
  removed: string[];
  serialize(): string;
}

/**
 * Parses SVG as XML (namespaces resolved, as a browser reading image/svg+xml does) and sanitises it in place:
 * DOMPurify's SVG allow-list, then `applyPolicy`. The result reads the same to an XML parser and to an
 * HTML parser (innerHTML): nothing in it leaves the SVG namespace there.
 */
export function sanitizeSvgDocument(svg: string): SanitizedDocument {
  if (svg.includes('\u0000')) throw new AppError('VALIDATION_ERROR', 'Invalid SVG: the content contains a NUL character (U+0000)');
  const { window, purify } = purifier();
  const root = parse(svg, window);
  const removed: string[] = [];
  prepare(svg, root, removed);
  purify.sanitize(root);
  for (const entry of purify.removed) {
    const text = describeRemoved(entry);
    if (text) removed.push(text);
  }
  applyPolicy(root, removed);
  return { root, removed: [...new Set(removed)], serialize: () => new window.XMLSerializer().serializeToString(root) };
}
