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

  it('keeps what renders: fragments, web and data:image links, styles and text', () => {
    const svg = wrap(
      '<defs><linearGradient id="g"><stop offset="0" stop-color="red"/></linearGradient></defs>' +
        '<style>.a{fill:url(#g)}</style><use href="#g"/><a href="https://example.com"><text class="a">Hi &amp; bye</text></a>' +
        '<image href="data:image/png;base64,AAAA" width="1" height="1"/>',
    );
    const result = sanitizeTemplateSvg(svg);
    expect(result.removed).toEqual([]);
    for (const kept of [
      '<linearGradient id="g">',
      '.a{fill:url(#g)}',
      'href="#g"',
      'href="https://example.com"',
      'Hi &amp; bye',
      'data:image/png;base64,AAAA',
    ]) {
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

  it('uses defaults and refuses unknown names', () => {
    expect(fillTemplate(svg, variables, {}).svg).toContain('<text data-variable="title">Default</text>');
    expect(() => fillTemplate(svg, variables, { other: 'x' })).toThrow(
      /^Unknown variable "other"; this template's variables are: title, n, pic, pic2$/,
    );
    expect(() => fillTemplate(svg, variables, { n: 'NaN' })).toThrow(/must be a number/);
  });
});
