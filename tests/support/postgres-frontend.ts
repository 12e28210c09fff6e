/**
 * Reads what a Postgres client sends (the frontend protocol), so a proxy can tell which statement a connection runs:
 * its startup message, then typed messages (one byte, a length, a body). Parse names a statement's text; Bind runs a
 * named (or the unnamed) statement. Only what the fault proxy needs: which statement texts each Bind runs.
 */

/** Splits one connection's bytes into typed messages, however they are chunked; the startup message is skipped. */
export function frontendMessages(onMessage: (type: string, body: Buffer) => void): (chunk: Buffer) => void {
  let pending = Buffer.alloc(0);
  let started = false;
  return (chunk) => {
    pending = Buffer.concat([pending, chunk]);
    for (;;) {
      if (!started) {
        if (pending.length < 4 || pending.length < pending.readInt32BE(0)) return;
        pending = pending.subarray(pending.readInt32BE(0));
        started = true;
        continue;
      }
      if (pending.length < 5 || pending.length < 1 + pending.readInt32BE(1)) return;
      const length = pending.readInt32BE(1);
      onMessage(String.fromCharCode(pending[0] ?? 0), pending.subarray(5, 1 + length));
      pending = pending.subarray(1 + length);
    }
  };
}

/** The NUL-terminated strings at the start of a message body. */
function cStrings(body: Buffer, count: number): string[] {
  const strings: string[] = [];
  let start = 0;
  for (let index = 0; index < count; index += 1) {
    const end = body.indexOf(0, start);
    if (end === -1) break;
    strings.push(body.toString('utf8', start, end));
    start = end + 1;
  }
  return strings;
}

/**
 * The texts of the statements a client runs. A named statement is prepared (Parse) on each connection before that
 * connection runs it by name, so names are kept per connection: two processes behind one proxy give the same name
 * (`brainstorm_7`) to different texts, and a map shared by all connections read one process's Bind as the other's text.
 */
export class StatementTexts {
  /** A reader for one connection; `onRun` hears the text of every statement it runs (each Bind). */
  connection(onRun: (text: string) => void): (chunk: Buffer) => void {
    const named = new Map<string, string>();
    let unnamed = '';
    return frontendMessages((type, body) => {
      if (type === 'P') {
        const [name = '', text = ''] = cStrings(body, 2);
        if (name === '') unnamed = text;
        else named.set(name, text);
      } else if (type === 'B') {
        const [, name = ''] = cStrings(body, 2);
        onRun(name === '' ? unnamed : (named.get(name) ?? ''));
      } else if (type === 'Q') {
        onRun(cStrings(body, 1)[0] ?? '');
      }
    });
  }
}
