/**
 * The text of a PDF people share (a spec, a report), page by page until there is no more room. pdf.js (through
 * `unpdf`, its build for servers) is imported when the first PDF arrives, so a bot nobody sends a PDF never loads it.
 */

/** What was read of a PDF. */
export interface PdfText {
  text: string;
  pageCount: number;
  /** Pages read (all of them, unless the room ran out first). */
  pagesRead: number;
}

/** The most pages read of one file: past that, an excerpt says little and the reading costs the bot's time. */
const MAX_PAGES = 50;

/** Reads a PDF's text layer, at most `maxChars` of it; empty text for a scanned PDF. Throws on a broken or locked file. */
export async function readPdfText(bytes: Uint8Array, maxChars: number): Promise<PdfText> {
  const { getDocumentProxy } = await import('unpdf');
  // verbosity 0: pdf.js reports what it repairs on the console otherwise.
  const document = await getDocumentProxy(bytes, { verbosity: 0 });
  try {
    const pages: string[] = [];
    let length = 0;
    const last = Math.min(document.numPages, MAX_PAGES);
    for (let number = 1; number <= last && length < maxChars; number += 1) {
      const content = await (await document.getPage(number)).getTextContent();
      const text = content.items
        .map((item) => ('str' in item ? `${item.str}${item.hasEOL ? '\n' : ''}` : ''))
        .join('')
        .replace(/[ \t]+\n/g, '\n')
        .trim();
      pages.push(text);
      length += text.length + 2;
    }
    const text = pages.filter((page) => page !== '').join('\n\n');
    return { text, pageCount: document.numPages, pagesRead: pages.length };
  } finally {
    await document.loadingTask.destroy();
  }
}
