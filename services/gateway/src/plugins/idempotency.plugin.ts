import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, randomUUID } from 'node:crypto';
import { AppError, IDEMPOTENCY_KEY_PATTERN, IDEMPOTENCY_TTL_SECONDS, IdempotencyMessages } from '@render/contracts';
import { REQUEST_ID_HEADER } from '@render/fastify-kit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { canonicalJson } from '../http/canonical-json.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A POST that creates something: with an `Idempotency-Key`, a repeat of the same request answers the first
     * answer again. A function limits it to some calls of the route (a convert call with a `webhook`).
     */
    idempotent?: true | ((request: FastifyRequest) => boolean);
  }
  interface FastifyRequest {
    /** The key this request holds while it is answered (its answer is then kept); null for every other request. */
    idempotency: HeldKey | null;
  }
}

export interface IdempotencyOptions {
  /** Redis key prefix (the queue prefix). */
  prefix: string;
  /** How long a first request may take before its key is free again should its gateway never answer it. */
  inFlightTtlMs: number;
  /** How long answers are kept; 24 h. */
  ttlSeconds?: number;
}

interface HeldKey {
  redisKey: string;
  fingerprint: string;
  cipherKey: Buffer;
  /** The in-flight record this request wrote, to free the key only if it is still this one. */
  pending: string;
}

/** What Redis keeps under a key: the request's fingerprint, and once answered the sealed answer. */
interface StoredRecord {
  fingerprint: string;
  state: 'pending' | 'done';
  /** base64 of iv (12) + tag (16) + AES-256-GCM of the answer's JSON. */
  sealed?: string;
}

interface KeptAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const HEADER = 'idempotency-key';
const KEY_SHAPE = new RegExp(IDEMPOTENCY_KEY_PATTERN);
// What a repeat gets again besides the body: what describes the answer, not this delivery of it.
const KEPT_HEADERS = [
  'content-type',
  'location',
  'content-disposition',
  'cache-control',
  'x-render-time',
  'x-queue-time',
  'server-timing',
  'x-cache',
];
// Frees a key only if it still holds this request's in-flight record (not a later request's, not an answer).
const FREE_IF_OURS = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";

/** The credentials a call came with, as the caller's identity for its keys (no credentials: the address). */
function callerSecret(request: FastifyRequest): string {
  const apiKey = request.headers['x-api-key'];
  if (typeof apiKey === 'string' && apiKey.trim()) return `key:${apiKey.trim()}`;
  const authorization = request.headers.authorization;
  if (typeof authorization === 'string' && authorization.trim()) return `auth:${authorization.trim()}`;
  return `ip:${request.ip}`;
}

/** The request a key was first used for: method, path and body (raw bytes, or JSON with sorted keys). */
function fingerprintOf(request: FastifyRequest): string {
  const hash = createHash('sha256').update(`${request.method} ${request.url}\n`);
  const body = request.body;
  if (Buffer.isBuffer(body)) hash.update(body);
  else if (body !== undefined) hash.update(canonicalJson(body));
  return hash.digest('hex');
}

function seal(cipherKey: Buffer, answer: KeptAnswer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', cipherKey, iv);
  const encrypted = Buffer.concat([cipher.update(JSON.stringify(answer), 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), encrypted]).toString('base64');
}

function unseal(cipherKey: Buffer, sealed: string): KeptAnswer {
  const bytes = Buffer.from(sealed, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', cipherKey, bytes.subarray(0, 12));
  decipher.setAuthTag(bytes.subarray(12, 28));
  return JSON.parse(Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8')) as KeptAnswer;
}

const unavailable = () =>
  new AppError(
    'SERVICE_UNAVAILABLE',
    'Idempotency-Key cannot be honoured right now (its store is unavailable); please retry shortly',
    undefined,
    {
      retryAfterSeconds: 1,
    },
  );

/**
 * `Idempotency-Key` on the POSTs that create something (routes with `config.idempotent`): the first request
 * with a key runs and its successful answer is kept 24 h in Redis; the same key with the same request (same
 * credentials, method, path and body) then gets that answer again, `Idempotent-Replayed: true`, and nothing is
 * run or charged twice. The key with another request is a 422; while the first is still being answered, a 409
 * with Retry-After (the caller retries; waiting here would hold a connection for as long as the first takes).
 * Errors are not kept: nothing was created, and the same key may be sent again. Keys are scoped to the
 * credentials that sent them, and answers are kept encrypted with a key derived from those credentials and the
 * Idempotency-Key, so Redis holds no readable API key (a regenerated one) or template. Requests without the
 * header cost nothing here: no Redis call.
 */
async function idempotencyPlugin(app: FastifyInstance, opts: IdempotencyOptions) {
  const { redis } = app;
  const ttlSeconds = opts.ttlSeconds ?? IDEMPOTENCY_TTL_SECONDS;

  function keyFor(request: FastifyRequest): string | null {
    const rule = request.routeOptions.config.idempotent;
    const sent = request.headers[HEADER];
    if (!rule || sent === undefined || (rule !== true && !rule(request))) return null;
    if (typeof sent !== 'string' || !KEY_SHAPE.test(sent)) throw new AppError('VALIDATION_ERROR', IdempotencyMessages.format);
    return sent;
  }

  function replay(reply: FastifyReply, answer: KeptAnswer) {
    return reply
      .status(answer.status)
      .headers(answer.headers)
      .header('idempotent-replayed', 'true')
      .header(REQUEST_ID_HEADER, reply.request.id)
      .send(Buffer.from(answer.body, 'base64'));
  }

  app.decorateRequest('idempotency', null);

  app.addHook('preHandler', async (request, reply) => {
    const key = keyFor(request);
    if (key === null) return;
    const secret = callerSecret(request);
    const redisKey = `${opts.prefix}:idempotency:${createHmac('sha256', secret).update(`record\n${key}`).digest('hex')}`;
    const cipherKey = createHmac('sha256', secret).update(`seal\n${key}`).digest();
    const fingerprint = fingerprintOf(request);
    const pending = JSON.stringify({ fingerprint, state: 'pending', id: randomUUID() });
    let stored: string | null;
    try {
      if ((await redis.set(redisKey, pending, 'PX', opts.inFlightTtlMs, 'NX')) === 'OK') {
        request.idempotency = { redisKey, fingerprint, cipherKey, pending };
        return;
      }
      stored = await redis.get(redisKey);
    } catch {
      throw unavailable();
    }
    // Gone between the two calls (its first request failed): that request's answer was an error; retry.
    if (stored === null) throw new AppError('IDEMPOTENCY_KEY_IN_USE', IdempotencyMessages.inUse, undefined, { retryAfterSeconds: 1 });
    const record = JSON.parse(stored) as StoredRecord;
    if (record.fingerprint !== fingerprint) throw new AppError('IDEMPOTENCY_KEY_REUSED', IdempotencyMessages.reused);
    if (record.state !== 'done' || !record.sealed)
      throw new AppError('IDEMPOTENCY_KEY_IN_USE', IdempotencyMessages.inUse, undefined, { retryAfterSeconds: 1 });
    request.log.info({ idempotent: 'replayed' }, 'answered from an earlier request with the same Idempotency-Key');
    return replay(reply, unseal(cipherKey, record.sealed));
  });

  // Before the answer goes out (and before compression, registered after this plugin): a repeat arriving the
  // moment the caller has its answer must find it kept.
  app.addHook('onSend', async (request, reply, payload) => {
    const held = request.idempotency;
    if (!held) return payload;
    request.idempotency = null;
    const body = typeof payload === 'string' ? Buffer.from(payload) : Buffer.isBuffer(payload) ? payload : null;
    try {
      if (reply.statusCode >= 200 && reply.statusCode < 300 && body) {
        const headers: Record<string, string> = {};
        for (const name of KEPT_HEADERS) {
          const value = reply.getHeader(name);
          if (value !== undefined) headers[name] = String(value);
        }
        const answer: KeptAnswer = { status: reply.statusCode, headers, body: body.toString('base64') };
        const record: StoredRecord = { fingerprint: held.fingerprint, state: 'done', sealed: seal(held.cipherKey, answer) };
        await redis.set(held.redisKey, JSON.stringify(record), 'EX', ttlSeconds);
      } else {
        // Nothing was created: the key is free for the caller's next try.
        await redis.eval(FREE_IF_OURS, 1, held.redisKey, held.pending);
      }
    } catch (err) {
      // The answer still goes out; the in-flight record expires by itself (inFlightTtlMs).
      request.log.warn({ err: (err as Error).message }, 'idempotent answer not kept');
    }
    return payload;
  });
}

export default fp(idempotencyPlugin, { name: 'idempotency', dependencies: ['redis'], fastify: '5.x' });
