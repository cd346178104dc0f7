import type { ColumnType, Generated } from 'kysely';

// Hand-written to mirror the migrations: each migration that adds or changes a
// table updates the matching interface here in the same change.

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

export interface ServiceHeartbeatsTable {
  service: string;
  started_at: ColumnType<Date, Date | string | undefined, Date | string>;
  version: string;
}

export type UserRole = 'user' | 'admin';
export type UserStatus = 'pending' | 'verified';
export type UserPlan = 'free' | 'pro';

export interface UsersTable {
  id: Generated<string>;
  name: string;
  /** Always lowercased (a check constraint enforces it). */
  email: string;
  password_hash: string;
  company: string | null;
  usage_source: string;
  referral_source: string;
  planned_services: ColumnType<string[], string[] | undefined, string[]>;
  role: ColumnType<UserRole, UserRole | undefined, UserRole>;
  status: ColumnType<UserStatus, UserStatus | undefined, UserStatus>;
  plan: ColumnType<UserPlan, UserPlan | undefined, UserPlan>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ApiKeysTable {
  id: Generated<string>;
  user_id: string;
  key_hash: string;
  key_ciphertext: string;
  prefix: string;
  created_at: Timestamp;
  revoked_at: NullableTimestamp;
}

export type EmailCodePurpose = 'verify';

export interface EmailCodesTable {
  id: Generated<string>;
  user_id: string;
  purpose: EmailCodePurpose;
  code_hash: string;
  expires_at: ColumnType<Date, Date | string, Date | string>;
  attempts: ColumnType<number, number | undefined, number>;
  consumed_at: NullableTimestamp;
  created_at: Timestamp;
}

export interface PasswordResetsTable {
  id: Generated<string>;
  user_id: string;
  token_hash: string;
  expires_at: ColumnType<Date, Date | string, Date | string>;
  consumed_at: NullableTimestamp;
  created_at: Timestamp;
}

export interface DB {
  service_heartbeats: ServiceHeartbeatsTable;
  users: UsersTable;
  api_keys: ApiKeysTable;
  email_codes: EmailCodesTable;
  password_resets: PasswordResetsTable;
}
