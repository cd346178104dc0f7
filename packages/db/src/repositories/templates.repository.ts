import { type ExpressionBuilder, type Kysely, type Selectable, sql } from 'kysely';
import type { DB, StoredTemplateVariable, TemplatesTable } from '../schema.ts';

export type TemplateRow = Selectable<TemplatesTable>;

/** A template as a viewer sees it: with its creator's name and whether the viewer starred it. */
export interface TemplateViewRow extends TemplateRow {
  creator_name: string;
  is_starred: boolean;
}

export interface TemplateContent {
  name: string;
  width: number;
  height: number;
  svg: string;
  variables: StoredTemplateVariable[];
}

/**
 * Which templates a list shows:
 * - visible: the viewer's own and every public one
 * - user: the viewer's own
 * - public: public ones
 * - starred: the ones the viewer starred that are still visible to them
 */
export type TemplateListScope = 'visible' | 'user' | 'public' | 'starred';

export interface TemplateListOptions {
  scope: TemplateListScope;
  /** Null for a visitor (only the public list). */
  viewerId: string | null;
  search?: string;
  sortBy?: 'date' | 'stars';
  limit: number;
  offset: number;
}

const columns = [
  't.id',
  't.user_id',
  't.name',
  't.width',
  't.height',
  't.svg',
  't.variables',
  't.is_public',
  't.star_count',
  't.source_template_id',
  't.published_at',
  't.created_at',
  't.updated_at',
] as const;

type TemplateScope = ExpressionBuilder<DB & { t: TemplatesTable }, 't'>;

/** Owner or public: the one visibility rule every read, star and duplicate goes through. */
const visibleTo = (viewerId: string | null) => (eb: TemplateScope) =>
  viewerId ? eb.or([eb('t.is_public', '=', true), eb('t.user_id', '=', viewerId)]) : eb('t.is_public', '=', true);

/** Whether `userId` starred the template in scope. */
const starredBy = (eb: TemplateScope, userId: string) =>
  eb.exists(
    eb.selectFrom('template_stars as s').select(sql`1`.as('one')).whereRef('s.template_id', '=', 't.id').where('s.user_id', '=', userId),
  );

/** `%` and `_` are LIKE wildcards; a search for "50%" means the text "50%". */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, '\\$&')}%`;

export class TemplatesRepository {
  constructor(private readonly db: Kysely<DB>) {}

  private views(viewerId: string | null) {
    return this.db
      .selectFrom('templates as t')
      .innerJoin('users as u', 'u.id', 't.user_id')
      .select(columns)
      .select('u.name as creator_name')
      .select((eb) => (viewerId ? starredBy(eb, viewerId).$castTo<boolean>().as('is_starred') : sql<boolean>`false`.as('is_starred')));
  }

  /** The template if the viewer may see it (owner, or public); undefined otherwise, so callers cannot tell the two apart. */
  async findVisible(id: string, viewerId: string | null): Promise<TemplateViewRow | undefined> {
    return this.views(viewerId).where('t.id', '=', id).where(visibleTo(viewerId)).executeTakeFirst();
  }

  async list(options: TemplateListOptions): Promise<{ rows: TemplateViewRow[]; total: number }> {
    const { scope, viewerId, search } = options;
    if (!viewerId && scope !== 'public') return { rows: [], total: 0 };
    const filter = (eb: TemplateScope) => {
      const conditions = [];
      if (scope === 'public') conditions.push(eb('t.is_public', '=', true));
      else if (scope === 'user') conditions.push(eb('t.user_id', '=', viewerId as string));
      else conditions.push(visibleTo(viewerId)(eb));
      if (scope === 'starred') {
        conditions.push(starredBy(eb, viewerId as string));
      }
      if (search?.trim()) conditions.push(eb('t.name', 'ilike', likePattern(search.trim())));
      return eb.and(conditions);
    };

    let query = this.views(viewerId).where(filter);
    query =
      options.sortBy === 'stars'
        ? query.orderBy('t.star_count', 'desc').orderBy('t.created_at', 'desc')
        : query.orderBy('t.created_at', 'desc');
    const [rows, count] = await Promise.all([
      query.orderBy('t.id').limit(options.limit).offset(options.offset).execute(),
      this.db
        .selectFrom('templates as t')
        .select((eb) => eb.fn.countAll<string>().as('total'))
        .where(filter)
        .executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.total) };
  }

  async create(userId: string, content: TemplateContent, sourceTemplateId: string | null = null): Promise<string> {
    const row = await this.db
      .insertInto('templates')
      .values({ user_id: userId, ...content, variables: JSON.stringify(content.variables), source_template_id: sourceTemplateId })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /**
   * Replaces the content of the owner's template while it is still private. Undefined when no row matched
   * (missing, someone else's, or already public): the caller looks at the row to say which.
   */
  async updatePrivate(id: string, ownerId: string, content: TemplateContent): Promise<string | undefined> {
    const row = await this.db
      .updateTable('templates')
      .set({ ...content, variables: JSON.stringify(content.variables), updated_at: sql`now()` })
      .where('id', '=', id)
      .where('user_id', '=', ownerId)
      .where('is_public', '=', false)
      .returning('id')
      .executeTakeFirst();
    return row?.id;
  }

  async delete(id: string, ownerId: string): Promise<boolean> {
    const result = await this.db.deleteFrom('templates').where('id', '=', id).where('user_id', '=', ownerId).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  /** Private → public, never back. Idempotent: publishing a public template changes nothing. */
  async publish(id: string, ownerId: string): Promise<boolean> {
    const row = await this.db
      .updateTable('templates')
      .set({ is_public: true, published_at: sql`coalesce(published_at, now())` })
      .where('id', '=', id)
      .where('user_id', '=', ownerId)
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  }

  /**
   * Adds (or removes) the viewer's star and moves the count in the same statement, so concurrent stars
   * can neither lose an increment nor count one user twice (the star's primary key decides). Undefined
   * when the template is not visible to the viewer.
   */
  async setStar(id: string, userId: string, starred: boolean): Promise<number | undefined> {
    const visible = sql`(is_public or user_id = ${userId})`;
    const change = starred
      ? sql`insert into template_stars (template_id, user_id)
             select id, ${userId} from templates where id = ${id} and ${visible}
             on conflict do nothing returning template_id`
      : sql`delete from template_stars where template_id = ${id} and user_id = ${userId} returning template_id`;
    const { rows } = await sql<{ star_count: number }>`
      with changed as (${change})
      update templates
         set star_count = star_count ${starred ? sql`+` : sql`-`} (select count(*) from changed)
       where id = ${id} and ${visible}
       returning star_count`.execute(this.db);
    return rows[0]?.star_count;
  }

  /** Owner and last change of a template, whoever may see it: for signed image URLs, which carry no session. */
  async findOwner(id: string): Promise<{ user_id: string; updated_at: Date } | undefined> {
    return this.db.selectFrom('templates').select(['user_id', 'updated_at']).where('id', '=', id).executeTakeFirst();
  }
}
