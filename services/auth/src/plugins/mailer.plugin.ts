import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import nodemailer from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** The same message as HTML: sent as multipart/alternative with the text part first. */
  html?: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    mailer: Mailer;
  }
}

/**
 * With SMTP_URL mail goes over SMTP; without it each message is written as an .eml file (and logged) so
 * local sign-ups work with no mail server and the code can be read from MAIL_DIR.
 */
async function mailerPlugin(app: FastifyInstance, opts: { smtpUrl?: string; mailDir: string; from: string }) {
  const smtp = opts.smtpUrl ? nodemailer.createTransport(opts.smtpUrl) : undefined;
  const files = smtp ? undefined : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });

  const mailer: Mailer = {
    async send({ to, subject, text, html }) {
      const message = { from: opts.from, to, subject, text, html };
      if (smtp) {
        await smtp.sendMail(message);
        return;
      }
      const info = await files!.sendMail(message);
      await fs.mkdir(opts.mailDir, { recursive: true });
      const file = path.join(opts.mailDir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(3).toString('hex')}.eml`);
      await fs.writeFile(file, info.message as Buffer);
      app.log.info({ to, subject, file }, 'mail written to file (SMTP_URL not set)');
    },
  };

  app.decorate('mailer', mailer);
  app.addHook('onClose', async () => {
    smtp?.close();
    files?.close();
  });
}

export default fp(mailerPlugin, { name: 'mailer', fastify: '5.x' });
