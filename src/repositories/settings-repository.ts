import type { Kysely } from 'kysely';
import { toJson, type Database } from '../db/schema.ts';
import { sendNotice } from './notices.ts';

/** The channel on which a process that changed a setting tells the others (Postgres `NOTIFY`), to read them again. */
export const SETTINGS_CHANNEL = 'brainstorm_settings';

/** Persisted admin settings (`!config`). */
export class SettingsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Every stored setting. */
  async all(): Promise<Record<string, unknown>> {
    const rows = await this.db.selectFrom('settings').select(['key', 'value']).execute();
    return Object.fromEntries(rows.map((row) => [row.key, row.value]));
  }

  /** Stores one setting. */
  async set(key: string, value: unknown, updatedBy: string, now: Date): Promise<void> {
    await this.db
      .insertInto('settings')
      .values({ key, value: toJson(value), updated_by: updatedBy, updated_at: now })
      .onConflict((conflict) => conflict.column('key').doUpdateSet({ value: toJson(value), updated_by: updatedBy, updated_at: now }))
      .execute();
  }

  /** Tells every process listening on `SETTINGS_CHANNEL` that a setting changed (Postgres; on PGlite nobody listens). */
  async announceChange(): Promise<void> {
    await sendNotice(this.db, SETTINGS_CHANNEL, '');
  }

  /** Removes one setting (back to the environment's value). */
  async remove(key: string): Promise<void> {
    await this.db.deleteFrom('settings').where('key', '=', key).execute();
  }
}
