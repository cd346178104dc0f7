import { TemplateLimits } from '@render/contracts';
import { xmlProblem } from '@render/test-stack/strict-xml';
import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { checkVariables, fillTemplate, sanitizeTemplateSvg } from '../src/lib/svg-template.ts';

const wrap = (inner: string, attrs = '') =>
  `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10"${attrs}>${inner}</svg>`;

describe('sanitizeTemplateSvg', () => {
  it.each([
    ['a script element', wrap('<script>alert(1)</script>'), /<script/i],
    ['a script in another namespace', wrap('<h:script xmlns:h="http://www.w3.org/1999/xhtml">alert(1)</h:script>'), /script/i],
    ['an event handler', wrap('<rect onload="alert(1)" width="1" height="1"/>'), /onload/i],
    ['an upper-case event handler', wrap('<rect ONCLICK="alert(1)" width="1" height="1"/>'), /onclick/i],
    ['a javascript: link', wrap('<a href="javascript:alert(1)"><text>x</text></a>'), /javascript/i],
    ['an obfuscated xlink javascript: link', wrap('<a xlink:href=" jav&#x09;ascript:alert(1)"><text>x</text></a>'), /ascript/i],
    ['an animation that sets a link', wrap('<a><set attributeName="href" to="javascript:alert(1)"/><text>x</text></a>'), /<set/i],
    ['a handler set by animation', wrap('<rect><set attributeName="onclick" to="alert(1)"/></rect>'), /<set/i],
    [
      'foreignObject HTML',
      wrap('<foreignObject><iframe xmlns="http://www.w3.org/1999/xhtml" src="https://evil.test"/></foreignObject>'),
      /iframe|foreignObject/i,
    ],
    ['an xml-stylesheet instruction', `<?xml-stylesheet href="https://evil.test/x.xsl" type="text/xsl"?>${wrap('')}`, /stylesheet/i],
    ['a style with a script URL', wrap('<style>rect{background:url(javascript:alert(1))}</style>'), /javascript/i],
    ['a data:text/html link', wrap('<a href="data:text/html,&lt;script&gt;alert(1)&lt;/script&gt;"><text>x</text></a>'), /data:text/i],
  ])('removes %s', (_, svg, forbidden) => {
    const result = sanitizeTemplateSvg(svg);
    expect(result.svg).not.toMatch(forbidden);
    expect(result.removed.length).toBeGreaterThan(0);
  });

  it('keeps what renders: fragment and data:image links, styles and text', () => {
    const svg = wrap(
      '<defs><linearGradient id="g"><stop offset="0" stop-color="red"/></linearGradient></defs>' +
        '<style>.a{fill:url(#g)}</style><use href="#g"/><a href="#g"><text class="a">Hi &amp; bye</text></a>' +
        '<image href="data:image/png;base64,AAAA" width="1" height="1"/>',
    );
    const result = sanitizeTemplateSvg(svg);
    expect(result.removed).toEqual([]);
    for (const kept of ['<linearGradient id="g">', '.a{fill:url(#g)}', 'href="#g"', 'Hi &amp; bye', 'data:image/png;base64,AAAA']) {
      expect(result.svg).toContain(kept);
    }
  });

  it('refuses entity declarations and documents that are not SVG', () => {
    expect(() => sanitizeTemplateSvg('<!DOCTYPE svg [<!ENTITY x "y">]><svg>&x;</svg>')).toThrow(/entity declarations/);
    expect(() => sanitizeTemplateSvg('<div/>')).toThrow(/root element must be <svg>/);
  });

  it('reports every data-variable binding with the element it sits on', () => {
    const { bindings } = sanitizeTemplateSvg(wrap('<text data-variable="a"/><tspan data-variable="a"/><image data-variable="b"/>'));
    expect([...bindings]).toEqual([
      ['a', ['text', 'tspan']],
      ['b', ['image']],
    ]);
  });
});

// Payloads that got through the old hand-written deny-list. Each is checked twice: by what must not be in
// the output, and by parsing the output the two ways a consumer will (as an SVG document, and as HTML through
// innerHTML, which the editor preview does) and looking for anything that could run or fetch.
const XLINK = 'xmlns:foo="http://www.w3.org/1999/xlink"';
const PAYLOADS: Array<[string, string, RegExp]> = [
  [
    'an animation of an href under another XLink prefix',
    wrap(`<a ${XLINK}><animate attributeName="foo:href" values="javascript:alert(1)" begin="0s" fill="freeze"/><text>x</text></a>`),
    /javascript|foo:href/i,
  ],
  [
    'an animated href with a leading space',
    wrap('<a><set attributeName=" href" to="javascript:alert(1)"/><text>x</text></a>'),
    /javascript/i,
  ],
  [
    'an animated handler with a leading space',
    wrap('<rect width="1" height="1"><set attributeName=" onclick" to="alert(1)"/></rect>'),
    /onclick/i,
  ],
  [
    'an animated formaction',
    wrap('<a><set attributeName="formaction" to="javascript:alert(1)"/><text>x</text></a>'),
    /formaction|javascript/i,
  ],
  [
    'an animated style',
    wrap('<rect width="1" height="1"><set attributeName="style" to="fill:url(https://evil.test/a)"/></rect>'),
    /evil\.test/,
  ],
  [
    'an animation to an external paint',
    wrap('<rect width="1" height="1"><set attributeName="fill" to="url(https://evil.test/p.svg#g)"/></rect>'),
    /evil\.test/,
  ],
  ['xml:base pointing at a script URL', wrap('<a xml:base="javascript:alert(1)//" href="#x"><text>x</text></a>'), /xml:base|javascript/i],
  [
    'a CSS-escaped script URL in a style attribute',
    wrap('<rect width="1" height="1" style="fill:url(java\\73 cript:alert(1))"/>'),
    /cript/i,
  ],
  ['a CSS-escaped script URL in <style>', wrap('<style>rect{fill:url(java\\73 cript:alert(1))}</style>'), /cript/i],
  ['an mXSS payload for innerHTML', wrap('<p><style><!--</style><img src=x onerror=alert(1)>--></style></p>'), /onerror|<img|<p\b/i],
  ['an external @import', wrap('<style>@import url(https://evil.test/x.css);rect{fill:red}</style>'), /evil\.test|@import/],
  ['an escaped external @import', wrap('<style>@\\69mport "https://evil.test/x.css";</style>'), /evil\.test/],
  ['an external url() in <style>', wrap('<style>rect{fill:url(https://evil.test/p.svg#g)}</style>'), /evil\.test/],
  ['an external url() in a style attribute', wrap('<rect width="1" height="1" style="fill:url(//evil.test/p.svg#g)"/>'), /evil\.test/],
  [
    'an external url() in a presentation attribute',
    wrap('<rect width="1" height="1" filter="url(https://evil.test/f.svg#f)"/>'),
    /evil\.test/,
  ],
  ['an external image-set() in <style>', wrap('<style>svg{background:image-set("https://evil.test/x.png" 1x)}</style>'), /evil\.test/],
  ['an external <image>', wrap('<image href="http://evil.test/x.png" width="1" height="1"/>'), /evil\.test/],
  ['an external xlink <image>', wrap('<image xlink:href="https://evil.test/x.png" width="1" height="1"/>'), /evil\.test/],
  ['an external <use>', wrap('<use href="http://evil.test/s.svg#x"/>'), /evil\.test/],
  ['an external <feImage>', wrap('<filter id="f"><feImage href="https://evil.test/x.png"/></filter>'), /evil\.test/],
  ['an SVG data: image', wrap('<image href="data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=" width="1" height="1"/>'), /svg\+xml/],
  ['a link to another site', wrap('<a href="https://evil.test/phish"><text>x</text></a>'), /evil\.test/],
  [
    'markup inside <title> (an HTML integration point)',
    wrap('<title><style>x</style><a href="#a">y</a></title>'),
    /<title><style|<title><a/,
  ],
  ['a <font> element (breaks out of SVG in HTML)', wrap('<font color="red"><text>x</text></font>'), /<font/],
];

/** CSS escapes decoded, whitespace and control characters dropped: what a browser would resolve a URL to. */
const resolved = (value: string) =>
  value
    .replace(/\\([0-9a-f]{1,6})\s?/gi, (_, hex: string) => String.fromCodePoint(Number.parseInt(hex, 16)))
    .replace(/\\(.)/g, '$1')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: browsers drop these inside a URL scheme
    .replace(/[\u0000-\u0020]/g, '')
    .toLowerCase();

const SAFE_URL = /^(#|data:image\/(png|jpeg|gif|webp)[;,])/;

/** Everything that would run script or fetch another resource, as an HTML and as an XML consumer sees it. */
function hazards(svg: string): string[] {
  const { window } = new JSDOM('<!doctype html><div id="host"></div>');
  const xml = new window.DOMParser().parseFromString(svg, 'image/svg+xml');
  const host = window.document.getElementById('host')!;
  host.innerHTML = svg;
  const found: string[] = [];
  for (const [how, root] of [
    ['xml', xml.documentElement],
    ['html', host.firstElementChild],
  ] as const) {
    if (!root) {
      found.push(`${how}: nothing parsed`);
      continue;
    }
    for (const element of [root, ...root.querySelectorAll('*')]) {
      const where = `${how} <${element.nodeName}>`;
      if (element.namespaceURI !== 'http://www.w3.org/2000/svg') found.push(`${where} outside the SVG namespace`);
      const text = element.localName === 'style' ? resolved(element.textContent ?? '') : '';
      if (/@import|javascript:|expression\(|image-set\(/.test(text)) found.push(`${where} imports or scripts`);
      for (const target of text.matchAll(/url\(['"]?([^'")]*)/g)) if (!SAFE_URL.test(target[1]!)) found.push(`${where} url(${target[1]})`);
      for (const attr of element.attributes) {
        const value = resolved(attr.value);
        if (/^on/i.test(attr.localName)) found.push(`${where} ${attr.name}`);
        if (/(java|vb)script:/.test(value)) found.push(`${where} ${attr.name}=${value}`);
        if (/^(href|src|base|formaction|action)$/i.test(attr.localName) && !SAFE_URL.test(value))
          found.push(`${where} ${attr.name}=${value}`);
        for (const target of value.matchAll(/url\(['"]?([^'")]*)/g))
          if (!SAFE_URL.test(target[1]!)) found.push(`${where} ${attr.name}: url(${target[1]})`);
        if (
          /^(set|animate\w*)$/i.test(element.localName) &&
          attr.localName === 'attributeName' &&
          /href|^on|style|base|action/i.test(value)
        ) {
          found.push(`${where} animates ${value}`);
        }
      }
    }
  }
  return found;
}

describe('sanitizeTemplateSvg against stored XSS', () => {
  it.each(PAYLOADS)('neutralises %s', (_, svg, forbidden) => {
    const result = sanitizeTemplateSvg(svg);
    expect(result.svg).not.toMatch(forbidden);
    expect(hazards(result.svg)).toEqual([]);
    expect(result.removed.length).toBeGreaterThan(0);
  });

  it('neutralises every payload at once, reporting what it removed', () => {
    const all = wrap(PAYLOADS.map(([, svg]) => svg.replace(/^<svg[^>]*>|<\/svg>$/g, '')).join(''), ` ${XLINK}`);
    const result = sanitizeTemplateSvg(all);
    expect(hazards(result.svg)).toEqual([]);
    expect(result.removed).toEqual(expect.arrayContaining(['<p>', '<font>']));
    expect(result.removed.some((r) => r.includes('foo:href') || r.startsWith('<animate'))).toBe(true);
  });

  it('refuses a NUL character, which Postgres text cannot store', () => {
    expect(() => sanitizeTemplateSvg(wrap('<text>a\u0000b</text>'))).toThrow(/^Invalid SVG: .*NUL/);
    expect(() => sanitizeTemplateSvg(wrap('<text>a\u0000b</text>'))).toThrow(expect.objectContaining({ code: 'VALIDATION_ERROR' }));
  });

  it('keeps legitimate templates intact: gradients, filters, clips, animations, fonts, bound text and images', () => {
    const svg = wrap(
      '<defs>' +
        '<linearGradient id="lg" x1="0" y1="0" x2="1" y2="1" gradientUnits="objectBoundingBox" gradientTransform="rotate(10)">' +
        '<stop offset="0" stop-color="#f00" stop-opacity="0.5"/><stop offset="1" stop-color="blue"/></linearGradient>' +
        '<radialGradient id="rg" cx="0.5" cy="0.5" r="0.5" href="#lg"/>' +
        '<filter id="shadow" x="-10%" y="-10%" width="120%" height="120%" filterUnits="objectBoundingBox">' +
        '<feGaussianBlur in="SourceAlpha" stdDeviation="2" result="blur"/><feOffset dx="1" dy="2" result="o"/>' +
        '<feFlood flood-color="#000" flood-opacity="0.3"/><feComposite in2="o" operator="in"/>' +
        '<feMerge><feMergeNode/><feMergeNode in="SourceGraphic"/></feMerge>' +
        '<feImage href="data:image/png;base64,AAAA"/></filter>' +
        '<clipPath id="clip" clipPathUnits="userSpaceOnUse"><circle cx="5" cy="5" r="5"/></clipPath>' +
        '<path id="curve" d="M0 5 Q 5 0 10 5"/>' +
        '</defs>' +
        '<style><![CDATA[ @font-face{font-family:"Brand";src:local("Inter")} .t{font:bold 12px "Brand", sans-serif;fill:url(#lg)} ]]></style>' +
        '<style data-variable="theme">.bg{fill:#00ff00}</style>' +
        '<rect class="bg" width="10" height="10" rx="2" style="fill:url(&quot;#rg&quot;);filter:url(#shadow)" clip-path="url(#clip)">' +
        '<animate attributeName="opacity" values="0;1" dur="1s" repeatCount="indefinite"/>' +
        '<set attributeName="fill" to="url(#lg)" begin="1s"/></rect>' +
        '<g transform="translate(1 1)"><animateTransform attributeName="transform" type="rotate" from="0" to="360" dur="2s"/></g>' +
        '<text class="t" x="1" y="9" font-family="Brand" data-variable="title" xml:space="preserve">Hi</text>' +
        '<text><textPath href="#curve" startOffset="10%">along</textPath></text>' +
        '<use xlink:href="#curve" x="1"/><use href="#curve" y="1"/>' +
        '<image data-variable="logo" x="0" y="0" width="10" height="10" preserveAspectRatio="xMidYMid slice"/>' +
        '<a href="#curve"><title>Tooltip</title><desc>A card</desc><circle cx="1" cy="1" r="1"/></a>',
      ' viewBox="0 0 10 10"',
    );
    const result = sanitizeTemplateSvg(svg);
    expect(result.removed).toEqual([]);
    expect(hazards(result.svg)).toEqual([]);
    for (const kept of [
      'viewBox="0 0 10 10"',
      '<linearGradient id="lg" x1="0" y1="0" x2="1" y2="1" gradientUnits="objectBoundingBox" gradientTransform="rotate(10)">',
      '<radialGradient id="rg" cx="0.5" cy="0.5" r="0.5" href="#lg"/>',
      '<feGaussianBlur in="SourceAlpha" stdDeviation="2" result="blur"/>',
      '<feMergeNode in="SourceGraphic"/>',
      '<feImage href="data:image/png;base64,AAAA"/>',
      '<clipPath id="clip" clipPathUnits="userSpaceOnUse">',
      '@font-face{font-family:"Brand";src:local("Inter")}',
      '.t{font:bold 12px "Brand", sans-serif;fill:url(#lg)}',
      '<style data-variable="theme">.bg{fill:#00ff00}</style>',
      'style="fill:url(&quot;#rg&quot;);filter:url(#shadow)" clip-path="url(#clip)"',
      '<animate attributeName="opacity" values="0;1" dur="1s" repeatCount="indefinite"/>',
      '<set attributeName="fill" to="url(#lg)" begin="1s"/>',
      '<animateTransform attributeName="transform" type="rotate" from="0" to="360" dur="2s"/>',
      'data-variable="title" xml:space="preserve">Hi</text>',
      '<textPath href="#curve" startOffset="10%">along</textPath>',
      'xlink:href="#curve"',
      '<image data-variable="logo" x="0" y="0" width="10" height="10" preserveAspectRatio="xMidYMid slice"/>',
      '<title>Tooltip</title><desc>A card</desc>',
    ]) {
      expect(result.svg).toContain(kept);
    }
    expect([...result.bindings]).toEqual([
      ['theme', ['style']],
      ['title', ['text']],
      ['logo', ['image']],
    ]);
  });

  it('takes SVG pasted without namespace declarations, and refuses a root outside the SVG namespace', () => {
    const result = sanitizeTemplateSvg('<svg width="10" height="10"><use xlink:href="#a"/><text data-variable="t">x</text></svg>');
    expect(result.svg).toBe(
      '<svg xmlns:xlink="http://www.w3.org/1999/xlink" xmlns="http://www.w3.org/2000/svg" width="10" height="10">' +
        '<use xlink:href="#a"/><text data-variable="t">x</text></svg>',
    );
    expect([...result.bindings]).toEqual([['t', ['text']]]);
    expect(() => sanitizeTemplateSvg('<svg xmlns="http://www.w3.org/1999/xhtml"><rect/></svg>')).toThrow(/SVG namespace/);
  });

  it('fills a sanitised template: an image variable becomes a render-image ref, text stays text', () => {
    const { svg, bindings } = sanitizeTemplateSvg(
      wrap('<image data-variable="logo" width="10" height="10"/><text data-variable="title">x</text>'),
    );
    const variables = checkVariables(
      [
        { name: 'logo', type: 'image' },
        { name: 'title', type: 'text' },
      ],
      bindings,
    );
    const filled = fillTemplate(svg, variables, { logo: 'https://a.test/p.png', title: '<img src=x onerror=alert(1)>' });
    expect(filled.images).toEqual([{ ref: 'render-image:0', url: 'https://a.test/p.png' }]);
    expect(filled.svg).toContain('<image data-variable="logo" width="10" height="10" href="render-image:0"/>');
    const { window } = new JSDOM('<!doctype html><div></div>');
    const host = window.document.querySelector('div')!;
    host.innerHTML = filled.svg;
    expect(host.querySelector('img')).toBeNull();
    expect(host.querySelector('text')?.textContent).toBe('<img src=x onerror=alert(1)>');
  });

  it('refuses CSS that would import or fetch as the value of a text variable bound to <style>', () => {
    const { svg, bindings } = sanitizeTemplateSvg(wrap('<style data-variable="theme">.a{fill:red}</style>'));
    const variables = checkVariables([{ name: 'theme', type: 'text' }], bindings);
    expect(fillTemplate(svg, variables, { theme: '.a{fill:url(#g);font-family:"A"}' }).svg).toContain('.a{fill:url(#g);font-family:"A"}');
    for (const theme of [
      '@import url(https://evil.test/x.css)',
      '.a{fill:url(https://evil.test/p.svg#g)}',
      '.a{fill:url(java\\73 cript:alert(1))}',
      '</style><img src=x onerror=alert(1)>',
    ]) {
      expect(() => fillTemplate(svg, variables, { theme })).toThrow(/variable "theme"/);
    }
    expect(() => checkVariables([{ name: 'theme', type: 'text', defaultValue: '@import "https://evil.test/x.css";' }], bindings)).toThrow(
      /default value of variable "theme"/,
    );
  });

  it('refuses more elements than it will walk, before parsing', () => {
    const many = wrap('<g/>'.repeat(TemplateLimits.svgMaxElements));
    expect(() => sanitizeTemplateSvg(many)).toThrow('SVG has too many elements: at most 10,000');
    expect(sanitizeTemplateSvg(wrap('<g/>'.repeat(TemplateLimits.svgMaxElements - 1))).removed).toEqual([]);
  });

  it('keeps large exported artwork at the size limit intact', () => {
    // Paths with long outlines, shapes and labels: what large exported artwork is made of.
    const outline = (i: number) => Array.from({ length: 80 }, (_, k) => `L${k * 3.5} ${(i * k) % 97}.5`).join(' ');
    const artwork = (count: number) =>
      wrap(
        '<defs><linearGradient id="g"><stop offset="0"/></linearGradient></defs><style>.t{font:9px serif}</style>' +
          Array.from(
            { length: count },
            (_, i) =>
              `<path fill="url(#g)" stroke="#333" d="M${i} 0 ${outline(i)} Z"/>` +
              `<rect x="${i % 100}" y="${i % 50}" width="4" height="4" style="opacity:.5"/><text x="1" y="2" class="t">Label ${i}</text>`,
          ).join(''),
      );
    const svg = artwork(430);
    expect(svg.length).toBeGreaterThan(400 * 1024);
    expect(svg.length).toBeLessThan(TemplateLimits.svgMaxBytes);
    // How fast is measured outside the tests (see the closing note); here only that nothing is lost.
    const result = sanitizeTemplateSvg(svg);
    expect(result.removed).toEqual([]);
    expect(result.svg.match(/<path /g)).toHaveLength(430);
  });
});

describe('checkVariables', () => {
  const bindings = new Map([
    ['title', ['text']],
    ['logo', ['image']],
  ]);

  it('stores defaults as strings', () => {
    expect(
      checkVariables(
        [
          { name: 'title', type: 'number', defaultValue: 3 },
          { name: 'logo', type: 'image' },
        ],
        bindings,
      ),
    ).toEqual([
      { name: 'title', type: 'number', defaultValue: '3' },
      { name: 'logo', type: 'image', defaultValue: '' },
    ]);
  });

  it.each([
    [
      [
        { name: 'title', type: 'text' },
        { name: 'title', type: 'text' },
        { name: 'logo', type: 'image' },
      ],
      /declared more than once/,
    ],
    [
      [
        { name: 'title', type: 'text' },
        { name: 'logo', type: 'text' },
      ],
      /"logo" is text but is bound to an <image> element/,
    ],
    [
      [
        { name: 'title', type: 'text' },
        { name: 'logo', type: 'image', defaultValue: 'ftp://x/y.png' },
      ],
      /must be an http:\/\/ or https:\/\/ image URL/,
    ],
    [[{ name: 'title', type: 'text' }], /binds data-variable="logo" but no variable named "logo"/],
    [[{ name: 'format', type: 'text' }], /reserved/],
  ] as const)('refuses %j', (variables, message) => {
    expect(() => checkVariables(variables as never, bindings)).toThrow(message);
  });
});

describe('fillTemplate', () => {
  const variables = [
    { name: 'title', type: 'text' as const, defaultValue: 'Default' },
    { name: 'n', type: 'number' as const, defaultValue: '1' },
    { name: 'pic', type: 'image' as const, defaultValue: '' },
    { name: 'pic2', type: 'image' as const, defaultValue: '' },
  ];
  const svg = wrap(
    '<text data-variable="title">x<tspan>y</tspan></text><text data-variable="n">0</text>' +
      '<image data-variable="pic" xlink:href="#old"/><image data-variable="pic2" href="data:image/png;base64,AAAA"/>',
  );

  it('replaces text (escaped), normalises numbers and points images at refs, one per distinct URL', () => {
    const filled = fillTemplate(svg, variables, { title: '</text><script>', n: ' 0042 ', pic: 'https://a.test/p.png' });
    expect(filled.svg).toMatch(/<text data-variable="title">&lt;\/text(>|&gt;)&lt;script(>|&gt;)<\/text>/);
    expect(filled.svg).toContain('<text data-variable="n">42</text>');
    expect(filled.svg).toContain('href="render-image:0"');
    expect(filled.svg).toContain('xlink:href="render-image:0"');
    // No value and no default: the element keeps what the author drew.
    expect(filled.svg).toContain('href="data:image/png;base64,AAAA"');
    expect(filled.images).toEqual([{ ref: 'render-image:0', url: 'https://a.test/p.png' }]);
  });

  it('takes a variable named like an Object.prototype member (toString) from its own value or default only', () => {
    const named = [{ name: 'toString', type: 'text' as const, defaultValue: 'Default' }];
    const doc = wrap('<text data-variable="toString">x</text>');
    expect(fillTemplate(doc, named, {}).svg).toContain('<text data-variable="toString">Default</text>');
    expect(fillTemplate(doc, named, { toString: 'Given' }).svg).toContain('<text data-variable="toString">Given</text>');
  });

  it('uses defaults and refuses unknown names', () => {
    expect(fillTemplate(svg, variables, {}).svg).toContain('<text data-variable="title">Default</text>');
    expect(() => fillTemplate(svg, variables, { other: 'x' })).toThrow(
      /^Unknown variable "other"; this template's variables are: title, n, pic, pic2$/,
    );
    expect(() => fillTemplate(svg, variables, { n: 'NaN' })).toThrow(/must be a number/);
  });

  // XML 1.0 Char: every C0 control but tab, LF and CR, U+FFFE, U+FFFF, and unpaired surrogates.
  const FORBIDDEN: Array<[string, string]> = [
    ['\u0000', 'U+0000 (NUL)'],
    ['\u0001', 'U+0001'],
    ['\u0008', 'U+0008'],
    ['\u000B', 'U+000B'],
    ['\u000C', 'U+000C'],
    ['\u000E', 'U+000E'],
    ['\u001F', 'U+001F'],
    ['\uFFFE', 'U+FFFE'],
    ['\uFFFF', 'U+FFFF'],
    ['\uD800', 'a lone surrogate (U+D800)'],
    ['\uDFFF', 'a lone surrogate (U+DFFF)'],
  ];

  it.each(FORBIDDEN)('refuses %j in a value, naming the variable and the character', (char, name) => {
    expect(() => fillTemplate(svg, variables, { title: `ab${char}c` })).toThrow(
      `The value of variable "title" contains ${name} at position 3, a character XML does not allow`,
    );
    expect(() => fillTemplate(svg, variables, { title: `${char}` })).toThrow(expect.objectContaining({ code: 'VALIDATION_ERROR' }));
  });

  it('refuses them in a default saved before they were refused, and at save', () => {
    const stale = variables.map((v) => (v.name === 'title' ? { ...v, defaultValue: 'old\u000Bdefault' } : v));
    expect(() => fillTemplate(svg, stale, {})).toThrow(/^The default value of variable "title" contains U\+000B at position 4/);
    const declared = [{ name: 'title', type: 'text' as const, defaultValue: 'a\uFFFEb' }];
    expect(() => checkVariables(declared, new Map([['title', ['text']]]))).toThrow(
      /^The default value of variable "title" contains U\+FFFE at position 2/,
    );
  });

  it('keeps what XML allows, and the filled document parses as XML', () => {
    const allowed = 'tab\there\nline\rcr \u0085 \u00A0 \uE000 \uFFFD \u{1F600} 中文 &<>"\'';
    const filled = fillTemplate(svg, variables, { title: allowed });
    expect(xmlProblem(Buffer.from(filled.svg, 'utf8'))).toBeUndefined();
    expect(filled.svg).toContain('\u{1F600}');
    // The oracle itself: the same document with a forbidden character is refused.
    expect(xmlProblem(Buffer.from(filled.svg.replace('tab', '\u000B'), 'utf8'))).toBeDefined();
  });
});

describe('SVG documents with characters XML forbids', () => {
  it('are refused at save, with where the character is', () => {
    expect(() => sanitizeTemplateSvg(wrap('<text>a\u000Bb</text>'))).toThrow(/^Invalid SVG: .*U\+000B at line 1, column \d+/);
    expect(() => sanitizeTemplateSvg(wrap('<text>\n\uD800</text>'))).toThrow(
      /^Invalid SVG: .*a lone surrogate \(U\+D800\) at line 2, column 1,/,
    );
  });
});
