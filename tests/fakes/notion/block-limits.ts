/** Notion's request limits for block children, as the fake enforces them (400 validation_error). */

/** The documented limits. */
export const NOTION_LIMITS = {
  childrenPerArray: 100,
  richTextContentChars: 2000,
  richTextItems: 100,
  nestingLevels: 2,
  blocksPerRequest: 1000,
  payloadBytes: 500 * 1024,
  linkUrlChars: 2000,
} as const;

/** The code languages Notion accepts: a code block naming another is refused (`ts`, `py` and `text` too). */
export const NOTION_CODE_LANGUAGES: ReadonlySet<string> = new Set(
  (
    'abap|abc|agda|arduino|ascii art|assembly|bash|basic|bnf|c|c#|c++|clojure|coffeescript|coq|css|dart|dhall|diff|docker|ebnf|elixir|elm|' +
    'erlang|f#|flow|fortran|gherkin|glsl|go|graphql|groovy|haskell|hcl|html|idris|java|javascript|json|julia|kotlin|latex|less|lisp|' +
    'livescript|llvm ir|lua|makefile|markdown|markup|matlab|mathematica|mermaid|nix|notion formula|objective-c|ocaml|pascal|perl|php|' +
    'plain text|powershell|prolog|protobuf|purescript|python|r|racket|reason|ruby|rust|sass|scala|scheme|scss|shell|smalltalk|' +
    'solidity|sql|swift|toml|typescript|vb.net|verilog|vhdl|visual basic|webassembly|xml|yaml|java/c/c++/c#'
  ).split('|'),
);

/** A limit a request broke, with Notion's style of message. */
export class LimitViolation extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LimitViolation';
  }
}

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function checkRichText(items: unknown, path: string): void {
  if (!Array.isArray(items)) return;
  if (items.length > NOTION_LIMITS.richTextItems)
    throw new LimitViolation(`body failed validation: ${path}.length should be ≤ \`${NOTION_LIMITS.richTextItems}\`, instead was \`${items.length}\`.`);
  items.forEach((item, index) => {
    const content = isObject(item) && isObject(item.text) ? item.text.content : undefined;
    const url = isObject(item) && isObject(item.text) && isObject(item.text.link) ? item.text.link.url : undefined;
    if (typeof url === 'string' && url.length > NOTION_LIMITS.linkUrlChars)
      throw new LimitViolation(
        `body failed validation: ${path}[${index}].text.link.url.length should be ≤ \`${NOTION_LIMITS.linkUrlChars}\`, instead was \`${url.length}\`.`,
      );
    if (typeof content === 'string' && content.length > NOTION_LIMITS.richTextContentChars) {
      throw new LimitViolation(
        `body failed validation: ${path}[${index}].text.content.length should be ≤ \`${NOTION_LIMITS.richTextContentChars}\`, instead was \`${content.length}\`.`,
      );
    }
  });
}

/** Validates a `children` array (of a page create or an append); returns how many blocks it holds. */
export function checkChildren(children: unknown, path = 'body.children', level = 1): number {
  if (!Array.isArray(children)) throw new LimitViolation(`body failed validation: ${path} should be an array.`);
  if (children.length > NOTION_LIMITS.childrenPerArray)
    throw new LimitViolation(`body failed validation: ${path}.length should be ≤ \`${NOTION_LIMITS.childrenPerArray}\`, instead was \`${children.length}\`.`);
  let count = 0;
  children.forEach((block, index) => {
    if (!isObject(block)) throw new LimitViolation(`body failed validation: ${path}[${index}] should be an object.`);
    const type = typeof block.type === 'string' ? block.type : Object.keys(block).find((key) => key !== 'object' && isObject(block[key]));
    if (!type || !isObject(block[type])) throw new LimitViolation(`body failed validation: ${path}[${index}] should define a block type.`);
    const payload = block[type] as JsonObject;
    checkRichText(payload.rich_text, `${path}[${index}].${type}.rich_text`);
    if (type === 'code' && !NOTION_CODE_LANGUAGES.has(String(payload.language)))
      throw new LimitViolation(
        `body failed validation: ${path}[${index}].code.language should be one of Notion's code languages, instead was \`${JSON.stringify(payload.language)}\`.`,
      );
    count += 1;
    if (payload.children !== undefined) {
      if (level >= NOTION_LIMITS.nestingLevels)
        throw new LimitViolation(
          `body failed validation: ${path}[${index}].${type}.children should be not present (at most ${NOTION_LIMITS.nestingLevels} levels of nesting per request).`,
        );
      count += checkChildren(payload.children, `${path}[${index}].${type}.children`, level + 1);
    }
  });
  if (level === 1 && count > NOTION_LIMITS.blocksPerRequest)
    throw new LimitViolation(`body failed validation: a request may hold at most ${NOTION_LIMITS.blocksPerRequest} blocks, instead was ${count}.`);
  return count;
}

/** Validates title/rich text property values of a page create or update. */
export function checkProperties(properties: unknown): void {
  if (!isObject(properties)) return;
  for (const [name, value] of Object.entries(properties)) {
    if (!isObject(value)) continue;
    checkRichText(value.title, `body.properties.${name}.title`);
    checkRichText(value.rich_text, `body.properties.${name}.rich_text`);
  }
}
