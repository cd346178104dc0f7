import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PLAYGROUNDS } from '../src/features/playground/playground-definitions.ts';
import { CodePlaygroundPage, HtmlPlaygroundPage, ScreenshotPlaygroundPage } from '../src/features/playground/playground-pages.tsx';
import { buildRequest, decodeValues, encodeValues, minimalBody } from '../src/features/playground/playground-state.ts';
import { renderPage } from './helpers/render-page.tsx';

/** The code frame the code-playground tests choose, as the API takes it, with these highlighted lines. */
const codeFrame = (highlightLines: Array<number | string>) => ({
  window: { style: 'mac', title: 'app.ts' },
  background: { color: '#4f46e5' },
  outerPadding: 40,
  shadow: true,
  highlightLines,
  firstLineNumber: 10,
});

describe('playground definitions (docs/spec/limits.md defaults)', () => {
  it('starts every page on the spec defaults', () => {
    expect(PLAYGROUNDS.html.defaults).toMatchObject({ width: '800', height: '600', quality: '80', scale: '1' });
    expect(PLAYGROUNDS.svg.defaults).toMatchObject({ width: '800', height: '600', quality: '80' });
    expect(PLAYGROUNDS.chartjs.defaults).toMatchObject({ width: '800', height: '400', quality: '90' });
    expect(PLAYGROUNDS.d3.defaults).toMatchObject({ height: '500' });
    expect(PLAYGROUNDS.highcharts.defaults).toMatchObject({ height: '500', theme: 'light' });
    expect(PLAYGROUNDS.code.defaults).toMatchObject({
      width: '800',
      height: 'auto',
      fontSize: '14',
      padding: '20',
      borderRadius: '5',
      showLineNumbers: true,
      theme: 'vs2015',
    });
    expect(PLAYGROUNDS.screenshot.defaults).toMatchObject({
      width: '1280',
      height: '800',
      deviceType: 'desktop',
      delay: '0',
      hideCookieBanners: true,
      hideScrollbars: true,
      fullPage: false,
      language: 'en-US',
    });
    expect(PLAYGROUNDS.screenshot.fields.find((f) => f.name === 'language')?.options?.({})).toHaveLength(14);
  });

  it('every default body is valid', () => {
    for (const definition of Object.values(PLAYGROUNDS)) {
      expect(buildRequest(definition, definition.defaults).problems, definition.id).toEqual({});
    }
  });
});

describe('playground messages (docs/spec/validation.md)', () => {
  const html = PLAYGROUNDS.html;
  it('reports the contract messages', () => {
    expect(buildRequest(html, { ...html.defaults, html: '' }).problems.html).toBe('Please enter some HTML content');
    expect(buildRequest(html, { ...html.defaults, width: '10' }).problems.width).toBe('width must be between 50 and 4000');
    expect(buildRequest(html, { ...html.defaults, scale: '4' }).problems.scale).toBe('scale must be between 0.1 and 3');
    expect(buildRequest(PLAYGROUNDS.svg, { ...PLAYGROUNDS.svg.defaults, svg: '' }).problems.svg).toBe('Please enter some SVG content');
  });

  it('words JSON problems as the spec does', () => {
    const chart = PLAYGROUNDS.chartjs;
    expect(buildRequest(chart, { ...chart.defaults, chartData: '' }).problems.chartData).toBe('Please enter valid JSON chart data');
    expect(buildRequest(chart, { ...chart.defaults, chartData: '{nope' }).problems.chartData).toBe('Invalid JSON format');
    expect(buildRequest(chart, { ...chart.defaults, chartData: '42' }).problems.chartData).toBe('Invalid chart data format');
    const highcharts = PLAYGROUNDS.highcharts;
    expect(buildRequest(highcharts, { ...highcharts.defaults, chartOptions: '{nope' }).problems.chartOptions).toBe(
      'Invalid chart options format',
    );
  });

  it('checks the screenshot URL', () => {
    const shot = PLAYGROUNDS.screenshot;
    expect(buildRequest(shot, { ...shot.defaults, url: ' ' }).problems.url).toBe('Please enter a URL');
    expect(buildRequest(shot, { ...shot.defaults, url: 'example.com' }).problems.url).toBe(
      'Please enter a valid URL (including http:// or https://)',
    );
    expect(buildRequest(shot, { ...shot.defaults, url: 'ftp://example.com' }).problems.url).toBe(
      'Please enter a valid URL (including http:// or https://)',
    );
  });

  it('sends the screenshot interactions as the API takes them, and checks them with the contract', () => {
    const shot = PLAYGROUNDS.screenshot;
    expect(buildRequest(shot, shot.defaults).body).not.toHaveProperty('failOnConsoleError');
    const { body, problems } = buildRequest(shot, {
      ...shot.defaults,
      hideSelectors: '["#cookie-bar", ".chat"]',
      click: '["#accept"]',
      scrollTo: '1200',
      timezone: 'Europe/Paris',
      blockRequests: '["*.mp4"]',
      failOnHttpStatus: '[404, 500]',
      failOnConsoleError: true,
    });
    expect(problems).toEqual({});
    expect(body).toMatchObject({
      hideSelectors: ['#cookie-bar', '.chat'],
      click: ['#accept'],
      scrollTo: 1200,
      timezone: 'Europe/Paris',
      blockRequests: ['*.mp4'],
      failOnHttpStatus: [404, 500],
      failOnConsoleError: true,
    });
    expect(buildRequest(shot, { ...shot.defaults, scrollTo: '#pricing' }).body.scrollTo).toBe('#pricing');
    expect(buildRequest(shot, { ...shot.defaults, failOnHttpStatus: '[200]' }).problems.failOnHttpStatus).toBe(
      'failOnHttpStatus must be a list of at most 200 HTTP status codes between 400 and 599',
    );
    expect(buildRequest(shot, { ...shot.defaults, timezone: 'Paris, France' }).problems.timezone).toBe(
      'timezone must be an IANA time zone name, e.g. Europe/Paris',
    );
  });

  it('a device brings its viewport (mobile is an iPhone 12 Pro)', () => {
    const shot = PLAYGROUNDS.screenshot;
    expect(shot.onChange?.('deviceType', { ...shot.defaults, deviceType: 'mobile' })).toMatchObject({ width: '390', height: '844' });
    expect(shot.onChange?.('deviceType', { ...shot.defaults, deviceType: 'tablet' })).toMatchObject({ width: '1024', height: '1366' });
  });
});

describe('shareable options', () => {
  it('round-trips changed values through ?o=, ignoring foreign and mistyped ones', () => {
    const html = PLAYGROUNDS.html;
    const values = { ...html.defaults, width: '1200', html: '<p>été ✓</p>' };
    const encoded = encodeValues(html, values);
    expect(encoded).toMatch(/^[\w-]+$/);
    expect(decodeValues(html, encoded)).toEqual(values);
    expect(encodeValues(html, html.defaults)).toBeUndefined();
    const hostile = btoa(JSON.stringify({ width: 5, evil: 'x', html: '<b>ok</b>' }));
    expect(decodeValues(html, hostile)).toEqual({ ...html.defaults, html: '<b>ok</b>' });
    expect(decodeValues(html, '%%%')).toEqual(html.defaults);
  });

  it('the request snippet leaves out what the API would use anyway', () => {
    const html = PLAYGROUNDS.html;
    const { body } = buildRequest(html, { ...html.defaults, width: '1200' });
    expect(minimalBody(html, body)).toEqual({ html: html.defaults.html, width: 1200 });
  });
});

describe('the HTML playground page', () => {
  it('labels each control with its API field name and shows the spec message on blur', async () => {
    const user = userEvent.setup();
    renderPage(HtmlPlaygroundPage, { path: '/html-to-image' });
    const width = await screen.findByLabelText('Width (px)');
    expect(width).toHaveAttribute('name', 'width');
    expect(width).toHaveValue(800);
    expect(screen.getByLabelText('Quality (JPEG, WebP, AVIF)')).toHaveAttribute('name', 'quality');
    expect(document.querySelector('[name="html"]')).not.toBeNull();
    await user.clear(width);
    await user.type(width, '10');
    await user.tab();
    expect(await screen.findByText('width must be between 50 and 4000')).toBeInTheDocument();
  });

  it('offers AVIF, and lossless PNG optimisation only while the format is png', async () => {
    const user = userEvent.setup();
    renderPage(HtmlPlaygroundPage, { path: '/html-to-image' });
    const format = (await screen.findByLabelText('Format')) as HTMLSelectElement;
    expect([...format.options].map((option) => option.value)).toEqual(['png', 'jpeg', 'webp', 'avif', 'pdf']);
    await user.click(screen.getByLabelText('Optimise PNG (lossless)'));
    await waitFor(() => expect(screen.getByTestId('snippet-curl').textContent).toContain('"optimize":true'));
    await user.selectOptions(format, 'avif');
    expect(screen.queryByLabelText('Optimise PNG (lossless)')).toBeNull();
    await waitFor(() => expect(screen.getByTestId('snippet-curl').textContent).toContain('"format":"avif"'));
  });

  it('writes the current options and the key placeholder into the curl request', async () => {
    const user = userEvent.setup();
    renderPage(HtmlPlaygroundPage, { path: '/html-to-image' });
    const width = await screen.findByLabelText('Width (px)');
    await user.clear(width);
    await user.type(width, '1234');
    await waitFor(() => expect(screen.getByTestId('snippet-curl').textContent).toContain('"width":1234'));
    expect(screen.getByTestId('snippet-curl').textContent).toContain('X-API-Key: YOUR_API_KEY');
  });

  it('asks a signed-out visitor to sign in when they choose their API key', async () => {
    const user = userEvent.setup();
    renderPage(HtmlPlaygroundPage, { path: '/html-to-image' });
    await user.click(await screen.findByLabelText('Use my API key'));
    expect(await screen.findByRole('dialog', { name: 'Sign in required' })).toBeInTheDocument();
    expect(screen.getByLabelText('Use my API key')).not.toBeChecked();
  });
});

describe('PDF output (HTML and screenshot playgrounds)', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('sends the PDF options only for format pdf, margins as four sides, and checks them as the gateway does', () => {
    const html = PLAYGROUNDS.html;
    expect(buildRequest(html, { ...html.defaults, landscape: true }).body).not.toHaveProperty('landscape');
    const { body, problems } = buildRequest(html, {
      ...html.defaults,
      format: 'pdf',
      pageSize: 'Letter',
      landscape: true,
      margin: '1cm',
      printBackground: false,
    });
    expect(problems).toEqual({});
    expect(minimalBody(html, body)).toEqual({
      html: html.defaults.html,
      format: 'pdf',
      pageSize: 'Letter',
      landscape: true,
      margin: { top: '1cm', right: '1cm', bottom: '1cm', left: '1cm' },
      printBackground: false,
    });
    expect(buildRequest(html, { ...html.defaults, format: 'pdf', margin: '2em' }).problems.margin).toBe(
      'margin.top must be a length such as "210mm", "8.5in", "2cm" or "96px"',
    );
    const shot = PLAYGROUNDS.screenshot;
    expect(buildRequest(shot, { ...shot.defaults, format: 'pdf', fitToContent: true }).body).toMatchObject({
      format: 'pdf',
      fitToContent: true,
    });
  });

  it('sends the code frame options nested as the API takes them, and checks them as the gateway does', () => {
    const code = PLAYGROUNDS.code;
    // The defaults send no frame at all.
    const plain = minimalBody(code, buildRequest(code, code.defaults).body);
    for (const name of ['window', 'background', 'outerPadding', 'highlightLines', 'firstLineNumber', 'shadow', 'windowStyle']) {
      expect(plain).not.toHaveProperty(name);
    }
    const { body, problems } = buildRequest(code, {
      ...code.defaults,
      windowStyle: 'mac',
      windowTitle: 'app.ts',
      backgroundKind: 'color',
      frameBackground: '#4f46e5',
      outerPadding: '40',
      shadow: true,
      highlightLines: '3, 5-7',
      firstLineNumber: '10',
    });
    expect(problems).toEqual({});
    expect(body).toMatchObject(codeFrame([3, '5-7']));
    expect(body).not.toHaveProperty('windowStyle');
    expect(body).not.toHaveProperty('frameBackground');
    // The title is not sent without a bar.
    expect(buildRequest(code, { ...code.defaults, windowTitle: 'app.ts' }).body).not.toHaveProperty('window');
    const bad = buildRequest(code, {
      ...code.defaults,
      backgroundKind: 'color',
      frameBackground: 'red',
      windowStyle: 'mac',
      windowTitle: 'x'.repeat(101),
    }).problems;
    expect(bad.frameBackground).toBe('background.color must be a colour such as #1e3a8a');
    expect(bad.windowTitle).toBe('window.title must be at most 100 characters');
    expect(buildRequest(code, { ...code.defaults, highlightLines: 'three' }).problems.highlightLines).toMatch(/highlightLines/);
    expect(buildRequest(code, { ...code.defaults, firstLineNumber: '0' }).problems.firstLineNumber).toBe(
      'firstLineNumber must be between 1 and 1000000',
    );
  });

  it('the code playground sends the window, background, shadow, highlighted lines and first line number', async () => {
    const png = btoa('not really a png');
    const send = vi.fn(async (url: string, _init?: RequestInit) => {
      const data = String(url).includes('/languages')
        ? { languages: ['typescript'], themes: ['monokai'], themeAliases: {} }
        : { image: png, format: 'png', mimeType: 'image/png', width: 900, height: 300, size: 16 };
      return new Response(JSON.stringify({ success: true, data }), { status: 200, headers: { 'content-type': 'application/json' } });
    });
    vi.stubGlobal('fetch', send);
    Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:code'), revokeObjectURL: vi.fn() });
    const user = userEvent.setup();
    renderPage(CodePlaygroundPage, { path: '/code-to-image' });
    await user.selectOptions(await screen.findByLabelText('Window bar'), 'mac');
    await user.type(screen.getByLabelText('Window title'), 'app.ts');
    await user.selectOptions(screen.getByLabelText('Background around the window'), 'color');
    const colour = screen.getByLabelText('Background colour');
    await user.clear(colour);
    await user.type(colour, '#4f46e5');
    await user.type(screen.getByLabelText('Space around the window (px)'), '40');
    await user.click(screen.getByLabelText('Drop shadow'));
    await user.type(screen.getByLabelText('Highlighted lines'), '2, 4-5');
    const first = screen.getByLabelText('First line number');
    await user.clear(first);
    await user.type(first, '10');
    await waitFor(() => expect(screen.getByTestId('snippet-curl').textContent).toContain('"highlightLines":[2,"4-5"]'));
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    await waitFor(() => expect(send.mock.calls.some(([url]) => String(url).includes('/api/code-to-img/convert'))).toBe(true));
    const [, init] = send.mock.calls.filter(([url]) => String(url).includes('/convert')).at(-1) as [string, RequestInit];
    expect(JSON.parse(String(init.body))).toMatchObject(codeFrame([2, '4-5']));
  });

  it('shows the PDF options when pdf is chosen, sends them, and offers the PDF to open and download', async () => {
    const pdfBase64 = btoa('%PDF-1.4 test');
    const send = vi.fn(async (_url: string, _init: RequestInit) => {
      const data = { image: pdfBase64, format: 'pdf', mimeType: 'application/pdf', width: 794, height: 1123, size: 13 };
      return new Response(JSON.stringify({ success: true, data }), {
        status: 200,
        headers: { 'content-type': 'application/json', 'x-render-time': '42' },
      });
    });
    vi.stubGlobal('fetch', send);
    // jsdom has no blob URLs.
    const createObjectURL = vi.fn(() => 'blob:pdf-result');
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    const user = userEvent.setup();
    renderPage(HtmlPlaygroundPage, { path: '/html-to-image' });
    const format = await screen.findByLabelText('Format');
    expect(screen.queryByLabelText('Page size')).toBeNull();
    await user.selectOptions(format, 'pdf');
    await user.selectOptions(screen.getByLabelText('Page size'), 'A3');
    await user.click(screen.getByLabelText('Landscape'));
    await user.type(screen.getByLabelText('Margins'), '0.5in');
    expect(screen.getByLabelText('Print backgrounds')).toBeChecked();
    expect(screen.getByLabelText('One page, fitted to the content')).not.toBeChecked();
    await waitFor(() => expect(screen.getByTestId('snippet-curl').textContent).toContain('"pageSize":"A3"'));
    expect(screen.getByTestId('snippet-curl').textContent).toContain('"landscape":true');
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    await waitFor(() => expect(send).toHaveBeenCalled());
    const [url, init] = send.mock.calls.at(-1) as [string, RequestInit];
    expect(String(url)).toContain('/api/html-to-img/convert');
    expect(JSON.parse(String(init.body))).toMatchObject({
      format: 'pdf',
      pageSize: 'A3',
      landscape: true,
      margin: { top: '0.5in', right: '0.5in', bottom: '0.5in', left: '0.5in' },
      output: 'json',
    });
    expect(await screen.findByTestId('result-pdf')).toHaveTextContent('Your PDF is ready to download.');
    expect(screen.getByTestId('download-link')).toHaveAttribute('download', expect.stringMatching(/\.pdf$/));
    expect(await screen.findByTestId('open-pdf')).toHaveAttribute('href', 'blob:pdf-result');
    expect(screen.getByTestId('open-pdf')).toHaveTextContent('Open the PDF');
    const blob = (createObjectURL.mock.calls[0] as unknown as [Blob])[0];
    expect(blob.type).toBe('application/pdf');
  });

  it('the screenshot playground offers pdf with the same options', async () => {
    const user = userEvent.setup();
    renderPage(ScreenshotPlaygroundPage, { path: '/screenshot' });
    const format = await screen.findByLabelText('Format');
    await user.selectOptions(format, 'pdf');
    expect(await screen.findByLabelText('Page size')).toHaveAttribute('name', 'pageSize');
    expect(screen.getByLabelText('Landscape')).toHaveAttribute('name', 'landscape');
    expect(document.querySelector('[name="fitToContent"]')).not.toBeNull();
    expect(document.querySelector('[name="printBackground"]')).not.toBeNull();
    // What only images have is hidden (the API refuses selector with pdf).
    expect(document.querySelector('[name="selector"]')).toBeNull();
    expect(document.querySelector('[name="fullPage"]')).toBeNull();
  });
});
