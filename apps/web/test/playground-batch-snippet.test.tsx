import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import ts from 'typescript';
import { afterEach, describe, expect, it } from 'vitest';
import { apiKeyPost, RequestPanel } from '../src/components/render-form/request-panel.tsx';
import { asBatchRequest } from '../src/lib/batch-snippet.ts';
import { buildSnippet, type SnippetRequest } from '../src/lib/request-snippets.ts';
import { renderPage } from './helpers/render-page.tsx';

// The playgrounds' snippets offer the request as the one item of a batch (POST /api/batch), in every
// language, with the fields a batch item cannot use left out.

const HTML = '/api/html-to-img/convert';
const html = (body: Record<string, unknown>) => apiKeyPost('https://render.test', HTML, body, 'rk_live_123', 'image.png');

afterEach(async () => {
  await i18next.changeLanguage('en');
});

/** Syntax errors of a snippet read as TypeScript (none for code that can be pasted and run). */
function syntaxErrors(code: string): string[] {
  const source = ts.createSourceFile('snippet.ts', code, ts.ScriptTarget.ES2022, true);
  return (source as unknown as { parseDiagnostics: ts.Diagnostic[] }).parseDiagnostics.map((d) =>
    ts.flattenDiagnosticMessageText(d.messageText, '\n'),
  );
}

describe('asBatchRequest', () => {
  it('puts the body in one item of its kind, without output, outputType and cache, and moves the webhook to the batch', () => {
    const batch = asBatchRequest(
      html({ html: '<h1>Hi</h1>', width: 400, output: 'binary', cache: { ttl: 60 }, webhook: 'https://hooks.example.com/r' }),
    );
    expect(batch).toMatchObject({ method: 'POST', path: '/api/batch', auth: { kind: 'apiKey', value: 'rk_live_123' } });
    expect(batch?.body).toEqual({
      items: [{ kind: 'html', body: { html: '<h1>Hi</h1>', width: 400 } }],
      webhook: 'https://hooks.example.com/r',
    });
    // A batch answers JSON (its id): nothing is written to an image file.
    expect(batch?.outputFile).toBeUndefined();
    const chart = asBatchRequest(apiKeyPost('', '/api/chart-to-img/convert', { chartType: 'bar', outputType: 'json' }, null));
    expect(chart?.body).toEqual({ items: [{ kind: 'chart', body: { chartType: 'bar' } }] });
  });

  it('offers nothing for a call a batch cannot hold', () => {
    expect(asBatchRequest(apiKeyPost('', '/chart', { chart: {} }, null))).toBeUndefined();
    expect(asBatchRequest({ ...html({ html: 'x' }), method: 'GET' })).toBeUndefined();
  });

  it('writes the batch as curl and as the SDK’s batch call, followed to its zip', () => {
    const batch = asBatchRequest(html({ html: '<h1>Hi</h1>', output: 'binary' })) as SnippetRequest;
    const curl = buildSnippet('curl', batch);
    expect(curl).toContain("-X POST 'https://render.test/api/batch'");
    expect(curl).toContain(`-d '{"items":[{"kind":"html","body":{"html":"<h1>Hi</h1>"}}]}'`);
    expect(curl).not.toContain(' -o ');
    const sdk = buildSnippet('sdk', batch);
    expect(syntaxErrors(sdk)).toEqual([]);
    expect(sdk).toContain('const batch = await render.batch({\n  items: [\n    {\n      kind: "html",');
    expect(sdk).toContain('await render.getBatch(batch.id)');
    expect(sdk).toContain("writeFile('batch.zip', await render.batchArchive(batch.id))");
  });
});

describe('the batch switch of a playground’s request', () => {
  it('shows the request as a batch item in every tab while it is on, with a line on what follows', async () => {
    const user = userEvent.setup();
    renderPage(() => <RequestPanel title="Request" request={html({ html: '<h1>Hi</h1>', width: 400, output: 'binary' })} />);
    const toggle = await screen.findByLabelText('As a batch item');
    expect(toggle).not.toBeChecked();
    expect(screen.getByTestId('snippet-curl').textContent).toContain(`'https://render.test${HTML}'`);
    expect(screen.queryByTestId('snippet-batch-hint')).toBeNull();

    await user.click(toggle);
    expect(screen.getByTestId('snippet-curl').textContent).toContain(`"items":[{"kind":"html","body":{"html":"<h1>Hi</h1>","width":400}}]`);
    expect(screen.getByTestId('snippet-curl').textContent).not.toContain(HTML);
    expect(screen.getByTestId('snippet-batch-hint').textContent).toContain('GET /api/batches/{id}');
    await user.click(screen.getByRole('tab', { name: 'SDK' }));
    expect(screen.getByTestId('snippet-sdk').textContent).toContain('render.batch(');
    await user.click(screen.getByRole('tab', { name: 'Python' }));
    expect(within(screen.getByTestId('snippet-python')).getByText(/requests\.post/).textContent).toContain('/api/batch');

    await user.click(toggle);
    expect(screen.getByTestId('snippet-python').textContent).toContain(HTML);
  });

  it('is labelled from the French catalog in French', async () => {
    await i18next.changeLanguage('fr');
    const user = userEvent.setup();
    renderPage(() => <RequestPanel title="Requête" request={html({ html: '<p>x</p>' })} />);
    await user.click(await screen.findByLabelText('Comme élément d’un lot'));
    expect(screen.getByTestId('snippet-batch-hint').textContent).toContain('jusqu’à 50 éléments');
  });

  it('is not offered for a request a batch cannot hold', async () => {
    renderPage(() => <RequestPanel title="Request" request={apiKeyPost('https://render.test', '/chart', { chart: {} }, null)} />);
    await screen.findByTestId('snippet-curl');
    expect(screen.queryByLabelText('As a batch item')).toBeNull();
  });
});
