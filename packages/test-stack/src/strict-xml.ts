import { JSDOM } from 'jsdom';

const { DOMParser } = new JSDOM('').window;

/**
 * Why bytes are not a well-formed XML document (invalid UTF-8, or what jsdom's strict XML parser, saxes,
 * refuses: a character XML forbids, a broken tag), or undefined when they are one. An independent oracle:
 * neither the templates service's xmldom nor the gateway's validator catches forbidden characters.
 */
export function xmlProblem(bytes: Uint8Array): string | undefined {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return 'not valid UTF-8';
  }
  const doc = new DOMParser().parseFromString(text, 'application/xml');
  const error = doc.getElementsByTagName('parsererror')[0];
  return error ? (error.textContent ?? 'parser error') : undefined;
}
