/**
 * The path a forwarded call may take: the request's own path, normalised, and only if it stays under
 * `prefix`. The target URL is built with WHATWG URL rules, which resolve `..` and `%2e%2e` segments and
 * read `\` as `/`, so `/api/auth/%2e%2e/%2e%2e/internal/…` would otherwise reach the service's internal
 * routes. Here every segment is percent-decoded once (so `%2e`, `%2f` and `%5c` count for what they are),
 * backslashes separate like slashes, empty and dot segments are resolved, and the result must still start
 * with the prefix. A `;` path parameter is refused: servlet-style servers read `..;/` as `../`, and dropping
 * it would send the service another route than the one the gateway matched (`/keys/;x` would become `/keys`).
 *
 * Returns the normalised path, re-encoded segment by segment, with the original query string; null when
 * the path leaves the prefix, climbs above the root, is encoded twice (`%252e`), has a `;` parameter or is malformed.
 */
export function confinePath(url: string, prefix: string): string | null {
  const queryAt = url.indexOf('?');
  const rawPath = queryAt === -1 ? url : url.slice(0, queryAt);
  const query = queryAt === -1 ? '' : url.slice(queryAt);

  const segments: string[] = [];
  for (const raw of rawPath.split(/[/\\]/)) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(raw);
    } catch {
      return null;
    }
    for (const segment of decoded.split(/[/\\]/)) {
      if (segment.includes(';')) return null;
      // Still encoded after one decoding: another hop would decode it again, so it is refused rather than guessed at.
      if (segment.includes('%')) return null;
      if (segment === '' || segment === '.') continue;
      if (segment === '..') {
        if (segments.pop() === undefined) return null;
        continue;
      }
      segments.push(segment);
    }
  }

  const required = prefix.split('/').filter(Boolean);
  if (segments.length < required.length || required.some((segment, i) => segments[i] !== segment)) return null;
  const trailingSlash = /[/\\]$/.test(rawPath) && segments.length > 0;
  return `/${segments.map(encodeURIComponent).join('/')}${trailingSlash ? '/' : ''}${query}`;
}

/**
 * Headers a client must never set on a forwarded call: the internal token and whatever a holder of it
 * asserts (`X-User-Id`, any `X-Internal-*`), and the proxy headers the services believe because the
 * gateway is their trusted proxy. The gateway sets X-Forwarded-For itself, from the address it trusts.
 */
export function isGatewayOnlyHeader(name: string): boolean {
  return (
    name === 'x-user-id' ||
    name.startsWith('x-internal-') ||
    name === 'forwarded' ||
    name.startsWith('x-forwarded-') ||
    name === 'x-real-ip' ||
    name === 'x-request-id'
  );
}

/**
 * Whether `url`'s path already names its route plainly: no dot or empty segments (a trailing slash aside),
 * no separator hidden as `%2f`, `%5c` or `\`, no `;` parameters, nothing encoded twice. Such a path reaches
 * the route it names whichever parser reads it, so the caller need not normalise it.
 */
export function isPlainPath(url: string): boolean {
  const [empty, ...segments] = (url.split('?', 1)[0] ?? '').split('/');
  if (empty !== '') return false;
  return segments.every((raw, i) => {
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return false;
    }
    if (segment === '') return i > 0 && i === segments.length - 1;
    return segment !== '.' && segment !== '..' && !/[/\\;%]/.test(segment);
  });
}
