/**
 * Markdown <-> Notion blocks for the blocks path (when the markdown endpoints are refused), respecting every
 * request limit: 2000 characters per rich-text item, 100 items per rich text, 100 children per array, at most
 * one nested level under a top-level block (two levels per request), 1000 blocks and well under 500 KB per request,
 * links of at most 2000 characters and only the code languages Notion knows.
 */
import { clipText } from '../core/text-clip.ts';

/** The request limits the converter and the chunker respect. */
export const BLOCK_LIMITS = { textChars: 2000, richTextItems: 100, children: 100, blocksPerRequest: 1000, requestBytes: 400 * 1024 } as const;

/** A rich text request item: plain text, or a link's text with its target. */
export interface TextItem {
  type: 'text';
  text: { content: string; link?: { url: string } };
}

/** A block request this converter produces. */
export interface BlockRequest {
  object: 'block';
  type: string;
  [payload: string]: unknown;
}

type TextBlockType = 'paragraph' | 'heading_1' | 'heading_2' | 'heading_3' | 'bulleted_list_item' | 'numbered_list_item' | 'quote' | 'to_do';

/** Cuts text into rich-text items of at most 2000 characters (never splitting a surrogate pair). */
export function toRichText(text: string): TextItem[] {
  const items: TextItem[] = [];
  let rest = text;
  while (rest.length > BLOCK_LIMITS.textChars) {
    let cut = BLOCK_LIMITS.textChars;
    const code = rest.charCodeAt(cut - 1);
    if (code >= 0xd800 && code <= 0xdbff) cut -= 1;
    items.push({ type: 'text', text: { content: rest.slice(0, cut) } });
    rest = rest.slice(cut);
  }
  if (rest.length > 0 || items.length === 0) items.push({ type: 'text', text: { content: rest } });
  return items;
}

/** Markdown links to web pages (`[text](https://…)`), which become Notion links; other brackets stay text. */
// An address of at most 2000 characters: Notion refuses a longer link, which stays text.
const INLINE_LINK = /\[([^\]\n]{1,500})\]\(<?(https?:\/\/[^\s()<>]{1,1992})>?\)/g;

/** Rich text for a line of markdown: its web links become linked text items, the rest plain items. */
export function toLinkedRichText(text: string): TextItem[] {
  const items: TextItem[] = [];
  let last = 0;
  for (const match of text.matchAll(INLINE_LINK)) {
    const start = match.index ?? 0;
    if (start > last) items.push(...toRichText(text.slice(last, start)));
    items.push({ type: 'text', text: { content: clipText(match[1] ?? '', BLOCK_LIMITS.textChars), link: { url: match[2] ?? '' } } });
    last = start + match[0].length;
  }
  if (last < text.length || items.length === 0) items.push(...toRichText(text.slice(last)));
  return items;
}

function bytesOf(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value));
}

/**
 * One or more blocks for a text: a rich text never exceeds 100 items, nor half a request's bytes (100 items of CJK text or
 * of characters JSON escapes are 600 KB or more), so very long text becomes several blocks.
 */
function textBlocks(type: TextBlockType | 'code', text: string, extra: Record<string, unknown> = {}): BlockRequest[] {
  const items = type === 'code' ? toRichText(text) : toLinkedRichText(text);
  const groups: TextItem[][] = [[]];
  let bytes = 0;
  for (const item of items) {
    const size = bytesOf(item);
    const group = groups.at(-1) as TextItem[];
    if (group.length === BLOCK_LIMITS.richTextItems || (group.length > 0 && bytes + size > BLOCK_LIMITS.requestBytes / 2)) {
      groups.push([item]);
      bytes = size;
    } else {
      group.push(item);
      bytes += size;
    }
  }
  return groups.map((group) => ({ object: 'block', type, [type]: { rich_text: group, ...extra } }));
}

/** The code languages Notion knows: it refuses a request naming any other (`ts`, `py`, `text`). */
const CODE_LANGUAGES: ReadonlySet<string> = new Set(
  (
    'abap|abc|agda|arduino|ascii art|assembly|bash|basic|bnf|c|c#|c++|clojure|coffeescript|coq|css|dart|dhall|diff|' +
    'docker|ebnf|elixir|elm|erlang|f#|flow|fortran|gherkin|glsl|go|graphql|groovy|haskell|hcl|html|idris|java|' +
    'javascript|json|julia|kotlin|latex|less|lisp|livescript|llvm ir|lua|makefile|markdown|markup|matlab|' +
    'mathematica|mermaid|nix|notion formula|objective-c|ocaml|pascal|perl|php|plain text|powershell|prolog|' +
    'protobuf|purescript|python|r|racket|reason|ruby|rust|sass|scala|scheme|scss|shell|smalltalk|solidity|sql|' +
    'swift|toml|typescript|vb.net|verilog|vhdl|visual basic|webassembly|xml|yaml|java/c/c++/c#'
  ).split('|'),
);

/** The tags people and models write for a language Notion names otherwise. */
const LANGUAGE_ALIASES: Readonly<Record<string, string>> = {
  ts: 'typescript',
  tsx: 'typescript',
  js: 'javascript',
  jsx: 'javascript',
  py: 'python',
  sh: 'shell',
  zsh: 'shell',
  yml: 'yaml',
  md: 'markdown',
  rb: 'ruby',
  rs: 'rust',
  kt: 'kotlin',
  cs: 'c#',
  cpp: 'c++',
  text: 'plain text',
  txt: 'plain text',
  dockerfile: 'docker',
};

/** A fence's language as Notion names it; one it does not know is plain text. */
function codeLanguage(tag: string): string {
  const language = LANGUAGE_ALIASES[tag.toLowerCase()] ?? tag.toLowerCase();
  return CODE_LANGUAGES.has(language) ? language : 'plain text';
}

/** A task list item (`- [ ] step`, `- [x] done`): a Notion to-do, whose box people tick. */
const TO_DO = /^[-*+] \[([ xX])\] (.*)$/;

const LINE_TYPES: [RegExp, TextBlockType][] = [
  [/^### (.*)$/, 'heading_3'],
  [/^## (.*)$/, 'heading_2'],
  [/^# (.*)$/, 'heading_1'],
  [/^[-*+] (.*)$/, 'bulleted_list_item'],
  [/^\d+[.)] (.*)$/, 'numbered_list_item'],
  [/^> ?(.*)$/, 'quote'],
];

function lineBlock(line: string): { blocks: BlockRequest[]; nested: boolean; listItem: boolean } {
  const indent = /^\s*/.exec(line)?.[0].length ?? 0;
  const trimmed = line.trimStart();
  const task = TO_DO.exec(trimmed);
  if (task) return { blocks: textBlocks('to_do', task[2] ?? '', { checked: task[1] !== ' ' }), nested: indent >= 2, listItem: true };
  for (const [pattern, type] of LINE_TYPES) {
    const match = pattern.exec(trimmed);
    if (match) return { blocks: textBlocks(type, match[1] ?? ''), nested: indent >= 2, listItem: type.endsWith('list_item') };
  }
  return { blocks: textBlocks('paragraph', trimmed), nested: false, listItem: false };
}

/** Converts markdown to top-level blocks; indented list items become children of the list item above (one level). */
export function markdownToBlocks(markdown: string): BlockRequest[] {
  const blocks: BlockRequest[] = [];
  const lines = markdown.replace(/\r\n/g, '\n').split('\n');
  let lastListItem: BlockRequest | null = null;
  // The bytes of the list item above with its children so far: it goes in one request, so it must stay within one.
  let lastListItemBytes = 0;
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index] ?? '';
    // Trailing spaces cut first: `\s*` on both sides of an optional language tried every split of a run of spaces (quadratic).
    const fence = /^\s*```\s*([\w+-]*)$/.exec(line.trimEnd());
    if (fence) {
      const body: string[] = [];
      index += 1;
      while (index < lines.length && !/^\s*```\s*$/.test(lines[index] ?? '')) {
        body.push(lines[index] ?? '');
        index += 1;
      }
      blocks.push(...textBlocks('code', body.join('\n'), { language: codeLanguage(fence[1] ?? '') }));
      lastListItem = null;
      continue;
    }
    if (line.trim() === '') continue;
    if (/^\s*(---+|\*\*\*+)\s*$/.test(line)) {
      blocks.push({ object: 'block', type: 'divider', divider: {} });
      lastListItem = null;
      continue;
    }
    const converted = lineBlock(line);
    if (converted.nested && converted.listItem && lastListItem) {
      const payload = lastListItem[lastListItem.type] as { children?: BlockRequest[] };
      const children = (payload.children ??= []);
      const bytes = bytesOf(converted.blocks);
      if (children.length + converted.blocks.length <= BLOCK_LIMITS.children && lastListItemBytes + bytes <= BLOCK_LIMITS.requestBytes) {
        children.push(...converted.blocks);
        lastListItemBytes += bytes;
        continue;
      }
    }
    blocks.push(...converted.blocks);
    lastListItem = converted.listItem ? (converted.blocks.at(-1) ?? null) : null;
    lastListItemBytes = lastListItem ? bytesOf(lastListItem) + ',"children":[]'.length : 0;
  }
  return blocks;
}

function blockCount(block: BlockRequest): number {
  const payload = block[block.type] as { children?: BlockRequest[] } | undefined;
  return 1 + (payload?.children?.length ?? 0);
}

/** Splits blocks into requests of at most 100 top-level blocks, 1000 blocks in all, and ~400 KB. */
export function chunkBlocks(blocks: BlockRequest[]): BlockRequest[][] {
  const chunks: BlockRequest[][] = [];
  let current: BlockRequest[] = [];
  let count = 0;
  let bytes = 0;
  for (const block of blocks) {
    const size = Buffer.byteLength(JSON.stringify(block));
    const blocksInIt = blockCount(block);
    if (
      current.length > 0 &&
      (current.length >= BLOCK_LIMITS.children || count + blocksInIt > BLOCK_LIMITS.blocksPerRequest || bytes + size > BLOCK_LIMITS.requestBytes)
    ) {
      chunks.push(current);
      current = [];
      count = 0;
      bytes = 0;
    }
    current.push(block);
    count += blocksInIt;
    bytes += size;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

/** A block as read back from Notion (the fields the converter needs). */
export interface ReadBlock {
  id: string;
  type: string;
  has_children?: boolean;
  [payload: string]: unknown;
}

const MARKERS: Record<string, string> = {
  heading_1: '# ',
  heading_2: '## ',
  heading_3: '### ',
  bulleted_list_item: '- ',
  numbered_list_item: '1. ',
  quote: '> ',
  paragraph: '',
  toggle: '- ',
  callout: '> ',
};

interface ReadTextItem {
  plain_text?: string;
  href?: string | null;
  text?: { content?: string; link?: { url?: string } | null };
}

/** The markdown of read-back rich text: linked items become `[text](url)` again. */
function plain(richText: unknown): string {
  if (!Array.isArray(richText)) return '';
  return richText
    .map((item: ReadTextItem) => {
      const content = item.plain_text ?? item.text?.content ?? '';
      const url = item.href ?? item.text?.link?.url;
      return url ? `[${content}](${url})` : content;
    })
    .join('');
}

/** Converts blocks read back (with their children already attached as `children`) to markdown. */
export function blocksToMarkdown(blocks: (ReadBlock & { children?: ReadBlock[] })[], depth = 0): string {
  const indent = '  '.repeat(depth);
  const lines: string[] = [];
  for (const block of blocks) {
    const payload = (block[block.type] ?? {}) as { rich_text?: unknown; language?: string; title?: string; checked?: boolean };
    if (block.type === 'divider') lines.push(`${indent}---`);
    else if (block.type === 'code')
      lines.push(
        `${indent}\`\`\`${payload.language && payload.language !== 'plain text' ? payload.language : ''}`,
        plain(payload.rich_text),
        `${indent}\`\`\``,
      );
    else if (block.type === 'child_page') lines.push(`${indent}[${payload.title ?? ''}]`);
    else if (block.type === 'to_do') lines.push(`${indent}- [${payload.checked ? 'x' : ' '}] ${plain(payload.rich_text)}`);
    else lines.push(`${indent}${MARKERS[block.type] ?? ''}${plain(payload.rich_text)}`);
    if (block.children && block.children.length > 0) lines.push(blocksToMarkdown(block.children, depth + 1));
  }
  return lines.join('\n');
}
