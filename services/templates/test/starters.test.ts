import { describe, expect, it } from 'vitest';
import { fillTemplate, sanitizeTemplateSvg } from '../src/lib/svg-template.ts';
import { STARTER_TEMPLATES, starterContent, starterSvg } from '../src/starters/starters.ts';

// The seeded public starters go through the same rules as a template saved through the API
// (services/gateway/test/starter-templates.test.ts saves and renders each one over the whole stack).
describe('starter templates', () => {
  it('have distinct ids, names and files', () => {
    for (const key of ['id', 'name', 'file'] as const) {
      expect(new Set(STARTER_TEMPLATES.map((s) => s[key])).size).toBe(STARTER_TEMPLATES.length);
    }
  });

  for (const starter of STARTER_TEMPLATES) {
    it(`${starter.file}: passes the sanitiser untouched and binds exactly its declared variables`, () => {
      const { removed, bindings } = sanitizeTemplateSvg(starterSvg(starter));
      expect(removed).toEqual([]);
      expect([...bindings.keys()].sort()).toEqual(starter.variables.map((v) => v.name).sort());
      const content = starterContent(starter);
      expect(content.variables).toHaveLength(starter.variables.length);
      expect(content.svg).toMatch(/^<svg[\s>]/);
      // The root declares the size the template is stored with.
      expect(content.svg).toContain(`viewBox="0 0 ${starter.width} ${starter.height}"`);
    });

    it(`${starter.file}: fills every text variable with an escaped value`, () => {
      const content = starterContent(starter);
      const values = Object.fromEntries(
        content.variables.filter((v) => v.type === 'text').map((v) => [v.name, `<${v.name} & co>`] as const),
      );
      const filled = fillTemplate(content.svg, content.variables, values);
      for (const name of Object.keys(values)) expect(filled.svg).toContain(`&lt;${name} &amp; co&gt;`);
      expect(filled.images).toEqual([]);
    });
  }

  it('the product badge takes a photo URL on its <image>', () => {
    const badge = STARTER_TEMPLATES.find((s) => s.file === 'product-badge.svg')!;
    const content = starterContent(badge);
    const filled = fillTemplate(content.svg, content.variables, { photo: 'https://example.com/p.png', price: 99 });
    expect(filled.images).toEqual([{ ref: 'render-image:0', url: 'https://example.com/p.png' }]);
    expect(filled.svg).toContain('>99<');
  });
});
