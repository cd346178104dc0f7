import type { Kysely, Selectable } from 'kysely';
import type { DB, WebhookSecretsTable } from '../schema.ts';

export type WebhookSecretRow = Selectable<WebhookSecretsTable>;

const columns = ['user_id', 'secret_ciphertext', 'created_at'] as const;

/** The account's webhook signing secret (one per account, stored encrypted by the caller). */
export class WebhookSecretsRepository {
  constructor(private readonly db: Kysely<DB>) {}

  async findByUserId(userId: string): Promise<WebhookSecretRow | undefined> {
    return this.db.selectFrom('webhook_secrets').select(columns).where('user_id', '=', userId).executeTakeFirst();
  }

  /**
   * The account's secret, storing `secretCiphertext` first when it has none. Two first reads at once both
   * end with the one that was stored first (insert … on conflict do nothing, then read).
   */
  async findOrCreate(userId: string, secretCiphertext: string): Promise<WebhookSecretRow> {
    await this.db
      .insertInto('webhook_secrets')
      .values({ user_id: userId, secret_ciphertext: secretCiphertext })
      .onConflict((oc) => oc.column('user_id').doNothing())
      .execute();
    return this.db.selectFrom('webhook_secrets').select(columns).where('user_id', '=', userId).executeTakeFirstOrThrow();
  }

  /** Replaces the secret (or stores a first one): the old one stops signing at once. */
  async replace(userId: string, secretCiphertext: string): Promise<WebhookSecretRow> {
    return this.db
      .insertInto('webhook_secrets')
      .values({ user_id: userId, secret_ciphertext: secretCiphertext, created_at: new Date() })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ secret_ciphertext: secretCiphertext, created_at: new Date() }))
      .returning(columns)
      .executeTakeFirstOrThrow();
  }
}
