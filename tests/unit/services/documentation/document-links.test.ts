import { describe, expect, it } from 'vitest';
import type { Session } from '../../../../src/core/domain.ts';
import { documentLinksOf } from '../../../../src/services/documentation/document-links.ts';

const session: Pick<Session, 'id' | 'roomUrl'> = { id: 'ses_1', roomUrl: 'http://127.0.0.1:7420/#/rooms/room_1' };
const local = (has: { record: boolean; tldr: boolean }) => ({ consoleUrl: null, pathOf: (id: string, kind: string) => `/data/docs/${id}/${kind}.md`, has });
const none = { row: null, record: null, tldr: null };

describe('documentLinksOf', () => {
  it("links the console's view and file of each document the session has", () => {
    expect(documentLinksOf(session, none, local({ record: true, tldr: true }))).toEqual([
      { label: 'Detailed record', url: 'http://127.0.0.1:7420/#/sessions/ses_1/documents/record', file: '/data/docs/ses_1/record.md' },
      { label: 'TLDR', url: 'http://127.0.0.1:7420/#/sessions/ses_1/documents/tldr', file: '/data/docs/ses_1/tldr.md' },
    ]);
  });

  it('leaves out a document the session lacks (its model failed): the link would lead nowhere', () => {
    expect(documentLinksOf(session, none, local({ record: true, tldr: false })).map((link) => link.label)).toEqual(['Detailed record']);
    const notion = { row: 'https://notion.so/row', record: null, tldr: null };
    expect(documentLinksOf(session, notion, local({ record: false, tldr: false })).map((link) => link.label)).toEqual(['Notion page (record and TLDR)']);
  });
});
