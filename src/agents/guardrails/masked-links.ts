/**
 * Masked links: a markdown link whose visible text is itself a URL or a domain, but another one than where the link
 * goes (`[https://a.example](https://b.example)`). Discord renders such links, and a reader trusts the text they see.
 */

const MARKDOWN_LINK = /\[([^\]\n]{1,300})\]\(\s*<?([^\s()<>]+)>?(?:\s+"[^"\n]*")?\s*\)/g;
const URL_LIKE = /^(?:[a-z][a-z0-9+.-]*:\/\/)?(?:[a-z0-9-]+\.)+[a-z]{2,}(?::\d+)?(?:[/?#]\S*)?$/i;

interface ParsedLink {
  host: string;
  /** Host, path and query, for a label that names more than a host. */
  full: string;
  hasPath: boolean;
}

function parse(raw: string): ParsedLink | null {
  const trimmed = raw.trim().replace(/^[<`*_]+|[>`*_]+$/g, '');
  if (!URL_LIKE.test(trimmed)) return null;
  try {
    const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`);
    const host = url.hostname.toLowerCase().replace(/^www\./, '');
    const path = `${url.pathname.replace(/\/+$/, '')}${url.search}${url.hash}`;
    return { host, full: `${host}${path}`, hasPath: path !== '' };
  } catch {
    return null;
  }
}

/** The markdown links of `text` whose visible text names another address than their target. */
export function findMaskedLinks(text: string): { label: string; target: string }[] {
  const masked: { label: string; target: string }[] = [];
  for (const match of text.matchAll(MARKDOWN_LINK)) {
    const label = match[1] ?? '';
    const target = match[2] ?? '';
    const shown = parse(label);
    if (!shown) continue;
    const real = parse(target);
    const differs = !real || (shown.hasPath ? shown.full !== real.full : shown.host !== real.host);
    if (differs) masked.push({ label, target });
  }
  return masked;
}
