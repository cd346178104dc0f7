import type { DB } from '@render/db';
import { type Kysely, sql } from 'kysely';
import { STARTER_OWNER, STARTER_TEMPLATES, starterContent } from './starters.ts';

export interface SeedResult {
  ownerId: string;
  /** Starters inserted, or whose content changed since the last seed. */
  written: string[];
}

/**
 * Idempotent: makes sure the starter account exists and each starter is stored, public, with the content
 * of its file. Running it again changes nothing unless a file changed (then that row is updated, and its
 * updated_at moves so signed image URLs stop serving the old cached image). Stars are left alone.
 */
export async function seedStarterTemplates(db: Kysely<DB>): Promise<SeedResult> {
  const contents = STARTER_TEMPLATES.map((starter) => ({ starter, content: starterContent(starter) }));
  return db.transaction().execute(async (trx) => {
    const owner = await trx
      .insertInto('users')
      .values({
        name: STARTER_OWNER.name,
        email: STARTER_OWNER.email,
        // Not a scrypt hash: no password can ever match it.
        password_hash: '!starter-templates',
        company: null,
        usage_source: 'other',
        referral_source: 'other',
        planned_services: [],
        status: 'verified',
      })
      .onConflict((oc) => oc.column('email').doUpdateSet({ name: STARTER_OWNER.name }))
      .returning('id')
      .executeTakeFirstOrThrow();

    const written: string[] = [];
    for (const { starter, content } of contents) {
      const variables = JSON.stringify(content.variables);
      const row = await trx
        .insertInto('templates')
        .values({
          id: starter.id,
          user_id: owner.id,
          ...content,
          variables,
          is_public: true,
          published_at: sql`now()`,
        })
        .onConflict((oc) =>
          oc
            .column('id')
            .doUpdateSet({
              name: (eb) => eb.ref('excluded.name'),
              width: (eb) => eb.ref('excluded.width'),
              height: (eb) => eb.ref('excluded.height'),
              svg: (eb) => eb.ref('excluded.svg'),
              variables: (eb) => eb.ref('excluded.variables'),
              updated_at: sql`now()`,
            })
            .where(
              sql<boolean>`(templates.name, templates.width, templates.height, templates.svg, templates.variables) is distinct from (excluded.name, excluded.width, excluded.height, excluded.svg, excluded.variables)`,
            ),
        )
        .returning('id')
        .executeTakeFirst();
      if (row) written.push(row.id);
    }
    return { ownerId: owner.id, written };
  });
}
