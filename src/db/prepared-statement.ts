import { isDeepStrictEqual } from 'node:util';
import { CompiledQuery, type Compilable, type Kysely, type QueryResult } from 'kysely';
import { BrainstormError } from '../core/errors.ts';
import type { Database } from './schema.ts';

/**
 * A hot statement of fixed shape whose SQL Kysely builds once: later calls send the same text with their own values.
 * Building a statement costs more than running a small one on PGlite, and the turn path sends dozens. `parameters`
 * lists a call's values in the order of the SQL's placeholders; the first call checks that order against Kysely's
 * own compilation, so a wrong list fails loudly at once instead of binding a value to the wrong column.
 */
export class PreparedStatement<Input, Row> {
  private text: string | null = null;

  constructor(
    private readonly name: string,
    private readonly build: (db: Kysely<Database>, input: Input) => Compilable<Row>,
    private readonly parameters: (input: Input) => readonly unknown[],
  ) {}

  /** Runs the statement with `input`'s values. */
  async execute(db: Kysely<Database>, input: Input): Promise<QueryResult<Row>> {
    if (this.text !== null) return db.executeQuery<Row>(CompiledQuery.raw(this.text, [...this.parameters(input)]));
    const compiled = this.build(db, input).compile();
    if (!isDeepStrictEqual([...compiled.parameters], [...this.parameters(input)])) {
      throw new BrainstormError('internal', `prepared statement ${this.name}: its parameter list does not match its SQL`);
    }
    this.text = compiled.sql;
    return db.executeQuery(compiled);
  }
}
