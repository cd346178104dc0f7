import { randomBytes } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AppError, type ChartShortUrl, ChartShortUrlsInternalRoutes, type QuickChartStoredRequest } from '@render/contracts';
import type { ChartShortUrlRow } from '@render/db';

export interface ChartShortUrlsRoutesOptions {
  /** How long a short URL answers, in days. */
  ttlDays: number;
  /** How often expired rows are deleted (they stop answering at once; this only frees their space). */
  sweepEveryMs?: number;
}

const SWEEP_EVERY_MS = 3_600_000;

const DAY_MS = 86_400_000;

/** 16 random bytes as base64url: 22 URL-safe characters, 128 bits nobody can guess. */
const newId = () => randomBytes(16).toString('base64url');

const notFound = () =>
  new AppError('NOT_FOUND', 'Chart not found: this short URL does not exist or has expired (create a new one with POST /chart/create)');

const toShortUrl = (row: ChartShortUrlRow): ChartShortUrl => ({
  id: row.id,
  request: row.request as QuickChartStoredRequest,
  expiresAt: row.expires_at.toISOString(),
});

/**
 * QuickChart short URLs, for the gateway's `POST /chart/create` and `GET /chart/render/{id}`: this service keeps
 * the validated request under a random id until it expires; the gateway validates, renders and bills.
 */
const chartShortUrlsRoutes: FastifyPluginAsyncTypebox<ChartShortUrlsRoutesOptions> = async (app, opts) => {
  const { chartShortUrls } = app.repositories;
  const { create, get } = ChartShortUrlsInternalRoutes;

  app.post(create.url, { schema: create.schema }, async (request) => {
    const expiresAt = new Date(Date.now() + opts.ttlDays * DAY_MS);
    const { request: stored, userId } = request.body;
    const row = await chartShortUrls.create({ id: newId(), request: stored, userId: userId ?? null, expiresAt });
    return toShortUrl(row);
  });

  app.get(get.url, { schema: get.schema }, async (request) => {
    const row = await chartShortUrls.findLive(request.params.id);
    if (!row) throw notFound();
    return toShortUrl(row);
  });

  const sweep = () =>
    chartShortUrls.deleteExpired().then(
      (deleted) => deleted > 0 && app.log.info({ deleted }, 'expired chart short URLs deleted'),
      (err: unknown) => app.log.warn({ err }, 'expired chart short URLs not deleted'),
    );
  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    timer = setInterval(sweep, opts.sweepEveryMs ?? SWEEP_EVERY_MS).unref();
  });
  app.addHook('onClose', async () => clearInterval(timer));
};

export default chartShortUrlsRoutes;
