import { describe, expect, it } from 'vitest';
import { blocksToMarkdown, chunkBlocks, markdownToBlocks, toRichText, type BlockRequest } from '../../../src/notion/markdown-blocks.ts';
import { checkChildren } from '../../fakes/notion/block-limits.ts';

function payload(block: BlockRequest): { rich_text?: { text: { content: string } }[]; children?: BlockRequest[] } {
  return block[block.type] as { rich_text?: { text: { content: string } }[]; children?: BlockRequest[] };
}

describe('markdown to blocks', () => {
  it('cuts text into 2000-character items and 100-item blocks', () => {
    expect(toRichText('a'.repeat(4500)).map((item) => item.text.content.length)).toEqual([2000, 2000, 500]);
    const blocks = markdownToBlocks('x'.repeat(2000 * 150));
    expect(blocks).toHaveLength(2);
    expect(payload(blocks[0] as BlockRequest).rich_text).toHaveLength(100);
  });

  it('maps headings, lists, quotes, code and dividers, nesting one level only', () => {
    const blocks = markdownToBlocks('# H\n- a\n  - b\n    - c\n> q\n```ts\nconst x = 1;\n```\n---\ntext');
    expect(blocks.map((block) => block.type)).toEqual(['heading_1', 'bulleted_list_item', 'quote', 'code', 'divider', 'paragraph']);
    const children = payload(blocks[1] as BlockRequest).children ?? [];
    expect(children.map((child) => payload(child).rich_text?.[0]?.text.content)).toEqual(['b', 'c']);
    expect(children.every((child) => payload(child).children === undefined)).toBe(true);
  });

  it("names a code block's language as Notion does, and one it does not know plain text (it refuses any other)", () => {
    const languages = ['ts', 'Python', 'yml', 'text', 'brainfuck', ''].map((tag) => {
      const [block] = markdownToBlocks(`\`\`\`${tag}\nx = 1\n\`\`\``);
      return (block?.[block.type] as { language?: string }).language;
    });
    expect(languages).toEqual(['typescript', 'python', 'yaml', 'plain text', 'plain text', 'plain text']);
    expect(() => checkChildren(markdownToBlocks('```ts\nconst a = 1;\n```'))).not.toThrow();
    expect(() => checkChildren([{ object: 'block', type: 'code', code: { rich_text: [], language: 'ts' } }])).toThrow(/code\.language/);
  });

  it('chunks any record into requests the fake Notion accepts', () => {
    const markdown = Array.from({ length: 700 }, (_, index) => `- item ${index}\n  - detail ${index}\n  - more ${index}`).join('\n');
    const chunks = chunkBlocks(markdownToBlocks(markdown));
    expect(chunks.length).toBeGreaterThan(6);
    for (const chunk of chunks) expect(() => checkChildren(chunk)).not.toThrow();
  });

  it('makes task list items Notion to-dos, ticked for [x], and reads them back as written', () => {
    const markdown = '## Next steps\n- [ ] Pilot the async doc — Ana (#12)\n- [x] Book the retro (#14)\n- [link](https://example.com) stays a bullet';
    const blocks = markdownToBlocks(markdown);
    expect(blocks.map((block) => block.type)).toEqual(['heading_2', 'to_do', 'to_do', 'bulleted_list_item']);
    expect(blocks.slice(1, 3).map((block) => (block.to_do as { checked: boolean }).checked)).toEqual([false, true]);
    expect(payload(blocks[1] as BlockRequest).rich_text?.[0]?.text.content).toBe('Pilot the async doc — Ana (#12)');
    const read = blocks.map((block, index) => ({ ...block, id: String(index) }));
    expect(blocksToMarkdown(read)).toBe(markdown);
    expect(() => checkChildren(blocks)).not.toThrow();
  });

  it('reads blocks back into the same markdown', () => {
    const markdown = '# Title\n- one\n  - nested\n> quote\n```\ncode\n```\nplain';
    const blocks = markdownToBlocks(markdown).map((block, index) => ({
      ...block,
      id: String(index),
      children: (payload(block).children ?? []).map((child, childIndex) => ({ ...child, id: `${index}.${childIndex}` })),
    }));
    expect(blocksToMarkdown(blocks)).toBe(markdown);
  });
});
