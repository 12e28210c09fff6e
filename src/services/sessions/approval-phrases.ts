/**
 * What people write to approve a plan without the command: "looks good", "lgtm, go ahead", "yes please 👍". Taken
 * as a comment, such a message brought a revision nobody asked for, and the person still had to find `!approve`.
 * Only a message made of such phrases alone approves: "ok, but add a skeptic" is a comment.
 */

const PHRASES = new Set(
  (
    'ok|okay|k|yes|yep|yeah|yup|sure|lgtm|approve|approved|accept|accepted|agreed|agree|perfect|great|' +
    'good|fine|go|start|proceed|confirmed|confirm|sgtm|looks good|looks great|looks fine|looks perfect|' +
    "looks good to me|sounds good|sounds great|sounds good to me|go ahead|go for it|let's go|lets go|" +
    "let's start|lets start|let's do it|lets do it|do it|ship it|start it|start the discussion|" +
    'approve it|approve the plan|i approve|plan approved|good to go|all good|that works|works for me|' +
    'ok go|yes go ahead|ok go ahead|looks good go ahead|great plan|good plan|nice|love it'
  ).split('|'),
);

/** Courtesies and marks that carry no decision of their own. */
const COURTESY = /\b(?:please|pls|thanks|thank you|thx)\b|[\u{1F44D}\u{1F44C}\u{2705}\u{1F680}\u{1F64F}\u{1F60A}\u{1F642}\u{2764}]|\u{FE0F}/gu;

/** Whether a message during a plan's approval says nothing but "approve" in people's words. */
export function isApprovalPhrase(text: string): boolean {
  const hasApprovalMark = /[\u{1F44D}\u{2705}\u{1F44C}]/u.test(text);
  const words = text
    .toLowerCase()
    .replace(/[’]/g, "'")
    .replace(COURTESY, ' ')
    // "and" is looked for only where a run of spaces starts (or after the newlines a separator took): from each space of a long run it scanned the run again.
    .split(/[,.;:!?\n]+|(?<=(?:^|\S)\n*)\s+(?:and|then|so)\s+/)
    .map((part) => part.replace(/\s+/g, ' ').trim())
    .filter((part) => part !== '');
  if (words.length === 0) return hasApprovalMark;
  return words.length <= 4 && words.every((part) => PHRASES.has(part));
}
