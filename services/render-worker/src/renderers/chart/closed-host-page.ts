import { randomBytes } from 'node:crypto';

/** `</script` inside a library string would end the inline script early; `<\/script` means the same in JS. */
const inlineSafe = (source: string) => source.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');

export interface ClosedHostPage {
  /** Script sources, inlined in order under one nonce. */
  sources: string[];
  /** 'unsafe-eval' in script-src: only for pages that must run a caller's JavaScript (QuickChart configs). */
  allowEval?: boolean;
  /** More markup for the head (a style sheet). */
  head?: string;
}

/**
 * A chart page with its scripts inlined (never fetched) and a Content-Security-Policy that allows only these
 * nonce'd scripts: no source for connections, frames, workers, images or fonts but data:, so nothing on the page
 * can fetch anything (the egress proxy would refuse private addresses anyway), nor run markup it makes.
 */
export function closedHostHtml({ sources, allowEval = false, head = '' }: ClosedHostPage): string {
  const nonce = randomBytes(16).toString('base64');
  const csp = [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'${allowEval ? " 'unsafe-eval'" : ''}`,
    "style-src 'unsafe-inline'",
    'img-src data:',
    'font-src data:',
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  const scripts = sources.map((source) => `<script nonce="${nonce}">${inlineSafe(source)}</script>`).join('\n');
  return (
    '<!doctype html><html><head><meta charset="utf-8">' +
    `<meta http-equiv="Content-Security-Policy" content="${csp}">` +
    '<style>@page{margin:0}html,body{margin:0;padding:0;background:transparent;overflow:hidden}' +
    '#chart{position:relative;overflow:hidden}</style>' +
    head +
    `</head><body><div id="chart"></div>\n${scripts}</body></html>`
  );
}
