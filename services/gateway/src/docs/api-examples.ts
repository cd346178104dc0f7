/**
 * One example call per public operation, in the order a walkthrough (and the Postman collection run)
 * makes them. An operation with more than one use worth showing (HTML as an image and as a PDF) has
 * further examples, each with a `name`. The OpenAPI export puts each body in the document
 * (`requestBody…example`), so the docs page, the Postman collections and the SDK all read the same
 * examples; test/postman-collection.test.ts checks each body against its route's schema.
 *
 * The collection must be safe to run against a real account with only `baseUrl` and `apiKey` set (the
 * docs say so): calls that change the account or send mail are marked `changes` and run only when
 * `allowChanges` is `yes`; calls that need a session token run only once `login` (with `email` and
 * `password`) stored one. Scripts may call `store(name, value)`, which the collection defines: it keeps a
 * non-empty string (token, template id, new API key) for the following calls, in the environment when one
 * holds it, and never overwrites a variable with an empty value.
 *
 * `{{name}}` values are Postman variables (see COLLECTION_VARIABLES); `expect` is the status a signed-in
 * Free account gets, which the collection asserts.
 */
export interface ApiExample {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  /** The path's parameters as Postman variables, e.g. { id: '{{templateId}}' }: every `{param}` needs one. */
  params?: Record<string, string>;
  body?: Record<string, unknown>;
  query?: Record<string, string>;
  expect: number;
  /**
   * A billing call: where billing is not configured (no Stripe keys) the server answers 503 "Billing is not
   * configured", which passes too.
   */
  billing?: true;
  /** The status once `variable` is set to one of the caller's own ids instead of its placeholder. */
  expectOnceSet?: { variable: string; status: number };
  /** Changes the account (or someone's: a new account, a mail): run only when `allowChanges` is `yes`. */
  changes?: true;
  /** Variables the call needs (e.g. email and password); without them it is skipped. A session token is implied by the call's security. */
  needs?: string[];
  /**
   * Set on an operation's further examples only (the first one is its main example): what this one shows,
   * e.g. "PDF". It names the Postman request and the document's example.
   */
  name?: string;
  /** Postman test-script lines run after the status check (e.g. storing an id for later calls). */
  script?: string[];
}

const TEMPLATE_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="600" height="300" viewBox="0 0 600 300">' +
  '<rect width="600" height="300" fill="#4f46e5"/>' +
  '<text x="40" y="170" font-family="sans-serif" font-size="48" fill="#fff" data-variable="title">Hello</text></svg>';

/**
 * A read of something the caller made earlier (a render, a batch): until `variable` holds one of the caller's
 * own ids its placeholder is nobody's (404 "… not found"); set, the read answers 200.
 */
const readOfOwn = (path: string, variable: string): ApiExample => ({
  method: 'GET',
  path,
  params: { id: `{{${variable}}}` },
  expect: 404,
  expectOnceSet: { variable, status: 200 },
});

export const API_EXAMPLES: ApiExample[] = [
  { method: 'GET', path: '/api/ping', expect: 200 },
  { method: 'GET', path: '/api/limits', expect: 200 },
  { method: 'GET', path: '/api/openapi.json', expect: 200 },
  // A code that was never sent: the answer says so (the real code arrives by e-mail).
  {
    method: 'POST',
    path: '/api/auth/verify',
    body: { userId: '00000000-0000-4000-8000-000000000000', verificationCode: '000000' },
    expect: 400,
  },
  // The answer is the same whether or not the address waits for a code (no account probing); this one
  // has no account, so no mail is sent.
  { method: 'POST', path: '/api/auth/resend-verification', body: { email: 'nobody-{{$guid}}@example.com' }, expect: 200 },
  {
    method: 'POST',
    path: '/api/auth/login',
    body: { email: '{{email}}', password: '{{password}}' },
    expect: 200,
    needs: ['email', 'password'],
    script: ["store('token', pm.response.json().token);"],
  },
  { method: 'GET', path: '/api/auth/me', expect: 200 },
  { method: 'POST', path: '/api/auth/refresh', expect: 200, script: ["store('token', pm.response.json().token);"] },
  { method: 'GET', path: '/api/auth/usage', expect: 200 },
  { method: 'GET', path: '/api/auth/usage/daily', expect: 200 },
  { method: 'GET', path: '/api/auth/usage/recent', query: { limit: '10' }, expect: 200 },
  { method: 'GET', path: '/api/auth/keys', expect: 200 },
  {
    method: 'POST',
    path: '/api/html-to-img/convert',
    body: { html: '<h1 style="color:#4f46e5">Hello</h1>', width: 800, height: 600, format: 'png' },
    expect: 200,
  },
  {
    method: 'POST',
    path: '/api/html-to-img/convert',
    name: 'PDF',
    body: {
      html: '<h1>Invoice 2024-001</h1><p>Thank you for your order.</p>',
      format: 'pdf',
      pageSize: 'A4',
      margin: { top: '2cm', right: '1.5cm', bottom: '2cm', left: '1.5cm' },
      footerTemplate:
        '<div style="font-size:9px;width:100%;text-align:center">Page <span class="pageNumber"></span> of <span class="totalPages"></span></div>',
    },
    expect: 200,
  },
  {
    method: 'POST',
    path: '/api/svg-to-img/convert',
    body: {
      svg: '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="4" fill="teal"/></svg>',
      width: 400,
      height: 400,
      format: 'png',
    },
    expect: 200,
  },
  {
    method: 'POST',
    path: '/api/chart-to-img/convert',
    body: {
      library: 'chartjs',
      chartType: 'bar',
      chartData: { labels: ['Q1', 'Q2', 'Q3', 'Q4'], datasets: [{ label: 'Revenue', data: [12, 19, 7, 15] }] },
      width: 800,
      height: 400,
    },
    expect: 200,
  },
  // The Highcharts export server's API (its README's request): clients of it only change their base URL.
  {
    method: 'POST',
    path: '/highcharts',
    body: {
      infile: { title: { text: 'Steep Chart' }, xAxis: { categories: ['Jan', 'Feb', 'Mar'] }, series: [{ data: [29.9, 71.5, 106.4] }] },
      type: 'png',
    },
    expect: 200,
  },
  {
    method: 'POST',
    path: '/highcharts/{filename}',
    params: { filename: 'sales' },
    body: { infile: { chart: { type: 'column' }, series: [{ data: [5, 8, 10] }] }, type: 'image/svg+xml', noDownload: true },
    expect: 200,
  },
  {
    method: 'POST',
    path: '/api/code-to-img/convert',
    body: { code: 'const answer = 42;\nconsole.log(answer);', language: 'javascript', theme: 'monokai', quality: 90 },
    expect: 200,
  },
  { method: 'GET', path: '/api/code-to-img/languages', expect: 200 },
  // QuickChart-compatible (issue 29): the same chart as QuickChart's docs write it, a JavaScript object literal.
  {
    method: 'GET',
    path: '/chart',
    query: { c: "{type:'bar',data:{labels:['Q1','Q2','Q3','Q4'],datasets:[{label:'Users',data:[50,60,70,180]}]}}", w: '500', h: '300' },
    expect: 200,
  },
  {
    method: 'POST',
    path: '/chart',
    body: {
      chart: { type: 'line', data: { labels: [1, 2, 3], datasets: [{ label: 'A', data: [3, 1, 2] }] } },
      width: 500,
      height: 300,
      format: 'png',
    },
    expect: 200,
  },
  // QuickChart's short URLs: create one, then GET it (the query may override the size or format).
  {
    method: 'POST',
    path: '/chart/create',
    body: {
      chart: { type: 'bar', data: { labels: ['Q1', 'Q2', 'Q3'], datasets: [{ label: 'Users', data: [50, 60, 70] }] } },
      width: 500,
      height: 300,
    },
    expect: 200,
    script: ["store('chartShortId', String(pm.response.json().url || '').split('/').pop());"],
  },
  {
    method: 'GET',
    path: '/chart/render/{id}',
    params: { id: '{{chartShortId}}' },
    query: { w: '600', f: 'png' },
    expect: 200,
    needs: ['chartShortId'],
  },
  // MCP clients send initialize first; the server is stateless, so any single message can be sent on its own.
  { method: 'POST', path: '/api/mcp', body: { jsonrpc: '2.0', id: 1, method: 'tools/list' }, expect: 200 },
  {
    method: 'POST',
    path: '/api/screenshot/convert',
    body: { url: '{{screenshotUrl}}', deviceType: 'desktop', fullPage: false },
    expect: 200,
  },
  {
    method: 'POST',
    path: '/api/screenshot/convert',
    name: 'PDF',
    body: { url: '{{screenshotUrl}}', format: 'pdf', pageSize: 'Letter', landscape: true, margin: { top: '1cm', bottom: '1cm' } },
    expect: 200,
  },
  {
    method: 'POST',
    path: '/api/screenshot/convert',
    name: 'Video',
    // A 2 s scroll through the page as MP4 (one credit; one per started 5 s).
    body: { url: '{{screenshotUrl}}', format: 'mp4', scenario: 'scroll', duration: 2, fps: 15, width: 640, height: 360 },
    expect: 200,
  },
  {
    method: 'POST',
    path: '/api/screenshot/convert',
    name: 'Markdown',
    // The page's main content as markdown, with its metadata (pages for agents).
    body: { url: '{{screenshotUrl}}', format: 'markdown', metadata: true, outputType: 'json' },
    expect: 200,
  },
  // Reading and generating use a public template (the starters every deployment seeds), so nothing of
  // the account's own is needed or touched.
  {
    method: 'GET',
    path: '/api/template/public',
    query: { sortBy: 'date' },
    expect: 200,
    script: ["const first = (pm.response.json().data || [])[0]; if (first) store('publicTemplateId', first.id);"],
  },
  { method: 'GET', path: '/api/template', expect: 200 },
  { method: 'GET', path: '/api/template/user', expect: 200 },
  { method: 'GET', path: '/api/template/starred', expect: 200 },
  { method: 'GET', path: '/api/template/{id}', params: { id: '{{publicTemplateId}}' }, expect: 200, needs: ['publicTemplateId'] },
  {
    method: 'POST',
    path: '/api/template/generate',
    body: { templateId: '{{publicTemplateId}}', format: 'png' },
    expect: 200,
    needs: ['publicTemplateId'],
  },
  // Signed image URLs carry the signature the owner computes with their key; without one the answer is 403.
  { method: 'GET', path: '/api/template/{id}/image', params: { id: '{{publicTemplateId}}' }, expect: 403, needs: ['publicTemplateId'] },
  // A render link needs the SHA-256 of the API key and, unless the account allows unsigned links, its signature
  // (the SDK's signRenderUrl makes both); this key is nobody's.
  {
    method: 'GET',
    path: '/api/render/{kind}',
    params: { kind: 'html' },
    query: { html: '<h1>Hello</h1>', width: '400', height: '200', key: '0'.repeat(64) },
    expect: 401,
  },
  { method: 'GET', path: '/api/auth/payment-info', expect: 200, billing: true },
  // Administrators only.
  { method: 'GET', path: '/api/admin/stats', expect: 403 },
  // Async renders: a convert call with "webhook" answers 202 with the render's id; set renderId to it to
  // follow that render. The placeholder is nobody's render: "Render not found".
  readOfOwn('/api/renders/{id}', 'renderId'),
  readOfOwn('/api/renders/{id}/image', 'renderId'),
  { method: 'GET', path: '/api/webhooks/deliveries', expect: 200 },
  // Batches: two credits, answered 202 with the batch's id; set batchId to it to read its status and archive.
  {
    method: 'POST',
    path: '/api/batch',
    body: {
      items: [
        { kind: 'html', body: { html: '<h1>First</h1>' } },
        { kind: 'code', body: { code: 'console.log("second")', language: 'javascript' } },
      ],
      defaults: { width: 600, height: 300, format: 'png' },
    },
    expect: 202,
  },
  readOfOwn('/api/batches/{id}', 'batchId'),
  readOfOwn('/api/batches/{id}/archive', 'batchId'),
  // Cancels what has not started (a change: run only with allowChanges); the batch above has ended by then: 409.
  {
    method: 'DELETE',
    path: '/api/batches/{id}',
    params: { id: '{{batchId}}' },
    expect: 404,
    expectOnceSet: { variable: 'batchId', status: 409 },
    changes: true,
  },
  { method: 'GET', path: '/api/auth/webhook-secret', expect: 200 },
  {
    method: 'POST',
    path: '/api/auth/reset-password',
    body: { token: 'not-a-real-token', password: 'N3w-Passw0rd', confirmPassword: 'N3w-Passw0rd' },
    expect: 400,
  },

  // What follows changes the account (or creates one, or sends mail): only with allowChanges = yes.
  {
    method: 'POST',
    path: '/api/auth/signup',
    body: {
      name: 'Ada Lovelace',
      email: 'ada-{{$guid}}@example.com',
      password: 'Str0ng-Passw0rd',
      confirmPassword: 'Str0ng-Passw0rd',
      company: 'Analytical Engines',
      usageSource: 'business',
      referralSource: 'search_engine',
      plannedServices: ['html2img', 'chartjs2img'],
      acceptTerms: true,
    },
    expect: 201,
    changes: true,
  },
  {
    method: 'POST',
    path: '/api/template',
    body: {
      name: 'Hello card',
      width: 600,
      height: 300,
      svg: TEMPLATE_SVG,
      variables: [{ name: 'title', type: 'text', defaultValue: 'Hello' }],
    },
    expect: 201,
    changes: true,
    script: ["store('templateId', pm.response.json().data.id);"],
  },
  {
    method: 'PUT',
    path: '/api/template/{id}',
    params: { id: '{{templateId}}' },
    body: {
      name: 'Hello card (edited)',
      width: 600,
      height: 300,
      svg: TEMPLATE_SVG,
      variables: [{ name: 'title', type: 'text', defaultValue: 'Hi' }],
    },
    expect: 200,
    changes: true,
    needs: ['templateId'],
  },
  {
    method: 'POST',
    path: '/api/template/generate',
    name: 'your template',
    body: { templateId: '{{templateId}}', variables: { title: 'Hello from Postman' }, format: 'png', quality: 80 },
    expect: 200,
    changes: true,
    needs: ['templateId'],
  },
  { method: 'POST', path: '/api/template/{id}/star', params: { id: '{{templateId}}' }, expect: 200, changes: true, needs: ['templateId'] },
  {
    method: 'DELETE',
    path: '/api/template/{id}/star',
    params: { id: '{{templateId}}' },
    expect: 200,
    changes: true,
    needs: ['templateId'],
  },
  {
    method: 'POST',
    path: '/api/template/{id}/duplicate',
    params: { id: '{{templateId}}' },
    expect: 201,
    changes: true,
    needs: ['templateId'],
    script: ["store('copyId', pm.response.json().data.id);"],
  },
  {
    method: 'POST',
    path: '/api/template/{id}/publish',
    params: { id: '{{templateId}}' },
    expect: 200,
    changes: true,
    needs: ['templateId'],
  },
  // Both are deleted again: the run leaves no template behind.
  { method: 'DELETE', path: '/api/template/{id}', params: { id: '{{templateId}}' }, expect: 200, changes: true, needs: ['templateId'] },
  {
    method: 'DELETE',
    path: '/api/template/{id}',
    name: 'the copy',
    params: { id: '{{copyId}}' },
    expect: 200,
    changes: true,
    needs: ['copyId'],
  },
  { method: 'POST', path: '/api/auth/upgrade', body: { interval: 'month', currency: 'usd' }, expect: 200, billing: true, changes: true },
  // The checkout above made the account a billing customer, so the portal opens; it has no subscription yet.
  { method: 'POST', path: '/api/auth/manage-billing', expect: 200, billing: true, changes: true },
  { method: 'POST', path: '/api/auth/cancel-subscription', expect: 404, billing: true, changes: true },
  { method: 'POST', path: '/api/auth/reactivate-subscription', expect: 404, billing: true, changes: true },
  { method: 'POST', path: '/api/auth/webhook-secret/rotate', expect: 200, changes: true },
  // A named key, made and revoked again: the run leaves none behind.
  {
    method: 'POST',
    path: '/api/auth/keys',
    body: { name: 'Postman run', scope: 'render' },
    expect: 201,
    changes: true,
    script: ["store('namedKeyId', pm.response.json().data.id);"],
  },
  { method: 'DELETE', path: '/api/auth/keys/{id}', params: { id: '{{namedKeyId}}' }, expect: 200, changes: true, needs: ['namedKeyId'] },
  // Sets the language the account is mailed in (the reset mail below comes in it).
  { method: 'PATCH', path: '/api/auth/me', body: { language: 'en' }, expect: 200, changes: true },
  // Unsigned render links (key only) stay accepted.
  { method: 'PUT', path: '/api/auth/render-links', body: { signedOnly: false }, expect: 200, changes: true },
  { method: 'POST', path: '/api/auth/forgot-password', body: { email: '{{email}}' }, expect: 200, changes: true, needs: ['email'] },
  {
    method: 'POST',
    path: '/api/auth/api-key/regenerate',
    expect: 200,
    changes: true,
    script: ["store('apiKey', pm.response.json().apiKey);"],
  },
];

export const exampleFor = (method: string, path: string) => API_EXAMPLES.find((e) => e.method === method.toUpperCase() && e.path === path);
