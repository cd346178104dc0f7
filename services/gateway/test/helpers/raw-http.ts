import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The bytes as they came over the wire (fetch would decompress them). */
  body: Buffer;
  /** The body decoded as its Content-Encoding says. */
  decoded(): Buffer;
}

/** One request over node:http, which (unlike fetch) neither asks for nor undoes a Content-Encoding by itself. */
export function rawRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'GET', headers: options.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        const encoding = res.headers['content-encoding'];
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body,
          decoded: () => (encoding === 'br' ? brotliDecompressSync(body) : encoding === 'gzip' ? gunzipSync(body) : body),
        });
      });
    });
    req.on('error', reject);
    req.end(options.body);
  });
}
