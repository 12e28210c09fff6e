/** Column types the table definitions share (schema.ts and the files it is split into). */
import type { ColumnType } from 'kysely';

/** A timestamptz column: read as a Date, written as a Date or ISO text. */
export type Timestamp = ColumnType<Date, Date | string, Date | string>;
/** A nullable timestamptz column. */
export type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
/** A JSONB column: written as JSON text (see `toJson`), read back as a parsed value. */
export type Json<T> = ColumnType<T, string, string>;
