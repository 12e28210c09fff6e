// @ts-check
/**
 * Named prepared statements for PGlite. `PGlite.query` sends each statement as six protocol messages, each its own
 * trip into the WebAssembly engine (parse, describe, bind, describe, execute, sync), and Postgres parses the text
 * every time. Here a statement's text is parsed once under a name; later runs send bind, describe, execute and sync in
 * one buffer, one trip. The app sends the same few dozen texts all day, so nearly every statement is a later run.
 * Measured on this machine (scratch scripts, alternating): a select by key 143-181 -> 88-136 us, an update 158-266 ->
 * 118-142 us; a whole turn's overhead on PGlite, p50 ~61 -> ~54 ms.
 *
 * From a named statement's sixth run on, Postgres may keep one generic plan for it and stop planning: that saved
 * another 3-9 ms of CPU per 3-participant turn (scratch script, alternating with every run planned). A generic plan
 * returns what a custom one does, with one exception, kept out (VALUE_DEPENDENT_ARBITER); one made while the tables
 * were small is replaced after REPLAN_AFTER_RUNS runs.
 *
 * Plain JavaScript: the PGlite thread (pglite-worker.mjs) runs it as it is, and the main thread imports it too.
 */
import { Buffer } from 'node:buffer';
import { parse, protocol } from '@electric-sql/pglite';

const { serialize } = protocol;

/** Texts kept prepared at once; the least recently run is closed first (Kysely's IN lists make texts of every length). */
export const NAMED_STATEMENT_CAPACITY = 256;

/** Only plain data statements are named: utility statements (BEGIN, SET, DDL) go through PGlite's own path. */
const NAMEABLE = /^\s*(select|insert|update|delete|with|values)\b/i;

/**
 * An `ON CONFLICT (...) WHERE` whose predicate holds a bound value. Postgres names the arbiter (a partial unique index) by
 * that predicate when it plans; a generic plan, which Postgres may keep from a named statement's sixth run on, cannot see
 * the value and fails to find the index. Such a text goes the unnamed way, planned for its values every run.
 */
const VALUE_DEPENDENT_ARBITER = /on conflict\s*\([^)]*\)\s*where\s(?:(?!\bdo\b)[\s\S])*\$\d/i;

/**
 * Runs after which a text is prepared afresh. PGlite runs no ANALYZE (no autovacuum in single-user mode), so the only
 * thing that tells the planner a table grew is the table's size when it plans: a generic plan chosen while the tables
 * were small is replaced by one made for their size now.
 */
export const REPLAN_AFTER_RUNS = 1000;

/** Statements that change the schema: the prepared texts are forgotten, as their columns may have changed. */
const SCHEMA_CHANGE = /^\s*(create|alter|drop|truncate|comment)\b/i;

/**
 * Whether a text may run as a named statement (on PGlite here, on a Postgres server in postgres-statement-names.ts):
 * a plain data statement whose plan does not depend on a bound value.
 * @param {string} sql
 */
export function isNameableStatement(sql) {
  return NAMEABLE.test(sql) && !VALUE_DEPENDENT_ARBITER.test(sql);
}

/** Postgres's `feature_not_supported`, raised when a named statement's result columns changed (a table altered since). */
const CACHED_PLAN_CHANGED = '0A000';

/** @typedef {{ rows: unknown[], affectedRows?: number }} StatementResult */
/** @typedef {{ name: string, parameterTypes: number[], runs: number }} NamedStatement */
/**
 * What of PGlite this needs (a PGlite instance has all of it).
 * @typedef {{
 *   waitReady: Promise<void>,
 *   query(sql: string, params?: unknown[]): Promise<StatementResult>,
 *   exec(sql: string): Promise<StatementResult[]>,
 *   execProtocol(message: Uint8Array): Promise<{ messages: import('@electric-sql/pglite').BackendMessage[] }>,
 *   _runExclusiveQuery<T>(fn: () => Promise<T>): Promise<T>,
 *   _runExclusiveTransaction<T>(fn: () => Promise<T>): Promise<T>,
 *   isInTransaction(): boolean,
 *   serializers: Record<number | string, (value: any) => string>,
 *   parsers: Record<number | string, (value: string, typeId?: number) => any>,
 * }} PgliteSession
 */

/** @param {unknown} error */
function isCachedPlanChange(error) {
  return typeof error === 'object' && error !== null && /** @type {{ code?: unknown }} */ (error).code === CACHED_PLAN_CHANGED;
}

/** Runs statements on one PGlite session, each distinct text prepared once under a name of its own. */
export class NamedStatements {
  /** @type {Map<string, NamedStatement>} insertion order is recency: a run moves its text to the end */
  #statements = new Map();
  #nextName = 1;

  /** @param {PgliteSession} database @param {number} [capacity] */
  constructor(database, capacity = NAMED_STATEMENT_CAPACITY) {
    this.database = database;
    this.capacity = capacity;
  }

  /** How many texts are prepared now. */
  get size() {
    return this.#statements.size;
  }

  /**
   * Runs `sql` with `params`, as `PGlite.query` would: same rows (same parsers), same affected-row count, same errors.
   * @param {string} sql @param {unknown[]} [params] @returns {Promise<StatementResult>}
   */
  async query(sql, params = []) {
    if (!isNameableStatement(sql)) {
      if (SCHEMA_CHANGE.test(sql)) this.forgetAll();
      return this.database.query(sql, params);
    }
    // PGlite's own query waits for the start; its protocol entry does not.
    await this.database.waitReady;
    return this.database._runExclusiveTransaction(() =>
      this.database._runExclusiveQuery(async () => {
        try {
          return await this.#run(await this.#prepared(sql), params);
        } catch (error) {
          if (!isCachedPlanChange(error)) throw error;
          // Postgres re-plans a named statement whenever a table it reads changes, but refuses when its result
          // columns changed. Prepared afresh it runs; inside a transaction that error has aborted it, so only the
          // next run can.
          this.#statements.delete(sql);
          if (this.database.isInTransaction()) throw error;
          return this.#run(await this.#prepared(sql), params);
        }
      }),
    );
  }

  /**
   * Runs a script (several statements, the simple protocol: migrations) as `PGlite.exec` does. What it changes may
   * change the columns of prepared texts, so they are forgotten first.
   * @param {string} sql @returns {Promise<StatementResult[]>}
   */
  exec(sql) {
    this.forgetAll();
    return this.database.exec(sql);
  }

  /**
   * Forgets every prepared text (after the schema changed), so each is prepared afresh. The old names are left to the
   * session, not closed: a schema change comes with migrations, at a start, and a close inside a transaction that a
   * failed migration aborted would fail too. Names are never reused, so none is mistaken for another.
   */
  forgetAll() {
    this.#statements.clear();
  }

  /** @param {string} sql @returns {Promise<NamedStatement>} */
  async #prepared(sql) {
    const known = this.#statements.get(sql);
    if (known) this.#statements.delete(sql);
    if (known && known.runs < REPLAN_AFTER_RUNS) {
      known.runs += 1;
      this.#statements.set(sql, known);
      return known;
    }
    // Closed in the same trip: a text that has run its share (planned afresh under a new name), or past capacity the
    // least recently run one.
    const retired = known ?? this.#leastRecentlyRunPastCapacity();
    const name = `brainstorm_${this.#nextName++}`;
    const messages = [serialize.parse({ name, text: sql }), serialize.describe({ type: 'S', name }), serialize.sync()];
    if (retired) messages.unshift(serialize.close({ type: 'S', name: retired.name }));
    const { messages: replies } = await this.database.execProtocol(Buffer.concat(messages));
    const statement = { name, parameterTypes: parse.parseDescribeStatementResults(replies), runs: 1 };
    this.#statements.set(sql, statement);
    return statement;
  }

  /** Forgets and returns the least recently run text when the capacity is reached. @returns {NamedStatement | undefined} */
  #leastRecentlyRunPastCapacity() {
    if (this.#statements.size < this.capacity) return undefined;
    const oldest = this.#statements.entries().next().value;
    if (!oldest) return undefined;
    this.#statements.delete(oldest[0]);
    return oldest[1];
  }

  /** @param {NamedStatement} statement @param {unknown[]} params @returns {Promise<StatementResult>} */
  async #run(statement, params) {
    const values = params.map((value, index) => this.#serialized(value, statement.parameterTypes[index]));
    const { messages } = await this.database.execProtocol(
      Buffer.concat([serialize.bind({ statement: statement.name, values }), serialize.describe({ type: 'P' }), serialize.execute({}), serialize.sync()]),
    );
    const [result] = parse.parseResults(messages, this.database.parsers);
    return { rows: result?.rows ?? [], affectedRows: result?.affectedRows ?? 0 };
  }

  /** As PGlite serializes a parameter: by the type Postgres inferred for it, else as text. @param {unknown} value @param {number | undefined} type */
  #serialized(value, type) {
    if (value === null || value === undefined) return null;
    const serializer = type === undefined ? undefined : this.database.serializers[type];
    return serializer ? serializer(value) : String(value);
  }
}
