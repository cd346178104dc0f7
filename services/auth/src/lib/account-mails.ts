import type { Language } from '@render/contracts';
import type { MailMessage } from '../plugins/mailer.plugin.ts';
import { escapeHtml } from './html.ts';

/** What a mail says, in one language: a greeting, lines of text, an optional action (link or code), a closing line. */
interface MailContent {
  subject: string;
  greeting: string;
  lines: string[];
  /** A verification code shown large, or a link shown as a button; both appear as plain text in the text part. */
  code?: string;
  link?: { label: string; url: string };
  closing: string;
}

function textPart(content: MailContent): string {
  return [
    content.greeting,
    '',
    ...content.lines,
    ...(content.code ? ['', content.code] : []),
    ...(content.link ? ['', content.link.url] : []),
    '',
    content.closing,
  ].join('\n');
}

/** A single-column layout with inline styles only: mail clients drop <style> blocks and external sheets. */
function htmlPart(content: MailContent, language: Language): string {
  const paragraph = (text: string) => `<p style="margin:0 0 12px">${escapeHtml(text)}</p>`;
  const action = content.code
    ? `<p style="margin:20px 0;font-size:28px;font-weight:600;letter-spacing:6px;font-family:monospace">${escapeHtml(content.code)}</p>`
    : content.link
      ? `<p style="margin:20px 0"><a href="${escapeHtml(content.link.url)}" style="display:inline-block;padding:10px 18px;border-radius:6px;background:#4f46e5;color:#ffffff;text-decoration:none;font-weight:600">${escapeHtml(content.link.label)}</a></p>` +
        `<p style="margin:0 0 12px;font-size:12px;color:#52525b;word-break:break-all">${escapeHtml(content.link.url)}</p>`
      : '';
  return [
    '<!doctype html>',
    `<html lang="${language}"><head><meta charset="utf-8"><title>${escapeHtml(content.subject)}</title></head>`,
    '<body style="margin:0;padding:24px;background:#f4f4f5;font-family:Arial,Helvetica,sans-serif;color:#18181b;font-size:15px;line-height:1.5">',
    '<div style="max-width:520px;margin:0 auto;padding:24px;background:#ffffff;border-radius:8px">',
    paragraph(content.greeting),
    ...content.lines.map(paragraph),
    action,
    `<p style="margin:16px 0 0;font-size:13px;color:#52525b">${escapeHtml(content.closing)}</p>`,
    '</div></body></html>',
  ].join('\n');
}

function render(to: string, content: MailContent, language: Language): MailMessage {
  return { to, subject: content.subject, text: textPart(content), html: htmlPart(content, language) };
}

const verificationContent = (name: string, code: string, minutes: number): Record<Language, MailContent> => ({
  en: {
    subject: `Your verification code: ${code}`,
    greeting: `Hello ${name},`,
    lines: [`Your verification code is ${code}.`, `It expires in ${minutes} minutes.`],
    code,
    closing: 'If you did not sign up, you can ignore this e-mail.',
  },
  fr: {
    subject: `Votre code de vérification : ${code}`,
    greeting: `Bonjour ${name},`,
    lines: [`Votre code de vérification est ${code}.`, `Il expire dans ${minutes} minutes.`],
    code,
    closing: 'Si vous ne vous êtes pas inscrit, vous pouvez ignorer cet e-mail.',
  },
});

const resetContent = (name: string, url: string): Record<Language, MailContent> => ({
  en: {
    subject: 'Reset your password',
    greeting: `Hello ${name},`,
    lines: ['Open this link to choose a new password (valid for one hour, usable once):'],
    link: { label: 'Choose a new password', url },
    closing: 'If you did not ask for this, you can ignore this e-mail.',
  },
  fr: {
    subject: 'Réinitialisez votre mot de passe',
    greeting: `Bonjour ${name},`,
    lines: ['Ouvrez ce lien pour choisir un nouveau mot de passe (valable une heure, une seule fois) :'],
    link: { label: 'Choisir un nouveau mot de passe', url },
    closing: "Si vous n'avez rien demandé, vous pouvez ignorer cet e-mail.",
  },
});

interface Recipient {
  email: string;
  name: string;
  language: Language;
}

export const verificationMail = (user: Recipient, code: string, minutes: number): MailMessage =>
  render(user.email, verificationContent(user.name, code, minutes)[user.language], user.language);

export const resetMail = (user: Recipient, url: string): MailMessage =>
  render(user.email, resetContent(user.name, url)[user.language], user.language);
