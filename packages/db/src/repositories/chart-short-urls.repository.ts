import type { Kysely, Selectable } from 'kysely';
import type { ChartShortUrlsTable, DB } from '../schema.ts';

export type ChartShortUrlRow = Selectable<ChartShortUrlsTable>;

export interface NewChartShortUrl {
  id: string;
  request: Record<string, unknown>;
  userId: string | null;
  expiresAt: Date;
}

const columns = ['id', 'request', 'user_id', 'created_at', 'expires_at'] as const;

/** QuickChart short URLs: a stored chart request under a random id, readable until it expires. */
export class ChartShortUrlsRepository {
  constructor(private readonly db: Kysely<DB>) {}

  async create(url: NewChartShortUrl): Promise<ChartShortUrlRow> {
    return this.db
      .insertInto('chart_short_urls')
      .values({ id: url.id, request: JSON.stringify(url.request), user_id: url.userId, expires_at: url.expiresAt })
      .returning(columns)
      .executeTakeFirstOrThrow();
  }

  /** The short URL `id` while it has not expired (on the database's clock); undefined when unknown or expired. */
  async findLive(id: string): Promise<ChartShortUrlRow | undefined> {
    return this.db
      .selectFrom('chart_short_urls')
      .select(columns)
      .where('id', '=', id)
      .where('expires_at', '>', new Date())
      .executeTakeFirst();
  }

  /** Deletes the expired ones; answers how many went. */
  async deleteExpired(): Promise<number> {
    const result = await this.db.deleteFrom('chart_short_urls').where('expires_at', '<=', new Date()).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
