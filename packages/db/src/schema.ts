import type { ColumnType } from 'kysely';

// Hand-written to mirror the migrations: each migration that adds or changes a
// table updates the matching interface here in the same change.

export interface ServiceHeartbeatsTable {
  service: string;
  started_at: ColumnType<Date, Date | string | undefined, Date | string>;
  version: string;
}

export interface DB {
  service_heartbeats: ServiceHeartbeatsTable;
}
