/**
 * How web sources look: the Discord Sources line (masked links the masked-link screen passes), the record's Web
 * sources section (replaced, never duplicated, on each pass), Notion links both ways, and the roster flag.
 */
import { describe, expect, it } from 'vitest';
import { findMaskedLinks } from '../../../../src/agents/guardrails/masked-links.ts';
import { SOURCES_HEADING, withSources } from '../../../../src/agents/scribe/record-sources.ts';
import { sourceLink, sourcesLine } from '../../../../src/bot/citation-line.ts';
import { composeChunks } from '../../../../src/bot/message-format.ts';
import { buildConfig } from '../../../../src/config/load-config.ts';
import { webSearchNotices } from '../../../../src/config/web-search.ts';
import type { Speaker } from '../../../../src/core/domain.ts';
import { blocksToMarkdown, markdownToBlocks, type ReadBlock } from '../../../../src/notion/markdown-blocks.ts';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const scout: Speaker = { kind: 'participant', name: 'Scout', id: 'scout' };

describe('the Discord Sources line', () => {
  it('lists masked links with unfurling off, under the text and above the simulated marker', () => {
    const [chunk] = composeChunks({
      speaker: scout,
      content: 'Flags shipped.',
      replyTo: [],
      simulated: true,
      citations: [{ url: 'https://example.com/a', title: 'Release notes' }],
    });
    expect(chunk).toBe('Flags shipped.\n-# Sources: [Release notes](<https://example.com/a>)\n-# simulated model (demo mode)');
  });

  it('never builds a link the masked-link screen flags: an address-like title becomes the real host', () => {
    expect(sourceLink({ url: 'https://evil.example.net/x', title: 'bank.example.com' })).toBe('[evil.example.net](<https://evil.example.net/x>)');
    expect(sourceLink({ url: 'https://docs.example.com/flags', title: 'docs.example.com' })).toBe('[docs.example.com](<https://docs.example.com/flags>)');
    const line = sourcesLine([
      { url: 'https://a.example/(draft)', title: 'A [draft] *bold* title' },
      { url: 'https://b.example/', title: 'c.example' },
    ]);
    expect(findMaskedLinks(line)).toEqual([]);
    expect(line).toContain('[A \\[draft\\] \\*bold\\* title](<https://a.example/%28draft%29>)');
  });

  it('is empty without citations, and links a model writes in its text are screened as before', () => {
    expect(sourcesLine(undefined)).toBe('');
    expect(sourcesLine([])).toBe('');
    expect(findMaskedLinks('[https://bank.example.com](https://evil.example.net)')).toHaveLength(1);
  });
});

describe("the record's Web sources section", () => {
  const messages = [
    { number: 3, speaker: scout, citations: [{ url: 'https://example.com/a', title: 'Release [notes]' }] },
    {
      number: 5,
      speaker: scout,
      citations: [
        { url: 'https://example.com/a', title: 'Again' },
        { url: 'https://b.example/x', title: 'B' },
      ],
    },
  ];

  it('lists each cited page once, as a link with who cited it where', () => {
    const record = withSources('# Record\n\n## Findings\n- one', messages);
    expect(record).toBe(
      `# Record\n\n## Findings\n- one\n\n${SOURCES_HEADING}\n- [Release notes](https://example.com/a) — Scout, #3\n- [B](https://b.example/x) — Scout, #5\n`,
    );
  });

  it('replaces the section a previous pass wrote, wherever the model left it', () => {
    const once = withSources('# Record\n\n## Findings\n- one', messages);
    const rewritten = once.replace('## Findings\n- one', '## Findings\n- one\n- two');
    const moved = `${rewritten.trimEnd()}\n\n## Next steps\n- ship`;
    const twice = withSources(moved, messages);
    expect(twice.split(SOURCES_HEADING)).toHaveLength(2);
    expect(twice).toContain('## Next steps\n- ship');
    expect(withSources(twice, [])).not.toContain(SOURCES_HEADING);
  });
});

describe('Notion links', () => {
  it('writes markdown web links as linked rich text and reads them back as markdown', () => {
    const [block] = markdownToBlocks('- [Release notes](https://example.com/a) — Scout, #3');
    const items = (block?.bulleted_list_item as { rich_text: unknown[] }).rich_text;
    expect(items).toEqual([
      { type: 'text', text: { content: 'Release notes', link: { url: 'https://example.com/a' } } },
      { type: 'text', text: { content: ' — Scout, #3' } },
    ]);
    const read = [{ id: 'b1', type: 'bulleted_list_item', bulleted_list_item: { rich_text: items } }] as ReadBlock[];
    expect(blocksToMarkdown(read)).toBe('- [Release notes](https://example.com/a) — Scout, #3');
  });

  it('leaves other brackets and code alone', () => {
    const [paragraph, code] = markdownToBlocks('[not a link](javascript:alert(1)) and [x]\n```\n[a](https://example.com)\n```');
    expect(JSON.stringify(paragraph)).not.toContain('"link"');
    expect(JSON.stringify(code)).not.toContain('"link"');
  });
});

describe('the roster flag', () => {
  function rosterConfig(entry: Record<string, unknown>) {
    const file = join(mkdtempSync(join(tmpdir(), 'roster-')), 'roster.json');
    writeFileSync(file, JSON.stringify([{ id: 'scout', name: 'Scout', model: 'openai/gpt-4o', persona: 'Looks things up.', ...entry }]));
    const roles = { SESSION_PLANNER_MODEL: 'scout', MODERATOR_MODEL: 'scout', SCRIBE_MODEL: 'scout', TLDR_MODEL: 'scout' };
    return buildConfig({ OPENROUTER_API_KEY: 'sk-test', PARTICIPANTS_FILE: file, ...roles });
  }

  it('turns web search on for an OpenRouter participant, with an optional result cap', () => {
    expect(rosterConfig({ webSearch: true }).models.roster[0]?.webSearch).toEqual({ status: 'on', maxResults: undefined });
    expect(rosterConfig({ webSearch: { maxResults: 3 } }).models.roster[0]?.webSearch).toEqual({ status: 'on', maxResults: 3 });
    expect(rosterConfig({}).models.roster[0]?.webSearch).toBeUndefined();
    expect(() => rosterConfig({ webSearch: { maxResults: 0 } })).toThrow(/webSearch/);
  });

  it('says at start-up that a direct endpoint runs without it', () => {
    const config = rosterConfig({ webSearch: true, baseUrl: 'https://api.openai.com/v1', apiKeyVariable: 'OPENAI_API_KEY' });
    expect(config.models.roster[0]?.webSearch).toEqual({ status: 'unsupported' });
    expect(webSearchNotices(config.models.roster)).toEqual([
      expect.stringMatching(/^Scout asks for web search, but its endpoint .* answers without web search\.$/),
    ]);
    expect(webSearchNotices(rosterConfig({ webSearch: true }).models.roster)).toEqual([]);
  });
});
