/**
 * The fake's own markdown <-> blocks conversion (line based), so the markdown endpoints round-trip the way
 * Notion's do for the plain markdown the Scribe writes. Deliberately independent of src/notion.
 */

/** A block as the fake stores it: its type and the type's payload (without children). */
export interface FakeBlockContent {
  type: string;
  payload: Record<string, unknown>;
  children: FakeBlockContent[];
}

const TEXT_LIMIT = 2000;

/** Rich text request items for a text, cut into Notion-sized pieces. */
export function richText(text: string): Record<string, unknown>[] {
  const items: Record<string, unknown>[] = [];
  for (let start = 0; start < text.length; start += TEXT_LIMIT) items.push({ type: 'text', text: { content: text.slice(start, start + TEXT_LIMIT) } });
  return items;
}

const MARKDOWN_LINK = /\[([^\]\n]+)\]\(<?(https?:\/\/[^\s()<>]+)>?\)/g;

/** Rich text of a markdown line as Notion's markdown endpoints make it: `[text](url)` becomes linked text. */
export function linkedRichText(text: string): Record<string, unknown>[] {
  const items: Record<string, unknown>[] = [];
  let last = 0;
  for (const match of text.matchAll(MARKDOWN_LINK)) {
    const start = match.index ?? 0;
    if (start > last) items.push(...richText(text.slice(last, start)));
    items.push({ type: 'text', text: { content: match[1] ?? '', link: { url: match[2] ?? '' } } });
    last = start + match[0].length;
  }
  if (last < text.length || items.length === 0) items.push(...richText(text.slice(last)));
  return items;
}

function textBlock(type: string, text: string): FakeBlockContent {
  return { type, payload: { rich_text: linkedRichText(text) }, children: [] };
}

const PREFIXES: [RegExp, string][] = [
  [/^### (.*)$/, 'heading_3'],
  [/^## (.*)$/, 'heading_2'],
  [/^# (.*)$/, 'heading_1'],
  [/^[-*] (.*)$/, 'bulleted_list_item'],
  [/^\d+\. (.*)$/, 'numbered_list_item'],
  [/^> ?(.*)$/, 'quote'],
];

/** Markdown to blocks, one block per line (fenced code becomes one code block). */
export function markdownToFakeBlocks(markdown: string): FakeBlockContent[] {
  const blocks: FakeBlockContent[] = [];
  const lines = markdown.split('\n');
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index] ?? '';
    const fence = /^```(\w*)\s*$/.exec(line);
    if (fence) {
      const body: string[] = [];
      index += 1;
      while (index < lines.length && !/^```\s*$/.test(lines[index] ?? '')) {
        body.push(lines[index] ?? '');
        index += 1;
      }
      blocks.push({ type: 'code', payload: { rich_text: richText(body.join('\n')), language: fence[1] || 'plain text' }, children: [] });
      continue;
    }
    if (line.trim() === '') continue;
    if (/^---+\s*$/.test(line)) {
      blocks.push({ type: 'divider', payload: {}, children: [] });
      continue;
    }
    // Notion's markdown makes a task list item a to-do block, its box ticked for `[x]`.
    const task = /^[-*] \[([ xX])\] (.*)$/.exec(line.trimStart());
    if (task) {
      blocks.push({ type: 'to_do', payload: { rich_text: linkedRichText(task[2] ?? ''), checked: task[1] !== ' ' }, children: [] });
      continue;
    }
    const match = PREFIXES.map(([pattern, type]) => [pattern.exec(line.trimStart()), type] as const).find(([found]) => found);
    blocks.push(match ? textBlock(match[1], match[0]?.[1] ?? '') : textBlock('paragraph', line));
  }
  return blocks;
}

/** The plain text of a rich text array (request or response items). */
export function plainText(items: unknown): string {
  if (!Array.isArray(items)) return '';
  return items.map((item: { plain_text?: string; text?: { content?: string } }) => item.plain_text ?? item.text?.content ?? '').join('');
}

/** The markdown of a rich text array: linked items as `[text](url)`, as Notion's markdown endpoint writes them. */
function markdownText(items: unknown): string {
  if (!Array.isArray(items)) return '';
  return items
    .map((item: { plain_text?: string; text?: { content?: string; link?: { url?: string } | null } }) => {
      const content = item.plain_text ?? item.text?.content ?? '';
      const url = item.text?.link?.url;
      return url ? `[${content}](${url})` : content;
    })
    .join('');
}

const MARKERS: Record<string, string> = {
  heading_1: '# ',
  heading_2: '## ',
  heading_3: '### ',
  bulleted_list_item: '- ',
  numbered_list_item: '1. ',
  quote: '> ',
  paragraph: '',
};

/** Blocks back to markdown; nested children are indented two spaces per level. */
export function fakeBlocksToMarkdown(blocks: { type: string; payload: Record<string, unknown>; children: unknown[] }[], depth = 0): string {
  const indent = '  '.repeat(depth);
  const lines: string[] = [];
  for (const block of blocks) {
    if (block.type === 'divider') lines.push(`${indent}---`);
    else if (block.type === 'code')
      lines.push(
        `${indent}\`\`\`${block.payload.language === 'plain text' ? '' : String(block.payload.language ?? '')}`,
        plainText(block.payload.rich_text),
        `${indent}\`\`\``,
      );
    else if (block.type === 'child_page') lines.push(`${indent}<page>${String(block.payload.title ?? '')}</page>`);
    else if (block.type === 'to_do') lines.push(`${indent}- [${block.payload.checked === true ? 'x' : ' '}] ${markdownText(block.payload.rich_text)}`);
    else if (block.type === 'child_database') lines.push(`${indent}<database>${String(block.payload.title ?? '')}</database>`);
    else lines.push(`${indent}${MARKERS[block.type] ?? ''}${markdownText(block.payload.rich_text)}`);
    const children = block.children as { type: string; payload: Record<string, unknown>; children: unknown[] }[];
    if (children.length > 0) lines.push(fakeBlocksToMarkdown(children, depth + 1));
  }
  return lines.join('\n');
}
