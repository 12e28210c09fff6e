/**
 * A topic that weighs options ("decide between Postgres and DynamoDB for billing", "React vs Vue for the dashboard",
 * "should we use Slack or Discord?"): the demo discusses those options, as a room asked to choose would, instead of
 * whatever phrase the topic's wording happens to put first.
 */

/** The options a topic weighs, and what they are for ("billing"), when it weighs two or more. */
export interface Comparison {
  options: string[];
  purpose: string | null;
}

/** An option, at most this many words: a longer run is a sentence, not a name of an option. */
const MAX_OPTION_WORDS = 4;

// "between X and Y", "X vs Y", "use X or Y": each ends at "for …", punctuation or the end.
const PURPOSE = String.raw`(?:\s+(?:for|in|on)\s+(?:our\s+|the\s+|a\s+)?([^?.!,;]+?))?\s*(?:[?.!,;]|$)`;
const PATTERNS = [
  new RegExp(String.raw`\bbetween\s+([^?.!,;]+?)\s+and\s+([^?.!,;]+?)${PURPOSE}`, 'i'),
  new RegExp(String.raw`([\p{L}\p{N}.+#-]+(?:\s+[\p{L}\p{N}.+#-]+){0,2})\s+(?:vs\.?|versus)\s+([^?.!,;]+?)${PURPOSE}`, 'iu'),
  new RegExp(String.raw`\b(?:use|choose|pick|adopt|hire|buy|build|go with|move to|switch to|stay on)\s+([^?.!,;]+?)\s+or\s+([^?.!,;]+?)${PURPOSE}`, 'i'),
  // "Which is better: Kafka or RabbitMQ for events?"
  new RegExp(String.raw`:\s*([^?.!,;:]+?)\s+or\s+([^?.!,;]+?)${PURPOSE}`, 'i'),
];

const ARTICLE = /^(?:a|an|the|our|we|to)\s+/i;

function optionOf(words: string | undefined): string | null {
  const option = (words ?? '').trim().replace(ARTICLE, '').trim();
  if (option === '' || option.split(/\s+/).length > MAX_OPTION_WORDS) return null;
  return option;
}

/** The options `topic` weighs, or null when it weighs none (see `Comparison`). */
export function comparisonOf(topic: string): Comparison | null {
  for (const pattern of PATTERNS) {
    const match = pattern.exec(topic);
    if (!match) continue;
    const options = [optionOf(match[1]), optionOf(match[2])];
    if (options[0] && options[1] && options[0].toLowerCase() !== options[1].toLowerCase()) {
      return { options: [options[0], options[1]], purpose: optionOf(match[3]) };
    }
  }
  return null;
}
