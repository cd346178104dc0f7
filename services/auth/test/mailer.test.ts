import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
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
});
