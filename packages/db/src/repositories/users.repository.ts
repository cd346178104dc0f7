import { type Insertable, type Kysely, type Selectable, sql } from 'kysely';
import type { DB, UserLanguage, UsersTable } from '../schema.ts';
import { toWindowCounts, type WindowCounts, windowCountSelections } from './window-counts.ts';

export type UserRow = Selectable<UsersTable>;
export type NewUser = Omit<Insertable<UsersTable>, 'id' | 'created_at' | 'updated_at'>;

const columns = [
  'id',
  'name',
  'email',
  'password_hash',
  'company',
  'usage_source',
  'referral_source',
  'planned_services',
  'role',
  'status',
  'plan',
  'password_changed_at',
  'language',
  'render_links_signed_only',
  'created_at',
  'updated_at',
] as const;

export type SignupCounts = WindowCounts;

export class UsersRepository {
  constructor(private readonly db: Kysely<DB>) {}

  async findById(id: string): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').select(columns).where('id', '=', id).executeTakeFirst();
  }

  /** `email` must already be normalised (lowercased). */
  async findByEmail(email: string): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').select(columns).where('email', '=', email).executeTakeFirst();
  }

  /** Undefined when the e-mail is taken (unique violation), so callers need no driver error codes. */
  async create(user: NewUser): Promise<UserRow | undefined> {
    return this.db
      .insertInto('users')
      .values(user)
      .onConflict((oc) => oc.column('email').doNothing())
      .returning(columns)
      .executeTakeFirst();
  }

  async markVerified(id: string): Promise<UserRow | undefined> {
    return this.db
      .updateTable('users')
      .set({ status: 'verified', updated_at: sql<Date>`now()` })
      .where('id', '=', id)
      .returning(columns)
      .executeTakeFirst();
  }

  async updateLanguage(id: string, language: UserLanguage): Promise<UserRow | undefined> {
    return this.db
      .updateTable('users')
      .set({ language, updated_at: sql<Date>`now()` })
      .where('id', '=', id)
      .returning(columns)
      .executeTakeFirst();
  }

  async updateRenderLinksSignedOnly(id: string, signedOnly: boolean): Promise<UserRow | undefined> {
    return this.db
      .updateTable('users')
      .set({ render_links_signed_only: signedOnly, updated_at: sql<Date>`now()` })
      .where('id', '=', id)
      .returning(columns)
      .executeTakeFirst();
  }

  /** Sets a new password; the change time it records ends every session token issued before. */
  async updatePasswordHash(id: string, passwordHash: string): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ password_hash: passwordHash, password_changed_at: sql<Date>`now()`, updated_at: sql<Date>`now()` })
      .where('id', '=', id)
      .execute();
  }

  /**
   * Replaces a hash with a stronger one of the same password (an upgrade at login). Not a password change:
   * sessions stay valid. Only while the stored hash is still `previousHash`, so a reset that landed meanwhile wins.
   */
  async upgradePasswordHash(id: string, previousHash: string, passwordHash: string): Promise<boolean> {
    const result = await this.db
      .updateTable('users')
      .set({ password_hash: passwordHash })
      .where('id', '=', id)
      .where('password_hash', '=', previousHash)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** Creates a verified administrator, or promotes and verifies the existing account with that e-mail. */
  async upsertAdmin(user: NewUser): Promise<UserRow> {
    return this.db
      .insertInto('users')
      .values({ ...user, role: 'admin', status: 'verified' })
      .onConflict((oc) => oc.column('email').doUpdateSet({ role: 'admin', status: 'verified', updated_at: sql<Date>`now()` }))
      .returning(columns)
      .executeTakeFirstOrThrow();
  }

  async signupCounts(now: Date = new Date()): Promise<SignupCounts> {
    const row = await this.db
      .selectFrom('users')
      .select((eb) => windowCountSelections(eb, now))
      .executeTakeFirstOrThrow();
    return toWindowCounts(row);
  }
}
