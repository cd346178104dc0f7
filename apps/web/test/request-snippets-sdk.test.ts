import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { buildSnippet, type SnippetRequest, snippetLanguagesFor } from '../src/lib/request-snippets.ts';

const request = (path: string, body: Record<string, unknown>, outputFile?: string): SnippetRequest => ({
  baseUrl: 'https://render.test',
  method: 'POST',
  path,
  body,
  auth: { kind: 'apiKey', value: 'rk_live_123' },
  outputFile,
});

/** The SDK call in a snippet, parsed as TypeScript: the method and its arguments evaluated as values. */
function sdkCall(code: string): { method: string; args: unknown[] } {
  const source = ts.createSourceFile('snippet.ts', code, ts.ScriptTarget.ES2022, true);
  const syntax = (source as unknown as { parseDiagnostics: ts.Diagnostic[] }).parseDiagnostics;
  expect(syntax.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))).toEqual([]);
  let found: ts.CallExpression | undefined;
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && node.expression.getText(source).startsWith('render.')) found = node;
    ts.forEachChild(node, visit);
  };
  visit(source);
  expect(found, 'a render.<method>(…) call').toBeDefined();
  return {
    method: found!.expression.getText(source).slice('render.'.length),
    // Object literals and strings only: evaluating them gives back what the snippet sends.
    args: found!.arguments.map((arg) => new Function(`return (${arg.getText(source)});`)()),
  };
}

describe('the SDK tab of the request snippets', () => {
  it('calls the method of each render kind with the same body, and writes the image it returns', () => {
    const cases = [
      ['/api/html-to-img/convert', 'html', { html: '<h1 class="x">It\'s "here"</h1>', width: 1234, format: 'webp' }],
      ['/api/svg-to-img/convert', 'svg', { svg: '<svg xmlns="http://www.w3.org/2000/svg"/>', transparent: true }],
      [
        '/api/chart-to-img/convert',
        'chart',
        { library: 'chartjs', chartType: 'bar', chartData: { labels: ['a', 'b'], datasets: [{ label: 'n', data: [1, 2] }] } },
      ],
      [
        '/api/code-to-img/convert',
        'code',
        { code: 'let a = `x`;\n\\n', background: { gradient: { from: '#4f46e5', to: '#db2777', angle: 90 } }, 'odd-key': 1 },
      ],
      ['/api/screenshot/convert', 'screenshot', { url: 'https://example.com', format: 'pdf', margin: { top: '1cm' } }],
    ] as const;
    for (const [path, method, body] of cases) {
      const code = buildSnippet('sdk', request(path, body, 'out.bin'));
      expect(sdkCall(code), path).toEqual({ method, args: [body] });
      expect(code).toContain("import { RenderClient } from 'render-api-sdk';");
      expect(code).toContain('render-api-sdk: install it as the SDK tab of the docs says');
      expect(code).toContain('new RenderClient({ apiKey: process.env.RENDER_API_KEY, baseUrl: "https://render.test" })');
      expect(code).toContain('RENDER_API_KEY=rk_live_123');
      expect(code).toContain('await writeFile("out.bin", image);');
    }
  });

  it('calls template(id, { variables, format }) for template generation', () => {
    const body = { templateId: 'a1b2', variables: { title: 'Hello' }, format: 'jpeg', quality: 80 };
    const code = buildSnippet('sdk', request('/api/template/generate', body));
    expect(sdkCall(code)).toEqual({ method: 'template', args: ['a1b2', { variables: { title: 'Hello' }, format: 'jpeg', quality: 80 }] });
    // No output file given: named after the format.
    expect(code).toContain('await writeFile("image.jpg", image);');
  });

  it('leaves out the output mode (the SDK always returns the image bytes)', () => {
    const code = buildSnippet('sdk', request('/api/code-to-img/convert', { code: 'x', outputType: 'json', format: 'png' }));
    expect(sdkCall(code).args).toEqual([{ code: 'x', format: 'png' }]);
    expect(buildSnippet('sdk', request('/api/html-to-img/convert', { html: 'x', output: 'json' }))).not.toContain('output');
  });

  it('is offered only for calls the SDK has a method for', () => {
    expect(snippetLanguagesFor({ method: 'POST', path: '/api/html-to-img/convert' })).toEqual(['curl', 'javascript', 'python', 'sdk']);
    expect(snippetLanguagesFor({ method: 'POST', path: '/api/template/generate' })).toContain('sdk');
    expect(snippetLanguagesFor({ method: 'POST', path: '/api/auth/login' })).toEqual(['curl', 'javascript', 'python']);
    expect(snippetLanguagesFor({ method: 'GET', path: '/api/code-to-img/convert' })).not.toContain('sdk');
  });
});
