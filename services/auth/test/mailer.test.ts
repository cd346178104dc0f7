import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { verificationMail } from '../src/lib/account-mails.ts';
import mailer from '../src/plugins/mailer.plugin.ts';

const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'auth-mail-'));

afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe('mailer without SMTP_URL', () => {
  it('writes each message as an .eml file', async () => {
    const app = Fastify({ logger: false });
    await app.register(mailer, { mailDir: dir, from: 'Render API <no-reply@localhost>' });
    await app.ready();
    await app.mailer.send({
      to: 'someone@example.com',
      subject: 'Your verification code: 123456',
      text: 'Your verification code is 123456.',
    });
    await app.close();
    const files = await fs.readdir(dir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/\.eml$/);
    const eml = await fs.readFile(path.join(dir, files[0]!), 'utf8');
    expect(eml).toContain('To: someone@example.com');
    expect(eml).toContain('Your verification code is 123456.');
  });

  it('writes a text and an HTML part, the code readable in the raw file (scripts read it from there)', async () => {
    const app = Fastify({ logger: false });
    const own = await fs.mkdtemp(path.join(dir, 'parts-'));
    await app.register(mailer, { mailDir: own, from: 'Render API <no-reply@localhost>' });
    await app.ready();
    await app.mailer.send(verificationMail({ email: 'ada@example.com', name: 'Ada', language: 'en' }, '654321', 15));
    await app.close();
    const [file] = await fs.readdir(own);
    const eml = await fs.readFile(path.join(own, file!), 'utf8');
    expect(eml).toMatch(/Content-Type: multipart\/alternative/);
    expect(eml).toMatch(/Content-Type: text\/plain; charset=utf-8/);
    expect(eml).toMatch(/Content-Type: text\/html; charset=utf-8/);
    expect(/verification code is (\d{6})/.exec(eml)?.[1]).toBe('654321');
  });
});
