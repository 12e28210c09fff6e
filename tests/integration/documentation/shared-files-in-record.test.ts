import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../../src/db/create-database.ts';
import type { Speaker } from '../../../src/core/domain.ts';
import { openAppTestDatabase } from '../../support/databases.ts';
import { createDocumentationHarness, inputText } from './documentation-harness.ts';

const ANA: Speaker = { kind: 'human', name: 'Ana', id: 'u-ana' };
const CLAUDE: Speaker = { kind: 'participant', name: 'Claude' };
/** A Discord CDN address as Discord signs it: it stops working at `ex` (a day after it was issued). */
const MOCKUP = 'https://cdn.discordapp.com/attachments/111/222/mockup.png?ex=6650a1b2&is=664f5032&hm=4f1c';
const MESSAGE_LINK = 'https://discord.com/channels/1/111/333';

describe('files people shared, in the record', () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openAppTestDatabase();
  });
  afterAll(async () => handle.close());

  it('are listed with a lasting link to their Discord message, and the Scribe never sees the CDN address that expires', async () => {
    const harness = createDocumentationHarness(handle, { notion: null });
    await harness.newSession('ses_files', 'Onboarding layout');
    const { message } = await harness.messages.insert(
      {
        sessionId: 'ses_files',
        speaker: ANA,
        role: 'user',
        text: `Here is the new onboarding layout.\n[attached image: mockup.png <${MOCKUP}>]`,
        deliveryStatus: 'delivered',
        externalUrl: MESSAGE_LINK,
      },
      harness.clock.now(),
    );
    await harness.service.onMessage('ses_files');
    await harness.say('ses_files', CLAUDE, 'The mockup puts the invite step too late.');
    await harness.service.requestRecord('ses_files', { urgent: true });
    await harness.runDue();

    const input = inputText(harness.models.scribe.calls.at(-1)!);
    expect(input).toContain(`#${message.number} [Ana (person)]: Here is the new onboarding layout.\n[attached image: mockup.png]`);
    expect(input).not.toContain('cdn.discordapp.com');
    const record = (await harness.service.latestRecord('ses_files'))!;
    expect(record).toContain(`## Shared files\n- \`mockup.png\` (image) — Ana, [#${message.number}](${MESSAGE_LINK})`);
    expect(record).not.toContain('cdn.discordapp.com');
    expect(readFileSync(`${harness.dataDir}/docs/ses_files/record.md`, 'utf8')).toBe(record);
  });
});
