import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  subject: string;
  /** The text/plain part (the whole body of a single-part mail). */
  text: string;
  /** The text/html part, when the mail has one. */
  html?: string;
  /** The top-level Content-Type, e.g. multipart/alternative; boundary=… */
  contentType: string;
}

const decodeQuotedPrintable = (body: string): string =>
  Buffer.from(
    body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
    'latin1',
  ).toString('utf8');

/** RFC 2047 encoded words (=?UTF-8?Q?…?= / =?UTF-8?B?…?=), which nodemailer uses for non-ASCII subjects. */
const decodeWords = (value: string): string =>
  value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?utf-8\?([qb])\?([^?]*)\?=/gi, (_, kind: string, data: string) =>
      kind.toLowerCase() === 'b' ? Buffer.from(data, 'base64').toString('utf8') : decodeQuotedPrintable(data.replace(/_/g, ' ')),
    );

/** One MIME entity: its headers (continuations unfolded) and its body decoded from its transfer encoding. */
function entity(raw: string): { header(name: string): string; body: string } {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const encoded = raw.slice(split + 4);
  const header = (name: string) => new RegExp(`^${name}: (.*)$`, 'im').exec(head)?.[1]?.trim() ?? '';
  const encoding = header('Content-Transfer-Encoding').toLowerCase();
  const body =
    encoding === 'quoted-printable'
      ? decodeQuotedPrintable(encoded)
      : encoding === 'base64'
        ? Buffer.from(encoded.replace(/\s+/g, ''), 'base64').toString('utf8')
        : encoded;
  return { header, body: body.replace(/\r\n/g, '\n') };
}

function parse(raw: string, to: string[]): ReceivedMail {
  const mail = entity(raw);
  const contentType = mail.header('Content-Type');
  const subject = decodeWords(mail.header('Subject'));
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  if (!boundary) return { to, subject, text: mail.body, contentType };
  const split = raw.indexOf('\r\n\r\n');
  const parts = raw
    .slice(split + 4)
    .split(`--${boundary}`)
    .slice(1, -1)
    .map((part) => entity(part.replace(/^\r\n/, '').replace(/\r\n$/, '')));
  const part = (type: string) => parts.find((p) => p.header('Content-Type').toLowerCase().startsWith(type))?.body;
  return { to, subject, text: part('text/plain') ?? '', html: part('text/html'), contentType };
}

/** A real SMTP server in-process: the service's nodemailer transport talks to it over TCP. */
export async function startSmtp(): Promise<{ url: string; inbox: ReceivedMail[]; close(): Promise<void> }> {
  const inbox: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        inbox.push(
          parse(
            Buffer.concat(chunks).toString('utf8'),
            session.envelope.rcptTo.map((r) => r.address),
          ),
        );
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    inbox,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
