/** Texts kept prepared at once (see named-statements.mjs). */
export declare const NAMED_STATEMENT_CAPACITY: number;

/** Runs after which a text is prepared (and planned) afresh (see named-statements.mjs). */
export declare const REPLAN_AFTER_RUNS: number;

/** Whether a text may run as a named statement: a plain data statement whose plan does not depend on a bound value. */
export declare function isNameableStatement(sql: string): boolean;

/** What of PGlite the named statements need (a PGlite instance has all of it). */
export interface PgliteSession {
  readonly waitReady: Promise<void>;
  query(sql: string, params?: unknown[]): Promise<{ rows: unknown[]; affectedRows?: number }>;
  exec(sql: string): Promise<{ rows: unknown[]; affectedRows?: number }[]>;
  execProtocol(message: Uint8Array): Promise<{ messages: unknown[] }>;
  _runExclusiveQuery<T>(fn: () => Promise<T>): Promise<T>;
  _runExclusiveTransaction<T>(fn: () => Promise<T>): Promise<T>;
  isInTransaction(): boolean;
  serializers: Record<number | string, (value: unknown) => string>;
  parsers: Record<number | string, (value: string, typeId?: number) => unknown>;
}

/** Runs statements on one PGlite session, each distinct text prepared once under a name of its own (see named-statements.mjs). */
export declare class NamedStatements {
  constructor(database: PgliteSession, capacity?: number);
  readonly size: number;
  query<R = unknown>(sql: string, params?: unknown[]): Promise<{ rows: R[]; affectedRows?: number }>;
  /** Runs a script as `PGlite.exec` does, the prepared texts forgotten first (a script may change the schema). */
  exec(sql: string): Promise<{ rows: unknown[]; affectedRows?: number }[]>;
  forgetAll(): void;
}
