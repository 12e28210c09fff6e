/**
 * The fault proxy's reading of what a Postgres client sends: which statement text each Bind runs. Two processes behind
 * one proxy name their statements alike (`brainstorm_7`) for different texts; read with one map for every connection,
 * the proxy lost the answer to the wrong statement (a heartbeat read instead of a claim) and cut a claim before it
 * committed.
 */
import { describe, expect, it } from 'vitest';
import { StatementTexts } from '../../support/postgres-frontend.ts';

/** One typed frontend message: its type byte, its length, its body. */
function message(type: string, ...strings: string[]): Buffer {
  const body = Buffer.concat(strings.map((text) => Buffer.from(`${text}\0`, 'utf8')));
  const header = Buffer.alloc(5);
  header.write(type, 0, 'latin1');
  header.writeInt32BE(4 + body.length, 1);
  return Buffer.concat([header, body]);
}

/** A startup message: its length, then a body the reader skips. */
function startup(): Buffer {
  const body = Buffer.from('user\0postgres\0\0', 'utf8');
  const header = Buffer.alloc(8);
  header.writeInt32BE(8 + body.length, 0);
  header.writeInt32BE(196608, 4);
  return Buffer.concat([header, body]);
}

describe('reading the statements a Postgres client runs', () => {
  it('keeps each connection’s named statements its own, however the bytes are chunked', () => {
    const texts = new StatementTexts();
    const ran: string[] = [];
    const first = texts.connection((text) => ran.push(`first: ${text}`));
    const second = texts.connection((text) => ran.push(`second: ${text}`));
    const bytes = Buffer.concat([startup(), message('P', 'brainstorm_7', 'insert into "inbound_claims"'), message('B', '', 'brainstorm_7')]);
    for (let offset = 0; offset < bytes.length; offset += 3) first(bytes.subarray(offset, offset + 3));
    second(Buffer.concat([startup(), message('P', 'brainstorm_7', 'select id from worker_instances'), message('B', '', 'brainstorm_7')]));
    first(message('B', '', 'brainstorm_7'));
    second(Buffer.concat([message('P', '', 'select 1'), message('B', '', ''), message('Q', 'begin')]));
    expect(ran).toEqual([
      'first: insert into "inbound_claims"',
      'second: select id from worker_instances',
      'first: insert into "inbound_claims"',
      'second: select 1',
      'second: begin',
    ]);
  });
});
