import { HtmlConvertBody, PdfFieldNames, RenderLimits } from '@render/contracts';
import { describe, expect, it } from 'vitest';
import { DOCS_SECTIONS } from '../src/features/docs/docs-sections.ts';
import {
  accessOf,
  exampleOf,
  fieldRows,
  jsonBodySchema,
  type OpenApiDocument,
  operationsFor,
} from '../src/features/docs/openapi-fields.ts';
import openapi from '../src/generated/openapi.json';

const doc = openapi as unknown as OpenApiDocument;
const t = (key: string, values: Record<string, unknown> = {}) => `${key}:${JSON.stringify(values)}`;

describe('docs field tables, read from the exported OpenAPI document', () => {
  it('lists every field of the HTML call with its type, default and bounds from the contract', () => {
    const rows = fieldRows(jsonBodySchema(doc.paths['/api/html-to-img/convert']!.post!), doc, t);
    expect(
      rows
        .map((r) => r.name)
        .filter((name) => !name.includes('.'))
        .sort(),
    ).toEqual(Object.keys(HtmlConvertBody.properties).sort());
    const width = rows.find((r) => r.name === 'width')!;
    expect(width).toMatchObject({ type: 'integer', required: false, defaultValue: '800' });
    expect(width.bounds).toBe(`bounds.range:${JSON.stringify({ min: RenderLimits.minDimension, max: RenderLimits.maxDimension })}`);
    expect(rows[0]).toMatchObject({ name: 'html', required: true, type: 'string' });
    expect(rows.find((r) => r.name === 'format')?.bounds).toContain('png, jpeg, webp, avif, pdf');
  });

  it('documents the code frame options with descriptions, nested fields included', () => {
    const rows = fieldRows(jsonBodySchema(doc.paths['/api/code-to-img/convert']!.post!), doc, t);
    const row = (name: string) => rows.find((r) => r.name === name);
    for (const name of [
      'window',
      'window.style',
      'window.title',
      'background',
      'background.color',
      'background.gradient',
      'outerPadding',
      'shadow',
      'highlightLines',
      'firstLineNumber',
    ]) {
      expect(row(name)?.description, name).toBeTruthy();
    }
    expect(row('window.style')?.bounds).toContain('mac, windows, none');
    expect(row('firstLineNumber')).toMatchObject({ type: 'integer', defaultValue: '1' });
  });

  it('documents the PDF options of the HTML and screenshot calls, margin sides included', () => {
    for (const path of ['/api/html-to-img/convert', '/api/screenshot/convert']) {
      const rows = fieldRows(jsonBodySchema(doc.paths[path]!.post!), doc, t);
      const row = (name: string) => rows.find((r) => r.name === name);
      expect(row('pageSize'), path).toMatchObject({ type: 'string', defaultValue: '"A4"' });
      expect(row('pageSize')?.bounds).toContain('A4, Letter, Legal, A3, A5, Tabloid');
      for (const name of PdfFieldNames) {
        expect(row(name)?.description, `${path} ${name}`).toMatch(/\S/);
      }
      expect(row('margin')?.type).toBe('object');
      expect(rows.map((r) => r.name)).toEqual(expect.arrayContaining(['margin.top', 'margin.right', 'margin.bottom', 'margin.left']));
      expect(row('printBackground')?.defaultValue).toBe('true');
      expect(row('headerTemplate')?.bounds).toContain('10000');
    }
  });

  it('gives every tab its operations and an example from the document', () => {
    // The SDK, CLI and MCP tabs are written guides (test/docs-guides.test.ts).
    for (const section of DOCS_SECTIONS.filter((s) => !s.guide)) {
      expect(operationsFor(doc, section.match).length, section.id).toBeGreaterThan(0);
      if (section.example) expect(exampleOf(doc, 'post', section.example.path), section.id).toBeTruthy();
    }
    expect(operationsFor(doc, DOCS_SECTIONS.find((s) => s.id === 'template')!.match).length).toBeGreaterThanOrEqual(10);
  });
});

describe('who may call each operation, as the docs word it', () => {
  const access = (method: string, path: string) => accessOf(doc.paths[path]![method]!);

  it('says the account, usage and async render calls need credentials, not that they work anonymously', () => {
    for (const path of ['/api/auth/me', '/api/auth/usage', '/api/renders/{id}', '/api/webhooks/deliveries']) {
      expect(access('get', path), path).toBe('signedIn');
    }
    expect(access('post', '/api/auth/api-key/regenerate')).toBe('session');
    expect(access('post', '/api/html-to-img/convert')).toBe('anonymous');
    expect(access('get', '/api/template/public')).toBe('anonymous');
    expect(access('post', '/api/auth/login')).toBe('public');
    expect(access('get', '/api/template/{id}/image')).toBe('public');
  });

  it('has a text for every kind of access, in English and French', async () => {
    const catalogs = [await import('../src/i18n/locales/en/docs.json'), await import('../src/i18n/locales/fr/docs.json')];
    const kinds = new Set(Object.values(doc.paths).flatMap((methods) => Object.values(methods).map((operation) => accessOf(operation))));
    expect([...kinds].sort()).toEqual(['anonymous', 'public', 'session', 'signedIn']);
    for (const catalog of catalogs)
      for (const kind of kinds) expect((catalog.default.access as Record<string, string>)[kind], kind).toMatch(/\S/);
  });
});
