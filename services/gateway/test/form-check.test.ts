import {
  ChartConvertBody,
  CodeConvertBody,
  checkFields,
  EmailBody,
  HtmlConvertBody,
  LoginBody,
  ResetPasswordBody,
  ScreenshotConvertBody,
  SignupBody,
  SvgConvertBody,
} from '@render/contracts';
import { ajvOptions, errorHandler } from '@render/fastify-kit';
import Fastify from 'fastify';
import type { TSchema } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The web forms validate with `checkFields` (contracts) before sending; the services validate with Ajv and
 * the one error handler. For a body with one bad field, both must say the same words.
 */
const SCHEMAS: Record<string, TSchema> = {
  html: HtmlConvertBody,
  svg: SvgConvertBody,
  code: CodeConvertBody,
  screenshot: ScreenshotConvertBody,
  chart: ChartConvertBody,
  signup: SignupBody,
  login: LoginBody,
  email: EmailBody,
  reset: ResetPasswordBody,
};

const signup = {
  name: 'Ada',
  email: 'ada@example.com',
  password: 'Str0ngPass',
  confirmPassword: 'Str0ngPass',
  usageSource: 'business',
  referralSource: 'friend',
  plannedServices: ['html2img'],
  acceptTerms: true,
};
const chart = { library: 'chartjs', chartType: 'bar', chartData: { labels: ['a'], datasets: [{ data: [1] }] } };

// [schema, valid base body, field, bad value (undefined = missing)]
const CASES: Array<[string, Record<string, unknown>, string, unknown]> = [
  ['html', { html: '<p>x</p>' }, 'html', undefined],
  ['html', { html: '<p>x</p>' }, 'html', ''],
  ['html', { html: '<p>x</p>' }, 'width', 10],
  ['html', { html: '<p>x</p>' }, 'width', 4001],
  ['html', { html: '<p>x</p>' }, 'width', 12.5],
  ['html', { html: '<p>x</p>' }, 'height', 'tall'],
  ['html', { html: '<p>x</p>' }, 'quality', 0],
  ['html', { html: '<p>x</p>' }, 'scale', 3.5],
  ['html', { html: '<p>x</p>' }, 'format', 'gif'],
  ['html', { html: '<p>x</p>' }, 'output', 'xml'],
  ['svg', { svg: '<svg/>' }, 'svg', ''],
  ['svg', { svg: '<svg/>' }, 'format', 'bmp'],
  ['code', { code: 'x' }, 'code', ''],
  ['code', { code: 'x' }, 'fontSize', 100],
  ['code', { code: 'x' }, 'padding', -1],
  ['code', { code: 'x' }, 'borderRadius', 101],
  ['code', { code: 'x' }, 'showLineNumbers', 'yes'],
  ['screenshot', { url: 'https://example.com' }, 'url', undefined],
  ['screenshot', { url: 'https://example.com' }, 'deviceType', 'watch'],
  ['screenshot', { url: 'https://example.com' }, 'delay', 20000],
  ['screenshot', { url: 'https://example.com' }, 'language', 'xx-XX'],
  ['chart', chart, 'library', 'vega'],
  ['chart', chart, 'width', 5000],
  ['chart', chart, 'format', 'pdf'],
  ['chart', chart, 'format', 'svg'],
  ['chart', { ...chart, library: 'd3' }, 'format', 'pdf'],
  ['chart', chart, 'quality', 101],
  ['signup', signup, 'name', undefined],
  ['signup', signup, 'email', 'not-an-email'],
  ['signup', signup, 'email', ''],
  ['signup', signup, 'password', 'short'],
  ['signup', signup, 'password', 'nouppercase1'],
  ['signup', signup, 'confirmPassword', ''],
  ['signup', signup, 'usageSource', 'hobby'],
  ['signup', signup, 'referralSource', undefined],
  ['signup', signup, 'plannedServices', ['teleport']],
  ['signup', signup, 'acceptTerms', false],
  ['login', { email: 'a@b.co', password: 'x' }, 'email', 'nope'],
  ['login', { email: 'a@b.co', password: 'x' }, 'password', ''],
  ['email', { email: 'a@b.co' }, 'email', 'a@'],
  ['reset', { token: 't', password: 'Str0ngPass', confirmPassword: 'Str0ngPass' }, 'password', 'weakweak'],
];

const app = Fastify({ ajv: ajvOptions });
beforeAll(async () => {
  await app.register(errorHandler);
  for (const [name, schema] of Object.entries(SCHEMAS)) app.post(`/${name}`, { schema: { body: schema } }, async () => ({ ok: true }));
  await app.ready();
});
afterAll(() => app.close());

describe('browser form checks say what the server says', () => {
  for (const [name, base, field, value] of CASES) {
    it(`${name}.${field} = ${JSON.stringify(value)}`, async () => {
      const body: Record<string, unknown> = { ...base, [field]: value };
      if (value === undefined) delete body[field];
      const server = await app.inject({ method: 'POST', url: `/${name}`, payload: body });
      expect(server.statusCode).toBe(400);
      const problems = checkFields(SCHEMAS[name] as never, body);
      expect(problems[field]).toBe(server.json().message);
      // Only that field is reported: the rest of the body is valid to both.
      expect(Object.keys(problems)).toEqual([field]);
    });
  }

  it('accepts what the server accepts', async () => {
    for (const [name, body] of [
      ['html', { html: '<p>x</p>', width: 50, height: 4000, quality: 100, scale: 0.1, format: 'jpeg' }],
      ['signup', { ...signup, company: null }],
      ['screenshot', { url: 'http://127.0.0.1:8080/a?b=c', deviceType: 'mobile', delay: 0 }],
      ['chart', chart],
    ] as const) {
      const server = await app.inject({ method: 'POST', url: `/${name}`, payload: body });
      expect(server.statusCode, JSON.stringify(server.json())).toBe(200);
      expect(checkFields(SCHEMAS[name] as never, body as Record<string, unknown>)).toEqual({});
    }
  });
});
