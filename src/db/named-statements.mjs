// @ts-check
/**
 * Named prepared statements for PGlite. `PGlite.query` sends each statement as six protocol messages, each its own
 * trip into the WebAssembly engine (parse, describe, bind, describe, execute, sync), and Postgres parses the text
 * every time. Here a statement's text is parsed once under a name; later runs send bind, describe, execute and sync in
 * one buffer, one trip. The app sends the same few dozen texts all day, so nearly every statement is a later run.
 * Measured on this machine (scratch scripts, alternating): a select by key 143-181 -> 88-136 us, an update 158-266 ->
 * 118-142 us; a whole turn's overhead on PGlite, p50 ~61 -> ~54 ms.
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

/** Statements that change the schema: the prepared texts are forgotten, as their columns may have changed. */
const SCHEMA_CHANGE = /^\s*(create|alter|drop|truncate|comment)\b/i;

/** Postgres's `feature_not_supported`, raised when a named statement's result columns changed (a table altered since). */
const CACHED_PLAN_CHANGED = '0A000';

/** @typedef {{ rows: unknown[], affectedRows?: number }} StatementResult */
/** @typedef {{ name: string, parameterTypes: number[] }} NamedStatement */
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
  #customPlansOnly = false;

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
    if (!NAMEABLE.test(sql)) {
      if (SCHEMA_CHANGE.test(sql)) this.forgetAll();
      return this.database.query(sql, params);
    }
    // PGlite's own query waits for the start; its protocol entry does not.
    await this.database.waitReady;
    if (!this.#customPlansOnly && !(await this.#planEveryRun())) return this.database.query(sql, params);
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

  /**
   * A named statement is planned for its values the first five runs, then Postgres may keep one generic plan for all.
   * A generic plan cannot use the values: an `ON CONFLICT (...) WHERE status = $1` no longer finds its partial unique
   * index and fails. Planned every run, a named statement means what the unnamed one meant; the parse is still saved.
   * The setting is made outside any transaction only (a rollback would undo it); until then statements go unnamed.
   * @returns {Promise<boolean>} whether it is set
   */
  async #planEveryRun() {
    if (this.database.isInTransaction()) return false;
    await this.database.query("set plan_cache_mode = 'force_custom_plan'");
    this.#customPlansOnly = true;
    return true;
  }

  /** @param {string} sql @returns {Promise<NamedStatement>} */
  async #prepared(sql) {
    const known = this.#statements.get(sql);
    if (known) {
      this.#statements.delete(sql);
      this.#statements.set(sql, known);
      return known;
    }
    const name = `brainstorm_${this.#nextName++}`;
    const messages = [serialize.parse({ name, text: sql }), serialize.describe({ type: 'S', name }), serialize.sync()];
    const oldest = this.#statements.size >= this.capacity ? this.#statements.entries().next().value : undefined;
    if (oldest) {
      this.#statements.delete(oldest[0]);
      messages.unshift(serialize.close({ type: 'S', name: oldest[1].name }));
    }
    const { messages: replies } = await this.database.execProtocol(Buffer.concat(messages));
    const statement = { name, parameterTypes: parse.parseDescribeStatementResults(replies) };
    this.#statements.set(sql, statement);
    return statement;
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
